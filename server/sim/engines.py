"""The two engines built from server/sim/core.py and `simulate`, which picks one.

"cython" is the compiled extension (it shadows core.py on import once built);
"python" is the same source loaded as plain Python under another module name.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Literal

from server.sim import core as _compiled
from server.sim.result import WHERES, DiscPath, StrokeResult, Trajectory
from server.sim.table import POCKETS, Table
from server.sim.types import (
    SIDES,
    STRIKER_ID,
    Disc,
    DiscContact,
    DiscRest,
    Event,
    LeftTable,
    Pocketed,
    RailContact,
    Shot,
    StrikerZone,
)

Engine = Literal["cython", "python"]
PLACE_TOL = 1e-6
"""mm: a disc may sit this far past a rail or into another disc (rounding of an earlier
stroke's final state), no further."""


class SimInputError(ValueError):
    """The stroke cannot be simulated: speed out of range, not finite, or discs placed
    off the table, over a hole, or overlapping."""


def _load_twin() -> ModuleType:
    """core.py executed as plain Python, whether or not the extension is built."""
    name = "server.sim._core_python"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("core.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


PYTHON_CORE = _load_twin()
CYTHON_CORE = _compiled
COMPILED = not str(getattr(_compiled, "__file__", "")).endswith(".py")
"""True when server.sim.core is the built extension (it should always be)."""


def _validate(table: Table, discs: Sequence[Disc], shot: Shot) -> None:
    for name, v in (("x", shot.x), ("y", shot.y), ("angle", shot.angle), ("speed", shot.speed)):
        if not math.isfinite(v):
            raise SimInputError(f"shot {name} is not a finite number: {v!r}")
    if not 0.0 < shot.speed <= table.max_speed:
        raise SimInputError(f"speed {shot.speed} mm/s outside (0, {table.max_speed}]")
    ids = [d.id for d in discs]
    if len(set(ids)) != len(ids):
        raise SimInputError("duplicate disc ids")
    for d in discs[1:]:
        if d.id == STRIKER_ID or d.kind != "puck":
            raise SimInputError(f"disc {d.id}: pucks need ids != {STRIKER_ID} and kind 'puck'")
    radius = {"striker": table.striker_radius, "puck": table.puck_radius}
    for d in discs:
        r = radius[d.kind]
        if not (math.isfinite(d.x) and math.isfinite(d.y)):
            raise SimInputError(f"disc {d.id}: position not finite")
        lo, hi = r - PLACE_TOL, table.size - r + PLACE_TOL
        if not (lo <= d.x <= hi and lo <= d.y <= hi):
            raise SimInputError(f"disc {d.id} at ({d.x}, {d.y}) is off the table")
        for name, cx, cy in table.pocket_centres():
            if math.hypot(d.x - cx, d.y - cy) <= table.pocket_radius:
                raise SimInputError(f"disc {d.id} sits over the {name} hole")
    for k, a in enumerate(discs):
        for b in discs[k + 1 :]:
            reach = radius[a.kind] + radius[b.kind] - PLACE_TOL
            if math.hypot(a.x - b.x, a.y - b.y) < reach:
                raise SimInputError(f"discs {a.id} and {b.id} overlap")


def _event(raw: tuple, ids: list[int]) -> Event:
    kind, t, a, b, v = raw
    if kind == PYTHON_CORE.K_DISC:
        return DiscContact(t, ids[a], ids[b], v)
    if kind == PYTHON_CORE.K_RAIL:
        return RailContact(t, ids[a], SIDES[b], v)
    if kind == PYTHON_CORE.K_POCKET:
        return Pocketed(t, ids[a], POCKETS[b])
    if kind == PYTHON_CORE.K_OFF:
        return LeftTable(t, ids[a], SIDES[b])
    return StrikerZone(t, SIDES[a], bool(b))


def simulate(
    table: Table, pucks: Sequence[Disc], shot: Shot, engine: Engine = "cython"
) -> StrokeResult:
    """Run one stroke to rest.

    The striker (id STRIKER_ID) is placed at (shot.x, shot.y) and leaves at shot.speed
    along shot.angle; `pucks` rest where they are (ids >= 1, any order; results come
    in id order, striker first). Raises SimInputError (a ValueError) for a speed out of
    (0, table.max_speed], non-finite input, or discs off the table, over a hole or
    overlapping.
    """
    striker = Disc(STRIKER_ID, shot.x, shot.y, "striker")
    discs = [striker, *sorted(pucks, key=lambda d: d.id)]
    _validate(table, discs, shot)
    core = {"cython": CYTHON_CORE, "python": PYTHON_CORE}[engine]
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
    radius = {"striker": table.striker_radius, "puck": table.puck_radius}
    mass = {"striker": table.striker_mass, "puck": table.puck_mass}
    events, segs, where, tend, finals, duration = core.run(
        params,
        [float(d.x) for d in discs],
        [float(d.y) for d in discs],
        [radius[d.kind] for d in discs],
        [mass[d.kind] for d in discs],
        shot.speed * math.cos(shot.angle),
        shot.speed * math.sin(shot.angle),
    )
    ids = [d.id for d in discs]
    final = tuple(
        DiscRest(d.id, finals[k][0], finals[k][1], WHERES[where[k]], d.kind, d.owner)
        for k, d in enumerate(discs)
    )
    paths = tuple(
        DiscPath(
            d.id,
            d.kind,
            d.owner,
            WHERES[where[k]],
            tend[k],
            finals[k][0],
            finals[k][1],
            tuple(segs[k]),
        )
        for k, d in enumerate(discs)
    )
    trajectory = Trajectory(table.decel, duration, paths)
    return StrokeResult(tuple(_event(e, ids) for e in events), final, duration, trajectory)
