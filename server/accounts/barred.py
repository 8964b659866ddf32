"""Keys over their limit, remembered in the process until their window ends (issue 37).

A registration from an address past its limit was refused only after two Redis round trips
(count the attempt, read the window's end): 64 addresses asking as fast as answered made
3,000 such refusals a second, and those round trips were a quarter of the event loop's
samples in its profile (bench.abuse taken_names_many: honest p99 70 ms on a quiet host).
Once refused, the address is refused here until the window's end, without asking Redis: the
window does not move for the attempts in it (server/accounts/store.py, `attempt`), so
skipping their count changes no answer. Other processes learn the same from Redis at their
first refusal. Bounded: the oldest bar is forgotten past KEPT (the address is then counted in
Redis again, as before).
"""

from __future__ import annotations

from collections import OrderedDict

KEPT = 4096  # keys remembered at most


class Barred:
    """Keys refused until a time (a monotonic clock's)."""

    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self._until: OrderedDict[str, float] = OrderedDict()

    def left(self, key: str, now: float) -> float:
        """Seconds `key` stays refused (0: it is not)."""
        until = self._until.get(key)
        if until is None:
            return 0.0
        if until <= now:
            del self._until[key]
            return 0.0
        return until - now

    def bar(self, key: str, until: float) -> None:
        """Refuse `key` until `until`."""
        self._until[key] = until
        self._until.move_to_end(key)
        while len(self._until) > self.kept:
            self._until.popitem(last=False)
