"""The hub: the thin async layer that moves messages between connections, the lobby, the rooms
and the store. It owns no rules: it decodes (server/net/protocol.py), calls the pure lobby and
match code, commits what they produced to Redis, and only then delivers it.

One asyncio task per connection reads; messages are written straight to the sockets, each
encoded once for its audience (server/net/fanout.py: frames are dropped for a slow reader,
events never, and a reader too slow for those is closed and resyncs on reconnect); a motion's
frames run on the loop's timer (server/net/playout.py); one loop ticks the clocks.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from server import gc_policy
from server.cluster.bus import Bus
from server.cluster.lease import Leases
from server.cluster.remote import Link, RemoteConn
from server.config import Config
from server.lobby.lobby import Lobby, lobby_view
from server.lobby.room import SEATS, Event, LobbyError, Room, new_id
from server.match import MatchRefused, Motion, Out, Settings
from server.net import protocol as p
from server.net.fanout import Packet, Stream, Wire, deflate_modes
from server.net.limits import AddressCounter, ConnGuard, Limits
from server.net.playout import PlayOut
from server.sim import Shot
from server.store.redis_store import Commit, LeaseLost, Store, StoredEvent

log = logging.getLogger("novuss.hub")

LOBBY_PUSH = 0.5  # seconds between lobby pushes at most
WATCHERS_PUSH = 1.0  # watcher counts are batched about once a second
HARD_FRAME_LIMIT = 65536  # above this aiohttp closes the socket; below, oversize gets an error


@dataclass(eq=False)
class Session:
    """A player identity that survives reconnects: public id, name, secret resume token."""

    sid: str
    name: str
    token: str
    conn: Conn | None = None


@dataclass(eq=False)
class Conn:
    """One websocket connection and the room it is in (as a player or a watcher)."""

    ws: web.WebSocketResponse
    limit: int  # send_queue: the unsent backlog, in KiB, past which the reader is dropped
    wire: Wire | None = None  # its socket, written directly (server/net/fanout.py)
    closing: asyncio.Future[None] | None = None  # the polite close after shutdown()
    session: Session | None = None
    room: Room | None = None
    watching: bool = False
    lobby: bool = False
    closed: bool = False
    guard: ConnGuard | None = None  # its rate budgets and idle time (server/net/limits.py)
    cid: str = field(default_factory=lambda: new_id("c"))  # its id on the bus (server/cluster)
    remote: Link | None = None  # the room it is in when another process owns that room
    queued: tuple[str, list[Any]] | None = None  # (mode, entry) while in a quick-match queue
    transport: asyncio.BaseTransport | None = None  # to drop a hopelessly slow reader at once

    def send(self, msg: dict[str, Any] | bytes | Packet, droppable: bool = False) -> None:
        """Write a message to the socket now. A reader that falls behind loses frames
        (droppable), never events: one too slow even for those is dropped (its client
        resyncs when it reconnects)."""
        if self.closed or self.wire is None:
            return
        data = p.encode(msg) if isinstance(msg, dict) else msg
        if not self.wire.send(data, droppable):
            self.shutdown(abort=True)

    def shutdown(self, abort: bool = False) -> None:
        """Stop sending and close the socket. `abort` drops it at once: a reader too slow for
        the events would hold a polite close up behind its backlog, and it resyncs when it
        reconnects anyway."""
        if self.closed:
            return
        self.closed = True
        if abort and self.transport is not None:
            self.transport.abort()
        else:
            self.closing = asyncio.ensure_future(self.ws.close())


def room_commit(
    room: Room,
    outbox: list[Out | Event],
    logs: list[Any],
    records: list[Any],
    before: dict[str, int],
    now: float,
) -> tuple[Commit, dict[str, int]]:
    """What one flush stores for what the room produced: its checkpoint, the events in
    `outbox`, its log entries and record headers, its lobby summary, and who sits where if
    that changed since `before` (the seats last stored). Also the seats now: the next flush's
    `before`. bench/commit.py times the store on these very commits."""
    seated = {} if room.closed else {s.sid: i for i, s in room.seated()}
    commit = Commit(
        rid=room.id,
        checkpoint=None if room.closed else room.to_dict(now),
        events=[StoredEvent(o.seq, o.audience, o.packed) for o in outbox if isinstance(o, Event)],
        log=logs,
        records=records,
        summary=None if room.private or room.closed else room.summary(),
        seated=seated if seated != before else {},
        unseated=[sid for sid in before if sid not in seated],
        invite=room.invite,
    )
    return commit, seated


AnyConn = Conn | RemoteConn  # a connection of this process, or one of another in our room
# handled by the connection's own process whoever owns its room
LOCAL_MESSAGES = (p.Ping, p.Hello, p.LobbySub, p.Create, p.Quick)


class Hub:
    """All connections, sessions and rooms of this process."""

    def __init__(self, config: Config, store: Store, settings: Settings):
        self.config = config
        self.store = store
        self.settings = settings
        self.limits = Limits.from_config(config)
        self.addresses = AddressCounter(self.limits.conns_per_address)
        self.lobby = Lobby(settings, config.grace_seconds, config.event_buffer)
        self.sessions: dict[str, Session] = {}
        self.conns: set[Conn] = set()
        self.audience: dict[str, set[Conn]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.playing: dict[str, PlayOut] = {}
        self.to_play: dict[str, Motion] = {}
        self.unsaved: set[str] = set()
        self.watchers_changed: set[str] = set()
        self.lobby_changed = True
        self.pid = new_id("p")  # this process on the bus and in the room leases
        self.leases = Leases(store.redis, self.pid, config.lease_seconds)
        self.bus = Bus(store.redis, self.pid, self._on_bus)
        self.by_cid: dict[str, Conn] = {}
        self.remotes: dict[tuple[str, str], RemoteConn] = {}
        self.seated: dict[str, dict[str, int]] = {}  # room -> its seats as last committed
        self.listed: dict[str, dict[str, Any] | None] = {}  # room -> its last committed summary
        self._cluster: asyncio.Task[None] | None = None
        self._taking = asyncio.Lock()
        self.joining: dict[str, asyncio.Lock] = {}  # room -> joins in arrival order
        self.relays: dict[str, tuple[str, Stream]] = {}  # remote room -> its motion's stream
        self.saved_seq: dict[str, int] = {}  # room -> the seq of its last committed checkpoint
        self.suspects: set[str] = set()  # processes seen unsubscribed once (dead if again)
        self.stopping = False
        self.collections = gc_policy.Pace()  # memory flat (server/gc_policy.py)
        self.started = time.time()
        self.commits = 0
        self.errors = 0
        self._ticker: asyncio.Task[None] | None = None
        self._last_lobby = 0.0
        self._last_watchers = 0.0
        self._last_idle_check = 0.0

    # -- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Join the bus, take over every room nobody owns (all of them after a restart of a
        lone process) and start the clock and cluster loops."""
        await self.bus.start()
        await self.leases.renew([])
        for rid in await self.store.room_ids():
            await self._take_over(rid)
        self._ticker = asyncio.create_task(self._tick_loop())
        self._cluster = asyncio.create_task(self._cluster_loop())

    async def _take_over(self, rid: str, dead: str | None = None) -> bool:
        """Own a room if its lease is free (or held by `dead`, a process known to be dead):
        reload it from its checkpoint and kept events."""
        async with self._taking:  # one takeover at a time: a room is never loaded twice
            if rid in self.lobby.rooms:
                return True
            if dead is None:
                taken = await self.leases.acquire(rid)
            else:
                taken = await self.leases.take_from(rid, dead)
            if not taken:
                return False
            return await self._load(rid)

    async def _load(self, rid: str) -> bool:
        loaded = await self.store.load_room(rid)
        if loaded is None:
            await self.leases.release(rid)
            return False
        checkpoint, stored = loaded
        events = [Event.of(e.seq, e.audience, e.message) for e in stored]
        room = Room.from_dict(
            checkpoint, events, self.settings, self.config.grace_seconds, self.config.event_buffer
        )
        self.lobby.add(room)
        self.seated[rid] = {s.sid: i for i, s in room.seated()}
        room.reloaded(time.time())
        await self.flush(room)
        log.info("process %s owns room %s", self.pid, rid)
        return True

    async def stop(self) -> None:
        """Stop the loops and close every connection; rooms stay in Redis and their leases
        are released, so another process takes them over at once."""
        tasks = [t for t in (self._ticker, self._cluster) if t]
        tasks += [play.finishing for play in self.playing.values() if play.finishing]
        for play in self.playing.values():
            play.cancel()
        for task in tasks:
            task.cancel()
        if tasks:  # wait(), not suppress(CancelledError): a cancel of stop() still counts
            await asyncio.wait(tasks)
        await self.close_connections()
        await self.leases.stop(list(self.lobby.rooms))
        await self.bus.stop()

    async def close_connections(self) -> None:
        """Close every websocket at shutdown (clients reconnect and resume after the restart;
        their grace time starts when the rooms are reloaded, not now)."""
        self.stopping = True
        for conn in list(self.conns):
            await conn.ws.close(code=1001, message=b"server shutting down")

    def health(self) -> dict[str, Any]:
        """The numbers GET /healthz shows."""
        rooms = self.lobby.rooms.values()
        return {
            "rooms": len(self.lobby.rooms),
            "live": sum(r.status == "playing" for r in rooms),
            "connections": len(self.conns),
            "sessions": len(self.sessions),
            "process": self.pid,
            "remote_connections": len(self.remotes),
            "bus": {"published": self.bus.published, "received": self.bus.received},
            "commits": self.commits,
            "store_errors": self.errors,
            "unsaved_rooms": len(self.unsaved),
            "uptime": round(time.time() - self.started, 1),
            "gc": gc_policy.STATS.view(),
        }

    # -- the websocket ---------------------------------------------------------------
    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        """One websocket connection from accept to close."""
        ws = web.WebSocketResponse(max_msg_size=HARD_FRAME_LIMIT, heartbeat=20.0)
        await ws.prepare(request)
        address = request.remote or ""
        if not self.addresses.admit(address):
            refusal = p.ProtocolError(
                "too_many_connections",
                f"At most {self.limits.conns_per_address} connections per address.",
            )
            await ws.send_bytes(p.encode(refusal.reply()))
            await ws.close(code=1008, message=b"too many connections")
            return ws
        conn = Conn(ws, self.config.send_queue, guard=ConnGuard(self.limits))
        conn.transport = request.transport
        if request.transport is not None:
            modes = deflate_modes(ws.headers.get("Sec-WebSocket-Extensions", ""))
            conn.wire = Wire(request.transport, modes, conn.limit * 1024)
        self.conns.add(conn)
        self.by_cid[conn.cid] = conn
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.BINARY, WSMsgType.TEXT):
                    await self.receive(conn, msg.data)
                if conn.closed:
                    break
        finally:
            self.addresses.release(address)
            self.conns.discard(conn)
            self.by_cid.pop(conn.cid, None)
            await self.disconnected(conn)
            await ws.close()
        return ws

    async def receive(self, conn: Conn, data: bytes | str) -> None:
        """Decode one client message and act on it; refusals become error replies."""
        assert conn.guard is not None  # serve() gives every connection one
        refusal = conn.guard.heard()
        if refusal is not None:
            if conn.guard.abusive:
                conn.send(p.ProtocolError("abuse", "Flooding: this connection is closed.").reply())
                conn.shutdown()
            else:
                conn.send(refusal.reply())
            return
        await self._handle(conn, data)

    async def _handle(self, conn: AnyConn, data: bytes | str) -> None:
        """Decode and act on one message (of a local connection, or of a remote one whose
        process forwarded it to this room owner: the limits were applied there)."""
        ref = None
        try:
            env = p.decode(data, self.config.max_frame_bytes, self.settings.table.max_speed)
            ref = env.ref
            if isinstance(conn, Conn) and await self._forward(conn, env.msg, data):
                return
            await self.dispatch(conn, env.msg)
        except p.ProtocolError as e:
            e.ref = e.ref if e.ref is not None else ref
            conn.send(e.reply())
        except (LobbyError, MatchRefused) as e:
            rule, reason = getattr(e, "rule", ""), getattr(e, "reason", "")
            conn.send(p.ProtocolError(e.code, e.message, ref, rule, reason).reply())
        except Exception:  # a bug must cost one reply, not the connection or the process
            log.exception("handling a message failed")
            conn.send(
                p.ProtocolError("internal", "The server failed on this message.", ref).reply()
            )

    async def dispatch(self, conn: Conn, msg: p.ClientMessage) -> None:
        """Route a typed message to its handler."""
        if isinstance(msg, p.Ping):
            conn.send({"t": "pong", "n": msg.n, "time": time.time()})
            return
        if isinstance(msg, p.Hello):
            await self.hello(conn, msg)
            return
        if conn.session is None:
            raise p.ProtocolError("hello_first", "Say hello (with your name) first.")
        handler: Callable[[Conn, Any], Any] = getattr(self, "on_" + type(msg).__name__.lower())
        await handler(conn, msg)

    # -- sessions --------------------------------------------------------------------
    async def hello(self, conn: Conn, msg: p.Hello) -> None:
        """Start or resume a session; a resumed player gets the seat back."""
        if conn.session is not None:
            raise p.ProtocolError("not_now", "This connection has already said hello.")
        session = await self._session(msg)
        if session.conn is not None and session.conn is not conn:
            old = session.conn
            old.send({"t": "error", "code": "replaced", "message": "You connected elsewhere."})
            old.session = None
            self._leave_audience(old)
            old.shutdown()
        session.conn = conn
        conn.session = session
        room = self.lobby.room_of(session.sid)
        where = None if room is not None else await self.store.seat_of(session.sid)
        if where is not None:
            owner = await self._owner(where[0])
            if owner == self.pid:
                room = self.lobby.rooms.get(where[0])  # taken over just now
            elif owner is not None:  # another process's room: its owner hears of the return
                conn.remote = Link(where[0], owner)
                self.bus.send(owner, ["back", self.pid, conn.cid, session.sid, session.name])
            else:
                where = None  # the room is gone
        if room is not None:
            conn.room = room
            room.back(session.sid, time.time())
            where = (room.id, room.seat_of(session.sid) or 0)
        conn.send({
            "t": "welcome",
            "session": session.sid,
            "token": session.token,
            "name": session.name,
            "seat": None if where is None else {"room": where[0], "seat": where[1]},
            "frame_rate": self.settings.frame_rate,
            "speed_factor": self.settings.speed_factor,
            "grace": self.config.grace_seconds,
        })  # fmt: skip
        if room is not None:
            await self.flush(room)

    async def _session(self, msg: p.Hello) -> Session:
        if msg.token is None:
            session = Session(new_id("s"), msg.name, secrets.token_urlsafe(24))
            await self.store.save_session(session.token, {"sid": session.sid, "name": session.name})
            self.sessions[session.sid] = session
            return session
        saved = await self.store.load_session(msg.token)
        if saved is None:
            raise p.ProtocolError(
                "bad_token", "This resume token is not known; say hello without it."
            )
        session = self.sessions.get(saved["sid"])
        if session is None:
            session = Session(saved["sid"], saved["name"], msg.token)
            self.sessions[session.sid] = session
        session.token = msg.token  # a session first seen from another process has none yet
        return session

    async def disconnected(self, conn: AnyConn) -> None:
        """A connection ended: leave the queue; a player's seat waits the grace time."""
        conn.closed = True
        session = conn.session
        if isinstance(conn, Conn):
            await self._dequeue(conn)
            if conn.remote is not None:  # the owner of its room does the rest
                self.bus.send(conn.remote.owner, ["closed", self.pid, conn.cid])
                conn.remote = None
        room = conn.room
        self._leave_audience(conn)
        if session is None or session.conn is not conn:
            return
        session.conn = None
        if self.stopping:
            return
        if room is not None and not room.closed and room.seat_of(session.sid) is not None:
            room.drop(session.sid, time.time())
            await self.flush(room)

    # -- rooms: entering and leaving -------------------------------------------------
    def _enter(self, conn: AnyConn, room: Room, watching: bool) -> None:
        self._leave_audience(conn)
        conn.room = room
        conn.watching = watching
        self.audience.setdefault(room.id, set()).add(conn)
        if isinstance(conn, RemoteConn):
            self.bus.send(conn.pid, ["enter", conn.cid, room.id, self.pid])
        if watching:
            room.watchers += 1
            self.watchers_changed.add(room.id)

    def _leave_audience(self, conn: AnyConn) -> None:
        if isinstance(conn, Conn) and conn.remote is not None:
            self.bus.send(conn.remote.owner, ["detach", self.pid, conn.cid])
            conn.remote = None
        room = conn.room
        if room is None:
            return
        if isinstance(conn, RemoteConn):
            self.bus.send(conn.pid, ["leave", conn.cid, room.id])
        self.audience.get(room.id, set()).discard(conn)
        if conn.watching:
            room.watchers -= 1
            self.watchers_changed.add(room.id)
        conn.room = None
        conn.watching = False

    def _sid(self, conn: AnyConn) -> str:
        assert conn.session is not None  # dispatch() checks hello first
        return conn.session.sid

    async def _free(self, conn: AnyConn) -> None:
        """Refuse if the session holds a seat in any room of any process."""
        sid = self._sid(conn)
        if self.lobby.room_of(sid) is not None or await self.store.seat_of(sid) is not None:
            raise LobbyError("in_room", "You have a seat in a room; leave it first.")

    async def _lobby_view(self) -> dict[str, Any]:
        """The `lobby` message: every process's public rooms and the shared queues."""
        summaries = await self.store.lobby_summaries()
        return lobby_view(summaries, await self.store.queue_lengths(list(SEATS)))

    async def on_lobbysub(self, conn: Conn, msg: p.LobbySub) -> None:
        """Subscribe to the lobby list (answered now and on every change)."""
        conn.lobby = msg.on
        if msg.on:
            conn.send(await self._lobby_view())

    async def on_create(self, conn: Conn, msg: p.Create) -> None:
        """Create a room and take seat 0."""
        await self._free(conn)
        assert conn.guard is not None
        conn.guard.may_create()
        room = self.lobby.new_room(msg.mode, msg.sets, msg.clock, msg.private)
        await self.leases.acquire(room.id)  # a fresh random id: nobody else holds it
        await self._dequeue(conn)
        # listed only with its creator seated, with no await in between: the tick closes an
        # empty listed room (before, it could close this one while the lease was taken)
        self.lobby.add(room)
        self._seat(conn, room, 0, None)
        await self.flush(room)

    async def on_join(self, conn: Conn, msg: p.Join) -> None:
        """Take a seat in a room."""
        room = self.lobby.find(msg.room, msg.invite)
        # seated in the order the joins arrived, though the seat check below awaits Redis
        async with self.joining.setdefault(room.id, asyncio.Lock()):
            await self._free(conn)
            await self._join(conn, room, msg.seat, msg.team)

    async def _join(self, conn: AnyConn, room: Room, seat: int | None, team: int | None) -> None:
        if isinstance(conn, Conn):
            await self._dequeue(conn)
        self._seat(conn, room, seat, team)
        await self.flush(room)

    def _seat(self, conn: AnyConn, room: Room, seat: int | None, team: int | None) -> None:
        assert conn.session is not None
        if room.closed:  # its last player left while this join awaited Redis
            raise LobbyError("no_room", "That room has just closed.")
        room.join(conn.session.sid, conn.session.name, seat, team, time.time())
        self._enter(conn, room, watching=False)
        self.lobby_changed = True

    async def on_watch(self, conn: Conn, msg: p.Watch) -> None:
        """Watch a room: its full state, or the events missed since `since`."""
        room = self.lobby.find(msg.room, msg.invite)
        if room.seat_of(self._sid(conn)) is not None:
            await self._catch_up(conn, room, msg.since)
            return
        await self._free(conn)
        await self._settled(room)
        self._enter(conn, room, watching=True)
        self._send_since(conn, room, msg.since, None, None)

    async def on_resume(self, conn: Conn, msg: p.Resume) -> None:
        """A player back after a reconnect: the events missed since `since`, or a resync."""
        room = self.lobby.rooms.get(msg.room)
        if room is None or room.seat_of(self._sid(conn)) is None:
            raise LobbyError("not_seated", "You have no seat in that room (any more).")
        await self._catch_up(conn, room, msg.since)
        # back, if the hello went to a process that did not own the room yet (a takeover)
        room.back(self._sid(conn), time.time())
        await self.flush(room)

    async def _settled(self, room: Room) -> None:
        """Wait for the room's commit in flight (and store what is pending): a resync or a
        replay taken now holds exactly what was delivered, so no event comes twice and none
        that is not stored is shown (unless Redis is down: then the resync shows it)."""
        await self.flush(room)
        if room.closed:
            raise LobbyError("no_room", "There is no such room (any more).")

    async def _catch_up(self, conn: Conn, room: Room, since: int | None) -> None:
        await self._settled(room)
        seat = room.seat_of(self._sid(conn))
        self._enter(conn, room, watching=False)
        self._send_since(conn, room, since, seat, None if seat is None else seat % 2)

    def _send_since(
        self, conn: Conn, room: Room, since: int | None, seat: int | None, team: int | None
    ) -> None:
        missed = None if not since else room.missed(since, team)
        if missed is None:
            conn.send(room.snapshot(seat, time.time()))
            return
        for message in missed:
            conn.send(self._personal(message, conn))

    async def on_quick(self, conn: Conn, msg: p.Quick) -> None:
        """Queue for a quick match (one queue per mode in Redis, shared by every process);
        whoever completes a table seats it in a new room of this process, and it starts."""
        await self._free(conn)
        sess = conn.session
        assert sess is not None
        self._leave_audience(conn)
        await self._dequeue(conn)
        entry = [sess.sid, sess.name, self.pid, conn.cid]
        waiting = await self.store.enqueue(msg.mode, entry)
        conn.queued = (msg.mode, entry)
        conn.send({"t": "queued", "mode": msg.mode, "waiting": waiting})
        self.bus.lobby_changed()
        taken = await self._take_table(msg.mode)
        if not taken:
            return
        room, _step = self.lobby.quick_room(msg.mode, [(e[0], e[1]) for e in taken], time.time())
        await self.leases.acquire(room.id)
        for sid, name, pid, cid in taken:
            player: AnyConn | None = self.by_cid.get(cid)
            if pid != self.pid:
                player = self._remote(pid, cid, sid, name)
            if player is not None:
                if isinstance(player, Conn):
                    player.queued = None
                self._enter(player, room, watching=False)
        await self.flush(room)

    async def _take_table(self, mode: str) -> list[list[Any]]:
        """A full quick-match table from the queue, without entries of dead processes (a
        process killed with players queued leaves their entries behind): if there were any,
        the live players go back to the head of the queue and the table is taken again."""
        while taken := await self.store.take(mode, SEATS[mode]):
            others = sorted({e[2] for e in taken} - {self.pid})
            dead = {pid for pid, up in (await self.leases.alive(others)).items() if not up}
            if not dead:
                return taken
            await self.store.requeue(mode, [e for e in taken if e[2] not in dead])
        return []

    async def _dequeue(self, conn: Conn) -> bool:
        """Take a connection out of its quick-match queue; True if it was queued."""
        if conn.queued is None:
            return False
        mode, entry = conn.queued
        conn.queued = None
        removed = await self.store.dequeue(mode, entry)
        self.bus.lobby_changed()
        return removed

    async def on_leave(self, conn: AnyConn, msg: p.Leave) -> None:
        """Leave the queue, stop watching, or give up the seat (resigning a live match)."""
        sid = self._sid(conn)
        if isinstance(conn, Conn) and await self._dequeue(conn):
            conn.send({"t": "left", "room": None})
            return
        room = conn.room or self.lobby.room_of(sid)
        if room is None:
            raise LobbyError("no_room", "You are not in a room.")
        if room.seat_of(sid) is not None:
            room.leave(sid, time.time())
        self._leave_audience(conn)
        self.lobby_changed = True
        await self.flush(room)
        # after the commit: the seat is free in Redis, wherever the client acts next
        conn.send({"t": "left", "room": room.id})

    # -- rooms: playing --------------------------------------------------------------
    def _room(self, conn: Conn) -> Room:
        room = conn.room or self.lobby.room_of(self._sid(conn))
        if room is None:
            raise LobbyError("no_room", "You are not in a room.")
        return room

    async def on_ready(self, conn: Conn, msg: p.Ready) -> None:
        """Ready for the match."""
        room = self._room(conn)
        room.set_ready(self._sid(conn), msg.ready, time.time())
        self.lobby_changed = True
        await self.flush(room)

    async def on_rematch(self, conn: Conn, msg: p.Rematch) -> None:
        """Offer or accept a rematch."""
        room = self._room(conn)
        room.offer_rematch(self._sid(conn), time.time())
        self.lobby_changed = True
        await self.flush(room)

    async def on_aim(self, conn: Conn, msg: p.Aim) -> None:
        """Forward an aim preview (rate limited by the match); never stored."""
        room = self._room(conn)
        room.aim(self._sid(conn), msg.x, msg.y, msg.angle, msg.power, time.time())
        self._deliver_transient(room)

    async def on_strike(self, conn: Conn, msg: p.Strike) -> None:
        """A strike: judged by the match, stored, then played out."""
        room = self._room(conn)
        step = room.strike(self._sid(conn), Shot(msg.x, msg.y, msg.angle, msg.speed), time.time())
        if step.motion is not None:
            self.to_play[room.id] = step.motion  # played out once stored (see flush)
        await self.flush(room)

    async def on_pass(self, conn: Conn, msg: p.Pass) -> None:
        """Pass the strike right."""
        room = self._room(conn)
        room.pass_turn(self._sid(conn), time.time())
        await self.flush(room)

    async def on_resign(self, conn: Conn, msg: p.Resign) -> None:
        """Resign the match."""
        room = self._room(conn)
        room.resign(self._sid(conn), time.time())
        self.lobby_changed = True
        await self.flush(room)

    async def on_chat(self, conn: Conn, msg: p.Chat) -> None:
        """Room or team chat."""
        room = self._room(conn)
        assert conn.session is not None
        sid = conn.session.sid if room.seat_of(conn.session.sid) is not None else None
        room.chat(sid, conn.session.name, msg.text, msg.team)
        await self.flush(room)

    # -- motion ----------------------------------------------------------------------

    def _play_out(self, room: Room, motion: Motion) -> PlayOut:
        """Send the motion's frames at real speed (times the speed factor), then the ruling."""
        stream = Stream()  # the frames: one deflate stream for the whole room (fanout.py)
        relay = f"{room.id} {motion.stroke} {motion.started}"  # the stream elsewhere

        def emit(k: int) -> bool:
            if room.closed or room.match is None or room.match.motion is not motion:
                return False
            data = p.encode(motion.frame(k, self.settings))
            packet = stream.packet(data)
            for conn in list(self.audience.get(room.id, ())):
                if isinstance(conn, Conn):
                    conn.send(packet, droppable=True)
                else:
                    conn.send(data, droppable=True, stream=relay)
            return True

        async def finish(play: PlayOut) -> None:
            room.finish_motion(time.time())
            self.lobby_changed = True
            await self.flush(room)
            if self.playing.get(room.id) is play:
                del self.playing[room.id]

        return PlayOut(motion.started, motion.frames, self.settings.frame_rate, emit, finish)

    # -- commit and delivery ---------------------------------------------------------
    async def flush(self, room: Room) -> None:
        """Store what the room produced (one MULTI/EXEC), then deliver it in order. If Redis
        fails, nothing is delivered: the items wait in the room and the tick loop retries."""
        lock = self.locks.setdefault(room.id, asyncio.Lock())
        async with lock:
            if room.empty and not room.closed and not self._busy(room):
                self._close(room)
            outbox, logs, records = room.outbox, room.log, room.records
            room.outbox, room.log, room.records = [], [], []
            before = self.seated.get(room.id, {})
            commit, seated = room_commit(room, outbox, logs, records, before, time.time())
            try:
                await self.store.commit(commit, owner=self.pid)
            except LeaseLost:
                self._lost(room)
                return
            except Exception:  # any store failure: keep everything and retry on the next tick
                log.exception("commit of room %s failed; will retry", room.id)
                self.errors += 1
                room.outbox[:0], room.log[:0], room.records[:0] = outbox, logs, records
                self.unsaved.add(room.id)
                return
            self.commits += 1
            self.unsaved.discard(room.id)
            self.seated[room.id] = seated
            self.saved_seq[room.id] = room.seq
            if self.listed.get(room.id) != commit.summary:
                self.listed[room.id] = commit.summary
                self.bus.lobby_changed()
            for item in outbox:
                self._deliver(room, item)
            motion = self.to_play.pop(room.id, None)
            if motion is not None and not room.closed:
                play = self.playing[room.id] = self._play_out(room, motion)
                play.start()
            if room.closed:
                self._evict(room)

    def _busy(self, room: Room) -> bool:
        return room.match is not None and room.match.motion is not None

    def _close(self, room: Room) -> None:
        self.lobby.remove(room)
        self.lobby_changed = True

    def _evict(self, room: Room) -> None:
        for conn in list(self.audience.pop(room.id, ())):
            conn.send({"t": "left", "room": room.id})
            if isinstance(conn, RemoteConn):
                self.bus.send(conn.pid, ["leave", conn.cid, room.id])
            conn.room = None
            conn.watching = False
        self.locks.pop(room.id, None)
        self.joining.pop(room.id, None)
        self.seated.pop(room.id, None)
        self.listed.pop(room.id, None)
        self.to_play.pop(room.id, None)
        self.saved_seq.pop(room.id, None)  # else one entry per room ever closed here

    def _lost(self, room: Room) -> None:
        """Another process owns the room now (this one was cut off or paused past its lease):
        stop acting on it at once. Its connections here are closed; their clients reconnect
        and resume from the new owner."""
        log.warning("process %s lost the lease of room %s", self.pid, room.id)
        play = self.playing.pop(room.id, None)
        if play is not None:
            play.cancel()
        self.lobby.remove(room)
        self.unsaved.discard(room.id)
        for conn in list(self.audience.pop(room.id, ())):
            conn.room = None
            conn.shutdown()
        for conn in list(self.conns):
            if conn.room is room:
                conn.room = None
        self.locks.pop(room.id, None)
        self.joining.pop(room.id, None)
        self.seated.pop(room.id, None)
        self.listed.pop(room.id, None)
        self.to_play.pop(room.id, None)
        self.saved_seq.pop(room.id, None)

    def _deliver_transient(self, room: Room) -> None:
        outs = [o for o in room.outbox if isinstance(o, Out)]
        if len(outs) == len(room.outbox):
            room.outbox.clear()
            for out in outs:
                self._deliver(room, out)

    def _personal(self, message: dict[str, Any], conn: Conn) -> dict[str, Any]:
        """A `room` event as one connection sees it: with its role and (players) the invite."""
        if message.get("t") != "room" or conn.room is None or conn.session is None:
            return message
        seat = conn.room.seat_of(conn.session.sid)
        role = "watcher" if seat is None else "player"
        invite = conn.room.invite if seat is not None else None
        return {**message, "you": {"role": role, "seat": seat}, "invite": invite}

    def _deliver(self, room: Room, item: Out | Event) -> None:
        conns = list(self.audience.get(room.id, ()))
        if isinstance(item, Out):
            data = p.encode({"t": item.kind, **item.data})
            if item.kind == "aim":  # a preview: droppable, the next one supersedes it
                aimer = room.seats[item.data["seat"]]
                for conn in conns:  # not back to the aimer, who drew it (docs/protocol.md)
                    if aimer is None or conn.session is None or conn.session.sid != aimer.sid:
                        conn.send(data, True)
                return
            for conn in conns:
                conn.send(data)
            return
        if item.kind == "room":
            message = item.message
            for conn in conns:
                conn.send(self._personal(message, conn))
            return
        data = item.packed
        hidden = p.encode(item.visible_to(None)) if item.audience is not None else data
        for conn in conns:
            mine = item.audience is None or self._team(conn, room) == item.audience
            conn.send(data if mine else hidden)

    def _forget_sessions(self) -> None:
        """Forget sessions with no connection and no seat here: their tokens stay in Redis, so
        a later hello reloads them, and without this the dict grows by one per visitor."""
        seated = {s.sid for room in self.lobby.rooms.values() for _, s in room.seated()}
        for sid in [sid for sid, s in self.sessions.items() if s.conn is None]:
            if sid not in seated:
                del self.sessions[sid]

    def _close_idle(self) -> None:
        mono = time.monotonic()
        for conn in list(self.conns):
            if conn.guard is not None and not conn.closed and conn.guard.idle(mono):
                limit = self.limits.idle_seconds
                conn.send(p.ProtocolError("idle", f"Nothing heard for {limit:g} s.").reply())
                conn.shutdown()

    def _team(self, conn: Conn, room: Room) -> int | None:
        if conn.session is None:
            return None
        seat = room.seat_of(conn.session.sid)
        return None if seat is None else seat % 2

    # -- the clock loop --------------------------------------------------------------
    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.tick_seconds)
            try:
                await self.tick(time.time())
            except Exception:  # the loop must outlive any one room's failure
                log.exception("tick failed")

    async def tick(self, now: float) -> None:
        """Run every room's clocks, retry unsaved rooms, push the lobby and watcher counts,
        close idle connections."""
        if now - self._last_idle_check >= 1.0:
            self._last_idle_check = now
            self._close_idle()
            self._forget_sessions()
            self.collections.maintain(time.monotonic())
        for room in list(self.lobby.rooms.values()):
            before = room.status
            room.tick(now)
            if room.status != before:
                self.lobby_changed = True
            durable = any(isinstance(o, Event) for o in room.outbox) or room.log or room.records
            if durable or room.id in self.unsaved or room.empty:
                await self.flush(room)
            elif room.outbox:
                self._deliver_transient(room)
        if now - self._last_watchers >= WATCHERS_PUSH and self.watchers_changed:
            self._last_watchers = now
            changed, self.watchers_changed = self.watchers_changed, set()
            for rid in changed:
                room = self.lobby.rooms.get(rid)
                if room is not None:
                    msg = p.encode({"t": "watchers", "room": rid, "n": room.watchers})
                    for conn in list(self.audience.get(rid, ())):
                        conn.send(msg, droppable=True)
                    await self.flush(room)  # the lobby hash shows the count to every process
            self.lobby_changed = True
        if self.lobby_changed and now - self._last_lobby >= LOBBY_PUSH:
            self._last_lobby = now
            self.lobby_changed = False
            subscribers = [conn for conn in self.conns if conn.lobby]
            if subscribers:
                view = p.encode(await self._lobby_view())
                for conn in subscribers:
                    conn.send(view, droppable=True)

    # -- the cluster (server/cluster) ------------------------------------------------
    async def _forward(self, conn: Conn, msg: p.ClientMessage, data: bytes | str) -> bool:
        """Send a message to the process owning the connection's room, if another one does;
        True when forwarded (the owner answers the connection over the bus)."""
        if conn.session is None or isinstance(msg, LOCAL_MESSAGES):
            return False
        if isinstance(msg, p.Leave) and conn.queued is not None:
            return False
        if isinstance(msg, p.Join | p.Watch | p.Resume):
            invite = getattr(msg, "invite", None)
            rid = msg.room
            if invite is not None:
                rid = self.lobby.invites.get(invite) or await self.store.invite_room(invite)
            if rid is None or rid in self.lobby.rooms:
                return False
            if isinstance(msg, p.Join):
                await self._free(conn)
            owner = await self._owner(rid)
            if owner is None or owner == self.pid:
                return False  # gone (the local handler says so), or taken over just now
            self._leave_audience(conn)
            conn.remote = Link(rid, owner)
        elif conn.remote is None:
            return False
        sess = conn.session
        self.bus.send(conn.remote.owner, ["cmd", self.pid, conn.cid, sess.sid, sess.name, data])
        return True

    async def _owner(self, rid: str) -> str | None:
        """The live process owning a room: this one if the room was free or its owner dead
        (it is taken over now), or None if the room does not exist."""
        for _attempt in range(5):  # a lost race for a free room: look again
            if rid in self.lobby.rooms:
                return self.pid
            owner = await self.leases.owner(rid)
            if owner is not None and owner != self.pid:
                if (await self.leases.alive([owner]))[owner]:
                    return owner
                # unsubscribed: dead, or resubscribing after a Redis blip? Look once more.
                await asyncio.sleep(min(1.0, self.config.lease_seconds / 3))
                if (await self.leases.alive([owner]))[owner]:
                    return owner
            if await self._take_over(rid, owner):
                return self.pid
            if owner is None and await self.leases.owner(rid) is None:
                return None  # no lease and nothing to load: no such room
        return None

    def _remote(self, pid: str, cid: str, sid: str, name: str) -> RemoteConn:
        """The stand-in for a connection of another process (made on its first message)."""
        rconn = self.remotes.get((pid, cid))
        if rconn is None:
            rconn = self.remotes[pid, cid] = RemoteConn(pid, cid, self.bus)
            session = self.sessions.get(sid)
            if session is None:
                session = self.sessions[sid] = Session(sid, name, "")
            rconn.session = session
            session.conn = rconn  # the session's newest connection, as a hello makes it
        return rconn

    async def _on_bus(self, msg: list[Any]) -> None:
        """A message from another process (server/cluster/bus.py lists them)."""
        kind = msg[0]
        if kind == "to":
            _, cids, data, droppable, relay = msg
            shared: bytes | Packet = data
            if relay is not None:  # a motion's frame: one deflate stream here too (fanout.py)
                rid = relay.split(" ", 1)[0]
                key, stream = self.relays.get(rid, ("", None))
                if key != relay or stream is None:
                    stream = Stream()
                    self.relays[rid] = (relay, stream)
                shared = stream.packet(data)
            for cid in cids:
                conn = self.by_cid.get(cid)
                if conn is not None:
                    conn.send(shared, droppable)
        elif kind == "enter":
            _, cid, rid, owner = msg
            conn = self.by_cid.get(cid)
            if conn is not None:
                if conn.room is not None:
                    self._leave_audience(conn)
                conn.remote, conn.queued = Link(rid, owner), None
        elif kind == "leave":
            conn = self.by_cid.get(msg[1])
            if conn is not None and conn.remote is not None and conn.remote.rid == msg[2]:
                conn.remote = None
        elif kind == "close":
            conn = self.by_cid.get(msg[1])
            if conn is not None:
                conn.shutdown()
        elif kind == "lobby":
            self.lobby_changed = True
        elif kind in ("cmd", "back"):
            rconn = self._remote(*msg[1:5])
            if kind == "cmd":
                await self._handle(rconn, msg[5])
                return
            room = self.lobby.room_of(msg[3])
            if room is not None:
                rconn.room = room
                room.back(msg[3], time.time())
                await self.flush(room)
        elif kind in ("closed", "detach"):
            rconn = self.remotes.get((msg[1], msg[2]))
            if rconn is None:
                return
            if kind == "detach":
                self._leave_audience(rconn)
                sid = rconn.session.sid
                if self.lobby.room_of(sid) is None:  # nothing left for it here: forget it
                    del self.remotes[msg[1], msg[2]]
                    if self.sessions[sid].conn is rconn:
                        self.sessions[sid].conn = None
                return
            del self.remotes[msg[1], msg[2]]
            await self.disconnected(rconn)

    async def _cluster_loop(self) -> None:
        # renewals well inside the lease; liveness checked every second whatever the lease
        period = min(1.0, self.config.lease_seconds / 3)
        while True:
            await asyncio.sleep(period)
            try:
                await self.cluster_tick()
            except Exception:  # the loop must outlive a Redis hiccup
                log.exception("cluster tick failed")

    async def cluster_tick(self) -> None:
        """Renew this process's leases (dropping rooms lost), take over rooms whose owner
        died, and let go of connections whose other end died."""
        lost, retaken = await self.leases.renew(list(self.lobby.rooms))
        for rid in retaken:  # expired unclaimed: still ours if nobody committed meanwhile
            if await self.store.checkpoint_seq(rid) != self.saved_seq.get(rid):
                lost.append(rid)
        for rid in lost:
            room = self.lobby.rooms.get(rid)
            if room is not None:
                self._lost(room)
        owners = await self.leases.owners(
            [rid for rid in await self.store.room_ids() if rid not in self.lobby.rooms]
        )
        peers = {r.pid for r in self.remotes.values()} | {o for o in owners.values() if o}
        peers |= {c.remote.owner for c in self.conns if c.remote is not None}
        peers.discard(self.pid)
        seen_dead, self.suspects = self.suspects, set()
        alive = await self.leases.alive(sorted(peers))
        for pid, up in alive.items():
            if not up and pid not in seen_dead:  # dead only if still so on the next tick: a
                self.suspects.add(pid)  # live process resubscribing after a Redis blip is not
                alive[pid] = True
        for rid, owner in owners.items():
            if owner is None or not alive.get(owner, True):
                await self._take_over(rid, owner)
        for (pid, cid), rconn in list(self.remotes.items()):
            if not alive.get(pid, True):  # its process died: as if the connection dropped
                del self.remotes[pid, cid]
                await self.disconnected(rconn)
        here = {c.remote.rid for c in self.conns if c.remote is not None}
        for rid in [rid for rid in self.relays if rid not in here]:
            del self.relays[rid]  # nobody here watches that room any more
        for conn in list(self.conns):
            if conn.remote is not None and not alive.get(conn.remote.owner, True):
                # the room's owner died: the client reconnects and resumes from the next one
                conn.remote = None
                conn.shutdown()
