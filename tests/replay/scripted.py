"""A match record made without a server: scripted players (tools/novuss_play.py) through the
referee and the core, logged as the server logs a match (server/games/novuss/match.py), so that the
notation's tests need no server to have a record to write and read back."""

from __future__ import annotations

import random
from typing import Any

from server.games.novuss.rules import (
    MatchConfig,
    judge,
    judge_clock_expired,
    judge_pass,
    judge_resign,
    new_match,
    sim_discs,
)
from server.games.novuss.sim import COMPETITION, simulate
from tools.novuss_play import scripted_shot

STARTED = 1_795_600_000.25  # 2026-11-25, in s since the epoch


def scripted_record(
    seed: int = 1, strokes: int = 6, sets: int = 4, doubles: bool = False
) -> dict[str, Any]:
    """A match of `strokes` scripted strokes, a pass by the player to strike, the clock run
    out on the next, then the resignation of the first; its record as GET /api/matches/{id}
    serves one. In doubles the pair that won the lot opens with its second player (the
    pair's choice, 004 § 31 (3))."""
    rng = random.Random(seed)
    first_team = rng.randrange(2)
    config = MatchConfig(mode="doubles" if doubles else "singles", sets=sets, stroke_clock=30.0)
    state = new_match(config, first_team, first_team + 2 if doubles else None)
    log: list[dict[str, Any]] = [
        {"kind": "start", "at": STARTED, "first_team": first_team, "state": state.to_dict()}
    ]
    for n in range(1, strokes + 1):
        seat = state.turn_seat
        assert seat is not None
        shot = scripted_shot(state, seat, rng)
        result = simulate(COMPETITION, sim_discs(state), shot)
        ruling = judge(state, seat, shot, result)
        log.append({
            "kind": "stroke", "at": STARTED + n, "stroke": n, "seat": seat,
            "shot": {"x": shot.x, "y": shot.y, "angle": shot.angle, "speed": shot.speed},
            "duration": result.duration, "hash": result.state_hash(), "ruling": ruling.to_dict(),
        })  # fmt: skip
        state = ruling.state
        assert not state.finished
    seat = state.turn_seat
    assert seat is not None
    ruling = judge_pass(state, seat)
    log.append({"kind": "pass", "at": STARTED + 99, "seat": seat, "ruling": ruling.to_dict()})
    state = ruling.state
    ruling = judge_clock_expired(state)
    log.append({"kind": "clock", "at": STARTED + 99.5, "seat": state.turn_seat,
                "ruling": ruling.to_dict()})  # fmt: skip
    state = ruling.state
    loser = seat
    ruling = judge_resign(state, loser)
    log.append({"kind": "resign", "at": STARTED + 100, "seat": loser, "ruling": ruling.to_dict()})
    log.append({"kind": "end", "at": STARTED + 100, "result": ruling.state.match_result})
    return {
        "id": "mscripted1",
        "game": "novuss",
        "mode": config.mode,
        "sets": sets,
        "clock": 30.0,
        "rated": False,
        "started": STARTED,
        "ended": STARTED + 100,
        "players": [
            {"seat": s, "team": s % 2, "name": name}
            for s, name in enumerate(('Anu "the rail" Tamm', "Boriss Ozoliņš", "Cärt", "Dace"))
            if s < config.seats
        ],
        "result": ruling.state.match_result,
        "log": log,
    }
