"""An account's matches: a deleted account's stay, under "deleted player"; a guest who
registers keeps the matches of that session (docs/accounts.md)."""

from __future__ import annotations

import json
from typing import Any
from urllib.request import urlopen

import pytest

from server.store.archive import unpack_match
from tests.accounts.account_client import (
    PASSWORD,
    Http,
    as_bytes,
    browsers,
    db,
    resign_match,
    seat_pair,
    until,
)
from tests.pg import rows

# a server of its own for each test: reads every account in its Redis database
pytestmark = [pytest.mark.asyncio, pytest.mark.fresh_server]


async def test_a_deleted_account_leaves_its_matches_under_deleted_player(game_server):
    srv = game_server()
    ha, hb = await browsers(srv.url, "Anneli", "Bruno")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await seat_pair(srv.ws_url, a, b)
    mid = await resign_match(a, b)

    async def listed() -> bool:
        _, page = await hb.get("/api/players/bruno/matches")
        return bool(page["total"] == 1)

    await until(listed, what="the match in Bruno's history")
    # the password again, or nothing happens
    got, body, _ = await ha.post("/api/account/delete", {"password": "not my password"})
    assert got == 401 and body["error"] == "bad_login"
    got, _, _ = await ha.post("/api/account/delete", {"password": PASSWORD})
    assert got == 200 and await ha.me() is None
    assert (await hb.get("/api/players/anneli"))[0] == 404
    _, page = await hb.get("/api/players/bruno/matches")
    (row,) = page["matches"]
    assert row["id"] == mid and row["result"] == "win"
    assert sorted(p["name"] for p in row["players"]) == ["Bruno", "deleted player"]
    with urlopen(f"{srv.url}/api/matches/{mid}") as r:
        record = json.load(r)
    names = {p["name"]: p.get("registered") for p in record["players"]}
    assert names == {"Bruno": True, "deleted player": False}
    # not only served so: the stored match and account no longer hold the name (the room,
    # still open, holds it until it closes)
    r = db(srv.redis_url)
    live = r.get("nv:match:{" + mid + "}")  # gone once archived
    assert live is None or b"Anneli" not in as_bytes(live)
    url = str(srv.options["database_url"])
    (stored,) = await rows(url, "SELECT header, inputs FROM matches WHERE mid = $1", mid)
    assert b"Anneli" not in stored["header"] + stored["inputs"]
    kept = unpack_match(b"\x80", stored["header"], stored["inputs"])  # as read back (deflated)
    assert "Anneli" not in repr(kept) and "Bruno" in repr(kept)
    (acct,) = await rows(url, "SELECT * FROM accounts WHERE deleted_at IS NOT NULL")
    assert acct["name"] is None and acct["hash"] is None and acct["name_key"] == "anneli"
    assert "Anneli" not in repr(dict(acct))
    # the name is not given to anybody else; the account cannot log in
    other = Http(srv.url)
    got, body, _ = await other.post(
        "/api/account/register", {"username": "anneli", "password": PASSWORD}
    )
    assert got == 409 and body["error"] == "name_taken"
    assert (await other.login("Anneli"))[0] == 401
    for h in (ha, hb, other):
        await h.close()


async def test_a_guest_who_registers_keeps_the_matches_of_that_session(game_server):
    srv = game_server()
    h, hb = Http(srv.url), Http(srv.url)
    guest = await h.player(srv.ws_url, name="Guest Mia")
    other = await hb.player(srv.ws_url, name="Guest Olev")
    await seat_pair(srv.ws_url, guest, other)
    mid = await resign_match(other, guest)
    await guest.close()
    await h.register("Mia")
    # the page comes back with the login cookie and its session's token
    back = await h.player(srv.ws_url, name="Guest Mia", token=guest.token)
    assert back.welcome["account"] == "Mia" and back.welcome["name"] == "Mia"
    assert back.welcome["session"] == guest.welcome["session"]

    async def kept() -> dict[str, Any] | None:
        _, page = await h.get("/api/players/mia/matches")
        return page if page["total"] == 1 else None

    page = await until(kept, what="the guest's match in Mia's history")
    (row,) = page["matches"]
    assert row["id"] == mid and row["result"] == "win" and row["team"] == guest.own_seat % 2
    assert [p["name"] for p in row["players"] if p["team"] != row["team"]] == ["Guest Olev"]
    for x in (h, hb):
        await x.close()
