"""Microseconds per stroke on the judging path: the physics, the referee, the whole strike.

    python -m bench.strike [--matches N] [--seed S] [--min-time SECONDS]

A seeded set of realistic strokes is recorded first by playing whole matches through
`server.games.novuss.match.Match` (singles and doubles alternately), each player aiming like the
load
clients (bench/load_aim.py: at the nearest own puck, else straight up the table) with a
seeded jitter of the angle and the speed so that strokes miss, rebound, pocket and break
up rows. Every recorded stroke (the rules state before it, the seat, the shot, and the
match's checkpoint) is then replayed through each stage, timed in CPU seconds of this
process (time.process_time), best pass of several (the machine is shared: other
processes only ever slow a pass down):

- sim:    simulate(table, sim_discs(state), shot), the result's objects not read
- judge:  judge(state, seat, shot, result) on those fresh results (so it builds their
  events and final state, as it does in the server)
- hash:   result.state_hash(), the last thing Match.strike asks of rules and sim
- strike: the whole Match.strike (checks, simulate, judge, hash, the ruling's messages and
  log entry) on matches restored from the checkpoint taken before the stroke (restoring
  is not timed)

Each pass times every stage in turn; the best pass of each stage counts. The last line is
machine-readable.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bench.load_aim import choose
from server.games.core.play import Settings
from server.games.novuss.game import NOVUSS
from server.games.novuss.match import Match
from server.games.novuss.rules import (
    MatchConfig,
    MatchState,
    StrokeRefused,
    check_stroke,
    judge,
    sim_discs,
)
from server.games.novuss.rules.state import Mode
from server.games.novuss.sim import COMPETITION, Shot, StrokeResult, simulate

SETTINGS = Settings(speed_factor=10.0)
MAX_STROKES = 400
"""Strokes at most per recorded match (a match of bots can stall on blind pucks)."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """One stroke as it was played: the state and match checkpoint before it."""

    state: MatchState
    seat: int
    shot: Shot
    checkpoint: dict[str, Any]


def _aim(match: Match, rng: random.Random, table: dict[str, Any]) -> Shot | None:
    """The load clients' aim with a seeded jitter; the plain aim if the jitter makes the
    stroke illegal; None when there is nothing to strike at (the player passes)."""
    seat = match.turn
    assert seat is not None
    doubles = match.state.config.mode == "doubles"
    aim = choose(match.rest_discs(), seat, match.sides()[seat], table, doubles)
    if aim is None:
        return None
    x, y, angle, speed = aim
    jittered = Shot(x, y, angle + rng.gauss(0.0, 0.08), rng.uniform(600.0, 7000.0))
    try:
        check_stroke(match.state, seat, jittered)
    except StrokeRefused:
        return Shot(x, y, angle, speed)
    return jittered


def record(matches: int, seed: int) -> list[Recorded]:
    """Play `matches` whole matches (one set each) and keep every stroke."""
    rng = random.Random(seed)
    table = NOVUSS.table_view()
    strokes: list[Recorded] = []
    for k in range(matches):
        mode: Mode = "singles" if k % 2 == 0 else "doubles"
        config = MatchConfig(mode=mode, sets=1, stroke_clock=30.0)
        match, _ = Match.new(f"m{k}", config, k % 2, 0.0, SETTINGS)
        now = 0.0
        for _ in range(MAX_STROKES):
            if match.phase == "over":
                break
            seat = match.turn
            assert seat is not None
            shot = _aim(match, rng, table)
            if shot is None:
                match.pass_turn(seat, now)
                continue
            strokes.append(Recorded(match.state, seat, shot, match.to_dict(now)))
            step = match.strike(seat, shot, now)
            assert step.motion is not None
            now = step.motion.ends(SETTINGS)
            match.finish_motion(now)
            now += 1.0
    return strokes


def _timed(run: Callable[[], object]) -> float:
    """CPU seconds of one call."""
    start = time.process_time()
    run()
    return time.process_time() - start


def measure(strokes: Sequence[Recorded], min_time: float) -> dict[str, float]:
    """µs per stroke of each stage, best pass of several: passes repeat until min_time of
    CPU time has been spent (at least three), each pass timing every stage in turn, so
    that a busy moment of the machine slows all of them."""
    table = COMPETITION
    results: list[StrokeResult] = []
    matches: list[Match] = []

    def sim() -> None:
        results[:] = [simulate(table, sim_discs(r.state), r.shot) for r in strokes]

    def judging() -> None:
        for r, result in zip(strokes, results, strict=True):
            judge(r.state, r.seat, r.shot, result)

    def hashing() -> None:
        for result in results:
            result.state_hash()

    def strike() -> None:
        for r, match in zip(strokes, matches, strict=True):
            match.strike(r.seat, r.shot, 0.0)

    best = {"sim": math.inf, "judge": math.inf, "hash": math.inf, "strike": math.inf}
    spent = 0.0
    passes = 0
    while passes < 3 or spent < min_time:
        # Fresh results (their events and final are built on first use, inside judge, as
        # in the server), and fresh matches restored from the checkpoints, untimed.
        taken = {"sim": _timed(sim), "judge": _timed(judging), "hash": _timed(hashing)}
        matches[:] = [Match.from_dict(r.checkpoint, SETTINGS) for r in strokes]
        taken["strike"] = _timed(strike)
        for stage, seconds in taken.items():
            best[stage] = min(best[stage], seconds)
        spent += sum(taken.values())
        passes += 1
    us = {stage: seconds / len(strokes) * 1e6 for stage, seconds in best.items()}
    us["sim_judge_hash"] = us["sim"] + us["judge"] + us["hash"]
    return us


def main(argv: Sequence[str] | None = None) -> None:
    """Record the strokes, time each stage, print µs per stroke."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=16, help="matches to record (>= 1)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--min-time", type=float, default=1.0, help="CPU seconds per stage at least"
    )
    args = parser.parse_args(argv)
    strokes = record(max(1, args.matches), args.seed)
    us = measure(strokes, args.min_time)
    print(f"strokes: {len(strokes)} from {args.matches} matches (seed {args.seed})")
    print(f"simulate:                 {us['sim']:8.1f} µs/stroke")
    print(f"judge:                    {us['judge']:8.1f} µs/stroke")
    print(f"state_hash:               {us['hash']:8.1f} µs/stroke")
    print(f"simulate + judge + hash:  {us['sim_judge_hash']:8.1f} µs/stroke")
    print(f"Match.strike (all of it): {us['strike']:8.1f} µs/stroke")
    print(
        f"strokes={len(strokes)} sim_us={us['sim']:.1f} judge_us={us['judge']:.1f} "
        f"hash_us={us['hash']:.1f} sim_judge_hash_us={us['sim_judge_hash']:.1f} "
        f"strike_us={us['strike']:.1f}"
    )


if __name__ == "__main__":
    main()
