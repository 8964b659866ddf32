"""The event loop's recent stalls, so that a client is judged by the rate it sent at.

When the loop stalls (a collection, a burst of work), a client's messages wait in its socket
and are then read all at once: a client that kept under its rate would look like a burst and
be refused. A heartbeat timer every BEAT seconds notes how late it ran; libuv and asyncio both
run due timers before the reader tasks that the same wake-up resumes, so the stall is known
before the first queued message is judged. The message buckets (server/net/limits.py) widen
their burst by the messages their rate allowed during the longest stall of the last MEMORY
seconds.
"""

from __future__ import annotations

import asyncio
import time

from server.recent import RecentMax

BEAT = 0.05  # seconds between heartbeats
NOTICE = 0.1  # a heartbeat later than this was a stall
MEMORY = 10.0  # seconds a stall is remembered (its queued messages are read well within it)


class Stalls:
    """The longest recent lateness of the event loop, in seconds."""

    def __init__(self) -> None:
        self._longest = RecentMax(MEMORY)
        self._due = 0.0
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Start the heartbeat on the running loop."""
        self._schedule(time.monotonic())

    def stop(self) -> None:
        """Stop the heartbeat."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def saw(self, late: float, now: float) -> None:
        """Note a stall of `late` seconds seen at `now` (monotonic)."""
        self._longest.note(late, now)

    def recent(self, now: float | None = None) -> float:
        """The longest stall of the last MEMORY seconds (0 if none)."""
        return self._longest.get(now)

    def _beat(self) -> None:
        now = time.monotonic()
        if now - self._due > NOTICE:
            self.saw(now - self._due, now)
        self._schedule(now)

    def _schedule(self, now: float) -> None:
        self._due = now + BEAT
        self._handle = asyncio.get_running_loop().call_later(BEAT, self._beat)
