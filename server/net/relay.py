"""The cluster router, the connection's side: this process's connections in rooms that other
processes own.

A client's frame for a room owned elsewhere is forwarded raw to the owner (`cmd`); what the
owner sends back (`to`, `enter`, `leave`, `close`) is delivered here to the local sockets
(server/net/fanout.py: framed, and compressed, once for all of them). The owner's side is
server/cluster/router.py; the bus's messages are listed in server/cluster/bus.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.cluster.bus import Bus
from server.cluster.remote import Link
from server.cluster.router import Router
from server.lobby.lobby import Lobby
from server.lobby.service import LobbyService
from server.net import protocol as p
from server.net.conn import Conn, Connections
from server.net.runtime import RoomRuntime
from server.store.redis_store import Store

# handled by the connection's own process whoever owns its room
LOCAL_MESSAGES = (
    p.Ping, p.Hello, p.LobbySub, p.Create, p.Quick, p.Computer,
    p.Challenge, p.ChallengeAnswer, p.ChallengeCancel,
)  # fmt: skip


class Relay:
    """Forwarding to room owners elsewhere, and delivering what they send."""

    def __init__(
        self,
        conns: Connections,
        router: Router,
        runtime: RoomRuntime,
        lobby: Lobby,
        service: LobbyService,
        store: Store,
        bus: Bus,
        elsewhere: Callable[[str, str, float], None],
    ):
        self.conns = conns
        self.router = router
        self.runtime = runtime
        self.lobby = lobby
        self.service = service
        self.store = store
        self.bus = bus
        self.pid = bus.pid
        # a session's hello on another process (server/net/sessions.py)
        self.elsewhere = elsewhere

    async def forward(self, conn: Conn, msg: p.ClientMessage, data: bytes | str) -> bool:
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
                await self.service.free(conn)
            owner = await self.router.owner(rid)
            if owner is None or owner == self.pid:
                return False  # gone (the local handler says so), or taken over just now
            self.runtime.leave_audience(conn)
            conn.remote = Link(rid, owner)
        elif conn.remote is None:
            return False
        sess = conn.session
        self.bus.send(conn.remote.owner, ["cmd", self.pid, conn.cid, sess.sid, sess.name, data])
        return True

    async def on_bus(self, msg: list[Any]) -> None:
        """A message from another process (server/cluster/bus.py lists them)."""
        kind = msg[0]
        if kind == "to":
            _, cids, data, droppable = msg
            for cid in cids:
                conn = self.conns.by_cid.get(cid)
                if conn is not None:
                    conn.send(data, droppable)
        elif kind == "enter":
            _, cid, rid, owner = msg
            conn = self.conns.by_cid.get(cid)
            if conn is not None:
                if conn.room is not None:
                    self.runtime.leave_audience(conn)
                conn.remote, conn.queued = Link(rid, owner), None
        elif kind == "leave":
            conn = self.conns.by_cid.get(msg[1])
            if conn is not None and conn.remote is not None and conn.remote.rid == msg[2]:
                conn.remote = None
        elif kind == "close":
            conn = self.conns.by_cid.get(msg[1])
            if conn is not None:
                conn.shutdown()
        elif kind == "lobby":
            self.runtime.lobby_changed = True
        elif kind == "session":
            self.elsewhere(msg[1], msg[2], msg[3])
        elif kind in ("cmd", "back", "closed", "detach"):  # another process's connection in
            await self.router.on_message(msg)  # a room owned here

    def owners_here(self) -> set[str]:
        """The owners of the rooms this process's connections are in elsewhere."""
        return {c.remote.owner for c in self.conns.all if c.remote is not None}

    def tick(self, alive: dict[str, bool]) -> None:
        """After the router's tick: close the connections whose room's owner died (their
        clients reconnect and resume from the next owner)."""
        for conn in list(self.conns.all):
            if conn.remote is not None and not alive.get(conn.remote.owner, True):
                conn.remote = None
                conn.shutdown()
