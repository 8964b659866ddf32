"""Aim previews to a room's watchers at a lower rate than to its players.

The players get every preview the match lets through (up to 15 a second: the opponent is
waiting to answer the stroke); the watchers get at most WATCHER_RATE a second, coalesced:
a preview that comes too soon waits, a newer one replaces it, and the newest is sent when
the watchers' turn comes, so they always end on the aim the stroke was played from. At
500 tables previews were most of the messages sent and a sixth of the server (issue 35).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable

from server.lobby.members import Member

WATCHER_RATE = 5.0  # previews a second to the watchers, at most (docs/protocol.md, "aim")


class WatcherAims:
    """Each room's previews to its watchers: when the last went, the one waiting, its timer."""

    def __init__(
        self,
        watchers: Callable[[str], Iterable[Member]],
        rate: float = WATCHER_RATE,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.watchers = watchers  # room id -> its watchers now
        self.gap = 1.0 / rate
        self.clock = clock
        self.last: dict[str, float] = {}  # room id -> when its watchers last got a preview
        self.waiting: dict[str, bytes] = {}  # room id -> the newest preview not sent yet
        self.timers: dict[str, asyncio.TimerHandle] = {}

    def offer(self, rid: str, data: bytes) -> None:
        """A preview for the room's watchers (encoded): sent now if their last one is a gap
        old, else kept (replacing any kept before) until it is."""
        now = self.clock()
        last = self.last.get(rid)
        if rid not in self.timers and (last is None or now - last >= self.gap):
            self._send(rid, data, now)
            return
        self.waiting[rid] = data
        if rid not in self.timers:
            assert last is not None  # a gap not yet over began with a preview sent
            delay = max(0.0, last + self.gap - now)
            self.timers[rid] = asyncio.get_running_loop().call_later(delay, self._due, rid)

    def drop(self, rid: str) -> None:
        """The aiming is over (the stroke was struck, the turn passed): a preview still
        waiting would show an aim that is no longer there."""
        self.waiting.pop(rid, None)

    def forget(self, rid: str) -> None:
        """The room is gone from this process."""
        timer = self.timers.pop(rid, None)
        if timer is not None:
            timer.cancel()
        self.waiting.pop(rid, None)
        self.last.pop(rid, None)

    def _due(self, rid: str) -> None:
        del self.timers[rid]
        data = self.waiting.pop(rid, None)
        if data is not None:
            self._send(rid, data, self.clock())

    def _send(self, rid: str, data: bytes, now: float) -> None:
        self.last[rid] = now
        for m in list(self.watchers(rid)):
            m.send(data, True)
