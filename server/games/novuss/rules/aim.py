"""Aiming for scripted players and tests: strokes that send the striker, or a puck,
where one wants on a frictionless-rail table (straight paths, rails keep the tangential
speed and return e_rail of the normal one, constant sliding deceleration)."""

from __future__ import annotations

import math

from server.games.novuss.rules.geometry import to_local, to_world
from server.games.novuss.rules.state import MatchState
from server.games.novuss.sim.types import Shot


def speed_for(state: MatchState, distance: float, arrive: float) -> float:
    """The cue speed that arrives at `arrive` mm/s after sliding `distance` mm."""
    return math.sqrt(arrive * arrive + 2 * state.table.decel * distance)


def shot_at(
    state: MatchState, seat: int, u: float, v: float, target: tuple[float, float], arrive: float
) -> Shot:
    """A straight shot from local (u, v) of the seat's side at the world point `target`,
    arriving there at `arrive` mm/s."""
    side = state.side_of(seat)
    x, y = to_world(side, u, v, state.table.size)
    tx, ty = target
    dist = math.hypot(tx - x, ty - y)
    return Shot(x, y, math.atan2(ty - y, tx - x), speed_for(state, dist, arrive))


def ghost(state: MatchState, pid: int, pocket: str) -> tuple[float, float]:
    """Where the striker's centre must be when it touches puck `pid` to send it
    straight at `pocket` (the line of centres through the pocket)."""
    t = state.table
    cx, cy = next((x, y) for n, x, y in t.pocket_centres() if n == pocket)
    p = state.puck(pid)
    dx, dy = p.x - cx, p.y - cy
    n = math.hypot(dx, dy)
    reach = t.puck_radius + t.striker_radius
    return p.x + dx / n * reach, p.y + dy / n * reach


def pot_line(state: MatchState, seat: int, pid: int, pocket: str, v: float) -> float | None:
    """The local u at depth v where the striker lines up a full-ball pot of `pid` into
    `pocket`, or None if that line does not come back to the seat's rail."""
    side = state.side_of(seat)
    size = state.table.size
    p = state.puck(pid)
    gx, gy = ghost(state, pid, pocket)
    gu, gv = to_local(side, gx, gy, size)
    pu, pv = to_local(side, p.x, p.y, size)
    du, dv = gu - pu, gv - pv  # from the puck back through the ghost
    if dv >= -1e-9:
        return None
    return gu + du * (v - gv) / dv


def pot(
    state: MatchState, seat: int, pid: int, pocket: str, v: float = 60.0, arrive: float = 700.0
) -> Shot:
    """A full-ball shot sending `pid` straight into `pocket` from local depth v."""
    u = pot_line(state, seat, pid, pocket, v)
    if u is None:
        raise ValueError("that pot does not line up from this side")
    return shot_at(state, seat, u, v, ghost(state, pid, pocket), arrive)


def cut(
    state: MatchState, seat: int, pid: int, pocket: str, u: float, v: float, arrive: float
) -> Shot:
    """A cut shot from local (u, v) at the ghost position for `pid` into `pocket`."""
    return shot_at(state, seat, u, v, ghost(state, pid, pocket), arrive)


def bank(
    state: MatchState,
    seat: int,
    u: float,
    v: float,
    target: tuple[float, float],
    rail: str,
    arrive: float,
) -> Shot:
    """A rebound from local (u, v) off the "opposite", "left" or "right" rail so that the
    striker's centre then runs through the world point `target` at `arrive` mm/s."""
    t = state.table
    size, rs, e = t.size, t.striker_radius, t.e_rail
    side = state.side_of(seat)
    tu, tv = to_local(side, *target, size)
    if rail == "opposite":
        vc = size - rs
        a, b = vc - tv, e * (vc - v)
        contact = ((tu * b + u * a) / (a + b), vc)
    else:
        uc = rs if rail == "left" else size - rs
        a, b = abs(uc - tu), e * abs(uc - u)
        contact = (uc, (tv * b + v * a) / (a + b))
    ang = math.atan2(contact[1] - v, contact[0] - u)
    cu, cv = math.cos(ang), math.sin(ang)
    kept = math.hypot(cu, e * cv) if rail == "opposite" else math.hypot(e * cu, cv)
    d2 = math.hypot(tu - contact[0], tv - contact[1])
    at_rail = speed_for(state, d2, arrive) / kept
    d1 = math.hypot(contact[0] - u, contact[1] - v)
    x, y = to_world(side, u, v, size)
    cx, cy = to_world(side, *contact, size)
    return Shot(x, y, math.atan2(cy - y, cx - x), speed_for(state, d1, at_rail))
