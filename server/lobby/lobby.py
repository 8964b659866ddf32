"""The lobby: the rooms of this process, their invites, and the quick-match queues. Pure logic.

Quick match pairs two singles players, or fills a doubles table of four, in arrival order; the
players are seated ready, so the match starts at once.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from server.lobby.room import SEATS, LobbyError, Room, new_id
from server.match import Settings, Step

QUICK_SETS = 1  # quick matches are short: one set, the standard stroke clock
QUICK_CLOCK = 30.0


class Lobby:
    """Every room of this process by id and by invite, and the quick-match queues."""

    def __init__(self, settings: Settings, grace: float, buffer: int = 256):
        self.settings = settings
        self.grace = grace
        self.buffer = buffer
        self.rooms: dict[str, Room] = {}
        self.invites: dict[str, str] = {}
        self.queues: dict[str, deque[tuple[str, str]]] = {m: deque() for m in SEATS}

    def add(self, room: Room) -> Room:
        """Register a room (new or reloaded)."""
        self.rooms[room.id] = room
        if room.invite:
            self.invites[room.invite] = room.id
        return room

    def create(self, mode: str, sets: int, clock: float, private: bool) -> Room:
        """A new empty room."""
        room = Room(new_id("r"), mode, sets, clock, private, self.settings, self.grace, self.buffer)
        return self.add(room)

    def remove(self, room: Room) -> None:
        """Forget a closed room."""
        room.closed = True
        self.rooms.pop(room.id, None)
        if room.invite:
            self.invites.pop(room.invite, None)

    def find(self, rid: str | None, invite: str | None) -> Room:
        """A room by invite (needed for a private room) or by id (public rooms only)."""
        if invite is not None:
            room = self.rooms.get(self.invites.get(invite, ""))
            if room is None or (rid is not None and rid != room.id):
                raise LobbyError("bad_invite", "This invite is not valid (any more).")
            return room
        room = self.rooms.get(rid or "")
        if room is None or room.private:
            raise LobbyError("no_room", "There is no such room (a private room needs its invite).")
        return room

    def room_of(self, sid: str) -> Room | None:
        """The room where a session holds a seat."""
        for room in self.rooms.values():
            if room.seat_of(sid) is not None:
                return room
        return None

    # -- quick match -----------------------------------------------------------------
    def enqueue(self, sid: str, name: str, mode: str) -> int:
        """Put a session in a quick-match queue; returns how many wait there."""
        self.dequeue(sid)
        self.queues[mode].append((sid, name))
        return len(self.queues[mode])

    def dequeue(self, sid: str) -> bool:
        """Take a session out of any queue; True if it was queued."""
        found = False
        for q in self.queues.values():
            for item in [i for i in q if i[0] == sid]:
                q.remove(item)
                found = True
        return found

    def match_up(self, mode: str, now: float) -> tuple[Room, list[str], Step] | None:
        """When a queue holds a full table, seat its first players in a new public room."""
        q = self.queues[mode]
        if len(q) < SEATS[mode]:
            return None
        players = [q.popleft() for _ in range(SEATS[mode])]
        room = self.create(mode, QUICK_SETS, QUICK_CLOCK, private=False)
        for seat, (sid, name) in enumerate(players):
            room.join(sid, name, seat, None, now)
            room.seats[seat].ready = True  # type: ignore[union-attr]
        step = room.start_if_ready(now)
        return room, [sid for sid, _ in players], step

    # -- views -----------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The `lobby` message: public open rooms, public live matches, queue lengths."""
        public = [r for r in self.rooms.values() if not r.private]
        return {
            "t": "lobby",
            "rooms": [r.summary() for r in public if r.status == "open"],
            "live": [r.summary() for r in public if r.status == "playing"],
            "queue": {m: len(q) for m, q in self.queues.items()},
        }
