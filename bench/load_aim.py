"""The load clients' aim: a stroke straight at one of the player's own pucks, cheap to find.

It reads only what a client receives (docs/protocol.md: discs, the seat's side, the table) and
the rules' geometry helpers, so a scripted player spends microseconds per turn, not the
milliseconds of a careful bot: the load harness runs thousands of players on two cores.
"""

from __future__ import annotations

import math
from typing import Any

from server.games.novuss.rules.geometry import angle_to_world, cue_angle_allowed, to_local, to_world
from server.games.novuss.sim import COMPETITION
from server.games.novuss.sim.types import SIDES, Side

Shot = tuple[float, float, float, float]  # x, y, angle, speed


def _side(name: str) -> Side:
    """A side named in a `room` message, as the rules' Side."""
    for side in SIDES:
        if side == name:
            return side
    raise ValueError(f"no side {name!r}")


def choose(
    discs: list[dict[str, Any]], seat: int, side_name: str, table: dict[str, Any], doubles: bool
) -> Shot | None:
    """(x, y, angle, speed) aiming the striker at the nearest own puck ahead of the zone, or
    straight up the table from a free spot; None when no placement is free (then pass)."""
    size, zone = table["size"], table["zone"]
    rs, rp, hs = table["striker_radius"], table["puck_radius"], table["striker_hole_radius"]
    u_lo, u_hi = zone + hs + 1, size - zone - hs - 1
    v = (rs + 1 + zone - hs - 1) / 2  # the middle of the own zone's depth
    side = _side(side_name)
    pucks = [(d["x"], d["y"]) for d in discs]
    local = [to_local(side, x, y, size) for x, y in pucks]

    def free(u: float) -> bool:
        return all(math.hypot(pu - u, pv - v) > rs + rp + 1 for pu, pv in local)

    mine = [
        to_local(side, d["x"], d["y"], size)
        for d in discs
        if (d["owner"] % 2 == seat % 2 if doubles else d["owner"] == seat)
    ]
    for pu, pv in sorted((p for p in mine if p[1] > zone + rp), key=lambda p: p[1]):
        u = min(u_hi, max(u_lo, pu))
        if not free(u):
            continue
        x, y = to_world(side, u, v, size)
        px, py = to_world(side, pu, pv, size)
        angle = math.atan2(py - y, px - x)
        if cue_angle_allowed(COMPETITION, side, x, y, angle):
            return x, y, angle, 2500.0
    for i in range(21):  # no own puck to aim at: straight ahead from the first free spot
        u = size / 2 + (i // 2) * (u_hi - u_lo) / 20 * (1 if i % 2 else -1)
        if u_lo <= u <= u_hi and free(u):
            x, y = to_world(side, u, v, size)
            return x, y, angle_to_world(side, math.pi / 2), 1500.0
    return None
