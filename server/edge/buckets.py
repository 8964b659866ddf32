"""Token buckets: a rate with a burst, for one client or per key (an address, a session).
Every limit of the server is made of them (server/net/limits.py; the HTTP requests' per
address, server/edge/reads.py `AddressBudget`: the API's reads, the lessons' tries, the
replays' suggestions, the archived records' recomputations)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

PRUNE_EVERY = 60.0  # seconds between sweeps of a KeyedBuckets' full buckets


@dataclass(slots=True)
class TokenBucket:
    """`rate` tokens a second up to `burst`; each action takes one or is refused."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    # seconds the event loop stalled lately (server/net/stalls.py): what the rate allowed in
    # them may arrive at once on top of the burst
    slack: Callable[[], float] | None = None
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = self.clock()

    def take(self) -> bool:
        """True (and one token spent) if the action is allowed now."""
        now = self.clock()
        cap = self.burst if self.slack is None else self.burst + self.rate * self.slack()
        self.tokens = min(cap, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class KeyedBuckets:
    """A token bucket per key (a client address, a session id). Buckets that have refilled
    are dropped by `prune`, so the table holds only the keys active lately."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}
        self.pruned = clock()

    def take(self, key: str) -> bool:
        """True (and one token spent) if `key` may do the action now."""
        if self.clock() - self.pruned > PRUNE_EVERY:  # the table stays as small as the activity
            self.prune()
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.take()

    def prune(self) -> None:
        """Forget the keys whose bucket is full again (as if never seen)."""
        now = self.pruned = self.clock()
        full = [
            a
            for a, b in self.buckets.items()
            if b.tokens + (now - b.stamp) * self.rate >= self.burst
        ]
        for key in full:
            del self.buckets[key]
