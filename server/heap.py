"""Freed memory handed back to the system after a burst.

glibc's malloc keeps the chunks a program frees for its own reuse: after an attack of many
connections or of stalled readers (thousands of request parsers, megabytes of unsent frames),
the server's RSS stayed at 100 to 184 MB a minute later though what it still held was back to
its start (docs/reliability.md, "Attacks, measured"). The memory was free inside the process
and lost to everyone else: on a host running several servers, one attack would have taken
their headroom for good. malloc_trim(0) returns every whole free page of every malloc arena
to the kernel (madvise), keeping the chunks in use where they are.

It walks the arenas, so it is not free: it runs from the clock loop at most every
TRIM_EVERY_S, and only when mallinfo2 counts more than TRIM_ABOVE free bytes in the heaps and
either the RSS or those free bytes have grown by as much since the last trim (mallinfo2 still
counts trimmed pages as free: a quiet server, or one trimmed already, is left alone). Both:
a trim in the middle of an attack finds the memory still in use, and what the attack frees
when it ends grows the free bytes, not the RSS (the stalled readers left 28 MB free and
untrimmed that way). Each trim is timed and shown by
/healthz. Python's own allocator gives back its arenas when they empty; the rest it gets
from malloc, which is what this trims. Not glibc (musl, macOS): nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from typing import Any

import psutil

from server.recent import RecentMax

TRIM_EVERY_S = 10.0
TRIM_ABOVE = 4 << 20  # free bytes in the heaps before a trim is worth its walk
RECENT_S = 10.0  # /healthz shows the longest trim of the last this many seconds too


class _MallInfo2(ctypes.Structure):
    # glibc >= 2.33, malloc.h: every field a size_t
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _libc() -> Any:
    """glibc's malloc_trim and mallinfo2, or None where they are missing."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.malloc_trim.restype = ctypes.c_int
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _libc()


def free_in_heap() -> int:
    """Bytes malloc holds free in its heaps (0 where unknown)."""
    if _LIBC is None:
        return 0
    return int(_LIBC.mallinfo2().fordblks)


def trim() -> bool:
    """Give the heaps' free pages back to the kernel now; True if any was."""
    return _LIBC is not None and bool(_LIBC.malloc_trim(0))


class Trimmer:
    """The trims on a clock: `maintain` once a second, a trim at most every `every` seconds
    and only with `above` free bytes and as much RSS or free bytes grown since the last;
    their count, what the last gave back (RSS before less after) and their longest walk."""

    def __init__(self, every: float = TRIM_EVERY_S, above: int = TRIM_ABOVE):
        self.every = every
        self.above = above
        self.last = float("-inf")
        self.trims = 0
        self.freed_mb = 0.0
        self.longest_ms = 0.0
        self.recent = RecentMax(RECENT_S)
        self._process = psutil.Process()
        self._floor = 0  # the RSS the last trim left
        self._free_floor = 0  # ... and the free bytes it left counted

    def maintain(self, now: float) -> bool:
        """Trim if it is time and worth it (now: a monotonic clock); True if it trimmed."""
        if now - self.last < self.every:
            return False
        self.last = now
        rss, free = self._process.memory_info().rss, free_in_heap()
        grown = max(rss - self._floor, free - self._free_floor)
        if free < self.above or grown < self.above:
            return False
        started = time.perf_counter()
        trim()
        ms = (time.perf_counter() - started) * 1000
        self.longest_ms = max(self.longest_ms, ms)
        self.recent.note(ms)
        self._floor = self._process.memory_info().rss
        self._free_floor = free_in_heap()
        self.freed_mb = round((rss - self._floor) / 2**20, 1)
        self.trims += 1
        return True

    def view(self) -> dict[str, Any]:
        """What /healthz shows."""
        return {
            "trims": self.trims,
            "last_freed_mb": self.freed_mb,
            "longest_ms": round(self.longest_ms, 1),
            "recent_ms": round(self.recent.get(), 1),
            "free_mb": round(free_in_heap() / 2**20, 1),
        }
