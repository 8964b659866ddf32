"""A round-robin individual-team event of 6 teams run to the end through real websockets
(004 § 6 (4), § 29):
each encounter is board I's singles, board II's singles and the doubles of boards I and II
(one set each; points 2/1/0 for singles, 4/2/0 for doubles, 004 § 32 (2)). The games of an
encounter are played one after another by the players they need: each reads his room from
the tournament page when his table opens. Here the stronger team (the higher number) wins
both singles, and the doubles goes to the weaker team when the two are neighbours (numbers
one apart). The standings and cross-table are checked against ones computed by hand."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.accounts.account_client import until
from tests.competitions.tour_client import (
    Player,
    post,
    register,
    resign_table,
    round_open,
    tournament,
)

pytestmark = pytest.mark.asyncio

TEAMS = 6


def team_no(name: str) -> int:
    """Team k's players are Tk-1 and Tk-2; its entry is called Team k."""
    return int(name.removeprefix("Team ").split("-")[0].removeprefix("T"))


async def test_a_six_team_round_robin_to_the_end(game_server):
    srv = game_server(grace_seconds=8)
    (org,) = await register(srv.url, srv.ws_url, ["Captain"], "127.0.0.3")
    players: dict[str, Player] = {}
    for k in range(1, TEAMS + 1):
        addr = "127.0.0.1" if k <= 3 else "127.0.0.2"  # at most 10 accounts per address
        for p in await register(srv.url, srv.ws_url, [f"T{k}-1", f"T{k}-2"], addr):
            players[p.name] = p
    games = [
        {"kind": "singles", "boards": [1], "sets": 1},
        {"kind": "singles", "boards": [2], "sets": 1},
        {"kind": "doubles", "boards": [1, 2], "sets": 1},
    ]
    created = await post(org.http, "/api/tournaments", {
        "name": "Club teams", "form": "individual_team", "system": "round_robin", "games": games,
        "tiebreaks": ["sets_difference"], "clock": 60,
    })  # fmt: skip
    tid = created["id"]
    await post(org.http, f"/api/tournaments/{tid}/open")
    for k in range(1, TEAMS + 1):
        await post(org.http, f"/api/tournaments/{tid}/entry",
                   {"name": f"Team {k}", "members": [f"T{k}-1", f"T{k}-2"]})  # fmt: skip
    doc = await post(org.http, f"/api/tournaments/{tid}/start")
    assert doc["total_rounds"] == 5
    team_of_entry = {e["id"]: team_no(e["name"]) for e in doc["entries"]}

    for rnd in range(1, 6):
        doc = await round_open(org.http, tid, rnd, timeout=60)
        assert doc["round"] == rnd
        (shown,) = [r for r in doc["rounds"] if r["round"] == rnd]
        assert len(shown["tables"]) == 9  # 3 encounters of 3 games
        for enc in {t["table"] for t in shown["tables"]}:
            # 004 § 31 (2): the opening stroke drawn for board I, then alternating
            firsts = [t["first"] for t in sorted(shown["tables"], key=lambda t: t["game"])
                      if t["table"] == enc]  # fmt: skip
            assert firsts[0] != firsts[1] and firsts[0] == firsts[2]
        await asyncio.gather(*(
            play_encounter(players, [t for t in shown["tables"] if t["table"] == enc],
                           team_of_entry, tid)
            for enc in {t["table"] for t in shown["tables"]}
        ))  # fmt: skip

    async def finished() -> dict[str, Any] | None:
        d = await tournament(org.http, tid)
        return d if d["status"] == "finished" else None

    final = await until(finished, 30, "the last round recorded")
    expected = hand_points()
    got = {team_no(s["name"]): s for s in final["standings"]}
    for k, (points, sets_for, sets_against) in expected.items():
        assert (got[k]["points"], got[k]["sets_for"], got[k]["sets_against"]) == (
            points, sets_for, sets_against,
        ), k  # fmt: skip
    order = [team_no(s["name"]) for s in final["standings"]]
    assert order == sorted(
        order, key=lambda k: (-expected[k][0], -(expected[k][1] - expected[k][2]))
    )
    cross = final["crosstable"]
    names = [team_no(e["name"]) for e in cross["entrants"]]
    for i, k in enumerate(names):
        for j, other in enumerate(names):
            if k == other:
                assert cross["cells"][i][j] == "x"
                continue
            mine = 2 if k > other else 0
            mine += 1 if (k < other) == (abs(k - other) == 1) else 0
            assert cross["cells"][i][j] == f"{mine}:{3 - mine}", (k, other)
        assert cross["points"][i] == expected[k][0]
    # 004 § 6 (4): the players ranked by the points of their games (board I and II's
    # singles and their doubles; `games`: the encounters he played in)
    by_player = {p["name"]: p for p in final["players"]}
    for k in range(1, TEAMS + 1):
        won = sum((2 if k > o else 0) + (4 if (k < o) == (abs(k - o) == 1) else 0)
                  for o in range(1, TEAMS + 1) if o != k)  # fmt: skip
        for name in (f"T{k}-1", f"T{k}-2"):
            assert (by_player[name]["points"], by_player[name]["games"]) == (won, 5), name
            assert by_player[name]["team"] == f"Team {k}"
    async with org.http.session.get(f"{srv.url}/api/tournaments/{tid}/crosstable.csv") as r:
        rows = (await r.text()).strip().splitlines()
    assert rows[0] == "#,name,1,2,3,4,5,6,points" and len(rows) == 7


async def play_encounter(
    players: dict[str, Player], tables: list[dict[str, Any]], team_of: dict[str, int], tid: str
) -> None:
    """Play an encounter's games in order: the singles of boards I and II at once, then the
    doubles (its players are free only then)."""
    singles = [t for t in tables if t["game"] in (0, 1)]
    await asyncio.gather(*(play_game(players, t, team_of, tid) for t in singles))
    (doubles,) = [t for t in tables if t["game"] == 2]
    await play_game(players, doubles, team_of, tid)


async def play_game(
    players: dict[str, Player], t: dict[str, Any], team_of: dict[str, int], tid: str
) -> None:
    """One game: the losing side's first player resigns once everybody is seated."""
    ka, kb = team_of[t["a"]], team_of[t["b"]]
    strong, weak = max(ka, kb), min(ka, kb)
    winner = weak if t["game"] == 2 and strong - weak == 1 else strong
    seats = [players[n] for n in t["players"]]  # in seat order: team 0 = seats 0 and 2
    side_team = {0: ka if t["first"] == "a" else kb, 1: kb if t["first"] == "a" else ka}
    win = [p for i, p in enumerate(seats) if side_team[i % 2] == winner]
    lose = [p for i, p in enumerate(seats) if side_team[i % 2] != winner]
    if len(seats) == 2:
        await resign_table(win[0], lose[0], tid)
        return
    from tests.competitions.tour_client import come, match_on

    rooms = [await come(p, tid) for p in seats]
    assert len(set(rooms)) == 1
    await asyncio.gather(*(match_on(p, rooms[0]) for p in seats))
    await lose[0].ws.send("resign")
    for p in seats:
        await p.ws.expect("result")
        await p.ws.send("leave")
        await p.ws.expect("left")


def hand_points() -> dict[int, tuple[float, int, int]]:
    """Team -> (points, sets for, sets against) by the rules of this event."""
    out = {}
    for k in range(1, TEAMS + 1):
        points, won, lost = 0.0, 0, 0
        for other in range(1, TEAMS + 1):
            if other == k:
                continue
            singles = 2 if k > other else 0  # both singles, 2 points each, 1 set each
            doubles = 1 if (k < other) == (abs(k - other) == 1) else 0
            points += singles * 2 + doubles * 4
            won += singles + doubles
            lost += 3 - singles - doubles
        out[k] = (points, won, lost)
    return out
