"""A result entered by hand for a table whose room is open (issue 36, 1): the match being
played there is ended for both players with a notice (`decided`), the room closes (`left`),
and both are free for the next round, which they play (nobody loses it by absence). The same
for a player waiting alone at a table whose opponent the organiser records as absent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.accounts.account_client import until
from tests.competitions.tour_client import (
    Player,
    come,
    match_on,
    post,
    register,
    resign_table,
    round_open,
    tournament,
)

pytestmark = pytest.mark.asyncio

NAMES = ["Live1", "Live2", "Live3", "Live4"]


async def test_a_result_by_hand_ends_the_live_match_and_frees_its_players(game_server):
    srv = game_server(grace_seconds=60)
    (org,) = await register(srv.url, srv.ws_url, ["Organiser"], "127.0.0.2")
    players = await register(srv.url, srv.ws_url, NAMES, "127.0.0.1")
    created = await post(org.http, "/api/tournaments", {
        "name": "Live hand result", "system": "swiss", "rounds": 2, "sets": 1, "clock": 60,
    })  # fmt: skip
    tid = created["id"]
    await post(org.http, f"/api/tournaments/{tid}/open")
    for p in players:
        await post(p.http, f"/api/tournaments/{tid}/join")
    doc = await post(org.http, f"/api/tournaments/{tid}/start")
    named = {p.name: p for p in players}
    by_uid: dict[str, Player] = {e["id"]: named[e["name"]] for e in doc["entries"]}
    one, two = doc["rounds"][0]["tables"]

    # table 1: both come and their match is on; the organiser enters 1:0 for its first named
    a, b = by_uid[one["a"]], by_uid[one["b"]]
    room = await come(a, tid)
    assert await come(b, tid) == room
    await match_on(a, room)
    await match_on(b, room)
    shown = await tournament(org.http, tid)
    live = next(x for x in shown["rounds"][0]["tables"] if x["key"] == one["key"])
    assert live["room"] == room and live["outcome"] is None  # the form marks it open
    teams = {p.name: p.ws.own_seat % 2 for p in (a, b)}
    body = {"round": 1, "a": one["a"], "b": one["b"], "sets_a": 1, "sets_b": 0}
    await post(org.http, f"/api/tournaments/{tid}/result", body)
    for p in (a, b):
        told = await p.ws.expect("decided")
        assert told["room"] == room and told["tournament"] == tid and told["forfeit"] is None
        assert told["sets"][teams[p.name]] == (1 if p is a else 0)
        assert (await p.ws.expect("left"))["room"] == room

    # table 2: one player waits alone; the organiser records the other as absent
    c = by_uid[two["a"]]
    room2 = await come(c, tid)
    team = c.ws.own_seat % 2
    body = {"round": 1, "a": two["a"], "b": two["b"], "sets_a": 0, "sets_b": 0, "forfeit": two["b"]}
    await post(org.http, f"/api/tournaments/{tid}/result", body)
    told = await c.ws.expect("decided")
    assert told["forfeit"] == 1 - team  # the opponents' team lost by absence
    assert (await c.ws.expect("left"))["room"] == room2

    # round 2: all four are free to take their seats and play it
    doc = await round_open(org.http, tid, 2)
    jobs = [resign_table(by_uid[t["a"]], by_uid[t["b"]], tid) for t in doc["rounds"][1]["tables"]]
    await asyncio.gather(*jobs)

    async def finished() -> dict[str, Any] | None:
        got = await tournament(org.http, tid)
        return got if got["status"] == "finished" else None

    final = await until(finished, 30, "round 2 recorded")
    (second,) = [r for r in final["rounds"] if r["round"] == 2]
    assert [r["forfeit"] for r in second["results"]] == [None, None]
    assert not any(r["by_hand"] for r in second["results"])
    assert all(x["outcome"]["match"] for x in second["tables"])  # played, not decided elsewhere
