"""The strokes the computer considers: placements along its striking field, aims and
speeds, each one a stroke `check_stroke` accepts.

Kinds, best ideas first (the search tries them in that order while its budget lasts):
pots (a free own puck sent at a pocket, full-ball or cut), combinations (a free own puck
sent into another own puck that goes in), rebounds (off the opposite or a side rail at
an own puck, toward a pocket or at its centre: the only legal way to a blind puck,
004 § 21 (2), (3)), and touches (an own puck pushed softly, to keep the table safe).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from server.rules.aim import bank, shot_at
from server.rules.check import check_stroke, max_speed
from server.rules.geometry import cue_limits_local, striking_field, to_local, to_world
from server.rules.judge import blind_for
from server.rules.ruling import StrokeRefused
from server.rules.state import MatchState, team_of
from server.sim.types import POCKETS, Pocket, Shot

MASS_GAIN = 1.6
"""A puck's speed over the striker's at a full-ball hit: (1 + e) M / (M + m) = 1.6."""
PUCK_GAIN = 0.925
"""A puck's speed over another puck's at a full-ball hit: (1 + e) / 2."""
MAX_CUT = math.radians(68)
"""Thinner cuts than this miss the ghost point's puck or barely move it."""
OVERRUN = (90.0, 260.0, 600.0)
"""How far past the pocket a potted puck would still slide (mm): soft, firm, hard."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A stroke the computer means, with what it aims at (for hints and reports)."""

    shot: Shot
    kind: str
    target: int | None
    pocket: Pocket | None


def legal(state: MatchState, seat: int, shot: Shot) -> bool:
    """Does `check_stroke` accept the stroke?"""
    try:
        check_stroke(state, seat, shot)
    except StrokeRefused:
        return False
    return True


def pocket_at(state: MatchState, pocket: Pocket) -> tuple[float, float]:
    """A pocket's centre."""
    return next((x, y) for n, x, y in state.table.pocket_centres() if n == pocket)


def behind(
    point: tuple[float, float], toward: tuple[float, float], reach: float
) -> tuple[float, float]:
    """The point `reach` mm behind `point` on the line from `toward` through it: where
    a disc's centre must touch to send the disc at `point` straight at `toward`."""
    dx, dy = point[0] - toward[0], point[1] - toward[1]
    n = math.hypot(dx, dy) or 1.0
    return point[0] + dx / n * reach, point[1] + dy / n * reach


def path_clear(
    state: MatchState,
    a: tuple[float, float],
    b: tuple[float, float],
    reach: float,
    skip: frozenset[int],
) -> bool:
    """Does a disc running from a to b pass every puck (but `skip`) by `reach`?"""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n2 = dx * dx + dy * dy or 1.0
    for p in state.on_table():
        if p.id in skip:
            continue
        k = max(0.0, min(1.0, ((p.x - ax) * dx + (p.y - ay) * dy) / n2))
        if math.hypot(ax + k * dx - p.x, ay + k * dy - p.y) < reach:
            return False
    return True


class Generator:
    """Candidate strokes for `seat` in `state`, drawn with `rng` (placements)."""

    def __init__(self, state: MatchState, seat: int, rng: random.Random) -> None:
        self.state = state
        self.seat = seat
        self.rng = rng
        self.table = state.table
        self.side = state.side_of(seat)
        self.field = striking_field(self.table)
        team = team_of(seat)
        mine = [p for p in state.on_table() if team_of(p.owner) == team]
        self.blind = [p for p in mine if blind_for(state, self.side, p)]
        self.free = [p for p in mine if not blind_for(state, self.side, p)]
        self.reach = self.table.puck_radius + self.table.striker_radius
        self.limit = max_speed(state)

    # -- the pieces ------------------------------------------------------------------
    def depths(self) -> tuple[float, ...]:
        """Depths (local v) the striker is placed at: near the rail, middle, near the line."""
        _, _, v0, v1 = self.field
        return (v0 + 1.0, (v0 + v1) / 2, v1 - 1.0)

    def spots(self, n: int) -> list[tuple[float, float]]:
        """`n` placements spread over the striking field (local u, v), jittered."""
        u0, u1, v0, v1 = self.field
        out = []
        for k in range(n):
            u = u0 + (u1 - u0) * (k + self.rng.random()) / n
            out.append((u, self.rng.uniform(v0 + 1.0, v1 - 1.0)))
        return out

    def _make(self, x: float, y: float, tx: float, ty: float, speed: float) -> Shot | None:
        """The stroke from world (x, y) at (tx, ty), if its speed is allowed."""
        if not 0 < speed <= self.limit:
            return None
        return Shot(x, y, math.atan2(ty - y, tx - x), speed)

    def _ok(self, shot: Shot | None) -> bool:
        return shot is not None and legal(self.state, self.seat, shot)

    def _cut_shots(
        self,
        ghost: tuple[float, float],
        heading: tuple[float, float],
        run: float,
        u_v: list[tuple[float, float]],
    ) -> Iterator[Shot]:
        """Strokes from each local (u, v) at `ghost`, the struck disc then heading along
        the unit vector `heading` with enough speed to slide `run` mm plus an overrun."""
        size = self.table.size
        decel = self.table.decel
        for u, v in u_v:
            x, y = to_world(self.side, u, v, size)
            dx, dy = ghost[0] - x, ghost[1] - y
            dist = math.hypot(dx, dy)
            if dist < 1.0:
                continue
            cos_cut = (dx * heading[0] + dy * heading[1]) / dist
            if cos_cut < math.cos(MAX_CUT):
                continue
            for extra in OVERRUN:
                needed = math.sqrt(2 * decel * (run + extra)) / (MASS_GAIN * cos_cut)
                speed = math.sqrt(needed * needed + 2 * decel * dist)
                shot = self._make(x, y, ghost[0], ghost[1], speed)
                if shot is not None:
                    yield shot

    def _lines(
        self, ghost: tuple[float, float], heading: tuple[float, float]
    ) -> list[tuple[float, float]]:
        """Placements (local u, v) on the full-ball line through `ghost` along
        `heading`, at each depth, that fall inside the striking field."""
        u0, u1, _, _ = self.field
        size = self.table.size
        gu, gv = to_local(self.side, *ghost, size)
        hu, hv = to_local(self.side, ghost[0] + heading[0], ghost[1] + heading[1], size)
        du, dv = hu - gu, hv - gv
        if dv <= 1e-6:
            return []
        out: list[tuple[float, float]] = []
        for v in self.depths():
            u = gu + du * (v - gv) / dv
            if u0 <= u <= u1:
                out.append((u, v))
        return out

    # -- the kinds -------------------------------------------------------------------
    def pots(self, spread: int) -> Iterator[Candidate]:
        """Free own pucks at each pocket: full-ball lines, then cuts from `spread`
        placements; only where the striker's and the puck's paths look clear."""
        for p in self.free:
            for pocket in POCKETS:
                c = pocket_at(self.state, pocket)
                run = math.hypot(c[0] - p.x, c[1] - p.y)
                heading = ((c[0] - p.x) / run, (c[1] - p.y) / run)
                if not path_clear(
                    self.state, (p.x, p.y), c, 2 * self.table.puck_radius, frozenset({p.id})
                ):
                    continue
                ghost = behind((p.x, p.y), c, self.reach)
                places = self._lines(ghost, heading) + self.spots(spread)
                for shot in self._cut_shots(ghost, heading, run, places):
                    start = (shot.x, shot.y)
                    if path_clear(self.state, start, ghost, self.reach, frozenset({p.id})) and (
                        self._ok(shot)
                    ):
                        yield Candidate(shot, "pot", p.id, pocket)

    def combos(self, spread: int) -> Iterator[Candidate]:
        """A free own puck `a` sent into another own puck `b` that goes in."""
        two_r = 2 * self.table.puck_radius
        mine = self.free + self.blind
        for b in mine:
            for pocket in POCKETS:
                c = pocket_at(self.state, pocket)
                run_b = math.hypot(c[0] - b.x, c[1] - b.y)
                gb = behind((b.x, b.y), c, two_r)
                for a in self.free:
                    if a.id == b.id:
                        continue
                    run_a = math.hypot(gb[0] - a.x, gb[1] - a.y)
                    if run_a < 1.0 or run_a > 500.0:
                        continue
                    heading = ((gb[0] - a.x) / run_a, (gb[1] - a.y) / run_a)
                    ga = behind((a.x, a.y), gb, self.reach)
                    # the run `a` must make, counted as if b's run were a's, slowed by the
                    # puck-on-puck transfer
                    run = run_a + run_b / (PUCK_GAIN * PUCK_GAIN)
                    places = self._lines(ga, heading) + self.spots(spread)
                    for shot in self._cut_shots(ga, heading, run, places):
                        if self._ok(shot):
                            yield Candidate(shot, "combo", b.id, pocket)

    def rebounds(self, spread: int) -> Iterator[Candidate]:
        """Off the opposite and the side rails at each own puck: toward each pocket
        through its ghost point, and at its centre (004 § 21 (2), (3), (5))."""
        rails = ("opposite", "left", "right")
        for p in self.blind + self.free:
            aims: list[tuple[tuple[float, float], Pocket | None, float]] = []
            for pocket in POCKETS:
                c = pocket_at(self.state, pocket)
                run = math.hypot(c[0] - p.x, c[1] - p.y)
                aims.append((behind((p.x, p.y), c, self.reach), pocket, run))
            aims.append(((p.x, p.y), None, 150.0))
            for target, aim_pocket, run in aims:
                for rail in rails:
                    for u, v in self.spots(spread):
                        extra = self.rng.choice(OVERRUN)
                        arrive = math.sqrt(2 * self.table.decel * (run + extra)) / MASS_GAIN
                        shot = bank(self.state, self.seat, u, v, target, rail, arrive)
                        if shot.speed <= self.limit and self._ok(shot):
                            yield Candidate(shot, "rebound", p.id, aim_pocket)

    def touches(self, spread: int) -> Iterator[Candidate]:
        """An own free puck struck at its centre, soft to firm (keeps the table safe)."""
        for p in self.free:
            for u, v in self.spots(spread):
                arrive = self.rng.uniform(150.0, 900.0)
                shot = shot_at(self.state, self.seat, u, v, (p.x, p.y), arrive)
                if shot.speed <= self.limit and self._ok(shot):
                    yield Candidate(shot, "touch", p.id, None)

    def any_stroke(self) -> Candidate:
        """A stroke that is always allowed: straight up the table from a free spot
        (the last resort when no other idea is legal)."""
        u0, u1, v0, v1 = self.field
        size = self.table.size
        for k in range(200):
            u = u0 + (u1 - u0) * ((k * 0.618034) % 1.0)
            v = v0 + 1.0 + (v1 - v0 - 2.0) * ((k * 0.414214) % 1.0)
            x, y = to_world(self.side, u, v, size)
            lo, hi = cue_limits_local(self.table, self.side, x, y)
            tu, tv = to_local(self.side, x, y, size)
            a = min(max(math.pi / 2, lo + 1e-6), hi - 1e-6)
            fx, fy = to_world(self.side, tu + math.cos(a), tv + math.sin(a), size)
            shot = Shot(x, y, math.atan2(fy - y, fx - x), min(1500.0, self.limit))
            if self._ok(shot):
                return Candidate(shot, "plain", None, None)
        raise RuntimeError("no legal placement in the striking field")  # pucks fill it


def candidates(
    state: MatchState, seat: int, rng: random.Random, spread: int
) -> Iterator[Candidate]:
    """Every kind of candidate, best ideas first; `spread` placements per aim."""
    gen = Generator(state, seat, rng)
    yield from gen.pots(spread)
    yield from gen.combos(max(1, spread // 2))
    yield from gen.rebounds(max(1, spread // 2))
    yield from gen.touches(spread)
    yield gen.any_stroke()
