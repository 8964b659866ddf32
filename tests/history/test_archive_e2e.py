"""The match history (server/history, server/history/store.py): every finished or abandoned
match archived at its end into PostgreSQL, with each player's index newest first, its live keys
gone from Redis, and the profile's pages over it."""

from __future__ import annotations

import json
import os
import signal
from typing import Any
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
import redis

from tests.accounts.account_client import (
    Http,
    browsers,
    db,
    each_side_strikes,
    resign_match,
    seat_pair,
    until,
    wait_until,
)
from tests.pg import rows

# a server of its own for each test: the archive's lists are the server's; a kill
pytestmark = [pytest.mark.asyncio, pytest.mark.fresh_server]


async def test_a_finished_match_is_archived_with_each_players_index(game_server):
    srv = game_server()
    ha, hb = await browsers(srv.url, "Aado", "Berit")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    guest = await Http(srv.url).player(srv.ws_url, name="Guest Gustav")
    await seat_pair(srv.ws_url, a, b)
    mid = await resign_match(a, b)
    r = db(srv.redis_url)
    url = str(srv.options["database_url"])

    async def uid(key: str) -> str:
        (row,) = await rows(url, "SELECT uid FROM accounts WHERE name_key = $1", key)
        return str(row["uid"])

    async def archived(m: str) -> bool:
        return bool(await rows(url, "SELECT 1 FROM matches WHERE mid = $1", m))

    uid_a, uid_b = await uid("aado"), await uid("berit")
    await until(lambda: archived(mid), what="the archive")
    # once archived, the match's live keys are gone from Redis: it is served from PostgreSQL
    wait_until(lambda: r.exists("nv:match:{" + mid + "}", "nv:log:{" + mid + "}") == 0,
               what="the live keys dropped")  # fmt: skip
    for u in (uid_a, uid_b):
        listed = await rows(url, "SELECT mid, expires FROM player_matches WHERE pid = $1", u)
        assert [(x["mid"], x["expires"]) for x in listed] == [(mid, None)]  # an account's: kept
        stats = {x["counter"]: x["value"] for x in await rows(
            url, "SELECT counter, value FROM stats WHERE uid = $1", u)}  # fmt: skip
        assert stats["singles:matches"] == 1
    stat = "SELECT value FROM stats WHERE uid = $1 AND counter = $2"
    assert (await rows(url, stat, uid_b, "singles:win"))[0]["value"] == 1
    assert (await rows(url, stat, uid_a, "singles:loss"))[0]["value"] == 1
    # an unrated match moves no rating
    assert await rows(url, "SELECT * FROM ratings") == []
    assert await rows(url, "SELECT * FROM rating_history") == []

    # abandoned: a guest walks out mid-match and does not come back within the grace time
    await a.send("leave")
    await b.send("leave")
    for c in (a, b):
        await c.expect("left")
    await seat_pair(srv.ws_url, guest, a)
    gmid = guest.current_room["match"]["id"]
    await guest.close()
    await a.expect("result", timeout=30)  # 004 § 22 (3): the absent side loses
    await until(lambda: archived(gmid), what="the abandoned one")
    sid = guest.welcome["session"]
    query = "SELECT mid, ended, expires FROM player_matches WHERE pid = $1"
    (kept,) = await rows(url, query, sid)
    assert kept["mid"] == gmid
    assert 0 < kept["expires"] - kept["ended"] <= 7 * 86400  # a guest's list lapses
    _, page = await ha.get("/api/players/aado/matches")
    assert [m["id"] for m in page["matches"]] == [gmid, mid]  # newest first
    assert [m["result"] for m in page["matches"]] == ["win", "loss"]
    assert page["matches"][0]["reason"] == "absent"
    _, health = await ha.get("/healthz")
    assert health["archived"] == 2
    for h in (ha, hb):
        await h.close()


async def test_profile_pages_newest_first(game_server):
    # 22 rematches from one address: each is charged as a room created (issue 37)
    srv = game_server(create_burst=100, address_create_burst=100)
    ha, hb = await browsers(srv.url, "Pille", "Rein")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await seat_pair(srv.ws_url, a, b)
    mids = []
    for i in range(23):
        loser, winner = (a, b) if i % 2 else (b, a)
        mids.append(await resign_match(loser, winner))
        if i < 22:  # a rematch: a new match in the same room
            first = mids[-1]
            for c in (a, b):
                await c.send("rematch")
            for c in (a, b):  # both see the new match before either resigns it
                while (
                    c.current_room["match"]["id"] == first or c.current_room["status"] != "playing"
                ):
                    await c.expect("room")

    async def all_archived() -> bool:
        _, page = await ha.get("/api/players/pille/matches")
        return bool(page["total"] == 23)

    await until(all_archived, timeout=30, what="23 archived matches")
    _, first = await ha.get("/api/players/pille/matches")
    _, second = await ha.get("/api/players/PILLE/matches?page=1")
    assert first["per_page"] == 20 and len(first["matches"]) == 20 and len(second["matches"]) == 3
    listed = [m["id"] for m in first["matches"] + second["matches"]]
    assert listed == mids[::-1]
    ends = [m["ended"] for m in first["matches"] + second["matches"]]
    assert ends == sorted(ends, reverse=True)
    assert {m["result"] for m in first["matches"]} == {"win", "loss"}
    # by key: the first page's `next` leads to the same second page, which has no `next`
    assert second["next"] is None and first["next"]
    _, keyed = await ha.get(f"/api/players/pille/matches?before={first['next']}")
    assert [m["id"] for m in keyed["matches"]] == listed[20:] and keyed["next"] is None
    assert "total" not in keyed  # counted on the first page only
    for bad in ("x", "1.5", "nan_m1", "inf_m1", "-1_m1", "12_"):
        assert (await ha.get(f"/api/players/pille/matches?before={bad}"))[0] == 400, bad
    row = first["matches"][0]
    assert [p["name"] for p in row["players"] if p["team"] != row["team"]] == ["Rein"]
    _, profile = await ha.get("/api/players/pille")
    f = profile["figures"]["singles"]
    assert (f["matches"], f["win"] + f["loss"], f["draw"]) == (23, 23, 0)
    assert (await ha.get("/api/players/pille/matches?page=-1"))[0] == 400
    assert (await ha.get("/api/players/pille/matches?page=x"))[0] == 400
    assert (await ha.get("/api/players/nobody-here"))[0] == 404
    for h in (ha, hb):
        await h.close()


async def test_a_private_match_counts_but_is_not_listed(game_server):
    srv = game_server()
    ha, hb = await browsers(srv.url, "Salme", "Tiit")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await a.send("create", mode="singles", sets=1, clock=60, private=True)
    room = await a.expect("room")
    await b.send("join", invite=room["invite"])
    await b.expect("room", you={"role": "player", "seat": 1})
    for c in (a, b):
        await c.send("ready", ready=True)
    while a.current_room["match"] is None:
        await a.expect("room")
    await resign_match(a, b)

    async def counted() -> dict[str, Any] | None:
        _, p = await ha.get("/api/players/salme")
        return p if p["figures"] else None

    profile = await until(counted, what="the private match in the figures")
    assert profile["figures"]["singles"]["loss"] == 1
    _, page = await ha.get("/api/players/salme/matches")
    assert (page["total"], page["matches"]) == (0, [])
    # issue 36, 5: its players (logged in) see it on their own profile, and its record and
    # replay without the invite; nobody else does
    status, own = await ha.get("/api/players/salme/matches?private=1")
    assert status == 200 and own["total"] == 1
    (row,) = own["matches"]
    assert row["result"] == "loss" and [p["name"] for p in row["players"]] == ["Salme", "Tiit"]
    status, _ = await hb.get("/api/players/salme/matches?private=1")
    assert status == 403
    stranger = Http(srv.url)
    status, _ = await stranger.get("/api/players/salme/matches?private=1")
    assert status == 403

    # an archived record's rulings are recomputed for a reader who may read it
    async with stranger.session.get(srv.url + f"/api/matches/{row['id']}") as r:
        assert r.status == 404
    for h in (ha, hb):
        status, record = await h.get(f"/api/matches/{row['id']}")
        assert status == 200 and record["id"] == row["id"]
        assert any("ruling" in e for e in record["log"] if e["kind"] == "resign")
        status, _ = await h.get(f"/api/matches/{row['id']}/replay")
        assert status == 200
    for path in (f"/api/matches/{row['id']}", f"/api/matches/{row['id']}/replay"):
        async with stranger.session.get(srv.url + path) as r:
            assert r.status == 404, path
    for h in (ha, hb, stranger):
        await h.close()


@pytest.mark.slow  # PostgreSQL, the server and Redis stopped in turn: 14 s or more
async def test_a_finished_match_survives_postgres_away_and_sigkill_of_the_server_and_redis(
    game_server, reachable_dir
):
    # its own Redis (with the append-only file) and its own embedded PostgreSQL
    srv = game_server(embedded=True, database_url="", data_dir=reachable_dir)
    srv.data_dir = reachable_dir
    r = redis.Redis(unix_socket_path=str(srv.data_dir / "redis.sock"))
    ha, hb = await browsers(srv.url, "Urmas", "Viivi")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await seat_pair(srv.ws_url, a, b, rated=True)
    # PostgreSQL goes away mid-match (fast shutdown): play goes on
    postmaster = srv.data_dir / "postgres" / "postmaster.pid"
    os.kill(int(postmaster.read_text().split()[0]), signal.SIGINT)
    wait_until(lambda: not postmaster.exists(), 20, "PostgreSQL stopped")
    # the pages that need it answer 503 with Retry-After meanwhile; nothing else changes
    try:
        urlopen(f"{srv.url}/api/players/viivi")
        raise AssertionError("a page answered without PostgreSQL")
    except HTTPError as e:
        assert e.code == 503 and e.headers["Retry-After"] == "5"
        assert json.loads(e.read())["error"] == "busy"
    await each_side_strikes(a, b)  # rated: both sides played
    mid = await resign_match(a, b)
    # ended, not archived: it waits in the finished stream, unacknowledged
    wait_until(lambda: r.xlen("nv:finished") == 1, what="the finished match queued")
    assert r.exists("nv:match:{" + mid + "}", "nv:log:{" + mid + "}") == 2
    # every write of it in the append-only file (the Redis killed below loses only what it has
    # not yet written to it; the kernel keeps what was written)
    wait_until(lambda: r.info("persistence")["aof_buffer_length"] == 0, what="the AOF written")
    srv.kill()
    redis_pid = int((srv.data_dir / "redis.pid").read_text())
    os.kill(redis_pid, signal.SIGKILL)
    wait_until(lambda: not alive(redis_pid), 10, "the killed Redis gone")
    srv.start()  # a new embedded Redis, from the append-only file; PostgreSQL started again
    r = redis.Redis(unix_socket_path=str(srv.data_dir / "redis.sock"))
    wait_until(lambda: r.exists("nv:match:{" + mid + "}") == 0, 40, "the archive")
    # acknowledged once archived: the stream empties (just after the live keys go)
    wait_until(lambda: r.xlen("nv:finished") == 0, 10, "the stream emptied")
    http = Http(srv.url)
    _, rated = await http.get("/api/players/viivi")
    assert rated["ratings"]["singles"]["rating"] > 1500
    _, page = await http.get("/api/players/urmas/matches")
    assert [(m["id"], m["result"]) for m in page["matches"]] == [(mid, "loss")]
    await http.close()
    # stopped here, while its folder is there: its embedded Redis saves and exits (without the
    # folder it would refuse to, and be left running)
    srv.stop()
    srv.stop_embedded_redis()


def alive(pid: int) -> bool:
    """Whether a process of that id is still there."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
