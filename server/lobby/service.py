"""The lobby service: entering and leaving rooms, the quick-match queues, the lobby list.

What `create`, `join`, `watch`, `resume`, `quick` and `leave` do (docs/protocol.md), called
by the network layer's dispatcher with the message's fields. They change the pure lobby and
rooms (server/lobby/lobby.py, room.py), then have the room runtime store and deliver what that
produced (`Stage.flush`); the state shared by every process (queues, seats, invites, the lobby
hash) is in Redis (server/store). The runtime and the cluster are reached through the
protocols of server/lobby/members.py, so nothing here imports the layers above.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

from server import wire
from server.competitions.store import mark_came
from server.games.registry import DEFAULT, rating_mode
from server.lobby.identity import Identities, room_rating_mode
from server.lobby.lobby import Lobby, lobby_view
from server.lobby.matchmaking import QUEUES, RATED_QUEUES, Matchmaker, QuickQueue
from server.lobby.members import Client, Cluster, Member, QueueEntry, Stage
from server.lobby.pairing import DEFAULT_WIDENING, Widening, reach
from server.lobby.reserved import is_competition, take_held
from server.lobby.room import LobbyError, Room, new_id
from server.lobby.seat import Player
from server.store.memory import MemoryWatch
from server.store.pairing import QueueView
from server.store.redis_store import Store


class LobbyService:
    """The lobby's side of a process: rooms entered and left, and the quick-match queue."""

    def __init__(
        self,
        lobby: Lobby,
        store: Store,
        stage: Stage,
        cluster: Cluster,
        memory: MemoryWatch,
        identities: Identities,
        widening: Widening = DEFAULT_WIDENING,
    ):
        self.lobby = lobby
        self.identities = identities
        self.memory = memory
        self.store = store
        self.stage = stage
        self.cluster = cluster
        self.joining: dict[str, asyncio.Lock] = {}  # room -> joins in arrival order
        self.matchmaker = Matchmaker(QueueView(store.redis), widening)

    @staticmethod
    def sid(member: Member) -> str:
        """The session id of a connection that said hello (the dispatcher checks it did)."""
        assert member.session is not None
        return member.session.sid

    def room_for_more(self) -> None:
        """Refuse a new room (or a place in a queue, which makes one) when Redis is nearly
        full: what is left is kept for the matches being played (server/store/memory.py)."""
        if self.memory.full:
            raise LobbyError(
                "server_full", "The server is full just now; please try again in a few minutes."
            )

    async def free(self, member: Member) -> None:
        """Refuse if the session holds a seat in any room of any process."""
        sid = self.sid(member)
        if self.lobby.room_of(sid) is not None or await self.store.seat_of(sid) is not None:
            raise LobbyError("in_room", "You have a seat in a room; leave it first.")

    async def claim(self, member: Member, place: str) -> None:
        """Claim the session's one seat, atomically across processes, or refuse `in_room`
        (two joins raced on two processes: one of them wins)."""
        if not await self.store.claim(self.sid(member), place):
            raise LobbyError("in_room", "You have a seat in a room; leave it first.")

    def forget(self, rid: str) -> None:
        """Drop what is kept for a room that closed or moved to another process."""
        self.joining.pop(rid, None)

    async def view(self) -> wire.Lobby:
        """The `lobby` message: every process's public rooms and the shared queues."""
        # what Room.summary wrote, through Redis
        summaries = cast(list[wire.RoomSummary], await self.store.lobby_summaries())
        return lobby_view(summaries, await self.store.queue_lengths(list(QUEUES)))

    # -- entering a room ---------------------------------------------------------------
    async def create(
        self,
        conn: Client,
        mode: str,
        sets: int,
        clock: float,
        private: bool,
        game: str = DEFAULT,
        options: dict[str, Any] | None = None,
        rated: bool = False,
    ) -> None:
        """Create a room of `game` and take seat 0; a rated room only by a registered player
        (Novuss and Crokinole are rated, each game and mode apart)."""
        await self.free(conn)
        self.room_for_more()
        alone = "players" in (options or {})  # 002 7 d
        player = await self.player(conn, rating_mode(game, mode, alone))
        if rated and player.account is None:
            raise LobbyError("account_needed", "Rated matches are between registered players:"
                             " log in to create one.")  # fmt: skip
        conn.may_create()
        room = self.lobby.new_room(
            mode, sets, clock, private, game=game, options=options, rated=rated
        )
        await self.claim(conn, room.id)
        await self.cluster.claim(room.id)  # a fresh random id: nobody else holds it
        await self.dequeue(conn)
        # listed only with its creator seated, with no await in between: the tick closes an
        # empty listed room (before, it could close this one while the lease was taken)
        self.lobby.add(room)
        self._seat(conn, player, room, 0, None)
        await self.stage.flush(room)

    async def join(
        self,
        conn: Member,
        rid: str | None,
        invite: str | None,
        seat: int | None,
        team: int | None,
    ) -> None:
        """Take a seat in a room."""
        room = self.lobby.find(rid, invite)
        # seated in the order the joins arrived, though the identity and the seat check below
        # await Redis: the lock is taken before the first await
        async with self.joining.setdefault(room.id, asyncio.Lock()):
            player = await self.player(conn, room_rating_mode(room))
            await self.free(conn)
            await self.claim(conn, room.id)
            try:
                await self.dequeue(conn)
                self._seat(conn, player, room, seat, team)
            except LobbyError:
                await self.store.release(self.sid(conn), room.id)
                raise
            if is_competition(room) and player.account is not None:  # no no-show (§ 22 (3))
                await mark_came(self.store.redis, room.id, player.account)
            await self.stage.flush(room)

    async def player(self, member: Member, mode: str) -> Player:
        """The member's session as a player: a guest, or registered with its rating in `mode`
        (a rating's mode, server/ratings/model.py `rating_mode`)."""
        assert member.session is not None
        s = member.session
        return (await self.identities.players([(s.sid, s.name)], mode))[0]

    def _seat(
        self, conn: Member, player: Player, room: Room, seat: int | None, team: int | None
    ) -> None:
        if room.closed:  # its last player left while this join awaited Redis
            raise LobbyError("no_room", "That room has just closed.")
        if is_competition(room):  # its seats are held for the paired players
            take_held(room, player, time.time())
        else:
            room.join(player, player.name, seat, team, time.time())
        self.stage.enter(conn, room, watching=False)
        self.stage.lobby_changed = True

    async def watch(
        self, conn: Member, rid: str | None, invite: str | None, since: int | None
    ) -> None:
        """Watch a room: its full state, or the events missed since `since`."""
        room = self.lobby.find(rid, invite)
        if room.seat_of(self.sid(conn)) is not None:
            await self._catch_up(conn, room, since)
            return
        await self.free(conn)
        await self._settled(room)
        self.stage.enter(conn, room, watching=True)
        self._send_since(conn, room, since, None, None)

    async def resume(self, conn: Member, rid: str, since: int | None) -> None:
        """A player back after a reconnect: the events missed since `since`, or a resync."""
        room = self.lobby.rooms.get(rid)
        if room is None or room.seat_of(self.sid(conn)) is None:
            raise LobbyError("not_seated", "You have no seat in that room (any more).")
        await self._catch_up(conn, room, since)
        # back, if the hello went to a process that did not own the room yet (a takeover)
        room.back(self.sid(conn), time.time())
        await self.stage.flush(room)

    async def _settled(self, room: Room) -> None:
        """Wait for the room's commit in flight (and store what is pending): a resync or a
        replay taken now holds exactly what was delivered, so no event comes twice and none
        that is not stored is shown (unless Redis is down: then the resync shows it)."""
        await self.stage.settle(room)
        if room.closed:
            raise LobbyError("no_room", "There is no such room (any more).")

    async def _catch_up(self, conn: Member, room: Room, since: int | None) -> None:
        await self._settled(room)
        seat = room.seat_of(self.sid(conn))
        self.stage.enter(conn, room, watching=False)
        self._send_since(conn, room, since, seat, None if seat is None else seat % 2)

    def _send_since(
        self, conn: Member, room: Room, since: int | None, seat: int | None, team: int | None
    ) -> None:
        missed = None if not since else room.missed(since, team, self.sid(conn))
        if missed is None:
            conn.send(room.snapshot(seat, time.time()))
            return
        last_stroke = next((e for e in reversed(missed) if e.get("t") == "stroke"), None)
        for message in missed:
            conn.send(self.stage.personal(message, conn))
            if message is last_stroke:
                conn.send(motion_played(room, message, time.time()))

    # -- quick match -------------------------------------------------------------------
    async def quick(
        self, conn: Client, mode: str, game: str = DEFAULT, players: int | None = None
    ) -> None:
        """Queue for a quick match (one queue per game and mode in Redis, shared by every
        process, and per number of `players` each alone: 002 7 d); whoever completes a table
        seats it in a new room of this process, and it starts. An entry carries the player's
        rating in the game and mode, to be paired by it (server/lobby/matchmaking.py)."""
        await self.free(conn)
        self.room_for_more()
        sess = conn.session
        assert sess is not None
        self.stage.leave_audience(conn)
        await self.dequeue(conn)
        entry: QueueEntry = [sess.sid, sess.name, self.cluster.pid, conn.cid]
        queue = QuickQueue(game, mode, players)
        rating = None
        if queue.name in RATED_QUEUES:
            rating = (await self.player(conn, queue.rating)).rating
            entry += [rating, time.time()]
        waiting = await self.store.enqueue(queue.name, entry)
        conn.queued = (queue.name, entry)
        # said before the match: rated, whom
        terms = reach(rating, queue.name in RATED_QUEUES, self.matchmaker.widening)
        told = wire.Queued(
            t="queued", mode=mode, game=game, waiting=waiting,
            rated=terms["rated"], window=terms["window"],
        )  # fmt: skip
        if players is not None:
            told["players"] = players
        conn.send(told)
        self.cluster.lobby_changed()
        await self._seat_table(queue)

    async def pair_waiting(self) -> None:
        """Seat whatever table the rated queues hold now (called once a second: a player's
        window widens as they wait, so a table may form with nobody new coming)."""
        lengths = await self.store.queue_lengths(list(RATED_QUEUES))
        for name, queue in RATED_QUEUES.items():
            if lengths.get(name, 0) >= queue.seats:
                await self._seat_table(queue)

    async def _seat_table(self, queue: QuickQueue) -> None:
        """Take a table from the queue, if one is full, and seat it here."""
        taken = await self._take_table(queue.name, queue.seats)
        if not taken:
            return
        rid = new_id("r")
        claimed = [e for e in taken if await self.store.claim(e[0], rid)]
        if len({e[0] for e in claimed}) < len(taken):  # seated elsewhere, or queued twice
            for e in claimed:
                await self.store.release(e[0], rid)
            # a session queued from two processes: the connection its newer hello replaced
            # dequeues its own entry as it closes; the other must stay queued
            await self.store.requeue(queue.name, [e for e in claimed if self._connected(e)])
            return
        players = await self.identities.players([(e[0], e[1]) for e in taken], queue.rating)
        room, _step = self.lobby.quick_room(
            queue.mode, players, time.time(), rid, queue.game, queue.options
        )
        await self.cluster.claim(room.id)
        for sid, name, pid, cid, *_ in taken:
            player = self.cluster.member(pid, cid, sid, name)
            if player is not None:
                player.queued = None
                self.stage.enter(player, room, watching=False)
        await self.stage.flush(room)

    def _connected(self, entry: QueueEntry) -> bool:
        """Is the entry's connection still open (as far as this process can tell: another
        process's connections are taken to be)?"""
        sid, name, pid, cid = entry[:4]
        return pid != self.cluster.pid or self.cluster.member(pid, cid, sid, name) is not None

    async def _take_table(self, queue: str, seats: int) -> list[QueueEntry]:
        """A full quick-match table from the queue, without entries of dead processes (a
        process killed with players queued leaves their entries behind) nor of this
        process's closed connections (an entry put back after its connection had gone): if
        there were any, the live players go back to the head of the queue and the table is
        taken again."""
        while taken := await self._take(queue, seats):
            others = sorted({e[2] for e in taken} - {self.cluster.pid})
            dead = {pid for pid, up in (await self.cluster.alive(others)).items() if not up}
            live = [e for e in taken if e[2] not in dead and self._connected(e)]
            if len(live) == len(taken):
                return taken
            await self.store.requeue(queue, live)
        return []

    async def _take(self, queue: str, seats: int) -> list[QueueEntry]:
        """A table from a queue: by rating (server/lobby/matchmaking.py)."""
        if queue in RATED_QUEUES:
            return await self.matchmaker.take(queue, seats, time.time())
        return await self.store.take(queue, seats)

    async def dequeue(self, conn: Member) -> bool:
        """Take a connection out of its quick-match queue; True if it was queued."""
        if conn.queued is None:
            return False
        mode, entry = conn.queued
        conn.queued = None
        removed = await self.store.dequeue(mode, entry)
        self.cluster.lobby_changed()
        return removed

    # -- leaving -----------------------------------------------------------------------
    async def leave(self, conn: Member) -> None:
        """Leave the queue, stop watching, or give up the seat (resigning a live match)."""
        sid = self.sid(conn)
        if await self.dequeue(conn):
            conn.send(wire.Left(t="left", room=None))
            return
        room = conn.room or self.lobby.room_of(sid)
        if room is None:
            raise LobbyError("no_room", "You are not in a room.")
        if room.seat_of(sid) is not None:
            room.leave(sid, time.time())
        # out of the audience first: a leaver is told `left` alone, not what follows in the
        # room it left (docs/protocol.md, `leave`)
        self.stage.leave_audience(conn)
        self.stage.lobby_changed = True
        await self.stage.flush(room)
        # after the commit: the seat is free in Redis, wherever the client acts next
        conn.send(wire.Left(t="left", room=room.id))


def motion_played(room: Room, stroke: dict[str, Any], now: float) -> wire.Motion:
    """After a missed `stroke` (the last one among the missed events): how far its motion
    has played (`motion`, docs/protocol.md), so the client shows the rest of it, not all of
    it again (and one long over not at all)."""
    m = room.match
    if m is not None and m.motion is not None and m.motion.stroke == stroke["stroke"]:
        played = m.motion.time_at(now, room.settings)
    else:
        played = stroke["duration"]
    return {"t": "motion", "stroke": stroke["stroke"], "time": played}
