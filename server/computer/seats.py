"""The computer at the table: rooms with computer seats, and the seats played.

A computer seat is a room seat like any other (`Seat.computer` holds its level, so it is part
of the room's checkpoint and plays on after a restart or a takeover). This part fills seats
with it (`computer`, and a quick match after the wait the player set), and plays them: when
it is a computer seat's turn it asks the search (server/games/novuss/bot, in worker processes:
server/computer/thinker.py) for a stroke, shows its placement and aim as any player's preview,
and strikes through the room and its match after a human-like delay, as a person's strike
goes (server/net/play.py): the referee and the stroke clock apply. A decision that fails
(its worker died or hung) is asked again; one that keeps failing is given up, and the
stroke clock runs out as for anybody (004 § 26 (4), § 24 (1) 18)): never a hung room.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import deque
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from server import wire
from server.computer.rooms import NAME, computer_seats, computer_sid
from server.computer.thinker import Thinkers
from server.config import Config
from server.games.core.play import Choice, MatchRefused
from server.games.registry import DEFAULT, game
from server.lobby.lobby import QUICK_CLOCK, QUICK_SETS, Lobby
from server.lobby.members import Client, QueueEntry
from server.lobby.room import LobbyError, Room
from server.lobby.seat import Player
from server.lobby.service import LobbyService
from server.net import protocol as p
from server.net.runtime import RoomRuntime

log = logging.getLogger("novuss.computer")

TRIES = 3  # a decision asked again after a worker died or hung, then given up
SCAN = 1.0  # seconds between looks over every room (rooms reloaded or taken over)


@dataclass(slots=True)
class Thought:
    """A decision asked of the search for one position (`state`: the very object the match
    holds, Novuss's or Crokinole's; a new position, a take-back or a restart makes it
    stale)."""

    state: Any  # the match's position (GameMatch.position)
    seat: int
    future: Future[Choice]
    asked: float
    strike_at: float
    tries: int = 1
    shown: bool = False  # its placement and aim previewed
    done: bool = False  # struck, or given up (the clock decides)


@dataclass(slots=True)
class Waiting:
    """A player in the quick-match queue who will play the computer at `at`."""

    conn: Client
    entry: tuple[str, QueueEntry]
    at: float
    level: int
    mode: p.Mode
    wait: float
    game: str = DEFAULT


class Computer:
    """Rooms with computer seats, and their seats played."""

    def __init__(self, lobby: Lobby, runtime: RoomRuntime, service: LobbyService, config: Config):
        self.lobby = lobby
        self.runtime = runtime
        self.service = service
        self.thinkers = Thinkers(config.bot_workers, config.bot_timeout)
        self.delay = config.bot_delay
        self.budget = config.bot_budget or None
        self.tick_seconds = config.tick_seconds
        self.rooms: dict[str, Room] = {}
        self.thoughts: dict[str, Thought] = {}
        self.waiting: dict[str, Waiting] = {}
        self.decisions = 0
        self.given_up = 0
        self.think_ms: deque[float] = deque(maxlen=500)
        # strokes each decision simulated: fewer than its level's budget when its time ran
        # out first (a busy host: the computer plays weaker rather than late)
        self.sims: deque[int] = deque(maxlen=500)
        self._scanned = 0.0
        self._task: asyncio.Task[None] | None = None

    # -- filling seats -----------------------------------------------------------------
    async def create(self, conn: Client, msg: p.Computer) -> None:
        """Play the computer: a new room of the game asked for, the player in seat 0 and the
        computer in the seats asked for; with no seat left for a person the match starts at
        once."""
        await self.service.create(
            conn, msg.mode, msg.sets, msg.clock, msg.private, msg.game,
            {"practice": True} if msg.practice else None, rated=False,
        )  # fmt: skip
        room = conn.room
        assert room is not None  # create seats its creator
        seats = [1] if msg.mode == "singles" else [2] * msg.partner + [1, 3] * msg.opponents
        self.seat(room, sorted(seats), msg.level, time.time())
        await self.runtime.flush(room)

    def seat(self, room: Room, seats: list[int], level: int, now: float) -> None:
        """Seat the computer at `level` in `seats`, ready; the creator too if the table is
        then full (nobody else is awaited)."""
        for i in seats:
            sid = computer_sid(room.id, i)
            room.join(Player(sid, NAME, computer=level), NAME, i, None, now)
            room.set_ready(sid, True, now)
        people = [s for _, s in room.seated() if s.computer is None]
        if len(room.seated()) == len(room.seats) and len(people) == 1:
            room.set_ready(people[0].sid, True, now)
        self.rooms[room.id] = room
        self.runtime.lobby_changed = True

    async def quick(self, conn: Client, msg: p.Quick) -> None:
        """Quick match; with `computer_after`, the computer plays if nobody came by then."""
        await self.service.quick(conn, msg.mode, msg.game, msg.players)
        if msg.computer_after is not None and conn.queued is not None:
            at = time.time() + msg.computer_after
            waiting = Waiting(
                conn, conn.queued, at, msg.level, msg.mode, msg.computer_after, msg.game
            )
            self.waiting[conn.cid] = waiting

    async def _quick_due(self, now: float) -> None:
        for cid, w in list(self.waiting.items()):
            if w.conn.closed or w.conn.queued is not w.entry:  # matched, left, or gone
                del self.waiting[cid]
            elif now >= w.at:
                del self.waiting[cid]
                if not await self.service.dequeue(w.conn):
                    continue  # taken for a table with people meanwhile
                # never silently: the player is told before the room arrives
                told = wire.ComputerTakes(t="computer", mode=w.mode, level=w.level, waited=w.wait)
                w.conn.send(told)
                try:
                    opponents = p.Computer(w.mode, w.level, QUICK_SETS, QUICK_CLOCK,
                                           partner=w.mode == "doubles", game=w.game)  # fmt: skip
                    await self.create(w.conn, opponents)
                except LobbyError as e:
                    w.conn.send(p.ProtocolError(e.code, e.message).reply())

    # -- playing the seats -------------------------------------------------------------
    async def run(self) -> None:
        """Play every computer seat of this process, a tick at a time."""
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.tick(time.time())
            except Exception:  # the loop must outlive any one room's bug
                log.exception("computer tick failed")

    def start(self) -> None:
        """Start playing."""
        self._task = asyncio.create_task(self.run())

    async def stop(self) -> None:
        """Stop playing and stop the workers."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task])
        self.thinkers.stop()

    async def tick(self, now: float) -> None:
        """Offer the computer to those who waited; play each computer seat's turn."""
        if self.waiting:
            await self._quick_due(now)
        self.thinkers.watch(now)  # a hung search: its pool replaced, its waiters ask again
        if now - self._scanned >= SCAN:  # rooms reloaded, taken over, or closed
            self._scanned = now
            self.rooms = {r.id: r for r in self.lobby.rooms.values() if computer_seats(r)}
            for rid in set(self.thoughts) - set(self.rooms):
                self.thoughts.pop(rid).future.cancel()
        for room in list(self.rooms.values()):
            await self._room(room, now)

    async def _room(self, room: Room, now: float) -> None:
        if room.closed:
            self.rooms.pop(room.id, None)
            return
        mine = computer_seats(room)
        if len(mine) == len(room.seated()):  # nobody left to play with: the room closes
            await self._leave(room, mine, now)
            return
        changed = False
        for i in mine:
            seat = room.seats[i]
            assert seat is not None
            if seat.away_until is not None:  # marked away by a restart: it never is
                room.back(seat.sid, now)
                changed = True
        m = room.match
        if m is not None and not room.match_on:  # over, its result delivered
            for i in mine:
                if i not in room.rematch:  # the computer always accepts a rematch
                    room.offer_rematch(computer_sid(room.id, i), now)
                    changed = True
        if changed:
            await self.runtime.flush(room)
        turn = m.turn if m is not None and m.phase == "play" else None
        if m is None or turn is None or turn not in mine:
            thought = self.thoughts.pop(room.id, None)
            if thought is not None:
                thought.future.cancel()
            return
        await self._turn(room, m.position, turn, now)

    async def _leave(self, room: Room, mine: list[int], now: float) -> None:
        try:
            for i in mine:
                room.leave(computer_sid(room.id, i), now)
        except LobbyError:
            return  # a motion in flight: at rest, next time
        self.rooms.pop(room.id, None)
        self.thoughts.pop(room.id, None)
        self.runtime.lobby_changed = True
        await self.runtime.flush(room)

    async def _turn(self, room: Room, state: Any, seat: int, now: float) -> None:
        thought = self.thoughts.get(room.id)
        if thought is None or thought.state is not state or thought.seat != seat:
            if thought is not None:
                thought.future.cancel()
            thought = self.thoughts[room.id] = self._ask(room, state, seat, now, 1)
        if thought.done:
            return
        if not thought.future.done():
            return
        try:
            choice = thought.future.result()
        except (BrokenProcessPool, CancelledError):  # its worker died, or hung and was killed
            self.thinkers.replace("a worker died")  # (done already if it hung)
            await self._again(room, thought, now)
            return
        except Exception:
            log.exception("the computer could not decide in room %s", room.id)
            await self._give_up(room, thought, now)
            return
        if not thought.shown:
            thought.shown = True
            self.decisions += 1
            self.think_ms.append((now - thought.asked) * 1000)
            self.sims.append(choice.candidates)
            self._preview(room, seat, choice)
        if now >= thought.strike_at:
            await self._strike(room, seat, choice, thought, now)

    def _ask(self, room: Room, state: Any, seat: int, now: float, tries: int) -> Thought:
        s = room.seats[seat]
        assert s is not None and s.computer is not None
        seed = secrets.randbits(32)  # the level's dice, thrown now: no future is seen
        search = game(room.game).decide  # each game's own search
        assert search is not None  # a room of a game with no computer has no computer seat
        future = self.thinkers.decide(search, state, seat, s.computer, seed, budget=self.budget)
        delay = self.delay * random.uniform(1.0, 2.0)  # a person's pause, not a metronome
        return Thought(state, seat, future, now, now + delay, tries)

    async def _again(self, room: Room, thought: Thought, now: float) -> None:
        if thought.tries >= TRIES:
            await self._give_up(room, thought, now)
            return
        again = self._ask(room, thought.state, thought.seat, now, thought.tries + 1)
        again.strike_at = max(again.strike_at, thought.strike_at)
        self.thoughts[room.id] = again

    async def _give_up(self, room: Room, thought: Thought, now: float) -> None:
        thought.done = True
        self.given_up += 1
        if game(room.game).stroke_clock:
            # the stroke clock runs on and is judged as anybody's (004 § 26 (4), § 24 (1) 18))
            return
        # seed 002 has no shot clock: a computer that cannot shoot would hold the game for ever,
        # so it resigns, as a player who stays away loses (docs/crokinole.md)
        try:
            room.resign(computer_sid(room.id, thought.seat), now)
        except (MatchRefused, LobbyError):
            return  # the game ended meanwhile
        self.runtime.lobby_changed = True
        await self.runtime.flush(room)

    def _preview(self, room: Room, seat: int, choice: Choice) -> None:
        shot = choice.shot
        top = game(room.game).max_speed
        power = min(1.0, shot.speed / top)
        s = room.seats[seat]
        assert s is not None
        room.aim(s.sid, shot.x, shot.y, shot.angle, power, time.time())
        self.runtime.deliver_transient(room)

    async def _strike(
        self, room: Room, seat: int, choice: Choice, thought: Thought, now: float
    ) -> None:
        thought.done = True
        try:
            step = room.strike(computer_sid(room.id, seat), choice.shot, now)
        except (MatchRefused, LobbyError) as e:  # the search's stroke refused: a bug of ours
            log.error("the computer's stroke was refused in room %s: %s", room.id, e)
            await self._give_up(room, thought, now)
            return
        self.runtime.play(room, step.motion)  # as a person's strike (server/net/play.py)
        await self.runtime.flush(room)

    def view(self) -> dict[str, Any]:
        """For /healthz: the computer's rooms, decisions and workers."""
        times = sorted(self.think_ms)
        return {
            "rooms": len(self.rooms),
            "thinking": sum(not t.future.done() for t in self.thoughts.values()),
            "decisions": self.decisions,
            "given_up": self.given_up,
            "decision_ms_p50": round(times[len(times) // 2], 1) if times else None,
            "decision_ms_p99": round(times[int(len(times) * 0.99)], 1) if times else None,
            "sims_p50": sorted(self.sims)[len(self.sims) // 2] if self.sims else None,
            "waiting": len(self.waiting),
            **self.thinkers.view(),
        }
