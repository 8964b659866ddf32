"""The outcome of a stroke: event log, final state, and a trajectory to sample or store."""

from __future__ import annotations

import hashlib
import struct
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.games.novuss.sim.types import (
    POCKETS,
    SIDES,
    STRIKER_ID,
    Disc,
    DiscContact,
    DiscKind,
    DiscRest,
    Event,
    LeftTable,
    Pocketed,
    RailContact,
    StrikerZone,
    Where,
)

WHERES: tuple[Where, ...] = ("table", "pocket", "off")
KINDS: tuple[DiscKind, ...] = ("striker", "puck")
COMPACT_VERSION = 1


@dataclass(frozen=True, slots=True)
class DiscPath:
    """One disc's motion: segments (t0, x0, y0, vx, vy), flat, each decelerating at the
    trajectory's decel from t0 until rest or the next segment; `where` it ended, from
    time `t_end` (0.0 if it stayed on the table) at (x_end, y_end)."""

    id: int
    kind: DiscKind
    owner: int
    where: Where
    t_end: float
    x_end: float
    y_end: float
    segments: tuple[float, ...]

    def position(self, t: float, decel: float) -> tuple[float, float, Where]:
        """Where the disc is at time t (>= 0)."""
        if self.where != "table" and t >= self.t_end:
            return self.x_end, self.y_end, self.where
        segs = self.segments
        starts = segs[0::5]
        k = max(bisect_right(starts, t) - 1, 0) * 5
        t0, x0, y0, vx, vy = segs[k : k + 5]
        sp = (vx * vx + vy * vy) ** 0.5
        if sp == 0.0:
            return x0, y0, "table"
        dt = min(max(t - t0, 0.0), sp / decel)
        s = sp - decel * dt
        d = (sp + s) * 0.5 * dt
        return x0 + vx / sp * d, y0 + vy / sp * d, "table"


@dataclass(frozen=True, slots=True)
class Trajectory:
    """Every disc's exact piecewise-quadratic path; sample it at any time."""

    decel: float
    duration: float
    paths: tuple[DiscPath, ...]

    def sample(self, t: float) -> tuple[DiscRest, ...]:
        """Every disc at time t, clamped to [0, duration]; pocketed or off discs report
        where they left play."""
        t = min(max(t, 0.0), self.duration)
        out = []
        for p in self.paths:
            x, y, where = p.position(t, self.decel)
            out.append(DiscRest(p.id, x, y, where, p.kind, p.owner))
        return tuple(out)

    def to_compact(self) -> dict[str, Any]:
        """Plain msgpack-able data: {"v", "decel", "duration", "discs": [[id, kind 0/1
        (striker/puck), owner, where 0/1/2 (table/pocket/off), t_end, x_end, y_end,
        t0, x0, y0, vx, vy, t0, ...], ...]}."""
        discs = [
            [
                p.id,
                KINDS.index(p.kind),
                p.owner,
                WHERES.index(p.where),
                p.t_end,
                p.x_end,
                p.y_end,
                *p.segments,
            ]
            for p in self.paths
        ]
        return {
            "v": COMPACT_VERSION,
            "decel": self.decel,
            "duration": self.duration,
            "discs": discs,
        }

    def track(self, striker_owner: int) -> dict[str, Any]:
        """The motion as the wire carries it, live, in replays and in lessons
        (server/games/core/paths.py): the compact paths with the striker owned by the seat
        that struck (the physics owns it to nobody)."""
        rows = self.to_compact()["discs"]
        paths = [[d[0], d[1], striker_owner if d[0] == 0 else d[2], *d[3:]] for d in rows]
        return {"decel": self.decel, "duration": self.duration, "paths": paths}

    @classmethod
    def from_compact(cls, data: dict[str, Any]) -> Trajectory:
        """The inverse of to_compact."""
        if data.get("v") != COMPACT_VERSION:
            raise ValueError(f"unknown trajectory format {data.get('v')!r}")
        paths = tuple(
            DiscPath(
                int(d[0]),
                KINDS[int(d[1])],
                int(d[2]),
                WHERES[int(d[3])],
                float(d[4]),
                float(d[5]),
                float(d[6]),
                tuple(float(v) for v in d[7:]),
            )
            for d in data["discs"]
        )
        return cls(float(data["decel"]), float(data["duration"]), paths)


RAW_KINDS = ("disc", "rail", "pocket", "off", "zone")
"""The event codes of the raw log of server/games/core/collision.py (K_DISC .. K_ZONE), in order."""


class StrokeResult:
    """What simulate returns: the ordered event log, every disc's final state, the time
    until everything rests, and the trajectory.

    The core hands back plain numbers; `events`, `final` and `trajectory` are built
    from them on first use (a bot scoring candidate strokes may need only `final`)."""

    __slots__ = ("_discs", "_events", "_final", "_raw", "_trajectory", "decel", "duration")

    def __init__(self, discs: Sequence[Disc], raw: tuple[Any, ...], decel: float) -> None:
        """discs in the core's order (striker first); raw as core.run returns it."""
        self._discs = tuple(discs)
        self._raw = raw
        self.decel = decel
        self.duration: float = raw[5]
        self._events: tuple[Event, ...] | None = None
        self._final: tuple[DiscRest, ...] | None = None
        self._trajectory: Trajectory | None = None

    @property
    def events(self) -> tuple[Event, ...]:
        """Every contact, pocketing, leaving and zone crossing, in time order."""
        if self._events is None:
            ids = [d.id for d in self._discs]
            self._events = tuple([_event(e, ids) for e in self._raw[0]])
        return self._events

    @property
    def final(self) -> tuple[DiscRest, ...]:
        """Every disc at rest, striker first, then pucks by id."""
        if self._final is None:
            where, finals = self._raw[2], self._raw[4]
            self._final = tuple(
                [
                    DiscRest(d.id, xy[0], xy[1], WHERES[w], d.kind, d.owner)
                    for d, w, xy in zip(self._discs, where, finals, strict=True)
                ]
            )
        return self._final

    def log(self) -> tuple[list[RawEvent], list[int]]:
        """The event log as the core made it (RawEvent: discs by their index in the
        returned ids, striker first) with those ids: what `events` says, read without
        building an object an event (a referee reads every stroke's log once)."""
        return self._raw[0], [d.id for d in self._discs]

    def moved_ends(self) -> dict[int, tuple[Where, tuple[float, float]]]:
        """(where, (x, y)) at rest by id of the discs the stroke moved: what `final` says of
        them (the striker always), without its objects. A puck left out was never touched:
        it has the one segment it was placed with and rests where it was placed, to the bit
        (the core's state_at)."""
        _, segs, where, _, finals, _ = self._raw
        discs = self._discs
        # The striker is the core's disc 0; the moved pucks found first, by their segments.
        moved = [k for k in range(1, len(segs)) if len(segs[k]) > 5]
        ends = {STRIKER_ID: (WHERES[where[0]], finals[0])}
        for k in moved:
            ends[discs[k].id] = (WHERES[where[k]], finals[k])
        return ends

    @property
    def trajectory(self) -> Trajectory:
        """Every disc's path, to sample or store."""
        if self._trajectory is None:
            _, segs, where, tend, finals, _ = self._raw
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
                for k, d in enumerate(self._discs)
            )
            self._trajectory = Trajectory(self.decel, self.duration, paths)
        return self._trajectory

    def track(self, striker_owner: int) -> dict[str, Any]:
        """`trajectory.track(striker_owner)`, made from the core's numbers without the
        path objects: the server sends it with every stroke (building the paths, their
        compact rows and then the track's rows had cost a sixth of Match.strike)."""
        _, segs, where, tend, finals, _ = self._raw
        paths = [
            [
                d.id,
                _KIND_CODE[d.kind],
                striker_owner if d.id == STRIKER_ID else d.owner,
                w,
                t_end,
                xy[0],
                xy[1],
                *seg,
            ]
            for d, seg, w, t_end, xy in zip(self._discs, segs, where, tend, finals, strict=True)
        ]
        return {"decel": self.decel, "duration": self.duration, "paths": paths}

    def state_hash(self) -> str:
        """sha256 hex digest of the exact bits of the final state (id, where, x, y): the
        digest of state_hash(self.final), from the core's numbers."""
        pack = _HASHED.pack
        where, finals = self._raw[2], self._raw[4]
        data = b"".join(
            [
                pack(d.id, w, xy[0], xy[1])
                for d, w, xy in zip(self._discs, where, finals, strict=True)
            ]
        )
        return hashlib.sha256(data).hexdigest()


# The raw log's codes, compared as ints: a stroke logs tens of events.
DISC, RAIL, POCKET, OFF, ZONE = (RAW_KINDS.index(k) for k in RAW_KINDS)

RawEvent = tuple[int, float, int, int, float]
"""An event as the core logs it, (kind, t, a, b, v) by the index of its kind in RAW_KINDS:
(disc, t, disc, disc, speed), (rail, t, disc, side, speed), (pocket, t, disc, pocket, 0),
(off, t, disc, side, speed), (zone, t, side, inside, 0); a disc by its index in the log's
ids, a side by its index in SIDES, a pocket in POCKETS, inside 1 or 0."""


def raw_event(e: Event) -> RawEvent:
    """An event object as the core would log it, each disc by its id (ids standing for
    themselves; the speed 0 where the object keeps none): the log of a result made
    without the core, in the tests."""
    if isinstance(e, DiscContact):
        return (DISC, e.t, e.a, e.b, e.normal_speed)
    if isinstance(e, RailContact):
        return (RAIL, e.t, e.disc, SIDES.index(e.rail), e.normal_speed)
    if isinstance(e, Pocketed):
        return (POCKET, e.t, e.disc, POCKETS.index(e.pocket), 0.0)
    if isinstance(e, LeftTable):
        return (OFF, e.t, e.disc, SIDES.index(e.rail), 0.0)
    return (ZONE, e.t, SIDES.index(e.side), int(e.inside), 0.0)


def _event(raw: tuple[Any, ...], ids: list[int]) -> Event:
    kind, t, a, b, v = raw
    if kind == DISC:
        return DiscContact(t, ids[a], ids[b], v)
    if kind == RAIL:
        return RailContact(t, ids[a], SIDES[b], v)
    if kind == POCKET:
        return Pocketed(t, ids[a], POCKETS[b])
    if kind == OFF:
        return LeftTable(t, ids[a], SIDES[b])
    return StrikerZone(t, SIDES[a], bool(b))


WHERE_CODE: dict[Where, int] = {w: k for k, w in enumerate(WHERES)}
_KIND_CODE: dict[DiscKind, int] = {k: i for i, k in enumerate(KINDS)}
_HASHED = struct.Struct("<qBdd")
"""One disc's bytes in the hash: id, where, and the IEEE bits of x and y, unpadded."""


def state_hash(final: Sequence[DiscRest]) -> str:
    """sha256 over each disc's id, where, and the IEEE bits of x and y, in order."""
    # One update with every disc's bytes: the same digest as an update per field.
    pack = _HASHED.pack
    data = b"".join([pack(d.id, WHERE_CODE[d.where], d.x, d.y) for d in final])
    return hashlib.sha256(data).hexdigest()
