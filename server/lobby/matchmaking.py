"""Tables from the quick-match queues, paired by rating (server/lobby/pairing.py says
who suits whom; docs/accounts.md, "Quick match by rating").

A queue entry carries the player's shown rating (None: a guest) and when it
was queued, after the four fields every entry has ([sid, name, process, connection, rating,
since]). Any process may take a table from a queue, when a player joins it and once a second
(a window widens with the wait, so a table may form with nobody new); the entries are taken
all or none, so two processes never seat one player twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.games.registry import NAMES, game, rating_mode
from server.lobby.members import QueueEntry
from server.lobby.pairing import DEFAULT_WIDENING, Waiting, Widening, pick
from server.lobby.room import SEATS
from server.store.pairing import QueueView

ALONE = (3, 4)  # 002 7 d: 3 or 4 players, each alone (a game offering the "players" option)


@dataclass(frozen=True)
class QuickQueue:
    """One quick-match queue: a table of `game` in `mode`, or (`players`) of 3 or 4 players
    each alone (002 7 d), who are rated as the game's 7 d rating but wait apart (a table of 3
    is not one of 4)."""

    game: str
    mode: str
    players: int | None = None

    @property
    def name(self) -> str:
        """The queue's key: its rating's name ("singles", "crokinole-doubles"), and for
        players alone their number too ("crokinole-7d-3")."""
        if self.players is None:
            return self.rating
        return f"{self.rating}-{self.players}"

    @property
    def rating(self) -> str:
        """The rating its players are paired by and its matches change."""
        return rating_mode(self.game, self.mode, self.players is not None)

    @property
    def seats(self) -> int:
        """Players at its table."""
        return self.players or SEATS[self.mode]

    @property
    def options(self) -> dict[str, Any]:
        """Its room's options, as `create` makes a room of players alone from the game's
        page (002 7 d; 4 f: tournament scoring, the only one of more than two sides)."""
        if self.players is None:
            return {}
        scoring = {"scoring": "tournament"} if "scoring" in game(self.game).options else {}
        return {"players": self.players, **scoring}


# every quick-match queue, by name (server/lobby/service.py queues in them)
QUEUES = {
    q.name: q
    for name in NAMES
    for q in [
        *(QuickQueue(name, mode) for mode in SEATS),
        *(QuickQueue(name, "singles", n) for n in ALONE if "players" in game(name).options),
    ]
}
# the queues of rated games: paired by rating (server/lobby/pairing.py)
RATED_QUEUES = {k: q for k, q in QUEUES.items() if game(q.game).rated}
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

    def __init__(self, view: QueueView, widening: Widening = DEFAULT_WIDENING):
        self.view = view
        self.widening = widening

    async def take(self, queue: str, seats: int, now: float) -> list[QueueEntry]:
        """A table of `seats` entries taken out of the queue, or [] if none suits yet."""
        for _ in range(TRIES):
            stored = await self.view.waiting(queue)
            if len(stored) < seats:
                return []
            chosen = pick([waiting_of(e, now) for _, e in stored], seats, now, self.widening)
            if chosen is None:
                return []
            if await self.view.take_these(queue, [stored[i][0] for i in chosen]):
                return [stored[i][1] for i in chosen]
        return []
