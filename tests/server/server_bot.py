"""A scripted player: from the protocol's view of the table (discs, own side, table geometry),
choose a real stroke that cuts one of its own free pucks towards a pocket.

It reads only what a client receives (docs/protocol.md), so it drives both the pure Match in
unit tests and real websocket clients. Geometry helpers come from the rules' own frames.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from server.games.novuss.rules.geometry import angle_to_world, cue_angle_allowed, to_local, to_world
from server.games.novuss.sim import COMPETITION
from server.games.novuss.sim.types import Side

Disc = dict[str, Any]


def _seg_dist(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance of point p from the segment a-b."""
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _blind(table: dict[str, Any], side: Side, x: float, y: float) -> bool:
    size, h = table["size"], table["puck_hole_radius"]
    c = size / 2
    if math.hypot(x - c, y - c) <= table["circle_radius"] - h:
        return True
    _u, v = to_local(side, x, y, size)
    return bool(v <= table["zone"] - h)


def choose_shot(
    discs: list[Disc], seat: int, side: Side, table: dict[str, Any], mode: str = "singles"
) -> tuple[float, float, float, float]:
    """(x, y, angle, speed) of a stroke for `seat` playing from `side`."""
    size = table["size"]
    rs, rp = table["striker_radius"], table["puck_radius"]
    zone, hs = table["zone"], table["striker_hole_radius"]
    decel = 980.0
    team = seat % 2
    mine = [
        d
        for d in discs
        if (d["owner"] % 2 == team if mode == "doubles" else d["owner"] == seat)
        and not _blind(table, side, d["x"], d["y"])
    ]
    pucks = [(d["x"], d["y"]) for d in discs]
    pockets = list(table["pockets"].values())
    u_lo, u_hi = zone + hs + 1, size - zone - hs - 1
    v_lo, v_hi = rs + 1, zone - hs - 1
    best: tuple[float, tuple[float, float, float, float]] | None = None
    for d in mine:
        px, py = d["x"], d["y"]
        for kx, ky in pockets:
            dk = math.hypot(kx - px, ky - py)
            if dk < 1:
                continue
            ux, uy = (kx - px) / dk, (ky - py) / dk
            gx, gy = px - ux * (rs + rp), py - uy * (rs + rp)
            if not (rs + 1 <= gx <= size - rs - 1 and rs + 1 <= gy <= size - rs - 1):
                continue  # the striker cannot be there: the puck lies too close to a rail
            if any(
                _seg_dist(ox, oy, px, py, kx, ky) < 2 * rp - 1 and (ox, oy) != (px, py)
                for ox, oy in pucks
            ):
                continue
            for i in range(25):
                for v in (v_lo + 2, (v_lo + v_hi) / 2, v_hi - 1):
                    u = u_lo + (u_hi - u_lo) * i / 24
                    sx, sy = to_world(side, u, v, size)
                    if any(math.hypot(ox - sx, oy - sy) <= rs + rp + 1 for ox, oy in pucks):
                        continue
                    dx, dy = gx - sx, gy - sy
                    dist = math.hypot(dx, dy)
                    if dist < 1:
                        continue
                    cos_cut = (dx * ux + dy * uy) / dist
                    if cos_cut < 0.5:
                        continue
                    if any(
                        _seg_dist(ox, oy, sx, sy, gx, gy) < rs + rp + 0.5
                        for ox, oy in pucks
                        if (ox, oy) != (px, py)
                    ):
                        continue
                    if _near_pocket(pockets, sx, sy, gx, gy, table["pocket_radius"]):
                        continue
                    if _follows_in(
                        pockets, gx, gy, dx / dist, dy / dist, ux, uy, size, table["pocket_radius"]
                    ):
                        continue
                    angle = math.atan2(dy, dx)
                    if not cue_angle_allowed(COMPETITION, side, sx, sy, angle):
                        continue  # 004 § 20 (5): the cue within the own rail's corners
                    # speeds: the puck must reach the pocket, the striker the ghost point
                    v_puck = math.sqrt(2 * decel * (dk + 60))
                    v_contact = v_puck / (cos_cut * 1.85 * 20 / 23.1)
                    speed = min(4000.0, max(600.0, math.sqrt(v_contact**2 + 2 * decel * dist)))
                    score = cos_cut * 2 - dist / 2000 - dk / 2000
                    if best is None or score > best[0]:
                        best = (score, (sx, sy, angle, speed))
    if best is not None:
        return best[1]
    field = (u_lo, u_hi, v_lo, v_hi)
    return _direct(mine, pucks, pockets, side, size, rs, rp, table["pocket_radius"], field)


M_STRIKER, M_PUCK, E_DISC = 20.0, 3.1, 0.85  # the table preset's masses and restitution


def _follows_in(
    pockets: list[Any],
    gx: float,
    gy: float,
    dx: float,
    dy: float,
    nx: float,
    ny: float,
    size: float,
    pocket_r: float,
) -> bool:
    """After hitting the puck at the ghost point g (going d, contact normal n), would the
    heavier striker run on into a pocket? Followed up to the first rail."""
    vn = dx * nx + dy * ny
    tx, ty = dx - vn * nx, dy - vn * ny
    keep = (M_STRIKER - E_DISC * M_PUCK) / (M_STRIKER + M_PUCK)
    ax, ay = nx * vn * keep + tx, ny * vn * keep + ty
    n = math.hypot(ax, ay)
    if n < 1e-9:
        return False
    ax, ay = ax / n, ay / n
    # distance to the first rail along the ray
    reach = min(
        ((size - gx) / ax) if ax > 0 else (-gx / ax) if ax < 0 else 1e9,
        ((size - gy) / ay) if ay > 0 else (-gy / ay) if ay < 0 else 1e9,
    )
    return _near_pocket(pockets, gx, gy, gx + ax * reach, gy + ay * reach, pocket_r + 10)


def _near_pocket(pockets: list[Any], ax: float, ay: float, bx: float, by: float, r: float) -> bool:
    """Would a striker going from a to b pass over a pocket's hole (and fall in)?"""
    return any(_seg_dist(kx, ky, ax, ay, bx, by) < r + 2 for kx, ky in pockets)


def _placements(
    side: Side, size: float, field: tuple[float, float, float, float]
) -> Iterator[tuple[float, float, float, float]]:
    """(u, v, x, y) of the striker placements tried, spread over the own zone."""
    u_lo, u_hi, v_lo, v_hi = field
    for i in range(41):
        for v in (v_lo + 2, (v_lo + v_hi) / 2, v_hi - 1):
            u = u_lo + (u_hi - u_lo) * i / 40
            yield (u, v, *to_world(side, u, v, size))


def _direct(
    mine: list[Disc],
    pucks: list[tuple[float, float]],
    pockets: list[Any],
    side: Side,
    size: float,
    rs: float,
    rp: float,
    pocket_r: float,
    field: tuple[float, float, float, float],
) -> tuple[float, float, float, float]:
    """No clean cut: strike one of the own pucks full on (a break), or straight ahead."""
    best: tuple[float, tuple[float, float, float, float]] | None = None
    fallback = None
    for _u, v, sx, sy in _placements(side, size, field):
        if any(math.hypot(ox - sx, oy - sy) <= rs + rp + 1 for ox, oy in pucks):
            continue
        if fallback is None or abs(_u - size / 2) < abs(fallback[0] - size / 2):
            fallback = (_u, (sx, sy, angle_to_world(side, math.pi / 2), 1500.0))
        for d in mine:
            px, py = d["x"], d["y"]
            if to_local(side, px, py, size)[1] <= v + 1:
                continue
            dist = math.hypot(px - sx, py - sy)
            ux, uy = (px - sx) / dist, (py - sy) / dist
            ex, ey = px - ux * (rs + rp), py - uy * (rs + rp)
            if any(
                _seg_dist(ox, oy, sx, sy, ex, ey) < rs + rp + 0.5
                for ox, oy in pucks
                if (ox, oy) != (px, py)
            ):
                continue
            if _near_pocket(pockets, sx, sy, ex, ey, pocket_r):
                continue
            angle = math.atan2(uy, ux)
            if not cue_angle_allowed(COMPETITION, side, sx, sy, angle):
                continue
            if best is None or dist < best[0]:
                best = (dist, (sx, sy, angle, 3000.0))
    if best is not None:
        return best[1]
    rebound = _rebound(mine, pucks, pockets, side, size, rs, rp, pocket_r, field)
    if rebound is not None:
        return rebound
    assert fallback is not None, "no free placement at all"
    return fallback[1]


E_RAIL = 0.65  # the table preset's rail restitution: the normal speed kept after a bounce


def _rebound(
    mine: list[Disc],
    pucks: list[tuple[float, float]],
    pockets: list[Any],
    side: Side,
    size: float,
    rs: float,
    rp: float,
    pocket_r: float,
    field: tuple[float, float, float, float],
) -> tuple[float, float, float, float] | None:
    """A stroke off a side rail onto an own puck (worked out in the shooter's local frame,
    where the side rails are u = 0 and u = size)."""
    loc_pucks = [to_local(side, x, y, size) for x, y in pucks]
    loc_pockets = [to_local(side, x, y, size) for x, y in pockets]
    best: tuple[float, tuple[float, float, float, float]] | None = None
    for d in mine:
        pu, pv = to_local(side, d["x"], d["y"], size)
        for rail_u in (rs, size - rs):
            for _u, v, _sx, _sy in _placements(side, size, field):
                su, sv = _u, v
                if any(math.hypot(ou - su, ov - sv) <= rs + rp + 1 for ou, ov in loc_pucks):
                    continue
                # aim at the puck's centre after the bounce; contact 38 mm before it
                t = (rail_u - pu) / (E_RAIL * (rail_u - su)) if rail_u != su else -1
                if t <= 0:
                    continue
                rv = (pv + t * sv) / (1 + t)
                if not sv < rv < size - rs:
                    continue
                ou_dir, ov_dir = -E_RAIL * (rail_u - su), rv - sv
                n = math.hypot(ou_dir, ov_dir)
                eu, ev = pu - ou_dir / n * (rs + rp), pv - ov_dir / n * (rs + rp)
                legs = ((su, sv, rail_u, rv), (rail_u, rv, eu, ev))
                blocked = any(
                    _seg_dist(ou, ov, *leg) < rs + rp + 0.5
                    for leg in legs
                    for ou, ov in loc_pucks
                    if (ou, ov) != (pu, pv)
                ) or any(_near_pocket(loc_pockets, *leg, pocket_r) for leg in legs)
                if blocked:
                    continue
                length = math.hypot(rail_u - su, rv - sv) + math.hypot(eu - rail_u, ev - rv)
                angle = angle_to_world(side, math.atan2(rv - sv, rail_u - su))
                sx, sy = to_world(side, su, sv, size)
                if not cue_angle_allowed(COMPETITION, side, sx, sy, angle):
                    continue
                if best is None or length < best[0]:
                    speed = min(4000.0, math.sqrt(2 * 980.0 * length) * 1.6 + 500)
                    best = (length, (sx, sy, angle, speed))
    return None if best is None else best[1]
