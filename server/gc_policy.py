"""The cycle collector, tuned for a server whose live state is large and long-lived.

With Python's default thresholds a full collection ran every few seconds under load (rooms,
connections, event buffers: a few hundred thousand tracked objects) and stopped the event
loop for 150 to 340 ms each time: most of the stroke latency's p99 (docs/performance.md,
"Second round"). Reference counting still frees at once everything that is not in a
cycle, and the full collections measured under load found tens of cyclic objects, so full
collections can be rare. But not left to chance: with full collections only by Python's own
rule, the soak's connection churn crept 0.3 MB a minute for 14 minutes and none came. So the
clock loop runs one every FULL_EVERY_S. Every 10 minutes and not more often: at 500 tables
one full collection stops the loop for ~360 ms and the backlog takes a second to clear, so
at every 2 minutes it was over 1 % of strokes (p99 345 ms over 100 s); every 10 minutes it
is a fifth of that, and the creep between two is a few MB. The pauses are shown by GET
/healthz.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from server.recent import RecentMax

RECENT_S = 10.0  # /healthz shows the longest pause of the last this many seconds too
THRESHOLDS = (10_000, 10, 10)  # a young collection per 10k net allocations (default 700)
FULL_EVERY_S = 600.0


class PauseStats:
    """Collections per generation, the longest pause of each and their sum, in ms."""

    def __init__(self) -> None:
        self.counts = [0, 0, 0]
        self.longest_ms = [0.0, 0.0, 0.0]
        self.total_ms = [0.0, 0.0, 0.0]
        self.recent = RecentMax(RECENT_S)  # any generation: what a benchmark samples
        # the objects frozen, counted at start-up and at each paced full collection only:
        # gc.get_freeze_count() walks them all (20 ms per million), and /healthz asked it on
        # every call, a stall a monitor polling twice a second paid for (issue 37)
        self.frozen = 0
        self._started = 0.0

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        """A gc.callbacks hook."""
        if phase == "start":
            self._started = time.perf_counter()
            return
        gen = info["generation"]
        ms = (time.perf_counter() - self._started) * 1000
        self.counts[gen] += 1
        self.longest_ms[gen] = max(self.longest_ms[gen], ms)
        self.total_ms[gen] += ms
        self.recent.note(ms)

    def view(self) -> dict[str, Any]:
        """What /healthz shows."""
        return {
            "collections": list(self.counts),
            "longest_pause_ms": [round(ms, 1) for ms in self.longest_ms],
            "total_pause_ms": [round(ms, 1) for ms in self.total_ms],
            "recent_pause_ms": round(self.recent.get(), 1),
            "thresholds": list(gc.get_threshold()),
            "frozen": self.frozen,
        }


STATS = PauseStats()


def tune() -> None:
    """Move the start-up objects out of the collector's sight, make full collections rare
    and measure every pause."""
    gc.collect()
    gc.freeze()
    STATS.frozen = gc.get_freeze_count()
    gc.set_threshold(*THRESHOLDS)
    if STATS.on_gc not in gc.callbacks:
        gc.callbacks.append(STATS.on_gc)


class Pace:
    """The collector on a clock: every call (once a second, from the clock loop) moves what
    survived so far out of the collector's sight (gc.freeze), and every `every` seconds a
    full collection looks at everything again (unfreeze, collect, freeze).

    Why freeze every second: what the server keeps (rooms, connections, sessions, match
    states) grows and changes slowly, and each young collection promoted its share into the
    middle generation, so every tenth one walked some 100,000 objects: a 100 to 190 ms pause
    at 300 tables (docs/performance.md, "Third round"). Frozen, they are not walked again
    until the paced full collection, and the automatic collections only see what was made in
    the last second. The cost: a cycle that becomes garbage after it was frozen waits for the
    full collection (at most `every` seconds) instead of a middle one.

    Collected before frozen: what was made and dropped within the last second (a connection
    that came and went, with the cycles aiohttp and asyncio leave behind it: about 40 objects
    each) is collected by a young and middle collection first, over that second's survivors
    only, so that it is not frozen: a flood of short connections froze 1.8 million dead
    objects in four minutes, and the paced full collection then stopped the server for 2.8 s
    (docs/reliability.md, "The collector")."""

    def __init__(self, every: float = FULL_EVERY_S):
        self.every = every
        self.last: float | None = None

    def maintain(self, now: float) -> bool:
        """Freeze what survived; collect everything if `every` seconds have passed since the
        last time (now: a monotonic clock). True if it collected."""
        if self.last is None:
            self.last = now
        if now - self.last < self.every:
            gc.collect(1)
            gc.freeze()
            return False
        self.last = now
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        STATS.frozen = gc.get_freeze_count()  # within the full collection's pause anyway
        return True
