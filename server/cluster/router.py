"""The cluster router, the owner's side: which process owns a room, taking rooms over, and
the stand-ins for other processes' connections in this process's rooms.

One room lives in one process, the holder of its lease (server/cluster/lease.py). This module
finds a room's live owner (taking the room over when its owner is dead or it has none),
reloads a room from its checkpoint, renews the leases every second, and handles what other
processes send about their connections in rooms owned here (`cmd`, `back`, `detach`,
`closed`: server/cluster/bus.py). The connection's side of the bus (forwarding a client's
frames, delivering what owners send) is server/net/relay.py. Nothing here imports the
network layer: it is given the dispatcher's and the sessions' entry points.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from server.cluster.bus import Bus
from server.cluster.lease import Leases
from server.cluster.remote import RemoteConn
from server.games.core.play import Settings
from server.lobby.events import Event
from server.lobby.lobby import Lobby
from server.lobby.members import Member, Session, Stage
from server.lobby.room import Room
from server.store.redis_store import Store

log = logging.getLogger("novuss.cluster")


class Owned(Stage, Protocol):
    """The room runtime as the router uses it (server/net/runtime.py)."""

    seated: dict[str, dict[str, int]]
    saved_seq: dict[str, int]

    def lost(self, room: Room) -> None:
        """Drop a room another process took over."""


Handle = Callable[[Member, bytes | str], Awaitable[None]]
Ended = Callable[[Member], Awaitable[None]]


class Router:
    """Room ownership across processes, and other processes' connections in our rooms."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        leases: Leases,
        lobby: Lobby,
        settings: Settings,
        sessions: dict[str, Session],
        grace: float,
        buffer: int,
        lease_seconds: float,
        stage: Owned,
        handle: Handle,
        ended: Ended,
        local: Callable[[str], Member | None],
    ):
        self.store = store
        self.bus = bus
        self.leases = leases
        self.pid = bus.pid
        self.lobby = lobby
        self.settings = settings
        self.sessions = sessions
        self.grace = grace
        self.buffer = buffer
        self.recheck = min(1.0, lease_seconds / 3)  # a second look at an unsubscribed owner
        self.remotes: dict[tuple[str, str], RemoteConn] = {}
        self.suspects: set[str] = set()  # processes seen unsubscribed once (dead if again)
        self._taking = asyncio.Lock()
        # what it needs of the layer above: the room runtime; a client frame as the
        # dispatcher handles it; a connection's end as the sessions handle it; a connection
        # of this process by its id
        self.stage = stage
        self.handle = handle
        self.ended = ended
        self.local = local

    # -- what the lobby asks of the cluster (the `Cluster` of server/lobby/members.py) ---
    async def claim(self, rid: str) -> bool:
        """Take the lease of a new room."""
        return await self.leases.acquire(rid)

    async def alive(self, pids: list[str]) -> dict[str, bool]:
        """Which of these processes are alive."""
        return await self.leases.alive(pids)

    def lobby_changed(self) -> None:
        """Tell every process the shared lobby list changed."""
        self.bus.lobby_changed()

    def member(self, pid: str, cid: str, sid: str, name: str) -> Member | None:
        """The connection `cid` of process `pid`: ours, or a stand-in for another's."""
        if pid == self.pid:
            return self.local(cid)
        return self.remote(pid, cid, sid, name)

    def remote(self, pid: str, cid: str, sid: str, name: str) -> RemoteConn:
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

    # -- ownership ---------------------------------------------------------------------
    async def owner(self, rid: str) -> str | None:
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
                await asyncio.sleep(self.recheck)
                if (await self.leases.alive([owner]))[owner]:
                    return owner
            if await self.take_over(rid, owner):
                return self.pid
            if owner is None and await self.leases.owner(rid) is None:
                return None  # no lease and nothing to load: no such room
        return None

    async def take_over(self, rid: str, dead: str | None = None) -> bool:
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
        events = [Event(e.seq, e.audience, e.message["t"], e.packed, e.readers) for e in stored]
        room = Room.from_dict(checkpoint, events, self.settings, self.grace, self.buffer)
        self.lobby.add(room)
        self.stage.seated[rid] = {s.sid: i for i, s in room.seated()}
        room.reloaded(time.time())
        await self.stage.flush(room)
        log.info("process %s owns room %s", self.pid, rid)
        return True

    # -- other processes' connections in our rooms (server/cluster/bus.py) --------------
    async def on_message(self, msg: list[Any]) -> None:
        """`cmd`, `back`, `closed` or `detach` from a connection's process."""
        kind = msg[0]
        if kind in ("cmd", "back"):
            rconn = self.remote(*msg[1:5])
            if kind == "cmd":
                await self.handle(rconn, msg[5])
                return
            room = self.lobby.room_of(msg[3])
            if room is not None:
                rconn.room = room
                room.back(msg[3], time.time())
                await self.stage.flush(room)
            return
        rconn_or_none = self.remotes.get((msg[1], msg[2]))
        if rconn_or_none is None:
            return
        rconn = rconn_or_none
        if kind == "detach":
            self.stage.leave_audience(rconn)
            assert rconn.session is not None  # remote() gives every stand-in its session
            sid = rconn.session.sid
            if self.lobby.room_of(sid) is None:  # nothing left for it here: forget it
                del self.remotes[msg[1], msg[2]]
                if self.sessions[sid].conn is rconn:
                    self.sessions[sid].conn = None
            return
        del self.remotes[msg[1], msg[2]]
        await self.ended(rconn)

    # -- every second ------------------------------------------------------------------
    async def tick(self, peers_here: set[str]) -> dict[str, bool]:
        """Renew this process's leases (dropping rooms lost), take over rooms whose owner
        died, and let go of stand-ins whose process died. `peers_here`: the owners of rooms
        this process's connections are in elsewhere. Returns which processes are alive."""
        lost, retaken = await self.leases.renew(list(self.lobby.rooms))
        for rid in retaken:  # expired unclaimed: still ours if nobody committed meanwhile
            if await self.store.checkpoint_seq(rid) != self.stage.saved_seq.get(rid):
                lost.append(rid)
        for rid in lost:
            room = self.lobby.rooms.get(rid)
            if room is not None:
                self.stage.lost(room)
        owners = await self.leases.owners(
            [rid for rid in await self.store.room_ids() if rid not in self.lobby.rooms]
        )
        peers = {r.pid for r in self.remotes.values()} | {o for o in owners.values() if o}
        peers |= peers_here
        peers.discard(self.pid)
        seen_dead, self.suspects = self.suspects, set()
        alive = await self.leases.alive(sorted(peers))
        for pid, up in alive.items():
            if not up and pid not in seen_dead:  # dead only if still so on the next tick: a
                self.suspects.add(pid)  # live process resubscribing after a Redis blip is not
                alive[pid] = True
        for rid, owner in owners.items():
            if owner is None or not alive.get(owner, True):
                await self.take_over(rid, owner)
        for (pid, cid), rconn in list(self.remotes.items()):
            if not alive.get(pid, True):  # its process died: as if the connection dropped
                del self.remotes[pid, cid]
                await self.ended(rconn)
        return alive
