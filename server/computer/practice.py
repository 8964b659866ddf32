"""Practice against the computer: a hint (the computer's suggested placement, aim and target
for the player to strike) and taking back a stroke. Only in a practice room (created by
`computer` with `practice: true`, never rated): in a rated or casual match the computer does
not think for a player, and what was struck stays struck (docs/protocol.md, "Practice").

Take-backs return to the position before the player's last stroke (the computer's strokes
after it go too). The positions are kept in this process's memory: after a restart or a
takeover the earlier strokes can no longer be taken back (the match goes on).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import deque
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from server.computer.rooms import practice
from server.computer.thinker import Thinkers
from server.games.core.play import Choice, ComputerError
from server.games.registry import game
from server.games.seam import Practice as GamePractice
from server.lobby.lobby import Lobby
from server.lobby.members import Member
from server.lobby.room import LobbyError, Room
from server.net.runtime import RoomRuntime

KEPT = 64  # strokes that can be taken back, per room
POLL = 0.05  # seconds between looks at a hint being worked out (polled: a pool replaced
# cancels what it had queued, which awaited as an asyncio future would cancel this handler)


class PracticeError(LobbyError):
    """A hint or take-back refused: not a practice room, not now, or nothing to take back."""


class Practice:
    """Hints and take-backs in practice rooms."""

    def __init__(
        self,
        lobby: Lobby,
        runtime: RoomRuntime,
        thinkers: Thinkers,
        budget: float | None,
    ):
        self.lobby = lobby
        self.budget = budget
        self.runtime = runtime
        self.thinkers = thinkers
        # room -> (match id, the position before each of its players' strokes), newest last
        self.before: dict[str, deque[tuple[str, Any]]] = {}
        self.thinking: set[str] = set()  # rooms with a hint being worked out
        # room -> (the position, its hint): asked again at the same position, the hint is
        # said again, not searched again (a player looping `hint` in a few rooms kept the
        # computer's workers busy, and every computer opponent on the server late)
        self.hinted: dict[str, tuple[Any, dict[str, Any]]] = {}
        runtime.on_forget.append(self.forget)

    def forget(self, rid: str) -> None:
        """A room closed or moved to another process."""
        self.before.pop(rid, None)
        self.hinted.pop(rid, None)

    def _room(self, conn: Member) -> tuple[Room, int]:
        assert conn.session is not None  # the dispatcher checks hello first
        room = conn.room or self.lobby.room_of(conn.session.sid)
        if room is None:
            raise LobbyError("no_room", "You are not in a room.")
        if not practice(room):
            raise PracticeError(
                "practice_only", "Hints and take-backs are for practice against the computer."
            )
        seat = room.seat_of(conn.session.sid)
        if seat is None:
            raise LobbyError("not_seated", "You have no seat in this room.")
        return room, seat

    def struck(self, room: Room, seat: int, before: Any) -> None:
        """A person struck in a room (server/net/play.py): keep the position before it, in a
        practice room, for a take-back."""
        if practice(room) and room.match is not None:
            kept = self.before.setdefault(room.id, deque(maxlen=KEPT))
            kept.append((room.match.id, before))

    async def hint(self, conn: Member) -> None:
        """The computer's suggestion for the player to strike: sent to the player alone."""
        room, seat = self._room(conn)
        m = room.match
        if m is None or m.phase != "play":
            raise PracticeError("not_now", "A hint is for a position at rest, in a match.")
        if m.turn != seat:
            raise PracticeError("not_your_turn", "A hint is for your own stroke.")
        if room.id in self.thinking:
            raise PracticeError("not_now", "A hint is being worked out.")
        state = m.position
        said = self.hinted.get(room.id)
        if said is not None and said[0] is state:
            conn.send(said[1])
            return
        self.thinking.add(room.id)
        try:
            asked = self.thinkers.decide(
                _practice(room).hint, state, seat, secrets.randbits(32), budget=self.budget
            )
            while not asked.done():  # a hung one is caught by Thinkers.watch, every tick
                await asyncio.sleep(POLL)
            choice = asked.result()
        except (BrokenProcessPool, CancelledError):  # its worker died, or hung and was killed
            self.thinkers.replace("a worker died")
            raise PracticeError("not_now", "The computer could not think just now.") from None
        except ComputerError as e:
            raise PracticeError("not_now", str(e)) from None
        finally:
            self.thinking.discard(room.id)
        message = hint_message(
            seat, choice, _practice(room), room.match is m and m.position is state
        )
        self.hinted[room.id] = (state, message)
        conn.send(message)

    async def takeback(self, conn: Member) -> None:
        """Back to the position before the player's last stroke, the player to strike."""
        room, _seat = self._room(conn)
        m = room.match
        if m is None or m.phase != "play":
            raise PracticeError("not_now", "A stroke can be taken back at rest, in a match.")
        kept = self.before.get(room.id)
        if not kept or kept[-1][0] != m.id:
            raise PracticeError("nothing_to_take_back", "There is no stroke of yours to take back.")
        _mid, before = kept.pop()
        now = time.time()
        room.apply(_practice(room).take_back(m, before, now))
        room.changed(now)  # the whole room again: the pucks where they were
        await self.runtime.flush(room)


def _practice(room: Room) -> GamePractice:
    """The practice of a practice room's game (only a game with one has practice rooms)."""
    offered = game(room.game).practice
    if offered is None:
        raise PracticeError("practice_only", "This game has no practice.")
    return offered


def hint_message(seat: int, choice: Choice, of: GamePractice, current: bool) -> dict[str, Any]:
    """The `hint` message: the suggested placement and aim (before the level's noise) and
    the puck and pocket it is meant for; `current` is false if the position changed while
    the computer thought (the client then drops it)."""
    shot = choice.intended
    return {
        "t": "hint",
        "seat": seat,
        "x": shot.x,
        "y": shot.y,
        "angle": shot.angle,
        "speed": shot.speed,
        "target": choice.target,
        "pocket": of.pocket_of(choice),
        "current": current,
    }
