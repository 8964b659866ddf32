"""The outcome of a stroke: event log, final state, and a trajectory to sample or store."""

from __future__ import annotations

import hashlib
import struct
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.sim.types import DiscKind, DiscRest, Event, Where

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


@dataclass(frozen=True, slots=True)
class StrokeResult:
    """What simulate returns: the ordered event log, every disc's final state, the time
    until everything rests, and the trajectory."""

    events: tuple[Event, ...]
    final: tuple[DiscRest, ...]
    duration: float
    trajectory: Trajectory

    def state_hash(self) -> str:
        """sha256 hex digest of the exact bits of the final state (id, where, x, y)."""
        return state_hash(self.final)


def state_hash(final: Sequence[DiscRest]) -> str:
    """sha256 over each disc's id, where, and the IEEE bits of x and y, in order."""
    h = hashlib.sha256()
    for d in final:
        h.update(struct.pack("<qB", d.id, WHERES.index(d.where)))
        h.update(struct.pack("<d", d.x))
        h.update(struct.pack("<d", d.y))
    return h.hexdigest()
