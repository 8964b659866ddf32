"""Where things are, as the rules see them: sides, local frames, zones, blind pucks,
the striking field and the cue's limits. All read from a server.games.novuss.sim Table preset.

A side's local frame is the table as the player standing at that side sees it: u runs
along his own rail from his left to his right, v from his own rail towards the opposite
one. Every frame is a rotation of the world (never a mirror), the same frames as the
browser client's web/js/geometry.js.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

from server.games.novuss.sim.table import Table
from server.games.novuss.sim.types import Side

T = TypeVar("T")

EPS = 1e-9
"""Tolerance for comparisons of lengths (mm) that are equal on paper."""

OPPOSITE: dict[Side, Side] = {"S": "N", "N": "S", "W": "E", "E": "W"}
ROTATION: dict[Side, float] = {"S": 0.0, "E": math.pi / 2, "N": math.pi, "W": -math.pi / 2}


def side_rails(side: Side) -> tuple[Side, Side]:
    """The two side rails of a player at `side` (his left one first)."""
    rails: dict[Side, tuple[Side, Side]] = {
        "S": ("W", "E"),
        "N": ("E", "W"),
        "W": ("N", "S"),
        "E": ("S", "N"),
    }
    return rails[side]


def to_local(side: Side, x: float, y: float, size: float) -> tuple[float, float]:
    """World point -> (u, v) in the local frame of `side`."""
    if side == "S":
        return x, y
    if side == "N":
        return size - x, size - y
    if side == "W":
        return size - y, x
    return y, size - x


def to_world(side: Side, u: float, v: float, size: float) -> tuple[float, float]:
    """(u, v) in the local frame of `side` -> world point."""
    if side == "S":
        return u, v
    if side == "N":
        return size - u, size - v
    if side == "W":
        return v, size - u
    return size - v, u


def wrap_angle(a: float) -> float:
    """An angle in (-pi, pi]."""
    r = math.fmod(a, 2 * math.pi)
    if r <= -math.pi:
        r += 2 * math.pi
    elif r > math.pi:
        r -= 2 * math.pi
    return r


def angle_to_local(side: Side, a: float) -> float:
    """World angle -> angle in the local frame of `side`."""
    return wrap_angle(a - ROTATION[side])


def angle_to_world(side: Side, a: float) -> float:
    """Angle in the local frame of `side` -> world angle."""
    return wrap_angle(a + ROTATION[side])


def in_zone(table: Table, side: Side, x: float, y: float) -> bool:
    """Is a puck at (x, y) in the edge zone along `side`, judged by its hole: the zone
    line must not be visible through the hole (004 § 21 (1), 000 § 3)."""
    return table.rail_distance(side, x, y) <= table.zone_depth - table.puck_hole_radius + EPS


def in_circle(table: Table, x: float, y: float) -> bool:
    """Is a puck at (x, y) in the centre circle, judged by its hole (004 § 21 (1))."""
    c = table.size / 2
    return math.hypot(x - c, y - c) <= table.circle_radius - table.puck_hole_radius + EPS


def blind_test(table: Table, side: Side) -> Callable[[float, float], bool]:
    """in_circle(table, x, y) or in_zone(table, side, x, y) as one function of (x, y), the
    same comparisons of the same numbers: the referee asks it of every puck in every stroke."""
    c = table.size / 2
    circle = table.circle_radius - table.puck_hole_radius + EPS
    zone = table.zone_depth - table.puck_hole_radius + EPS
    size = table.size
    hypot = math.hypot
    if side == "S":
        return lambda x, y: hypot(x - c, y - c) <= circle or y <= zone
    if side == "N":
        return lambda x, y: hypot(x - c, y - c) <= circle or size - y <= zone
    if side == "W":
        return lambda x, y: hypot(x - c, y - c) <= circle or x <= zone
    return lambda x, y: hypot(x - c, y - c) <= circle or size - x <= zone


def striking_field(table: Table) -> tuple[float, float, float, float]:
    """(u_min, u_max, v_min, v_max) of the striker's centre in the local frame: its hole
    entirely inside the own edge zone, between the side zones' lines (004 § 20 (1))."""
    h = table.striker_hole_radius
    return (
        table.zone_depth + h,
        table.size - table.zone_depth - h,
        table.striker_radius,
        table.zone_depth - h,
    )


def in_striking_field(table: Table, side: Side, x: float, y: float) -> bool:
    """Is the striker at world (x, y) inside the striking field of `side` (004 § 20 (1))?"""
    u, v = to_local(side, x, y, table.size)
    u0, u1, v0, v1 = striking_field(table)
    return u0 - EPS <= u <= u1 + EPS and v0 - EPS <= v <= v1 + EPS


def cue_limits_local(table: Table, side: Side, x: float, y: float) -> tuple[float, float]:
    """The local angles [lo, hi] a stroke may take from (x, y): the cue lies behind the
    striker and must cross the own rail between its corners (004 § 20 (5))."""
    u, v = to_local(side, x, y, table.size)
    return math.atan2(v, u), math.atan2(v, u - table.size)


def cue_angle_allowed(table: Table, side: Side, x: float, y: float, angle: float) -> bool:
    """Does a stroke at world `angle` from (x, y) keep the cue within the own rail's
    corners and point away from the own rail (004 § 20 (5))?"""
    lo, hi = cue_limits_local(table, side, x, y)
    a = angle_to_local(side, angle)
    return lo - EPS <= a <= hi + EPS


def home_spots(table: Table, rail: Side) -> tuple[tuple[float, float], ...]:
    """The eight set-up spots along `rail`, left to right as seen from that rail: pucks
    flat, touching each other and the rail, four each side of the middle line
    (004 § 19 (2), 000 § 1)."""
    # Made once per table: the referee looks at intact rows in every stroke while they last.
    return per_table(table, _HOME_SPOTS, _home_rows)[rail]


def _home_rows(table: Table) -> dict[Side, tuple[tuple[float, float], ...]]:
    r = table.puck_radius
    mid = table.size / 2
    return {
        rail: tuple(to_world(rail, mid + (k - 3.5) * 2 * r, r, table.size) for k in range(8))
        for rail in OPPOSITE
    }


_HOME_SPOTS: dict[int, tuple[Table, dict[Side, tuple[tuple[float, float], ...]]]] = {}


def per_table(table: Table, cache: dict[int, tuple[Table, T]], make: Callable[[Table], T]) -> T:
    """make(table), made once per table and kept in `cache`. Keyed by the table's identity,
    the table kept beside it (so that its id is not reused): a Table's hash reads every
    one of its fields, which cost more than what functools.cache kept."""
    got = cache.get(id(table))
    if got is None or got[0] is not table:
        got = cache[id(table)] = (table, make(table))
    return got[1]
