"""Tables from the quick-match queues, paired by rating (server/lobby/pairing.py says
who suits whom; docs/accounts.md, "Quick match by rating").

A queue entry carries the player's shown rating (None: a guest) and when it
was queued, after the four fields every entry has ([sid, name, process, connection, rating,
since]). Any process may take a table from a queue, when a player joins it and once a second
(a window widens with the wait, so a table may form with nobody new); the entries are taken
all or none, so two processes never seat one player twice.
"""

from __future__ import annotations

from server.games.registry import NAMES, game, rating_mode
from server.lobby.members import QueueEntry
from server.lobby.pairing import Waiting, pick
from server.store.pairing import QueueView

# the quick-match queues of rated games (server/lobby/service.py names them): (game, mode)
RATED_QUEUES = {
    rating_mode(name, mode): (name, mode)
    for name in NAMES
    if game(name).rated
    for mode in ("singles", "doubles")
}
TRIES = 5  # a table taken meanwhile by another process: the queue is read again


def waiting_of(entry: QueueEntry, now: float) -> Waiting:
    """An entry as the pairing sees it (an entry without rating and time, queued by an older
    process, is a guest that came now)."""
    if len(entry) >= 6:
        rating, since = entry[4], entry[5]
        return Waiting(rating if isinstance(rating, int) else None, float(since))
    return Waiting(None, now)


class Matchmaker:
    """Takes the best table there is from a rated queue."""

    def __init__(self, view: QueueView):
        self.view = view

    async def take(self, queue: str, seats: int, now: float) -> list[QueueEntry]:
        """A table of `seats` entries taken out of the queue, or [] if none suits yet."""
        for _ in range(TRIES):
            stored = await self.view.waiting(queue)
            if len(stored) < seats:
                return []
            chosen = pick([waiting_of(e, now) for _, e in stored], seats, now)
            if chosen is None:
                return []
            if await self.view.take_these(queue, [stored[i][0] for i in chosen]):
                return [stored[i][1] for i in chosen]
        return []
