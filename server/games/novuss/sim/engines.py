"""The two engines built from server/games/core/collision.py and `simulate`, which picks one.

"cython" is the compiled extension (it shadows collision.py on import once built);
"python" is the same source loaded as plain Python under another module name.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from server.games.core import CORE as _compiled
from server.games.core import python_core
from server.games.novuss.sim.result import StrokeResult
from server.games.novuss.sim.table import Table
from server.games.novuss.sim.types import STRIKER_ID, Disc, Shot

Engine = Literal["cython", "python"]
PLACE_TOL = 1e-6
"""mm: a disc may sit this far past a rail or into another disc (rounding of an earlier
stroke's final state), no further."""


class SimInputError(ValueError):
    """The stroke cannot be simulated: speed out of range, not finite, or discs placed
    off the table, over a hole, or overlapping."""


CYTHON_CORE = _compiled
MAX_DISCS = 40
"""The size of the core's C arrays (core.MAXD)."""


PLACEMENT_PROBLEMS = {1: "is off the table", 2: "sits over a hole", 3: "overlaps disc"}


def _check_shot(table: Table, discs: Sequence[Disc], shot: Shot) -> None:
    """Speed, finiteness, count and ids; core.check_placement does the positions."""
    for name, v in (("x", shot.x), ("y", shot.y), ("angle", shot.angle), ("speed", shot.speed)):
        if not math.isfinite(v):
            raise SimInputError(f"shot {name} is not a finite number: {v!r}")
    if not 0.0 < shot.speed <= table.max_speed:
        raise SimInputError(f"speed {shot.speed} mm/s outside (0, {table.max_speed}]")
    if len(discs) > MAX_DISCS:
        raise SimInputError(f"at most {MAX_DISCS} discs in one stroke")
    previous = STRIKER_ID
    for d in discs[1:]:
        if d.id <= previous or d.kind != "puck":
            raise SimInputError(
                f"disc {d.id}: pucks need distinct ids > {STRIKER_ID} and kind 'puck'"
            )
        previous = d.id


def simulate(
    table: Table, pucks: Sequence[Disc], shot: Shot, engine: Engine = "cython"
) -> StrokeResult:
    """Run one stroke to rest.

    The striker (id STRIKER_ID) is placed at (shot.x, shot.y) and leaves at shot.speed
    along shot.angle; `pucks` rest where they are (ids >= 1, any order; results come
    in id order, striker first). Raises SimInputError (a ValueError) for a speed out of
    (0, table.max_speed], non-finite input, more than MAX_DISCS (40) discs, or discs off the table,
    over a hole or overlapping (beyond PLACE_TOL).
    """
    discs = [Disc(STRIKER_ID, shot.x, shot.y, "striker"), *sorted(pucks, key=_by_id)]
    _check_shot(table, discs, shot)
    core = python_core() if engine == "python" else CYTHON_CORE
    params = (
        table.size,
        table.decel,
        table.e_disc,
        table.e_rail,
        table.jump_speed,
        table.pocket_inset,
        table.pocket_radius,
        table.zone_depth - table.striker_hole_radius,
    )
    xs = [float(d.x) for d in discs]
    ys = [float(d.y) for d in discs]
    rs = [table.puck_radius] * len(discs)
    rs[0] = table.striker_radius
    ms = [table.puck_mass] * len(discs)
    ms[0] = table.striker_mass
    problem, i, j = core.check_placement(params, xs, ys, rs, PLACE_TOL)
    if problem:
        other = f" {discs[j].id}" if j >= 0 else ""
        raise SimInputError(f"disc {discs[i].id} {PLACEMENT_PROBLEMS[problem]}{other}")
    vx = shot.speed * math.cos(shot.angle)
    vy = shot.speed * math.sin(shot.angle)
    return StrokeResult(discs, core.run(params, xs, ys, rs, ms, vx, vy), table.decel)


def _by_id(d: Disc) -> int:
    return d.id
