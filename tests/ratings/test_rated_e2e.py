"""Rated and casual matches through a real server: a rated match moves both players' ratings
(their history and the leaderboard), a casual one does not; rated rooms and quick matches."""

from __future__ import annotations

from typing import Any

import pytest

from tests.accounts.account_client import (
    Http,
    browsers,
    each_side_strikes,
    resign_match,
    seat_pair,
    until,
)

# a server of its own for each test: the leaderboards and the quick-match queue are the server's
pytestmark = [pytest.mark.asyncio, pytest.mark.fresh_server]


async def test_a_rated_match_moves_both_ratings_and_an_unrated_one_does_not(game_server):
    srv = game_server()
    ha, hb = await browsers(srv.url, "Rita", "Sass")
    a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
    await seat_pair(srv.ws_url, a, b, rated=True)
    assert a.current_room["rated"] is True
    await each_side_strikes(a, b)
    mid = await resign_match(b, a)

    async def rated() -> dict[str, Any] | None:
        _, p = await ha.get("/api/players/rita")
        return p if p["ratings"]["singles"] else None

    rita = await until(rated, what="Rita's rating")
    _, sass = await hb.get("/api/players/sass")
    won, lost = rita["ratings"]["singles"], sass["ratings"]["singles"]
    assert won["rating"] > 1500 > lost["rating"] and won["matches"] == lost["matches"] == 1
    assert won["provisional"] and lost["provisional"]
    assert [(h["rating"], h["match"]) for h in rita["history"]["singles"]] == [(won["rating"], mid)]
    assert [h["rating"] for h in sass["history"]["singles"]] == [lost["rating"]]
    _, board = await ha.get("/api/leaderboard/singles")
    assert [(p["rank"], p["username"]) for p in board["players"]] == [(1, "Rita"), (2, "Sass")]
    _, doubles = await ha.get("/api/leaderboard/doubles")
    assert doubles["total"] == 0
    assert (await ha.get("/api/leaderboard/triples"))[0] == 404

    # the seats show the new rating from the next seating on
    for c in (a, b):
        await c.send("leave")
    await seat_pair(srv.ws_url, a, b)  # casual
    assert a.current_room["rated"] is False
    assert [s["rating"] for s in a.current_room["seats"]] == [won["rating"], lost["rating"]]
    casual = await resign_match(a, b)

    async def listed() -> dict[str, Any] | None:
        _, page = await ha.get("/api/players/rita/matches")
        return page if page["total"] == 2 else None

    page = await until(listed, what="the casual match in the history")
    assert [(m["id"], m["rated"]) for m in page["matches"]] == [(casual, False), (mid, True)]
    _, rita2 = await ha.get("/api/players/rita")
    _, sass2 = await hb.get("/api/players/sass")
    assert rita2["ratings"]["singles"] == won and sass2["ratings"]["singles"] == lost
    assert len(rita2["history"]["singles"]) == 1
    assert rita2["figures"]["singles"]["matches"] == 2
    for h in (ha, hb):
        await h.close()


async def test_rated_rooms_are_for_accounts_and_quick_matches_rated_when_all_are(game_server):
    srv = game_server()
    ha, hb = await browsers(srv.url, "Toomas", "Urve")
    guest = await Http(srv.url).player(srv.ws_url, name="Guest Vello")
    await guest.send("create", mode="singles", sets=1, clock=60, private=False, rated=True)
    err = await guest.expect("error")
    assert err["code"] == "account_needed"
    await guest.send(
        "create", mode="singles", sets=1, clock=60, private=False, rated=True, game="crokinole"
    )
    assert (await guest.expect("error"))["code"] == "account_needed"
    a = await ha.player(srv.ws_url)
    await a.send("create", mode="singles", sets=1, clock=60, private=False, rated=True)
    room = await a.expect("room")
    await guest.send("join", room=room["id"])
    assert (await guest.expect("error"))["code"] == "account_needed"
    await a.send("leave")
    # quick match: rated between two accounts, casual with a guest
    b = await hb.player(srv.ws_url)
    for c in (a, b):
        await c.send("quick", mode="singles")
    for c in (a, b):
        got = await c.expect("room")
        assert got["rated"] is True and all(s["registered"] for s in got["seats"])
    await a.send("resign")
    await b.expect("result")
    await b.send("leave")
    for c in (b, guest):
        await c.send("quick", mode="singles")
    for c in (b, guest):
        got = await c.expect("room")
        assert got["rated"] is False
    for h in (ha, hb):
        await h.close()
