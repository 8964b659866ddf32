"""How long a stroke takes on the server: from its strike's arrival to its motion written to
the striker's socket and to the last socket of the room (the last watcher's). The load
clients time the same stroke from their side, through their own busy loops (bench/load.py);
this figure is the server's alone. Shown by GET /healthz."""

from __future__ import annotations

import time
from collections import deque
from typing import Any

KEEP = 20_000  # strokes kept: several minutes at 500 tables
RECENT_S = 60.0  # /healthz shows the strokes of the last minute unless asked for a window


class StrokeTimes:
    """The strokes' server times, each noted when its motion has been written."""

    def __init__(self) -> None:
        self.pending: dict[str, tuple[float, Any]] = {}  # room -> (arrival, striker's socket)
        # (wall time of the arrival, ms to the striker's socket, ms to the room's last socket)
        self.samples: deque[tuple[float, float, float]] = deque(maxlen=KEEP)
        self.measured = 0

    def arrived(self, rid: str, conn: Any, at: float) -> None:
        """A strike accepted in room `rid` from connection `conn`, read at `at`
        (time.perf_counter())."""
        self.pending[rid] = (at, conn)

    def written(self, rid: str, at: float) -> None:
        """The room's motion has just been written to every socket of the room (`at`,
        time.perf_counter()); the striker's, if it is a connection of this process, at its
        `written_at`."""
        started = self.pending.pop(rid, None)
        if started is None:
            return
        arrival, conn = started
        striker = getattr(conn, "written_at", 0.0)
        if striker < arrival:  # the striker's socket is another process's, or gone
            striker = at
        wall = time.time() - (time.perf_counter() - arrival)
        self.samples.append((wall, (striker - arrival) * 1e3, (at - arrival) * 1e3))
        self.measured += 1

    def forget(self, rid: str) -> None:
        """The room is gone from this process: its stroke in flight is not measured."""
        self.pending.pop(rid, None)

    def view(self, since: float | None = None) -> dict[str, Any]:
        """p50 and p99 (ms, null before any) of the strokes that arrived after `since`
        (wall time; by default the last RECENT_S seconds), and how many there were."""
        start = time.time() - RECENT_S if since is None else since
        chosen = [s for s in self.samples if s[0] >= start]
        striker = sorted(s[1] for s in chosen)
        last = sorted(s[2] for s in chosen)
        return {
            "strokes": len(chosen),
            "since": round(start, 3),
            "striker_p50_ms": _percentile(striker, 0.5),
            "striker_p99_ms": _percentile(striker, 0.99),
            "last_p50_ms": _percentile(last, 0.5),
            "last_p99_ms": _percentile(last, 0.99),
            "measured": self.measured,
        }


def _percentile(ordered: list[float], q: float) -> float | None:
    """The nearest-rank percentile of sorted values, rounded to 0.01 ms; None if empty."""
    if not ordered:
        return None
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)
