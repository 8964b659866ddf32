"""The lobby: the rooms this process owns, their invites, and the lobby list. Pure logic.

The quick-match queues and the list of every process's rooms live in Redis (the hub reads and
writes them); this module seats a filled quick-match table and shapes the `lobby` message.
Quick match pairs two singles players, or fills a doubles table of four, in arrival order; the
players are seated ready, so the match starts at once.
"""

from __future__ import annotations

import math
from typing import Any

from server.games.core.play import Settings, Step
from server.games.registry import DEFAULT
from server.lobby.deadlines import Deadlines
from server.lobby.room import LobbyError, Room, new_id
from server.lobby.seat import Player
from server.wire import Lobby as LobbyMessage
from server.wire import RoomSummary

QUICK_SETS = 1  # quick matches are short: one set, the standard stroke clock
QUICK_CLOCK = 30.0
LOBBY_LIST = 100  # rooms and live matches listed at most in the `lobby` message, each


class Lobby:
    """Every room this process owns, by id and by invite."""

    def __init__(self, settings: Settings, grace: float, buffer: int = 256):
        self.settings = settings
        self.grace = grace
        self.buffer = buffer
        self.rooms: dict[str, Room] = {}
        self.invites: dict[str, str] = {}
        self.seated: dict[str, Room] = {}  # session id -> the room it sits in (kept by rooms)
        self.deadlines = Deadlines()  # room id -> when the clock loop visits it next

    def add(self, room: Room) -> Room:
        """Register a room (new or reloaded)."""
        self.rooms[room.id] = room
        self.deadlines.set(room.id, -math.inf)  # a first visit at once sets its deadline
        if room.invite:
            self.invites[room.invite] = room.id
        room.seat_index = self.seated
        for _, s in room.seated():
            self.seated[s.sid] = room
        return room

    def new_room(
        self,
        mode: str,
        sets: int,
        clock: float,
        private: bool,
        rid: str | None = None,
        game: str = DEFAULT,
        options: dict[str, Any] | None = None,
        rated: bool = False,
    ) -> Room:
        """A new empty room (with a new id unless `rid`), not listed yet: add() it once
        somebody is seated in it, as the server closes a listed room that is empty."""
        rid = rid or new_id("r")
        return Room(
            rid, mode, sets, clock, private, self.settings, self.grace, self.buffer, game, options,
            rated,
        )  # fmt: skip

    def schedule(self, room: Room, storing: bool = False) -> None:
        """Set when the clock loop next visits the room: when its clocks are next due, or
        at once while it has something to store or deliver (`storing`: a commit to retry)
        or nobody is seated (it closes), as the loop did when it visited every room."""
        if room.closed:
            return
        waiting = storing or room.outbox or room.log or room.records or room.empty
        self.deadlines.set(room.id, -math.inf if waiting else room.next_due())

    def remove(self, room: Room) -> None:
        """Forget a closed room."""
        room.closed = True
        self.rooms.pop(room.id, None)
        self.deadlines.set(room.id, None)
        if room.invite:
            self.invites.pop(room.invite, None)
        for _, s in room.seated():
            if self.seated.get(s.sid) is room:
                del self.seated[s.sid]
        room.seat_index = None

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
        """The room where a session holds a seat (an index: this runs on every hello and
        every watch, and a scan of 500 rooms was 4 % of the server under load)."""
        room = self.seated.get(sid)
        if room is None or room.seat_of(sid) is None:
            return None
        return room

    # -- quick match -----------------------------------------------------------------
    def quick_room(
        self,
        mode: str,
        players: list[Player],
        now: float,
        rid: str | None = None,
        game: str = DEFAULT,
        options: dict[str, Any] | None = None,
    ) -> tuple[Room, Step]:
        """Seat a filled quick-match table, in queue order, in a new public room (`rid`, or a
        new id) of the game's `options` (players each alone: 002 7 d); everybody is ready, so
        the match starts. Rated when every player is registered, each at one seat (either
        game: each rated apart)."""
        accounts = [p.account for p in players]
        # one account at two seats (two sessions queued) plays itself: never rated (issue 37)
        rated = None not in accounts and len(set(accounts)) == len(accounts)
        room = self.add(
            self.new_room(mode, QUICK_SETS, QUICK_CLOCK, False, rid, game, options, rated)
        )
        return room, room.seat_ready(players, now)


def lobby_view(summaries: list[RoomSummary], queue: dict[str, int]) -> LobbyMessage:
    """The `lobby` message from every process's public room summaries and the lengths of
    the quick-match queues, by name (server/lobby/matchmaking.py QUEUES):
    at most LOBBY_LIST open tables (the fullest first: the nearest to starting) and live
    matches (the most watched first), with how many there are in all, so that its size is
    bounded however many rooms exist."""
    rooms = [r for r in summaries if r["status"] == "open"]
    live = [r for r in summaries if r["status"] == "playing"]
    rooms.sort(key=lambda r: (-sum(p is not None for p in r["players"]), r["id"]))
    live.sort(key=lambda r: (-r["watchers"], r["id"]))
    return {
        "t": "lobby",
        "rooms": rooms[:LOBBY_LIST],
        "live": live[:LOBBY_LIST],
        "counts": {"rooms": len(rooms), "live": len(live)},
        "queue": dict(queue),
    }
