"""Seeded positions and strokes for tests, the benchmark and the drawing command.

Breaks: both starting rows (004 § 19 (2): eight pucks touching each other and the rail,
four each side of the middle line) and the striker in the south edge zone aimed at the
north row. Mid-game: 1 to 16 pucks scattered at random, the striker anywhere in the
south edge zone, any direction into the table, any speed.
"""

from __future__ import annotations

import math
import random

from server.games.novuss.sim.table import COMPETITION, Table
from server.games.novuss.sim.types import Disc, Shot

Stroke = tuple[list[Disc], Shot]
"""The pucks at rest and the shot."""


def starting_rows(table: Table = COMPETITION) -> list[Disc]:
    """Sixteen pucks in the two starting rows: ids 1-8 along S (owner 0), 9-16 along N
    (owner 1), touching each other and the rail, centred on the middle line."""
    r = table.puck_radius
    mid = table.size / 2.0
    offsets = [(k + 0.5) * 2.0 * r for k in range(-4, 4)]  # ±r, ±3r, ±5r, ±7r
    south = [Disc(1 + k, mid + o, r, "puck", 0) for k, o in enumerate(offsets)]
    north = [Disc(9 + k, mid + o, table.size - r, "puck", 1) for k, o in enumerate(offsets)]
    return south + north


def striker_spot(rng: random.Random, table: Table = COMPETITION) -> tuple[float, float]:
    """A legal-looking striker placement: hole inside the south edge zone, between the
    side zones' lines, clear of the south starting row."""
    lim = table.zone_depth - table.striker_hole_radius
    x = rng.uniform(table.zone_depth + table.striker_hole_radius, table.size - lim)
    y = rng.uniform(2.0 * table.puck_radius + table.striker_radius, lim)
    return x, y


def break_stroke(rng: random.Random, table: Table = COMPETITION) -> Stroke:
    """Both rows; the striker aimed at a random point of the north row, hard."""
    x, y = striker_spot(rng, table)
    tx = table.size / 2.0 + rng.uniform(-120.0, 120.0)
    ty = table.size - table.puck_radius
    angle = math.atan2(ty - y, tx - x)
    return starting_rows(table), Shot(x, y, angle, rng.uniform(3000.0, table.max_speed))


def scattered_pucks(rng: random.Random, count: int, table: Table = COMPETITION) -> list[Disc]:
    """`count` pucks at random, clear of each other, of any striker in the south edge
    zone and of the holes."""
    r = table.puck_radius
    pucks: list[Disc] = []
    while len(pucks) < count:
        x = rng.uniform(r, table.size - r)
        y = rng.uniform(table.zone_depth + table.striker_radius + r, table.size - r)
        if any(
            math.hypot(x - cx, y - cy) <= table.pocket_radius + r
            for _, cx, cy in table.pocket_centres()
        ):
            continue
        if any(math.hypot(x - p.x, y - p.y) < 2.0 * r for p in pucks):
            continue
        pucks.append(Disc(len(pucks) + 1, x, y, "puck", len(pucks) % 2))
    return pucks


def midgame_stroke(rng: random.Random, table: Table = COMPETITION) -> Stroke:
    """1 to 16 scattered pucks and a stroke of any speed into the table."""
    pucks = scattered_pucks(rng, rng.randint(1, 16), table)
    x, y = striker_spot(rng, table)
    angle = rng.uniform(0.05, math.pi - 0.05)
    return pucks, Shot(x, y, angle, rng.uniform(100.0, table.max_speed))


def mixed_strokes(
    seed: int, count: int, table: Table = COMPETITION
) -> list[tuple[list[Disc], Shot]]:
    """`count` strokes, alternately breaks and mid-game positions, from one seed."""
    rng = random.Random(seed)
    return [
        break_stroke(rng, table) if k % 2 == 0 else midgame_stroke(rng, table) for k in range(count)
    ]
