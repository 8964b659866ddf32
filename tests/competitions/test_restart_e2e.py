"""A server killed (SIGKILL) in the middle of a round loses nothing of a tournament: after the
restart, the result recorded before the kill is there, the match being played at the kill
goes on in its room (its players come back with their tokens), and the tournament runs to
its end (docs/competitions.md, "Restart")."""

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

# a server of its own for each test: a SIGKILL and a restart
pytestmark = [pytest.mark.asyncio, pytest.mark.fresh_server]

NAMES = ["Kaja", "Lembit", "Mari", "Nele"]


def strength(name: str) -> int:
    """The later name in NAMES wins."""
    return NAMES.index(name)


async def test_a_tournament_survives_a_sigkill_mid_round(game_server):
    srv = game_server(grace_seconds=10)
    (org,) = await register(srv.url, srv.ws_url, ["Organiser"], "127.0.0.2")
    players = {p.name: p for p in await register(srv.url, srv.ws_url, NAMES, "127.0.0.1")}
    doc = await post(org.http, "/api/tournaments", {"name": "Kill me", "sets": 1})
    tid = doc["id"]
    await post(org.http, f"/api/tournaments/{tid}/open")
    for p in players.values():
        await post(p.http, f"/api/tournaments/{tid}/join")
    doc = await post(org.http, f"/api/tournaments/{tid}/start")
    names = {e["id"]: e["name"] for e in doc["entries"]}
    first, second = doc["rounds"][0]["tables"]

    def sides(t: dict[str, Any]) -> tuple[Player, Player]:
        a, b = names[t["a"]], names[t["b"]]
        winner, loser = sorted((a, b), key=strength, reverse=True)
        return players[winner], players[loser]

    # one table decided before the kill, the other's match being played at the kill
    await resign_table(*sides(second), tid)
    await until(lambda: recorded(org, tid, 1), 15, "the first result recorded")
    w, lo = sides(first)
    room = await come(w, tid)
    await come(lo, tid)
    await asyncio.gather(match_on(w, room), match_on(lo, room))
    srv.kill()
    srv.start()

    doc = await tournament(org.http, tid)
    assert doc["status"] == "running" and doc["round"] == 1
    assert len(doc["rounds"][0]["results"]) == 1
    (open_table,) = [t for t in doc["rounds"][0]["tables"] if t["outcome"] is None]
    assert open_table["room"] == room
    # everybody's websocket died with the server: they come back with their tokens
    for p in players.values():
        token = p.ws.token
        p.ws = await p.http.player(srv.ws_url, p.name, token)
    for p in (w, lo):
        assert p.ws.welcome["seat"]["room"] == room
        await p.ws.send("resume", room=room, since=0)
        await match_on(p, room)
    await lo.ws.send("resign")
    for p in (w, lo):
        await p.ws.expect("result")
        await p.ws.send("leave")
        await p.ws.expect("left")

    for rnd in (2, 3):
        doc = await round_open(org.http, tid, rnd)
        shown = doc["rounds"][rnd - 1]["tables"]
        await asyncio.gather(*(resign_table(*sides(t), tid) for t in shown))

    async def finished() -> dict[str, Any] | None:
        d = await tournament(org.http, tid)
        return d if d["status"] == "finished" else None

    final = await until(finished, 20, "the end")
    # the later name wins every match: 6, 4, 2, 0 points (2 a win, 004 § 32 (2) 1))
    points = {s["name"]: s["points"] for s in final["standings"]}
    assert points == {"Nele": 6.0, "Mari": 4.0, "Lembit": 2.0, "Kaja": 0.0}
    cross = final["crosstable"]
    assert sorted(c for row in cross["cells"] for c in row if c not in ("x",)) == (
        ["0:1"] * 6 + ["1:0"] * 6
    )


async def recorded(org: Player, tid: str, n: int) -> bool:
    """Has round 1 got `n` results?"""
    doc = await tournament(org.http, tid)
    return len(doc["rounds"][0]["results"]) >= n
