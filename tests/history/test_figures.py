"""The profile's pocketing figures against hand-counted matches (docs/accounts.md, "The
pocketing figures"): own pucks pocketed per stroke, penalty pucks per match.

A constructed match whose every count is written out by hand, through the archive's summary;
then real matches played through a server, counted from their served records by this test's
own reading of the rules' data, against what GET /api/players/{name} reports."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.games.novuss.rules.state import team_of
from server.history.summary import summarise
from tests.accounts.account_client import Http, browsers, seat_pair, until
from tests.pg import rows


def stroke(n: int, seat: int, own: int, penalty: bool = False, placed: int = 0) -> dict[str, Any]:
    """A stroke entry as server/games/novuss/match.py logs it: `own` of the striker's side's pucks
    stayed
    in; `placed` penalty pucks came out during it (whoever owed them)."""
    spots = [[10 + k, 540.0, 60.0] for k in range(placed)]
    return {
        "kind": "stroke", "stroke": n, "seat": seat, "own": own,
        "ruling": {"seat": seat, "penalty": penalty, "penalty_placed": spots},
    }  # fmt: skip


def test_a_constructed_match_counted_by_hand():
    """Ann (seat 0) and Bo (seat 1):
    1. Ann pockets 2 of hers;             2. Ann pockets 1 more;
    3. Ann touches none of hers: a penalty puck, owed (all 8 on the table? no matter: owed);
    4. Bo pockets 1 of his and 1 of Ann's: Ann's debt comes out at once (004 § 24 (5)) -
       placed during Bo's stroke, but Ann's penalty;
    5. Bo's stroke clock runs out: his penalty puck (004 § 24 (1) 18));
    6. Ann pockets 3 with a fault: a penalty puck placed at once.
    By hand: Ann 4 strokes, 2 + 1 + 0 + 3 = 6 pucks, 2 penalties; Bo 1 stroke, 1 puck,
    1 penalty."""
    record = {
        "id": "m1", "mode": "singles", "game": "novuss", "rated": False, "ended": 1.0,
        "players": [
            {"seat": 0, "team": 0, "sid": "s0", "account": "uAnn", "name": "Ann"},
            {"seat": 1, "team": 1, "sid": "s1", "account": "uBo", "name": "Bo"},
        ],
        "result": {"winner": 0},
        "log": [
            {"kind": "start"},
            stroke(1, 0, own=2),
            stroke(2, 0, own=1),
            stroke(3, 0, own=0, penalty=True),
            stroke(4, 1, own=1, placed=1),
            {"kind": "clock", "seat": 1, "ruling": {"seat": 1, "penalty": True,
                                                   "penalty_placed": [[11, 540.0, 1020.0]]}},
            stroke(5, 0, own=3, penalty=True, placed=1),
            {"kind": "end", "result": {"winner": 0}},
        ],
    }  # fmt: skip
    archived = summarise(record, {})
    assert archived.counters["uAnn"] == {
        "singles:matches": 1, "singles:win": 1,
        "singles:strokes": 4, "singles:pocketed": 6, "singles:penalties": 2,
    }  # fmt: skip
    assert archived.counters["uBo"] == {
        "singles:matches": 1, "singles:loss": 1,
        "singles:strokes": 1, "singles:pocketed": 1, "singles:penalties": 1,
    }  # fmt: skip


def count(records: list[dict[str, Any]], name: str) -> dict[str, float]:
    """The figures of player `name` over these records, counted from their rulings: the
    pucks that stayed in after each of his strokes whose owner is on his side (the owners
    from the start's state), and the strokes (or clocks) of his that the referee penalised
    (004 § 24 (1), (2))."""
    strokes = pocketed = penalties = 0
    for record in records:
        (me,) = [p for p in record["players"] if p["name"] == name]
        start = next(e for e in record["log"] if e["kind"] == "start")
        owner = {pid: own for pid, own, *_ in start["state"]["pucks"]}
        for e in record["log"]:
            ruling = e.get("ruling")
            if ruling is None or ruling["seat"] != me["seat"]:
                continue
            penalties += bool(ruling["penalty"])
            if e["kind"] == "stroke":
                strokes += 1
                pocketed += sum(team_of(owner[p]) == me["team"] for p in ruling["pocketed"])
    return {
        "matches": len(records),
        "strokes": strokes,
        "pucks_per_stroke": round(pocketed / strokes, 3),
        "penalties_per_match": round(penalties / len(records), 3),
        "pocketed": pocketed,
        "penalties": penalties,
    }


@pytest.mark.asyncio
async def test_played_matches_against_the_profile(game_server):
    srv = game_server(speed_factor=40)
    ha, hb = await browsers(srv.url, "Tiiu", "Urmas")
    mids = []
    for n in range(3):
        a, b = await ha.player(srv.ws_url), await hb.player(srv.ws_url)
        await seat_pair(srv.ws_url, a, b)
        strokes = 14 + 4 * n
        await asyncio.gather(a.play("singles", strokes=strokes), b.play("singles", strokes=strokes))
        mids.append(a.current_room["match"]["id"])
        # the last stroke's ruling first: a resignation is between strokes
        await until(lambda: a.phase == "play", what="the last ruling")  # noqa: B023 (awaited at once)
        await a.send("resign")
        await b.expect("result")
        for c in (a, b):
            await c.close()
    url = str(srv.options["database_url"])

    async def archived() -> bool:
        found = await rows(url, "SELECT mid FROM matches WHERE mid = ANY($1::text[])", mids)
        return len(found) == len(mids)

    await until(archived, what="archives")
    records = [(await ha.get(f"/api/matches/{mid}"))[1] for mid in mids]
    for name, h in (("Tiiu", ha), ("Urmas", hb)):
        by_hand = count(records, name)
        assert by_hand["pocketed"] > 0, "the matches pocketed something to count"
        _, profile = await h.get(f"/api/players/{name}")
        got = profile["figures"]["singles"]
        for key in ("matches", "strokes", "pucks_per_stroke", "penalties_per_match"):
            assert got[key] == by_hand[key], (name, key, got, by_hand)
    await Http(srv.url).close()
