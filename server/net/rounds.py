"""A sweep over every connection spread over the clock's ticks, not done all at once.

At 1,000 tables (6,000 connections) the once-a-second sweeps (idle connections, unsent
bytes) held the loop for 12 ms in one tick, beside 3 ms of forgetting sessions, and every
stroke that arrived meanwhile waited behind them (docs/performance.md, "Eleventh round").
Each tick now takes a share: every connection is still visited once a second.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Generic, TypeVar

T = TypeVar("T")


class Rounds(Generic[T]):
    """Visits every member of a changing collection once a round of `shares` calls, a share
    at each call. A round takes the members there are when it starts: one that comes later
    is visited in the next round, one gone meanwhile is still handed out (the caller skips
    what has ended)."""

    def __init__(self, shares: int):
        self.shares = max(1, shares)
        self.left: list[T] = []
        self.size = 0

    def share(self, members: Collection[T]) -> list[T]:
        """The next share of the round; a new round begins when the last one is done."""
        if not self.left:
            self.left = list(members)
            self.size = -(-len(self.left) // self.shares)  # ceil: the round fits its calls
        cut = max(0, len(self.left) - self.size)
        part = self.left[cut:]
        del self.left[cut:]
        return part
