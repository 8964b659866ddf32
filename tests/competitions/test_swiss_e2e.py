"""A 9-player Swiss of 5 rounds run to the end through real websockets (docs/competitions.md):
each round's players read their room from the tournament page, take their seats, and the
weaker resigns (the stronger: the higher number); in round 2 one match is entered by hand by
the organiser (played at a real table), in round 3 one loser never comes (the 2-minute rule,
004 § 22 (3), with the server's grace of 4 s), in round 4 neither player of one table comes
(both lose). The standings are then checked against ones
computed here from the pairings the page showed: 2 points a win, a bye a draw's 1 (004 § 32
(2), § 29 (5)), Buchholz the sum of the opponents' points (docs/tournaments.md)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.competitions.tour_client import (
    Player,
    post,
    register,
    resign_table,
    round_open,
    tournament,
)

pytestmark = pytest.mark.asyncio

NAMES = [f"Swiss{i}" for i in range(1, 10)]


def strength(name: str) -> int:
    """The stronger player wins every match here."""
    return int(name.removeprefix("Swiss"))


@pytest.mark.slow  # a whole Swiss of five rounds: 15 s or more
async def test_a_nine_player_swiss_of_five_rounds_to_the_end(game_server):
    start = time.monotonic()
    srv = game_server(grace_seconds=4)
    (org,) = await register(srv.url, srv.ws_url, ["Organiser"], "127.0.0.2")
    players = await register(srv.url, srv.ws_url, NAMES, "127.0.0.1")
    by_name = {p.name: p for p in players}
    created = await post(org.http, "/api/tournaments", {
        "name": "Autumn Swiss", "system": "swiss", "rounds": 5, "sets": 1,
        "tiebreaks": ["buchholz", "sonneborn_berger"], "clock": 60,
    })  # fmt: skip
    tid = created["id"]
    assert created["you"]["organiser"] and created["status"] == "draft"
    await post(org.http, f"/api/tournaments/{tid}/open")
    for p in players:
        await post(p.http, f"/api/tournaments/{tid}/join")
    doc = await post(org.http, f"/api/tournaments/{tid}/start")
    assert doc["status"] == "running" and doc["round"] == 1 and doc["total_rounds"] == 5
    uid_name = {e["id"]: e["name"] for e in doc["entries"]}

    played: list[dict[str, Any]] = []  # (a, b, winner, how) as the page showed them
    byes: list[str] = []
    for rnd in range(1, 6):
        doc = await round_open(org.http, tid, rnd)
        assert doc["round"] == rnd, doc["status"]
        (shown,) = [r for r in doc["rounds"] if r["round"] == rnd]
        byes += shown["byes"]
        assert len(shown["tables"]) == 4 and len(shown["byes"]) == 1
        jobs = []
        for i, t in enumerate(shown["tables"]):
            a, b = uid_name[t["a"]], uid_name[t["b"]]
            winner, loser = sorted((a, b), key=strength, reverse=True)
            how = "played"
            if rnd == 2 and i == 0:  # played at a real table: the organiser enters it
                how = "by_hand"
                sets = {"sets_a": 1, "sets_b": 0} if winner == a else {"sets_a": 0, "sets_b": 1}
                body = {"round": rnd, "a": t["a"], "b": t["b"], **sets}
                got = await post(org.http, f"/api/tournaments/{tid}/result", body)
                mine = [x for x in got["rounds"][rnd - 1]["tables"] if x["key"] == t["key"]]
                assert mine[0]["outcome"]["by_hand"] is True
            elif rnd == 3 and i == 0:  # the loser never comes: he loses by absence
                how = "no_show"
                jobs.append(come_alone(by_name[winner], tid))
            elif rnd == 4 and i == 0:  # neither comes: both lose (004 § 22 (3))
                how = "both_absent"
            else:
                jobs.append(resign_table(by_name[winner], by_name[loser], tid))
            played.append({"a": a, "b": b, "winner": winner, "how": how})
        await asyncio.gather(*jobs)

    async def finished() -> dict[str, Any] | None:
        d = await tournament(org.http, tid)
        return d if d["status"] == "finished" else None

    from tests.accounts.account_client import until

    final = await until(finished, 30, "the last round recorded")
    # every match of the page was recorded as it went
    recorded = [r for rnd in final["rounds"] for r in rnd["results"]]
    assert len(recorded) == 20
    assert sum(r["by_hand"] for r in recorded) == 1
    forfeits = [r["forfeit"] for r in recorded if r["forfeit"]]
    no_show = next(min(m["a"], m["b"], key=strength) for m in played if m["how"] == "no_show")
    assert sorted(forfeits) == sorted(["*", next(u for u, n in uid_name.items() if n == no_show)])
    # no rematch, nobody twice a bye (004 § 29 (5))
    pairs = [frozenset((m["a"], m["b"])) for m in played]
    assert len(set(pairs)) == len(pairs) and len(set(byes)) == 5

    expected = hand_standings(played, byes)
    got = {s["name"]: s for s in final["standings"]}
    for name, (points, sets_for, sets_against, buchholz) in expected.items():
        line = got[name]
        assert (line["points"], line["sets_for"], line["sets_against"]) == (
            points, sets_for, sets_against,
        ), name  # fmt: skip
        assert line["tiebreaks"][0] == buchholz, name
    ranked = [s["name"] for s in final["standings"]]
    assert ranked == sorted(ranked, key=lambda n: (-expected[n][0], -expected[n][3]))
    # the exports
    status, _ = await org.http.get(f"/api/tournaments/{tid}")
    assert status == 200
    async with org.http.session.get(f"{srv.url}/api/tournaments/{tid}/standings.csv") as r:
        text = await r.text()
        assert r.status == 200 and r.content_type == "text/csv"
    lines = text.strip().splitlines()
    assert lines[0].split(",")[:5] == ["rank", "name", "points", "sets_for", "sets_against"]
    assert lines[1].split(",")[1] == ranked[0] and len(lines) == 10
    assert time.monotonic() - start < 90


async def come_alone(p: Player, tid: str) -> None:
    """The winner comes; his opponent never does: after the grace the encounter is his."""
    from tests.competitions.tour_client import come

    await come(p, tid)
    while True:  # the seat held for the absent one is freed when its grace runs out
        msg = await p.ws.expect("room")
        if sum(s is not None for s in msg["seats"]) == 1:
            break
    await p.ws.send("leave")
    await p.ws.expect("left")


def hand_standings(played: list[dict[str, Any]], byes: list[str]) -> dict[str, tuple[Any, ...]]:
    """name -> (points, sets for, sets against, Buchholz) from the matches and byes."""
    points = dict.fromkeys(NAMES, 0.0)
    sets_for = dict.fromkeys(NAMES, 0)
    sets_against = dict.fromkeys(NAMES, 0)
    met: dict[str, list[str]] = {n: [] for n in NAMES}
    for m in played:
        met[m["a"]].append(m["b"])
        met[m["b"]].append(m["a"])
        if m["how"] == "both_absent":  # no points, no sets for either
            continue
        loser = m["b"] if m["winner"] == m["a"] else m["a"]
        points[m["winner"]] += 2
        if m["how"] != "no_show":  # a forfeit has no sets
            sets_for[m["winner"]] += 1
            sets_against[loser] += 1
    for name in byes:
        points[name] += 1  # a bye scores as a draw (004 § 29 (5), § 32 (2) note 3)
    return {
        n: (points[n], sets_for[n], sets_against[n], sum(points[o] for o in met[n])) for n in NAMES
    }
