"""Where the referee puts pucks back on the table: penalty pucks (004 § 24 (3)), pucks
that went over the rail (004 § 20 (14)) and pucks whose position is restored
(004 § 21 (4), (7), (9)). Pure geometry over the pucks already on the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from server.games.novuss.rules.geometry import (
    EPS,
    OPPOSITE,
    in_zone,
    per_table,
    side_rails,
    to_local,
    to_world,
)
from server.games.novuss.sim.table import Table
from server.games.novuss.sim.types import Side

Point = tuple[float, float]
GAP = 1e-6
"""A placed puck is put this far (mm) clear of its neighbours: touching, never overlapping."""


def is_free(
    table: Table, x: float, y: float, others: Iterable[Point], hole_clear: float | None = None
) -> bool:
    """Can a puck lie at (x, y): on the surface, overlapping no other puck, its centre at
    least `hole_clear` from every hole's centre (by default the puck clear of the holes)?"""
    r = table.puck_radius
    clear = table.pocket_radius + r if hole_clear is None else hole_clear
    if not (r - EPS <= x <= table.size - r + EPS and r - EPS <= y <= table.size - r + EPS):
        return False
    hypot = math.hypot
    for _, px, py in _pockets(table):
        if hypot(x - px, y - py) < clear:
            return False
    reach = 2 * r - EPS
    far = reach + 1.0  # a puck this far away along an axis is clear without measuring
    for ox, oy in others:
        dx = x - ox
        dy = y - oy
        if dx >= far or dx <= -far or dy >= far or dy <= -far:
            continue
        if not hypot(dx, dy) >= reach:  # not >=: a coordinate that is not a number is taken
            return False
    return True


def _pockets(table: Table) -> tuple[tuple[str, float, float], ...]:
    """table.pocket_centres(), made once: a placement tests a point against them many times."""
    return per_table(table, _POCKETS, Table.pocket_centres)


_POCKETS: dict[int, tuple[Table, tuple[tuple[str, float, float], ...]]] = {}


def nearest_free(
    table: Table, x: float, y: float, others: Sequence[Point], hole_clear: float | None = None
) -> Point:
    """The free spot nearest to (x, y): the spot itself if free, else the first free
    point on rings of growing radius (used when a restored puck's place was taken,
    004 § 21 (7): 'without moving other pucks')."""
    if is_free(table, x, y, others, hole_clear):
        return x, y
    step = 0.5
    for k in range(1, 4000):
        rad = k * step
        n = max(8, int(2 * math.pi * rad / step))
        for i in range(n):
            a = 2 * math.pi * i / n
            px, py = x + rad * math.cos(a), y + rad * math.sin(a)
            if is_free(table, px, py, others, hole_clear):
                return px, py
    raise RuntimeError("no free spot on the table")  # 32 pucks cannot fill the table


def _free_along(
    table: Table,
    rail: Side,
    v: float,
    u0: float,
    direction: int,
    others: Sequence[Point],
    near: Sequence[Point],
) -> float | None:
    """Walking from u0 along the line at depth v of `rail`'s local frame, the first u
    where a puck fits, or None if none does before the table's end. others: the pucks
    that may be in the way (at least those closer than a puck's diameter to the line);
    near: the same in that frame."""
    r = table.puck_radius
    u = u0
    for _ in range(200):
        if not (r - EPS <= u <= table.size - r + EPS):
            return None
        x, y = to_world(rail, u, v, table.size)
        if is_free(table, x, y, others):
            return u
        # Jump past the blocker: the far end of the first interval covering u.
        jump = None
        for ou, ov in near:
            dv = abs(ov - v)
            if dv < 2 * r:
                w = math.sqrt((2 * r) ** 2 - dv * dv)
                if ou - w - EPS < u < ou + w + EPS:
                    end = ou + w + GAP if direction > 0 else ou - w - GAP
                    jump = (
                        end
                        if jump is None
                        else (max(jump, end) if direction > 0 else min(jump, end))
                    )
        if jump is None:  # blocked by a pocket or the surface's end: step on
            jump = u + direction * 0.5
        u = jump
    return None


def _near_line(
    rail: Side, v: float, reach: float, others: Sequence[Point], size: float
) -> tuple[list[Point], list[Point]]:
    """The points closer than `reach` to the line at depth v of `rail`'s local frame, in that
    frame and as they are: to_local's very sums, written out per rail (this runs for every
    penalty puck). Not >=: a point that is not a number is kept, as is_free takes it."""
    if rail == "S":
        close = [(x, y) for x, y in others if not abs(y - v) >= reach]
        return close, close
    if rail == "N":
        close = [(x, y) for x, y in others if not abs(size - y - v) >= reach]
        return [(size - x, size - y) for x, y in close], close
    if rail == "W":
        close = [(x, y) for x, y in others if not abs(x - v) >= reach]
        return [(size - y, x) for x, y in close], close
    close = [(x, y) for x, y in others if not abs(size - x - v) >= reach]
    return [(y, size - x) for x, y in close], close


def penalty_spot(
    table: Table, rail: Side, owner_pucks: Sequence[Point], others: Sequence[Point]
) -> Point:
    """Where the next penalty puck goes (004 § 24 (3)): in the edge zone along `rail`
    (the zone opposite the penalised player), tight against the rail, on the zone's
    middle line; if pucks are in the way, as close to the middle line as possible
    without moving them. At equal distances both ways: the side where the penalised
    player has fewer pucks (in that zone), then the side with fewer pucks in all, then
    (a referee's choice made fixed) the left side as seen from that rail.
    owner_pucks: the penalised player's (team's) pucks on the table; others: all pucks."""
    mid = table.size / 2
    v = table.puck_radius
    # Only the pucks closer than a diameter to the line along the rail can be in the way
    # of a puck on it: is_free finds every other one clear (at 2r or more; it needs
    # 2r - EPS), so it is asked about these alone, with the same answers.
    near, close = _near_line(rail, v, 2 * table.puck_radius, others, table.size)
    if is_free(table, *to_world(rail, mid, v, table.size), close):
        return to_world(rail, mid, v, table.size)  # the middle line itself is free
    right = _free_along(table, rail, v, mid, +1, close, near)
    left = _free_along(table, rail, v, mid, -1, close, near)
    if right is None and left is None:
        return nearest_free(table, *to_world(rail, mid, v, table.size), others)
    if right is None or left is None:
        u = left if right is None else right
        assert u is not None
        return to_world(rail, u, v, table.size)
    dr, dl = right - mid, mid - left
    if abs(dr - dl) > 1e-6:
        return to_world(rail, right if dr < dl else left, v, table.size)

    def count(points: Sequence[Point]) -> tuple[int, int]:
        lo = hi = 0
        for ox, oy in points:
            if in_zone(table, rail, ox, oy):
                u, _ = to_local(rail, ox, oy, table.size)
                if u < mid:
                    lo += 1
                elif u > mid:
                    hi += 1
        return lo, hi

    for lo, hi in (count(owner_pucks), count(others)):
        if lo != hi:
            return to_world(rail, left if lo < hi else right, v, table.size)
    return to_world(rail, left, v, table.size)


def respot_spot(table: Table, rail: Side, others: Sequence[Point]) -> Point:
    """Where a puck that went over `rail` is put (004 § 20 (14), 000 § 2): the centre
    of the centre circle; else on the diameter line towards the rail it went over,
    touching the circle from inside; else the other such points, the nearest to that
    side first; else on a diameter line between the pucks there, with equal gaps, the
    side it went over first."""
    c = table.size / 2
    d = table.circle_radius - table.puck_radius
    if is_free(table, c, c, others):
        return c, c
    # Directions towards each rail from the centre, in the local frame of `rail`:
    # towards it (v decreasing), the two side rails, then away from it.
    left, right = side_rails(OPPOSITE[rail])
    order: list[Side] = [rail, left, right, OPPOSITE[rail]]
    spokes = []
    for s in order:
        sx, sy = to_world(s, c, 0.0, table.size)
        ux, uy = (sx - c) / c, (sy - c) / c  # unit vector from the centre to rail s
        spokes.append((ux, uy))
        x, y = c + d * ux, c + d * uy
        if is_free(table, x, y, others):
            return x, y
    for ux, uy in spokes:
        spot = _middle_of_widest_gap(table, ux, uy, d, others)
        if spot is not None:
            return spot
    return nearest_free(table, c, c, others)


def _middle_of_widest_gap(
    table: Table, ux: float, uy: float, d: float, others: Sequence[Point]
) -> Point | None:
    """On the radius from the centre along (ux, uy), out to d: the middle of the widest
    stretch where a puck fits (equal gaps to the pucks either side), or None."""
    c = table.size / 2
    r = table.puck_radius
    blocked: list[tuple[float, float]] = []
    for ox, oy in others:
        along = (ox - c) * ux + (oy - c) * uy
        across = abs(-(ox - c) * uy + (oy - c) * ux)
        if across < 2 * r:
            w = math.sqrt((2 * r) ** 2 - across * across)
            blocked.append((along - w, along + w))
    blocked.sort()
    best: tuple[float, float] | None = None
    t = 0.0
    for a, b in [*blocked, (d + 1e9, d + 1e9)]:
        hi = min(a, d)
        if hi - t > EPS and (best is None or hi - t > best[1] - best[0]):
            best = (t, hi)
        t = max(t, b)
        if t >= d:
            break
    if best is None:
        return None
    mid = (best[0] + best[1]) / 2
    x, y = c + mid * ux, c + mid * uy
    return (x, y) if is_free(table, x, y, others) else None


def separate(table: Table, spots: dict[int, Point], movable: Iterable[int]) -> dict[int, Point]:
    """Pucks that came to rest overlapping, as if one lay on top of the other, are put
    side by side without moving other pucks (004 § 20 (10), 000 § 2): the higher-id
    puck of each overlapping pair goes next to the other along their line of centres,
    or to the nearest free spot. Returns the pucks that were moved, with their spots."""
    r = table.puck_radius
    chosen = set(movable)
    # Nearly every stroke leaves no overlap: a cheap sweep says so, and nothing moves.
    if not _any_overlap(spots, chosen, 2 * r - 1e-7):
        return {}
    ids = sorted(chosen)
    moved: dict[int, Point] = {}
    cur = dict(spots)
    for pid in ids:
        x, y = cur[pid]
        for oid, (ox, oy) in sorted(cur.items()):
            if oid >= pid:
                continue
            dist = math.hypot(x - ox, y - oy)
            if dist < 2 * r - 1e-7:
                others = [p for k, p in cur.items() if k != pid]
                if dist > EPS:
                    k = (2 * r + GAP) / dist
                    tx, ty = ox + (x - ox) * k, oy + (y - oy) * k
                else:
                    tx, ty = x, y
                x, y = nearest_free(table, tx, ty, others, table.pocket_radius)
                cur[pid] = moved[pid] = (x, y)
    return moved


def _any_overlap(spots: dict[int, Point], movable: set[int], limit: float) -> bool:
    """Does a movable puck lie closer than `limit` to a puck of lower id (the pairs that
    separate() moves)? A sweep along x: only pucks closer than `limit` in x and in y are
    measured, with the same distance as separate() takes. True also when a coordinate is
    not finite: the sweep needs them ordered, and separate() then checks every pair."""
    if len(movable) == len(spots) and movable.issuperset(spots):
        return _any_pair_closer(list(spots.values()), limit)
    if not math.isfinite(sum([x + y for x, y in spots.values()])):
        return True
    by_x = sorted([(x, y, pid) for pid, (x, y) in spots.items()])
    xs = [x for x, _, _ in by_x]
    n = len(by_x)
    # A puck whose next one along x is `limit` away or more is near none further on.
    for i in [i for i in range(n - 1) if xs[i + 1] - xs[i] < limit]:
        x, y, pid = by_x[i]
        for j in range(i + 1, n):
            ox, oy, oid = by_x[j]
            if ox - x >= limit:
                break
            if abs(oy - y) >= limit or max(pid, oid) not in movable:
                continue
            if math.hypot(x - ox, y - oy) < limit:
                return True
    return False


def _any_pair_closer(points: list[Point], limit: float) -> bool:
    """_any_overlap when every puck may move (the referee's case after a stroke): any two
    points closer than `limit`, found by the same sweep over the points themselves (no
    ids to carry, none to look up). True also when a coordinate is not finite."""
    points.sort()
    xs = [x for x, _ in points]
    if not math.isfinite(sum(xs) + sum([y for _, y in points])):
        return True
    n = len(points)
    hypot = math.hypot
    for i in [i for i in range(n - 1) if xs[i + 1] - xs[i] < limit]:
        x, y = points[i]
        for j in range(i + 1, n):
            ox, oy = points[j]
            if ox - x >= limit:
                break
            if -limit < oy - y < limit and hypot(x - ox, y - oy) < limit:
                return True
    return False
