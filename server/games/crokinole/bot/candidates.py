"""The shots the Crokinole computer considers (seed 002 § 3, 5).

Every candidate starts touching the shooting line, inside the shooter's quadrant, on no
other disc (002 5). When an opposing disc is in play each aims at one of them, straight
or cut, hard enough to take it off (002 3 a: a valid shot must strike one). When none is,
each aims to rest inside the 15 line or in the 20-hole (002 3 b, "no hiding").
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from server.games.core.play import Shot
from server.games.crokinole.judge import aim
from server.games.crokinole.rules import ShotRefused, State, check_placement, quadrant_centre

SPREAD = math.radians(40.0)  # placements stay this far inside the quadrant's edges (002 5)
INSIDE = 0.01  # mm: the disc's centre this far in from touching the shooting line
SLOWEST = 20.0  # mm/s: a flick moves the disc


@dataclass(frozen=True, slots=True)
class Candidate:
    """A shot considered, with the opposing disc it aims at (None: a draw, 002 3 b)."""

    shot: Shot
    target: int | None


def placements(
    state: State, seat: int, rng: random.Random, count: int
) -> list[tuple[float, float]]:
    """Up to `count` legal starts for the seat (002 5): touching the shooting line, in
    its quadrant, evenly spread with a little jitter, each one checked."""
    b = state.board
    r = b.shooting_radius - b.disc_radius + INSIDE
    centre = quadrant_centre(state.options.quadrant(seat))
    out: list[tuple[float, float]] = []
    for k in range(count * 3):
        if len(out) >= count:
            break
        frac = (k % count + rng.random()) / count if count > 1 else rng.random()
        a = centre - SPREAD + 2.0 * SPREAD * frac
        x, y = r * math.cos(a), r * math.sin(a)
        if legal_spot(state, seat, x, y):
            out.append((x, y))
    return out


def legal_spot(state: State, seat: int, x: float, y: float) -> bool:
    """The start is one check_placement accepts (002 5)."""
    try:
        check_placement(state, seat, x, y)
    except ShotRefused:
        return False
    return True


def opponents(state: State, seat: int) -> list[int]:
    """Ids of the discs in play of every other side (002 3 a)."""
    side = state.options.side_of
    mine = side(seat)
    return [d.id for d in state.discs if side(d.seat) != mine]


def clamp(state: State, speed: float) -> float:
    """A speed the physics accepts: moving, at most the board's fastest flick."""
    return min(max(speed, SLOWEST), state.board.max_speed)


def ideas(state: State, seat: int, rng: random.Random, count: int) -> list[Candidate]:
    """`count` candidate shots, sampled: aims at each opposing disc when one is in play
    (002 3 a), else draws to the 20-hole and inside the 15 line (002 3 b)."""
    b = state.board
    spots = placements(state, seat, rng, max(3, min(12, count // 3)))
    if not spots:
        return []
    where = {d.id: (d.x, d.y) for d in state.discs}
    targets = opponents(state, seat)
    out: list[Candidate] = []
    for k in range(count):
        x, y = spots[k % len(spots)]
        if targets:
            tid = targets[(k // len(spots)) % len(targets)]
            tx, ty = where[tid]
            # a cut: aim off the target's centre by up to a disc's width either side
            off = rng.uniform(-1.6, 1.6) * b.disc_radius
            dx, dy = tx - x, ty - y
            n = math.hypot(dx, dy) or 1.0
            ax, ay = tx - dy / n * off, ty + dx / n * off
            slide = rng.choice((60.0, 200.0, 400.0, 800.0)) * rng.uniform(0.7, 1.3)
            angle, speed = aim(x, y, ax, ay, slide, b.decel)
            out.append(Candidate(Shot(x, y, angle, clamp(state, speed)), tid))
        else:
            # rest in the 20-hole or somewhere inside the 15 line
            rho = 0.0 if k % 3 == 0 else rng.uniform(0.0, b.ring15_radius - b.disc_radius)
            phi = rng.uniform(-math.pi, math.pi)
            tx, ty = rho * math.cos(phi), rho * math.sin(phi)
            angle, speed = aim(x, y, tx, ty, 0.0, b.decel)
            speed *= math.exp(rng.gauss(0.0, 0.02))
            out.append(Candidate(Shot(x, y, angle, clamp(state, speed)), None))
    return out


def stray(state: State, shot: Shot, angle_sd: float, speed_sd: float, rng: random.Random) -> Shot:
    """`shot` as a hand with these errors plays it: the start exact (placed where the
    player clicks), the direction and speed off by a normal error, the speed kept legal."""
    angle = shot.angle + rng.gauss(0.0, angle_sd)
    speed = clamp(state, shot.speed * math.exp(rng.gauss(0.0, speed_sd)))
    return Shot(shot.x, shot.y, angle, speed)
