"""The longest of something in the last few seconds: a stall, a pause, a trim."""

from __future__ import annotations

import time


class RecentMax:
    """The largest value noted in the last `memory` seconds (0 once it is older)."""

    def __init__(self, memory: float) -> None:
        self.memory = memory
        self.value = 0.0
        self.seen_at = float("-inf")

    def note(self, value: float, now: float | None = None) -> None:
        """Note `value` at `now` (monotonic; the present if None)."""
        now = time.monotonic() if now is None else now
        if value >= self.get(now):
            self.value, self.seen_at = value, now

    def get(self, now: float | None = None) -> float:
        """The largest value of the last `memory` seconds."""
        now = time.monotonic() if now is None else now
        return self.value if now - self.seen_at < self.memory else 0.0
