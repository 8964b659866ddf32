"""A Swiss that cannot pair its next round without a rematch ends with its standings and
says why (issue 36: it stalled for ever, `finished` never true); the organiser is warned
beforehand when the rounds asked for are more than the entrants are sure to pair."""

from __future__ import annotations

import pytest

from tests.competitions.tour_client import post, register, tournament

pytestmark = pytest.mark.asyncio


async def test_five_entrants_four_rounds_one_withdrawn_ends_after_round_three(game_server):
    srv = game_server()
    (org,) = await register(srv.url, srv.ws_url, ["Organiser"], "127.0.0.2")
    players = await register(srv.url, srv.ws_url, [f"Unp{i}" for i in range(5)], "127.0.0.1")
    created = await post(org.http, "/api/tournaments", {
        "name": "Small Swiss", "system": "swiss", "rounds": 4, "sets": 1, "clock": 60,
        "auto": False,
    })  # fmt: skip
    tid = created["id"]
    api = f"/api/tournaments/{tid}"
    await post(org.http, f"{api}/open")
    for p in players:
        await post(p.http, f"{api}/join")
    # five entrants are sure of three rounds: the page warns the organiser of the fourth
    doc = await tournament(org.http, tid)
    assert doc["sure_rounds"] == 3 and doc["settings"]["rounds"] == 4
    doc = await post(org.http, f"{api}/start")
    for rnd in (1, 2, 3):
        (shown,) = [r for r in doc["rounds"] if r["round"] == rnd]
        for t in shown["tables"]:
            body = {"round": rnd, "a": t["a"], "b": t["b"], "sets_a": 1, "sets_b": 0}
            doc = await post(org.http, f"{api}/result", body)
        if rnd == 1:
            # the entrant who rested withdraws, none of his matches played: struck out, and
            # the four left meet each other in rounds 1 to 3
            (bye,) = [e["id"] for e in doc["entries"] if e["name"] == shown["byes"][0]]
            doc = await post(org.http, f"{api}/withdraw", {"entrant": bye})
            assert doc["sure_rounds"] == 2
        assert doc["status"] == "running" and not doc["unpaired"]
        doc = await post(org.http, f"{api}/next")
    assert doc["status"] == "finished" and doc["unpaired"] is True
    assert doc["round"] == 3 and len(doc["rounds"]) == 3
    assert [s["points"] for s in doc["standings"]] == sorted(
        (s["points"] for s in doc["standings"]), reverse=True
    )
    assert len(doc["standings"]) == 4  # the one struck out takes no place (004 § 32 (3))
