"""One Crokinole shot run to rest, event by event, exactly and deterministically.

The model (docs/crokinole.md, "Physics"): discs slide in straight lines decelerating at
mu*g and meet each other and the eight fixed round pegs in instantaneous frictionless
impacts (equal masses, restitution e_disc; pegs immovable, e_peg). A disc whose centre
passes the edge of the playing surface tips into the ditch and takes no further part.
The 20-hole is shallow: a moving disc skims over it, and a disc that comes to rest with
the whole of it inside the hole drops in (002 4 b) and takes no further part in the shot.

Event times come from the collision core's exact root finders (server.games.core.collision:
first_crossing for two moving discs, line_hit and reach_time against fixed things), the
rest is IEEE double arithmetic in a fixed order, so a shot gives the same bits each time
with either the compiled core or its pure-Python twin.
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Literal

from server.games.core import CORE as compiled_core
from server.games.crokinole.board import Board, hole_capture_radius

Where = Literal["board", "hole", "ditch"]
EventKind = Literal["disc", "peg", "ditch", "hole", "stop"]

WHERES: tuple[Where, ...] = ("board", "hole", "ditch")
BIG = 1e300
V_REST = 1.0  # mm/s: a disc left slower than this after an impact is at rest
MAX_EVENTS = 5000  # safety stop against an endless sequence of contacts
PLACE_TOL = 1e-6  # mm: rounding allowed in a placement


class ShotInputError(ValueError):
    """The shot cannot be simulated: not finite, too fast, or discs placed off the
    surface or overlapping a peg or each other."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A disc at rest on the playing surface before the shot."""

    id: int
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Flick:
    """The shot: disc `id` set down at (x, y), flicked along `angle` (radians) at `speed`."""

    id: int
    x: float
    y: float
    angle: float
    speed: float


@dataclass(frozen=True, slots=True)
class ShotEvent:
    """One thing that happened: a contact (disc-disc: a, b ids; peg: a, peg index b),
    a disc into the ditch or the hole, or a disc coming to rest (b = -1)."""

    t: float
    kind: EventKind
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Final:
    """Where a disc ended. `struck_across`: it struck something while touching or over
    the shooting line (002 6 c: out of play even if it comes back)."""

    id: int
    where: Where
    x: float
    y: float
    struck_across: bool


@dataclass(frozen=True, slots=True)
class Segment:
    """From time t, disc `id` slides from (x, y) at velocity (vx, vy), decelerating."""

    t: float
    id: int
    x: float
    y: float
    vx: float
    vy: float


@dataclass(frozen=True, slots=True)
class ShotResult:
    """The outcome of a shot: every disc's end, the events in order, and the motion."""

    finals: tuple[Final, ...]
    events: tuple[ShotEvent, ...]
    segments: tuple[Segment, ...]
    duration: float

    def positions_at(self, t: float, decel: float) -> dict[int, tuple[float, float]]:
        """Where each disc still on the surface is at time t of the shot (for a play-out):
        a disc is shown until the event that took it into the hole or the ditch."""
        gone = {e.a: e.t for e in self.events if e.kind in ("hole", "ditch")}
        out: dict[int, tuple[float, float]] = {}
        for seg in self.segments:
            if seg.t > t or gone.get(seg.id, BIG) < t:
                continue
            dt = t - seg.t
            speed = math.sqrt(seg.vx * seg.vx + seg.vy * seg.vy)
            if speed > 0.0:
                dt = min(dt, speed / decel)
                s = speed * dt - 0.5 * decel * dt * dt
                out[seg.id] = (seg.x + seg.vx / speed * s, seg.y + seg.vy / speed * s)
            else:
                out[seg.id] = (seg.x, seg.y)
        return out

    def state_hash(self) -> str:
        """sha256 of the exact state the shot leaves (state_hash of the finals)."""
        return state_hash(self.finals)

    def final(self, disc_id: int) -> Final:
        """The end of one disc."""
        for f in self.finals:
            if f.id == disc_id:
                return f
        raise KeyError(disc_id)


_HASHED = struct.Struct("<qBdd")
"""One disc's bytes in the hash: id, where (WHERES' index), the IEEE bits of x and y."""


def state_hash(finals: Sequence[Final]) -> str:
    """sha256 over each disc's id, where and the IEEE bits of x and y (the board's centre at
    the origin), in the shot's order: the discs on the board by id, then the disc shot. The
    same bits on the same build, so a replay tells a last-bit difference (as Novuss's
    server/games/novuss/sim/result.py `state_hash`). Whether a disc struck across the
    shooting line (002 6 c) is not hashed: the ruling, compared beside the hash, says it."""
    pack = _HASHED.pack
    return hashlib.sha256(
        b"".join([pack(f.id, WHERES.index(f.where), f.x, f.y) for f in finals])
    ).hexdigest()


class _Shot:
    """The mutable state of one shot; `simulate` is the way in."""

    def __init__(self, board: Board, pieces: Sequence[Piece], flick: Flick, core: ModuleType):
        self.b = board
        self.core = core
        self.acc = board.decel
        self.pegs = board.pegs()
        self.ids = [p.id for p in pieces] + [flick.id]
        n = len(self.ids)
        self.x = [p.x for p in pieces] + [flick.x]
        self.y = [p.y for p in pieces] + [flick.y]
        self.ux = [0.0] * n
        self.uy = [0.0] * n
        self.v = [0.0] * n
        self.where: list[Where] = ["board"] * n
        self.across = [False] * n
        self.now = 0.0
        self.events: list[ShotEvent] = []
        self.segments = [Segment(0.0, p.id, p.x, p.y, 0.0, 0.0) for p in pieces]
        self._set_velocity(
            n - 1, flick.speed * math.cos(flick.angle), flick.speed * math.sin(flick.angle)
        )

    def _set_velocity(self, i: int, vx: float, vy: float) -> None:
        speed = math.sqrt(vx * vx + vy * vy)
        if speed < V_REST:
            self.v[i] = 0.0
            self.segments.append(Segment(self.now, self.ids[i], self.x[i], self.y[i], 0.0, 0.0))
            self._settle(i)
            return
        self.v[i] = speed
        self.ux[i] = vx / speed
        self.uy[i] = vy / speed
        self.segments.append(Segment(self.now, self.ids[i], self.x[i], self.y[i], vx, vy))

    def _settle(self, i: int) -> None:
        """A disc at rest over the hole with all of it inside drops in (002 4 b)."""
        r = hole_capture_radius(self.b)
        if self.x[i] * self.x[i] + self.y[i] * self.y[i] <= r * r:
            self.where[i] = "hole"
            self.events.append(ShotEvent(self.now, "hole", self.ids[i], -1))

    def moving(self) -> list[int]:
        return [i for i in range(len(self.ids)) if self.v[i] > 0.0 and self.where[i] == "board"]

    def advance(self, dt: float) -> None:
        """Move every sliding disc dt seconds on, rebasing its segment there."""
        for i in self.moving():
            v = self.v[i]
            s = v * dt - 0.5 * self.acc * dt * dt
            self.x[i] += self.ux[i] * s
            self.y[i] += self.uy[i] * s
            self.v[i] = v - self.acc * dt
        self.now += dt

    def next_event(self) -> tuple[float, EventKind, int, int]:
        """The earliest event from now: (dt, kind, i, j)."""
        best: tuple[float, EventKind, int, int] = (BIG, "stop", -1, -1)
        live = [i for i in range(len(self.ids)) if self.where[i] == "board"]
        for i in self.moving():
            for cand in self._own_events(i):
                if cand[0] < best[0]:
                    best = cand
            for j in live:
                if j == i or (self.v[j] > 0.0 and j < i):
                    continue
                dt = self._disc_time(i, j)
                if dt < best[0]:
                    best = (dt, "disc", i, j)
        return best

    def _own_events(self, i: int) -> list[tuple[float, EventKind, int, int]]:
        """Stopping, leaving the surface, and meeting each peg."""
        v, acc = self.v[i], self.acc
        out: list[tuple[float, EventKind, int, int]] = [(v / acc, "stop", i, -1)]
        x, y, ux, uy = self.x[i], self.y[i], self.ux[i], self.uy[i]
        bb = x * ux + y * uy
        cc = x * x + y * y - self.b.surface_radius * self.b.surface_radius
        if bb * bb - cc >= 0.0:
            gap = -bb + math.sqrt(bb * bb - cc)
            # at the edge already (a disc resting on it, within PLACE_TOL) and going out: now
            out.append((self.core.reach_time(gap, v, acc) if gap > 0.0 else 0.0, "ditch", i, -1))
        rr = self.b.disc_radius + self.b.peg_radius
        for k, (px, py) in enumerate(self.pegs):
            out.append((self.core.line_hit(x - px, y - py, ux, uy, v, acc, rr), "peg", i, k))
        return out

    def _disc_time(self, i: int, j: int) -> float:
        """When the sliding disc i first touches disc j (at rest or sliding)."""
        rr = 2.0 * self.b.disc_radius
        dx, dy = self.x[i] - self.x[j], self.y[i] - self.y[j]
        if self.v[j] == 0.0:
            return float(
                self.core.line_hit(dx, dy, self.ux[i], self.uy[i], self.v[i], self.acc, rr)
            )
        # Both slide: d(t) = d0 + A t + B t^2 until the first of them stops.
        h = 0.5 * self.acc
        ax = self.ux[i] * self.v[i] - self.ux[j] * self.v[j]
        ay = self.uy[i] * self.v[i] - self.uy[j] * self.v[j]
        bx = -h * (self.ux[i] - self.ux[j])
        by = -h * (self.uy[i] - self.uy[j])
        span = min(self.v[i], self.v[j]) / self.acc
        return float(
            self.core.first_crossing(
                bx * bx + by * by,
                2.0 * (ax * bx + ay * by),
                ax * ax + ay * ay + 2.0 * (dx * bx + dy * by),
                2.0 * (dx * ax + dy * ay),
                dx * dx + dy * dy - rr * rr,
                span,
            )
        )

    def _outside(self, i: int) -> bool:
        """Touching or over the shooting line (002 6 a)."""
        d = math.sqrt(self.x[i] * self.x[i] + self.y[i] * self.y[i])
        return d + self.b.disc_radius > self.b.shooting_radius

    def apply(self, kind: EventKind, i: int, j: int) -> None:
        """Carry out one event at the current time."""
        self.events.append(
            ShotEvent(self.now, kind, self.ids[i], self.ids[j] if kind == "disc" else j)
        )
        if kind == "stop":
            self.v[i] = 0.0
            self._settle(i)
        elif kind == "ditch":
            self.v[i] = 0.0
            self.where[i] = "ditch"
        elif kind == "peg":
            self._bounce_peg(i, j)
        else:
            self._impact(i, j)

    def _bounce_peg(self, i: int, k: int) -> None:
        px, py = self.pegs[k]
        nx, ny = self.x[i] - px, self.y[i] - py
        norm = math.sqrt(nx * nx + ny * ny)
        nx, ny = nx / norm, ny / norm
        vx, vy = self.ux[i] * self.v[i], self.uy[i] * self.v[i]
        vn = vx * nx + vy * ny
        if vn < 0.0:
            k2 = (1.0 + self.b.e_peg) * vn
            self._set_velocity(i, vx - k2 * nx, vy - k2 * ny)

    def _impact(self, i: int, j: int) -> None:
        """Equal masses, frictionless: exchange (1+e)/2 of the closing normal speed."""
        for d in (i, j):
            if self._outside(d):
                self.across[d] = True
        nx, ny = self.x[j] - self.x[i], self.y[j] - self.y[i]
        norm = math.sqrt(nx * nx + ny * ny)
        nx, ny = nx / norm, ny / norm
        vix, viy = self.ux[i] * self.v[i], self.uy[i] * self.v[i]
        vjx, vjy = self.ux[j] * self.v[j], self.uy[j] * self.v[j]
        closing = (vix - vjx) * nx + (viy - vjy) * ny
        if closing <= 0.0:
            return
        k = 0.5 * (1.0 + self.b.e_disc) * closing
        self._set_velocity(i, vix - k * nx, viy - k * ny)
        self._set_velocity(j, vjx + k * nx, vjy + k * ny)

    def result(self) -> ShotResult:
        finals = tuple(
            Final(self.ids[i], self.where[i], self.x[i], self.y[i], self.across[i])
            for i in range(len(self.ids))
        )
        return ShotResult(finals, tuple(self.events), tuple(self.segments), self.now)


def check_input(board: Board, pieces: Sequence[Piece], flick: Flick) -> None:
    """Refuse what cannot be simulated, with the reason."""
    for name, value in (
        ("x", flick.x),
        ("y", flick.y),
        ("angle", flick.angle),
        ("speed", flick.speed),
    ):
        if not math.isfinite(value):
            raise ShotInputError(f"{name} is not finite")
    if not 0.0 <= flick.speed <= board.max_speed:
        raise ShotInputError(f"speed must be within 0..{board.max_speed} mm/s")
    ids = [p.id for p in pieces] + [flick.id]
    if len(set(ids)) != len(ids):
        raise ShotInputError("disc ids repeat")
    spots = [(p.x, p.y) for p in pieces] + [(flick.x, flick.y)]
    r = board.disc_radius
    for n, (x, y) in enumerate(spots):
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ShotInputError(f"disc {ids[n]} position is not finite")
        # over the ditch once its centre is past the edge (the model of the ditch)
        if math.sqrt(x * x + y * y) > board.surface_radius + PLACE_TOL:
            raise ShotInputError(f"disc {ids[n]} is off the playing surface")
        for px, py in board.pegs():
            if math.hypot(x - px, y - py) < r + board.peg_radius - PLACE_TOL:
                raise ShotInputError(f"disc {ids[n]} overlaps a peg")
        for m in range(n):
            if math.hypot(x - spots[m][0], y - spots[m][1]) < 2.0 * r - PLACE_TOL:
                raise ShotInputError(f"disc {ids[n]} overlaps disc {ids[m]}")


def simulate(
    board: Board, pieces: Sequence[Piece], flick: Flick, core: ModuleType | None = None
) -> ShotResult:
    """Run the shot to rest. `core` picks the collision core (default: the compiled one)."""
    check_input(board, pieces, flick)
    shot = _Shot(board, pieces, flick, core or compiled_core)
    for _ in range(MAX_EVENTS):
        if not shot.moving():
            break
        dt, kind, i, j = shot.next_event()
        shot.advance(dt)
        shot.apply(kind, i, j)
    return shot.result()
