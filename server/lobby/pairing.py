"""Who plays whom from a quick-match queue (docs/accounts.md, "Quick match by
rating"). Pure: the waiting players in, the table to seat out.

Registered players are paired by rating: with the nearest ratings among those waiting within
a window that widens with the wait, `BASE + WIDEN × seconds` rating points either side, the
window of whichever of the two has waited longer; past OPEN_AFTER seconds a player takes
anybody. Guests are paired as before ratings: with whoever waits, in the order they came (a
table with a guest is casual: a quick match is rated only when every player is registered);
a registered player takes a guest only when no registered player is within reach. The longest
waiting player is looked at first, so nobody starves: whoever has waited OPEN_AFTER seconds is
seated with the next players there are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from server.wire import QuickWindow

BASE = 50.0  # rating points either side at once (a shown rating: 60 × mu, docs/accounts.md)
WIDEN = 10.0  # more points either side per second waited
OPEN_AFTER = 45.0  # seconds waited after which anybody will do (the window is then ±500)


@dataclass(frozen=True)
class Widening:
    """How a window widens: a server's setting (`--quick-widen`, `--quick-open-after`), so a
    small club's server, with few players waiting at once, may pair sooner."""

    widen: float = WIDEN
    open_after: float = OPEN_AFTER

    def window(self, waited: float) -> float:
        """Rating points either side acceptable after `waited` seconds."""
        if waited >= self.open_after:
            return math.inf
        return BASE + self.widen * max(0.0, waited)


DEFAULT_WIDENING = Widening()


@dataclass(frozen=True)
class Waiting:
    """A player in the queue: the rating shown (None: a guest) and since when it waits."""

    rating: int | None
    since: float


class Reach(TypedDict):
    """A quick-match entry's terms as `queued` tells them (docs/protocol.md): will the match
    be rated (a registered player in a rated game's queue; it then is when every player
    seated is registered), and the shown ratings acceptable at once (`from`, `to`, None for a
    guest), widening by `widen` points a second, anybody after `open_after` seconds."""

    rated: bool
    window: QuickWindow | None


def reach(rating: int | None, rated_queue: bool, widening: Widening = DEFAULT_WIDENING) -> Reach:
    """The terms of a player of `rating` (None: a guest) queued in a queue that is rated or
    not."""
    if rating is None or not rated_queue:
        return Reach(rated=False, window=None)
    near = widening.window(0.0)
    terms: QuickWindow = {
        "from": rating - near, "to": rating + near,
        "widen": widening.widen, "open_after": widening.open_after,
    }  # fmt: skip
    return Reach(rated=True, window=terms)


def suits(a: Waiting, b: Waiting, now: float, widening: Widening = DEFAULT_WIDENING) -> bool:
    """May a and b sit at one table now?"""
    if a.rating is None or b.rating is None:
        return True  # a guest plays whoever waits, as before ratings
    return abs(a.rating - b.rating) <= widening.window(now - min(a.since, b.since))


def pick(
    waiting: Sequence[Waiting], seats: int, now: float, widening: Widening = DEFAULT_WIDENING
) -> list[int] | None:
    """The indices (in queue order) of a table of `seats` players to seat now, or None.
    `waiting` is in queue order (the first came first). The first player, in that order, who
    has enough others suiting them is seated with the nearest in rating (registered players
    before guests; guests in the order they came)."""
    for i, anchor in enumerate(waiting):
        fellows = [j for j, w in enumerate(waiting) if j != i and suits(anchor, w, now, widening)]
        if len(fellows) < seats - 1:
            continue
        fellows.sort(key=lambda j: (_distance(anchor, waiting[j]), j))
        return sorted([i, *fellows[: seats - 1]])
    return None


def _distance(a: Waiting, b: Waiting) -> float:
    """How far apart in rating (a guest is farther than any registered player, and guests
    among themselves are equal: their order is the queue's)."""
    if a.rating is None and b.rating is None:
        return 0.0
    if a.rating is None or b.rating is None:
        return math.inf
    return float(abs(a.rating - b.rating))
