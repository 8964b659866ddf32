"""A tournament on two server processes sharing one Redis (docs/competitions.md, "The loop"):
the organiser works through one, half the players through the other; every table's room
lives in whichever process opened it and the players of the other process play in it through
the bus; both processes' loops record results and start rounds, once each."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.accounts.account_client import Http, until
from tests.competitions.tour_client import (
    Player,
    post,
    resign_table,
    round_open,
    tournament,
)

pytestmark = pytest.mark.asyncio

NAMES = ["Aino", "Brit", "Carl", "Dora"]


async def test_a_round_robin_played_across_two_processes(game_cluster):
    a, b = game_cluster(2)
    org = Http(a.url)
    await org.register("Organiser")
    players: dict[str, Player] = {}
    for i, name in enumerate(NAMES):
        home = a if i < 2 else b
        h = Http(a.url)
        await h.register(name)
        if home is b:  # the same account, logged in through the other process
            h = Http(b.url)
            status, _ = await h.login(name)
            assert status == 200
        players[name] = Player(name, h, await h.player(home.ws_url, name))
    doc = await post(org, "/api/tournaments", {"name": "Two halls", "sets": 1})
    tid = doc["id"]
    await post(org, f"/api/tournaments/{tid}/open")
    for p in players.values():
        await post(p.http, f"/api/tournaments/{tid}/join")
    doc = await post(org, f"/api/tournaments/{tid}/start")
    names = {e["id"]: e["name"] for e in doc["entries"]}

    for rnd in (1, 2, 3):
        doc = await round_open(org, tid, rnd)
        tables = doc["rounds"][rnd - 1]["tables"]

        async def play(t: dict[str, Any]) -> None:
            winner, loser = sorted((names[t["a"]], names[t["b"]]), key=NAMES.index, reverse=True)
            await resign_table(players[winner], players[loser], tid)

        await asyncio.gather(*(play(t) for t in tables))

    async def finished() -> dict[str, Any] | None:
        d = await tournament(players["Dora"].http, tid)  # asked through the other process
        return d if d["status"] == "finished" else None

    final = await until(finished, 20, "the end")
    assert {s["name"]: s["points"] for s in final["standings"]} == {
        "Dora": 6.0, "Carl": 4.0, "Brit": 2.0, "Aino": 0.0,
    }  # fmt: skip
    # each of the 6 matches recorded once, though both processes' loops watched them
    recorded = [r for rnd in final["rounds"] for r in rnd["results"]]
    assert len(recorded) == 6 and not any(r["by_hand"] or r["forfeit"] for r in recorded)
