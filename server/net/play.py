"""At the table: ready, rematch, aim, strike, pass, resign and chat (docs/protocol.md).

Each finds the player's room, hands the move to the room and its match (server/lobby/room.py,
server/games/novuss/match.py: they check it and may refuse it), and has the runtime store and
deliver what
came of it; a strike's motion is played out once its stroke is stored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from server.games.core.play import Shot
from server.lobby.lobby import Lobby
from server.lobby.members import Member
from server.lobby.reserved import is_competition
from server.lobby.room import LobbyError, Room
from server.net.limits import ChatBudgets
from server.net.runtime import RoomRuntime
from server.store.memory import MemoryWatch


class Table:
    """The moves of a player (or a watcher's chat) in the room they are in."""

    def __init__(
        self,
        lobby: Lobby,
        runtime: RoomRuntime,
        chats: ChatBudgets,
        memory: MemoryWatch | None = None,
    ):
        self.lobby = lobby
        self.runtime = runtime
        self.chats = chats
        self.memory = memory  # Redis nearly full: no new match (a rematch) is started
        # told of every accepted strike with the position before it (practice take-backs)
        self.struck: list[Callable[[Room, int, Any], None]] = []  # (room, seat, position before)

    def _room(self, conn: Member) -> tuple[Room, str]:
        assert conn.session is not None  # the dispatcher checks hello first
        sid = conn.session.sid
        room = conn.room or self.lobby.room_of(sid)
        if room is None:
            raise LobbyError("no_room", "You are not in a room.")
        return room, sid

    async def ready(self, conn: Member, ready: bool) -> None:
        """Ready for the match."""
        room, sid = self._room(conn)
        if ready and room.match is not None and not room.match_on:
            self._charge(room, conn)  # a new match after one: what a rematch is (below)
        room.set_ready(sid, ready, time.time())
        self.runtime.lobby_changed = True
        await self.runtime.flush(room)

    async def rematch(self, conn: Member) -> None:
        """Offer or accept a rematch."""
        room, sid = self._room(conn)
        self._charge(room, conn)
        room.offer_rematch(sid, time.time())
        self.runtime.lobby_changed = True
        await self.runtime.flush(room)

    def _charge(self, room: Room, conn: Member) -> None:
        """A new match in a room after one: refused at a competition's table (its one match is
        the pairing's, docs/competitions.md) and when the server is full, and charged to the
        budgets of creating a room (per connection, session and address), else a rematch loop with
        the computer, which accepts at once, made matches without limit (issue 37). A
        stand-in for another process's connection has no budget here: its own process's
        gateway holds it."""
        if is_competition(room):
            raise LobbyError("not_now", "A competition's table plays its one match.")
        if self.memory is not None and self.memory.full:
            raise LobbyError(
                "server_full", "The server is full just now; please try again in a few minutes."
            )
        charge = getattr(conn, "may_create", None)
        if charge is not None:
            charge()

    async def aim(self, conn: Member, x: float, y: float, angle: float, power: float) -> None:
        """Forward an aim preview (rate limited by the match); never stored."""
        room, sid = self._room(conn)
        room.aim(sid, x, y, angle, power, time.time())
        self.runtime.deliver_transient(room)

    async def strike(self, conn: Member, shot: Shot) -> None:
        """A strike: judged by the match, stored, then played out."""
        arrived = time.perf_counter()
        room, sid = self._room(conn)
        before = room.match.position if room.match is not None else None
        step = room.strike(sid, shot, time.time())
        if step.motion is not None:
            self.runtime.stroke_times.arrived(room.id, conn, arrived)
        if step.motion is not None and before is not None:
            for told in self.struck:
                told(room, step.motion.seat, before)
        self.runtime.play(room, step.motion)  # played out once stored (see flush)
        await self.runtime.flush(room)

    async def pass_turn(self, conn: Member) -> None:
        """Pass the strike right."""
        room, sid = self._room(conn)
        room.pass_turn(sid, time.time())
        await self.runtime.flush(room)

    async def resign(self, conn: Member) -> None:
        """Resign the match."""
        room, sid = self._room(conn)
        room.resign(sid, time.time())
        self.runtime.lobby_changed = True
        await self.runtime.flush(room)

    async def chat(self, conn: Member, text: str, team: bool) -> None:
        """Room or team chat, within the session's and the room's chat budgets."""
        room, sid = self._room(conn)
        assert conn.session is not None
        self.chats.take(sid, room.id)
        seated = sid if room.seat_of(sid) is not None else None
        room.chat(seated, conn.session.name, text, team)
        await self.runtime.flush(room)
