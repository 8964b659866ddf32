"""Strokes per second: the Cython core, its pure-Python twin, and pymunk (and Crokinole's shots).

    python -m bench.physics [--strokes N] [--seed S]

One seeded set of strokes (alternately breaks into the starting rows and mid-game
positions, tools.scenarios.mixed_strokes) runs through each engine on one core,
timed in CPU seconds of this process. Each engine is timed through `simulate` (input
checks, the core, the result object; events and trajectory are built when first read).
pymunk is set up for the same table: frictionless discs and rails whose elasticities
multiply to our restitutions, sliding friction from a pivot joint and a gear joint to
a static body with max_force mu*m*g, pockets as holes that swallow a centre, and a
fixed step short enough that no disc moves more than a quarter of a puck per step at
the maximum speed. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence

import pymunk

from bench import crokinole
from server.games.core import CORE as compiled_core
from server.games.crokinole.board import TOURNAMENT
from server.games.novuss.sim import COMPETITION, Table, simulate
from tools.scenarios import Stroke, mixed_strokes

PYMUNK_DT = 1.0 / 2000.0  # s: 4 mm per step at 8 m/s, a quarter of a puck's 14 mm radius
PYMUNK_REST = 1.0  # mm/s: below this every body counts as at rest
PYMUNK_MAX_T = 20.0  # s of simulated time at most
PYMUNK_CHECK_EVERY = 4  # steps between pocket and rest checks: 16 mm at 8 m/s, < a hole


def pymunk_stroke(table: Table, stroke: Stroke) -> float:
    """Run one stroke in pymunk until every disc rests; return the simulated time."""
    pucks, shot = stroke
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    ground = space.static_body
    s = table.size
    e_body = math.sqrt(table.e_disc)
    for a, b in (((0, 0), (s, 0)), ((s, 0), (s, s)), ((s, s), (0, s)), ((0, s), (0, 0))):
        rail = pymunk.Segment(ground, a, b, 0.0)
        rail.elasticity = table.e_rail / e_body
        rail.friction = 0.0
        space.add(rail)
    bodies = []
    discs = [("striker", shot.x, shot.y)] + [("puck", d.x, d.y) for d in pucks]
    for kind, x, y in discs:
        m = table.striker_mass if kind == "striker" else table.puck_mass
        r = table.striker_radius if kind == "striker" else table.puck_radius
        hole = table.striker_hole_radius if kind == "striker" else table.puck_hole_radius
        body = pymunk.Body(m, pymunk.moment_for_circle(m, hole, r))
        body.position = (x, y)
        shape = pymunk.Circle(body, r)
        shape.elasticity = e_body
        shape.friction = 0.0
        pivot = pymunk.PivotJoint(ground, body, (0, 0), (0, 0))
        pivot.max_bias = 0.0
        pivot.max_force = table.mu * m * table.g
        gear = pymunk.GearJoint(ground, body, 0.0, 1.0)
        gear.max_bias = 0.0
        gear.max_force = table.mu * m * table.g
        space.add(body, shape, pivot, gear)
        bodies.append((body, shape, pivot, gear))
    bodies[0][0].velocity = (shot.speed * math.cos(shot.angle), shot.speed * math.sin(shot.angle))
    pockets = [(cx, cy) for _, cx, cy in table.pocket_centres()]
    t = 0.0
    steps = 0
    moving = True
    while moving and t < PYMUNK_MAX_T:
        space.step(PYMUNK_DT)
        t += PYMUNK_DT
        steps += 1
        if steps % PYMUNK_CHECK_EVERY:
            continue  # Python-side checks every few steps only, to time pymunk itself
        moving = False
        for entry in list(bodies):
            body = entry[0]
            px, py = body.position
            if any(math.hypot(px - cx, py - cy) <= table.pocket_radius for cx, cy in pockets):
                space.remove(*entry)
                bodies.remove(entry)
            elif body.velocity.length > PYMUNK_REST:
                moving = True
    return t


def rate(run: Callable[[Stroke], object], strokes: Sequence[Stroke], min_time: float) -> float:
    """Strokes per second of CPU time of `run` over `strokes`: passes over the whole set
    repeat until min_time has passed and the best pass counts (as timeit does: the
    machine is shared, and other processes only ever slow a pass down)."""
    best = 0.0
    spent = 0.0
    while True:
        start = time.process_time()
        for stroke in strokes:
            run(stroke)
        elapsed = time.process_time() - start
        best = max(best, len(strokes) / elapsed)
        spent += elapsed
        if spent >= min_time:
            return best


def main(argv: Sequence[str] | None = None) -> None:
    """Print the rates of the three engines and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strokes", type=int, default=100, help="strokes in the set (>= 100)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    strokes = mixed_strokes(args.seed, args.strokes)
    breaks = strokes[0::2]
    table = COMPETITION
    events = sum(len(simulate(table, p, s).events) for p, s in strokes) / len(strokes)

    def fast(stroke: Stroke) -> object:
        return simulate(table, stroke[0], stroke[1], "cython")

    def full(stroke: Stroke) -> object:
        result = simulate(table, stroke[0], stroke[1], "cython")
        return result.events, result.final, result.trajectory

    def twin(stroke: Stroke) -> object:
        return simulate(table, stroke[0], stroke[1], "python")

    def other(stroke: Stroke) -> object:
        return pymunk_stroke(table, stroke)

    cython_rate = rate(fast, strokes, 2.0)
    break_rate = rate(fast, breaks, 1.0)
    full_rate = rate(full, strokes, 1.0)
    python_rate = rate(twin, strokes, 2.0)
    pymunk_rate = rate(other, strokes, 0.0)
    print(f"strokes: {len(strokes)} (seed {args.seed}, half breaks), {events:.1f} events each")
    print(f"cython core:        {cython_rate:10.0f} strokes/s  (breaks only: {break_rate:.0f})")
    print(f"cython, events and trajectory read: {full_rate:.0f} strokes/s")
    print(f"pure-Python twin:   {python_rate:10.0f} strokes/s")
    print(f"pymunk (dt={PYMUNK_DT * 1000:.1f} ms): {pymunk_rate:10.1f} strokes/s")
    print(
        f"cython / python: {cython_rate / python_rate:.1f}x; cython / pymunk: "
        f"{cython_rate / pymunk_rate:.0f}x"
    )
    board = TOURNAMENT
    shots = crokinole.shots(board, 2000, args.seed)
    crokinole_rate = crokinole.rate(board, shots, compiled_core)[0]
    print(f"crokinole (bench.crokinole's shots): {crokinole_rate:10.0f} shots/s")
    print(
        f"cython_strokes_per_s={cython_rate:.0f} pure_python_strokes_per_s={python_rate:.0f} "
        f"pymunk_strokes_per_s={pymunk_rate:.1f} ratio_vs_pymunk={cython_rate / pymunk_rate:.0f} "
        f"crokinole_shots_per_s={crokinole_rate:.0f}"
    )


if __name__ == "__main__":
    main()
