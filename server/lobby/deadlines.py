"""When each room next needs the clock loop: a heap of deadlines, so that a visit goes only
to the rooms with something due (docs/performance.md: ten visits a second to every room,
almost all finding nothing, were 8 % of the server at 500 tables)."""

from __future__ import annotations

import heapq

COMPACT_AT = 4
"""The heap is rebuilt from the live deadlines once it holds this many entries per room:
a room rescheduled later leaves its earlier entry behind until that one comes up."""


class Deadlines:
    """Keys (room ids) with the time each is next due. A key has one deadline at a time:
    setting it again replaces the old one, whose heap entry is skipped when it comes up."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, str]] = []
        self._due: dict[str, float] = {}

    def __len__(self) -> int:
        return len(self._due)

    def due_at(self, key: str) -> float | None:
        """The key's deadline, or None."""
        return self._due.get(key)

    def set(self, key: str, due: float | None) -> None:
        """Make `due` the key's deadline (None: it has none)."""
        if due is None:
            self._due.pop(key, None)
            return
        if self._due.get(key) == due:
            return
        self._due[key] = due
        heapq.heappush(self._heap, (due, key))
        if len(self._heap) > COMPACT_AT * max(len(self._due), 16):
            self._heap = [(d, k) for k, d in self._due.items()]
            heapq.heapify(self._heap)

    def pop_due(self, now: float) -> list[str]:
        """The keys due at `now` (deadline <= now), earliest first; their deadlines are
        cleared, to be set again after their visit."""
        heap, current = self._heap, self._due
        out: list[str] = []
        while heap and heap[0][0] <= now:
            due, key = heapq.heappop(heap)
            if current.get(key) == due:
                del current[key]
                out.append(key)
        return out
