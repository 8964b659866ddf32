"""Crokinole shots per second, with the compiled core's root finders and with its twin.

    python -m bench.crokinole [--shots N] [--seed S]

A seeded set of mid-round positions (0 to 15 discs placed at random, clear of each other
and of the pegs) and flicks from a random point of the shooting line toward a random
point of the board at 0.3 to 4 m/s, each run through server.games.crokinole.physics.simulate
(input checks included), timed in CPU seconds of this process. Beside it, the Novuss
figure comes from `python -m bench.physics`. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence
from types import ModuleType

from server.games.core import CORE as compiled_core
from server.games.core import python_core
from server.games.crokinole.board import TOURNAMENT, Board
from server.games.crokinole.physics import Flick, Piece, simulate

Shot = tuple[list[Piece], Flick]


def clear(board: Board, spots: list[tuple[float, float]], x: float, y: float) -> bool:
    """A disc at (x, y) overlaps no peg and no disc already placed."""
    r = board.disc_radius
    if any(math.hypot(x - px, y - py) < r + board.peg_radius + 0.5 for px, py in board.pegs()):
        return False
    return all(math.hypot(x - sx, y - sy) >= 2.0 * r + 0.5 for sx, sy in spots)


def shots(board: Board, count: int, seed: int) -> list[Shot]:
    """`count` seeded positions and flicks."""
    rng = random.Random(seed)
    out: list[Shot] = []
    inner = board.shooting_radius - board.disc_radius - 1.0
    while len(out) < count:
        spots: list[tuple[float, float]] = []
        for _ in range(rng.randint(0, 15)):
            rad, ang = inner * math.sqrt(rng.random()), rng.uniform(0.0, 2.0 * math.pi)
            if clear(board, spots, rad * math.cos(ang), rad * math.sin(ang)):
                spots.append((rad * math.cos(ang), rad * math.sin(ang)))
        a0 = rng.uniform(0.0, 2.0 * math.pi)
        sx, sy = board.shooting_radius * math.cos(a0), board.shooting_radius * math.sin(a0)
        if not clear(board, spots, sx, sy):
            continue
        tx, ty = rng.uniform(-150.0, 150.0), rng.uniform(-150.0, 150.0)
        flick = Flick(99, sx, sy, math.atan2(ty - sy, tx - sx), rng.uniform(300.0, 4000.0))
        out.append(([Piece(i, x, y) for i, (x, y) in enumerate(spots)], flick))
    return out


def rate(board: Board, batch: Sequence[Shot], core: ModuleType) -> tuple[float, float, int]:
    """(shots per CPU second, slowest shot in ms, total events)."""
    events = 0
    slowest = 0.0
    t0 = time.process_time()
    for pieces, flick in batch:
        s0 = time.process_time()
        events += len(simulate(board, pieces, flick, core=core).events)
        slowest = max(slowest, time.process_time() - s0)
    return len(batch) / (time.process_time() - t0), slowest * 1000.0, events


def main(argv: Sequence[str] | None = None) -> None:
    """Time the batch through both cores and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args(argv)
    batch = shots(TOURNAMENT, args.shots, args.seed)
    fast, slow_ms, events = rate(TOURNAMENT, batch, compiled_core)
    twin, twin_ms, _ = rate(TOURNAMENT, batch, python_core())
    print(f"shots: {len(batch)} (seed {args.seed}), {events / len(batch):.1f} events each")
    print(f"compiled root finders: {fast:10.0f} shots/s, slowest {slow_ms:.2f} ms")
    print(f"pure-Python twin:      {twin:10.0f} shots/s, slowest {twin_ms:.2f} ms")
    print(
        json.dumps(
            {
                "crokinole_shots_per_s": round(fast),
                "twin_shots_per_s": round(twin),
                "slowest_ms": round(slow_ms, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
