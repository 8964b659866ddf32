"""The strokes the computer considers: ideas (what to hit, toward where) and, for each,
as many variations (placement along the striking field, cut, speed) as the budget
allows. Every stroke handed out is one `check_stroke` accepts.

Ideas, in order of promise: pots (a free own puck sent at a pocket, full-ball or cut),
combinations (a free own puck sent into another own puck that goes in), rebounds (off
the opposite or a side rail at an own puck, toward a pocket or at its centre: the only
legal way to a blind puck, 004 § 21 (2), (3)), and touches (an own free puck pushed, to
keep the table safe). The search draws one variation of every idea in turn, so a small
budget still looks at every puck before it looks at any twice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from server.games.novuss.rules.aim import bank
from server.games.novuss.rules.check import check_stroke, max_speed
from server.games.novuss.rules.facts import blind_for
from server.games.novuss.rules.geometry import cue_limits_local, striking_field, to_local, to_world
from server.games.novuss.rules.ruling import StrokeRefused
from server.games.novuss.rules.state import MatchState, Puck, team_of
from server.games.novuss.sim.types import POCKETS, Pocket, Shot

Point = tuple[float, float]
MASS_GAIN = 1.6
"""A puck's speed over the striker's at a full-ball hit: (1 + e) M / (M + m) = 1.6."""
PUCK_GAIN = 0.925
"""A puck's speed over another puck's at a full-ball hit: (1 + e) / 2."""
MAX_CUT = math.radians(65)
"""Thinner cuts than this miss the ghost point's puck or barely move it."""
OVERRUN = (40.0, 700.0)
"""How far past its goal a struck puck would still slide (mm), least and most."""
COMBO_REACH = 450.0
"""The longest run (mm) of the first puck of a combination that is worth trying."""
TRIES = 6
"""Draws of one variation before an idea gives up for this round."""


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


def pocket_at(state: MatchState, pocket: Pocket) -> Point:
    """A pocket's centre."""
    return next((x, y) for n, x, y in state.table.pocket_centres() if n == pocket)


def behind(point: Point, toward: Point, reach: float) -> Point:
    """The point `reach` mm behind `point` on the line from `toward` through it: where
    a disc's centre must touch to send the disc at `point` straight at `toward`."""
    dx, dy = point[0] - toward[0], point[1] - toward[1]
    n = math.hypot(dx, dy) or 1.0
    return point[0] + dx / n * reach, point[1] + dy / n * reach


def path_clear(
    pucks: tuple[Puck, ...], a: Point, b: Point, reach: float, skip: frozenset[int]
) -> bool:
    """Does a disc running from a to b pass every puck of `pucks` (but `skip`) by `reach`?"""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n2 = dx * dx + dy * dy or 1.0
    for p in pucks:
        if p.id in skip:
            continue
        k = max(0.0, min(1.0, ((p.x - ax) * dx + (p.y - ay) * dy) / n2))
        if math.hypot(ax + k * dx - p.x, ay + k * dy - p.y) < reach:
            return False
    return True


@dataclass(frozen=True, slots=True)
class Idea:
    """What to hit and toward where; `draw` makes one variation (or None)."""

    kind: str
    target: int | None
    pocket: Pocket | None
    draw: Callable[[random.Random], Shot | None]
    weight: int = 1


class Generator:
    """The ideas for `seat` in `state`, and the pieces they are drawn from."""

    def __init__(self, state: MatchState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.table = state.table
        self.side = state.side_of(seat)
        self.field = striking_field(self.table)
        self.pucks = state.on_table()
        team = team_of(seat)
        mine = [p for p in self.pucks if team_of(p.owner) == team]
        self.blind = [p for p in mine if blind_for(state, self.side, p)]
        self.free = [p for p in mine if not blind_for(state, self.side, p)]
        self.reach = self.table.puck_radius + self.table.striker_radius
        self.limit = max_speed(state)
        self.holes = {n: (x, y) for n, x, y in self.table.pocket_centres()}

    # -- the pieces ------------------------------------------------------------------
    def spot(self, rng: random.Random) -> Point:
        """A placement (local u, v) anywhere in the striking field."""
        u0, u1, v0, v1 = self.field
        return rng.uniform(u0, u1), rng.uniform(v0 + 0.5, v1 - 0.5)

    def on_line(self, ghost: Point, heading: Point, rng: random.Random) -> Point | None:
        """A placement (local u, v) on the full-ball line through `ghost` along
        `heading`, at a random depth, if that falls inside the striking field."""
        u0, u1, v0, v1 = self.field
        size = self.table.size
        gu, gv = to_local(self.side, *ghost, size)
        hu, hv = to_local(self.side, ghost[0] + heading[0], ghost[1] + heading[1], size)
        du, dv = hu - gu, hv - gv
        if dv <= 1e-6:
            return None
        v = rng.uniform(v0 + 0.5, v1 - 0.5)
        u = gu + du * (v - gv) / dv
        return (u, v) if u0 <= u <= u1 else None

    def hit(
        self, ghost: Point, heading: Point, run: float, where: Point, rng: random.Random
    ) -> Shot | None:
        """The stroke from local `where` at `ghost`, the struck disc then heading along
        the unit vector `heading` fast enough to slide `run` mm and some overrun; None
        if the cut is too thin, the speed too high or the stroke refused."""
        x, y = to_world(self.side, where[0], where[1], self.table.size)
        dx, dy = ghost[0] - x, ghost[1] - y
        dist = math.hypot(dx, dy)
        if dist < 1.0:
            return None
        cos_cut = (dx * heading[0] + dy * heading[1]) / dist
        if cos_cut < math.cos(MAX_CUT):
            return None
        decel = self.table.decel
        needed = math.sqrt(2 * decel * (run + rng.uniform(*OVERRUN))) / (MASS_GAIN * cos_cut)
        speed = math.sqrt(needed * needed + 2 * decel * dist)
        if speed > self.limit:
            return None
        shot = Shot(x, y, math.atan2(dy, dx), speed)
        return shot if legal(self.state, self.seat, shot) else None

    def _aim(
        self, ghost: Point, heading: Point, run: float, skip: frozenset[int] | None
    ) -> Callable[[random.Random], Shot | None]:
        """A draw: half the time from the full-ball line, else from anywhere; with
        `skip`, only strokes whose straight path to the ghost point is clear."""

        def draw(rng: random.Random) -> Shot | None:
            where = self.on_line(ghost, heading, rng) if rng.random() < 0.5 else None
            shot = self.hit(ghost, heading, run, where or self.spot(rng), rng)
            if shot is None or skip is None:
                return shot
            clear = path_clear(self.pucks, (shot.x, shot.y), ghost, self.reach, skip)
            return shot if clear else None

        return draw

    # -- the ideas -------------------------------------------------------------------
    def pots(self) -> list[Idea]:
        """Free own pucks at each pocket whose way to it looks clear."""
        out = []
        for p in self.free:
            for pocket in POCKETS:
                c = self.holes[pocket]
                skip = frozenset({p.id})
                if not path_clear(self.pucks, (p.x, p.y), c, 2 * self.table.puck_radius, skip):
                    continue
                run = math.hypot(c[0] - p.x, c[1] - p.y)
                heading = ((c[0] - p.x) / run, (c[1] - p.y) / run)
                ghost = behind((p.x, p.y), c, self.reach)
                out.append(Idea("pot", p.id, pocket, self._aim(ghost, heading, run, skip), 2))
        return out

    def combos(self) -> list[Idea]:
        """A free own puck `a` sent into another own puck `b` that goes in."""
        two_r = 2 * self.table.puck_radius
        out = []
        for b in self.free + self.blind:
            for pocket in POCKETS:
                c = self.holes[pocket]
                if not path_clear(self.pucks, (b.x, b.y), c, two_r, frozenset({b.id})):
                    continue
                run_b = math.hypot(c[0] - b.x, c[1] - b.y)
                gb = behind((b.x, b.y), c, two_r)
                for a in self.free:
                    run_a = math.hypot(gb[0] - a.x, gb[1] - a.y)
                    if a.id == b.id or not 1.0 < run_a < COMBO_REACH:
                        continue
                    heading = ((gb[0] - a.x) / run_a, (gb[1] - a.y) / run_a)
                    # the first puck must reach the second and pass on enough speed: its
                    # run counted as if the second one's were its own, slowed by the hit
                    run = run_a + run_b / (PUCK_GAIN * PUCK_GAIN)
                    ga = behind((a.x, a.y), gb, self.reach)
                    out.append(Idea("combo", b.id, pocket, self._aim(ga, heading, run, None)))
        return out

    def rebounds(self) -> list[Idea]:
        """Off the opposite and the side rails at each own puck: toward each pocket
        through its ghost point, and at its centre (004 § 21 (2), (3), (5))."""
        out = []
        for p in self.blind + self.free:
            for pocket in (*POCKETS, None):
                if pocket is None:
                    target, run = (p.x, p.y), 150.0
                else:
                    c = self.holes[pocket]
                    target = behind((p.x, p.y), c, self.reach)
                    run = math.hypot(c[0] - p.x, c[1] - p.y)
                for rail in ("opposite", "left", "right"):
                    out.append(Idea("rebound", p.id, pocket, self._bank(target, run, rail)))
        return out

    def _bank(self, target: Point, run: float, rail: str) -> Callable[[random.Random], Shot | None]:
        def draw(rng: random.Random) -> Shot | None:
            u, v = self.spot(rng)
            extra = rng.uniform(*OVERRUN)
            arrive = math.sqrt(2 * self.table.decel * (run + extra)) / MASS_GAIN
            shot = bank(self.state, self.seat, u, v, target, rail, arrive)
            ok = shot.speed <= self.limit and legal(self.state, self.seat, shot)
            return shot if ok else None

        return draw

    def touches(self) -> list[Idea]:
        """An own free puck struck at its centre, soft to firm (keeps the table safe)."""
        return [Idea("touch", p.id, None, self._touch(p)) for p in self.free]

    def _touch(self, p: Puck) -> Callable[[random.Random], Shot | None]:
        def draw(rng: random.Random) -> Shot | None:
            u, v = self.spot(rng)
            x, y = to_world(self.side, u, v, self.table.size)
            dist = math.hypot(p.x - x, p.y - y)
            arrive = rng.uniform(150.0, 1200.0)
            speed = math.sqrt(arrive * arrive + 2 * self.table.decel * dist)
            shot = Shot(x, y, math.atan2(p.y - y, p.x - x), speed)
            ok = speed <= self.limit and legal(self.state, self.seat, shot)
            return shot if ok else None

        return draw

    def ideas(self) -> list[Idea]:
        """Every idea, in order of promise."""
        return [*self.pots(), *self.combos(), *self.rebounds(), *self.touches()]

    def any_stroke(self) -> Candidate:
        """A stroke that is always allowed: up the table from some free spot (the last
        resort when no idea gives a legal stroke)."""
        u0, u1, v0, v1 = self.field
        size = self.table.size
        for k in range(200):
            u = u0 + (u1 - u0) * ((k * 0.618034) % 1.0)
            v = v0 + 1.0 + (v1 - v0 - 2.0) * ((k * 0.414214) % 1.0)
            x, y = to_world(self.side, u, v, size)
            lo, hi = cue_limits_local(self.table, self.side, x, y)
            a = min(max(math.pi / 2, lo + 1e-6), hi - 1e-6)
            fx, fy = to_world(self.side, u + math.cos(a), v + math.sin(a), size)
            shot = Shot(x, y, math.atan2(fy - y, fx - x), min(1500.0, self.limit))
            if legal(self.state, self.seat, shot):
                return Candidate(shot, "plain", None, None)
        raise RuntimeError("no legal placement in the striking field")  # pucks fill it


def variations(ideas: list[Idea], rng: random.Random, count: int) -> list[Candidate]:
    """Up to `count` candidates: `weight` variations of each idea in turn, round
    after round, an idea dropped once it fails TRIES draws in a row."""
    live = list(ideas)
    out: list[Candidate] = []
    while live and len(out) < count:
        keep = []
        for idea in live:
            alive = True
            for _ in range(idea.weight):
                if len(out) >= count or not alive:
                    break
                alive = False
                for _ in range(TRIES):
                    shot = idea.draw(rng)
                    if shot is not None:
                        out.append(Candidate(shot, idea.kind, idea.target, idea.pocket))
                        alive = True
                        break
            if alive:
                keep.append(idea)
        live = keep
    return out
