"""Ratings that cannot be farmed (issue 37), through a real server: one account in both seats
of its own rated room (two sessions) is refused, and repeated results between the same two
accounts stop moving their ratings after REPEATS_RATED in a day."""

from __future__ import annotations

from typing import Any

import pytest

from server.history.summary import REPEATS_RATED
from tests.accounts.account_client import (
    browsers,
    each_side_strikes,
    resign_match,
    seat_pair,
    until,
)

pytestmark = pytest.mark.asyncio


async def test_one_account_cannot_sit_twice_at_a_rated_table(game_server):
    srv = game_server()
    (h,) = await browsers(srv.url, "Tiit")
    a, b = await h.player(srv.ws_url), await h.player(srv.ws_url)  # two sessions, one account
    assert a.welcome["session"] != b.welcome["session"]
    await a.send("create", mode="singles", sets=1, clock=60, private=False, rated=True)
    room = await a.expect("room")
    await b.send("join", room=room["id"])
    refused = await b.expect("error")
    assert refused["code"] == "self_play", refused
    # nothing changed: the room still has its one player
    await b.send("watch", room=room["id"])
    seen = await b.expect("room")
    assert seen["seats"][0]["name"] == "Tiit" and seen["seats"][1] is None
    await h.close()


async def test_repeated_results_between_the_same_accounts_stop_moving_ratings(game_server):
    srv = game_server()
    ha, hb = await browsers(srv.url, "Uku", "Vello")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await seat_pair(srv.ws_url, a, b, rated=True)
    played = REPEATS_RATED + 2
    mids = []
    for i in range(played):  # Vello resigns every one: a farm of Uku's rating
        await each_side_strikes(a, b)  # a match one side never played rates nobody anyway
        mids.append(await resign_match(b, a))
        if i < played - 1:
            for c in (a, b):
                await c.send("rematch")
            for c in (a, b):
                match = c.current_room["match"]
                while match["id"] == mids[-1] or c.current_room["status"] != "playing":
                    await c.expect("room")
                    match = c.current_room["match"]

    async def archived() -> dict[str, Any] | None:
        _, page = await ha.get("/api/players/uku/matches")
        return page if page["total"] == played else None

    await until(archived, timeout=60.0, what="every match archived")
    _, uku = await ha.get("/api/players/uku")
    _, vello = await hb.get("/api/players/vello")
    assert [h["match"] for h in uku["history"]["singles"]] == mids[:REPEATS_RATED]
    assert uku["ratings"]["singles"]["matches"] == REPEATS_RATED
    assert uku["ratings"]["singles"]["rating"] == uku["history"]["singles"][-1]["rating"]
    assert vello["ratings"]["singles"]["matches"] == REPEATS_RATED
    assert uku["figures"]["singles"]["matches"] == played  # counted, only not rated
    for h in (ha, hb):
        await h.close()
