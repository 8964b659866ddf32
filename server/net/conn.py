"""A websocket connection of this process, and the registry of all of them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from server.cluster.remote import Link
from server.lobby.members import QueueEntry, Session
from server.lobby.room import Room, new_id
from server.net import protocol as p
from server.net.fanout import Wire
from server.net.limits import ConnGuard, CreateBudgets


@dataclass(eq=False)
class Conn:
    """One websocket connection and the room it is in (as a player or a watcher); a
    `Member` of the lobby (server/lobby/members.py)."""

    ws: web.WebSocketResponse
    limit: int  # send_queue: the unsent backlog, in KiB, past which the reader is dropped
    guard: ConnGuard  # its rate budgets and idle time (server/net/limits.py)
    address: str = ""  # the client's address (behind a trusted proxy: the forwarded one)
    creates: CreateBudgets | None = None  # the budgets its address and session share
    hello_at: float = 0.0  # when it said hello (of two connections of a session, the newer stays)
    wire: Wire | None = None  # its socket, written directly (server/net/fanout.py)
    closing: asyncio.Future[bool] | None = None  # the polite close after shutdown()
    session: Session | None = None
    room: Room | None = None
    watching: bool = False
    lobby: bool = False
    closed: bool = False
    cid: str = field(default_factory=lambda: new_id("c"))  # its id on the bus (server/cluster)
    remote: Link | None = None  # the room it is in when another process owns that room
    queued: tuple[str, QueueEntry] | None = None  # (mode, entry) while in a quick-match queue
    transport: asyncio.Transport | None = None  # to drop a hopelessly slow reader at once
    account: tuple[str, str] | None = None  # (uid, username) its login cookie named at upgrade
    login: str | None = None  # that login's hash (login_hash): its websockets end with it
    written_at: float = 0.0  # time.perf_counter() of its last write (server/net/stroke_times.py)
    # time.monotonic() of its last message other than a ping: an idle one without a seat may
    # be displaced for a seated player's return near the TCP total (server/net/holders.py)
    acted_at: float = field(default_factory=time.monotonic)

    def send(self, msg: Mapping[str, Any] | bytes, droppable: bool = False) -> None:
        """Write a message to the socket now. A reader that falls behind loses previews
        (droppable), never events: one too slow even for those is dropped (its client
        resyncs when it reconnects)."""
        if self.closed or self.wire is None:
            return
        data = msg if isinstance(msg, bytes) else p.encode(msg)
        if not self.wire.send(data, droppable):
            self.shutdown(abort=True)
        self.written_at = time.perf_counter()

    def backlog(self) -> int:
        """Bytes written to the socket and not yet taken by the kernel."""
        if self.transport is None or self.transport.is_closing():
            return 0
        return self.transport.get_write_buffer_size()

    def shutdown(self, abort: bool = False, code: int = 1000, reason: bytes = b"") -> None:
        """Stop sending and close the socket (with the websocket close `code`). `abort` drops
        it at once: a reader too slow for the events would hold a polite close up behind its
        backlog, and it resyncs when it reconnects anyway."""
        if self.closed:
            return
        self.closed = True
        if abort and self.transport is not None:
            self.transport.abort()
        else:
            self.closing = asyncio.ensure_future(self.ws.close(code=code, message=reason))

    def may_create(self) -> None:
        """Allow one room creation or raise `rate_limited` (server/net/limits.py): within the
        connection's own budget and those of its address and session."""
        self.guard.may_create()
        if self.creates is not None and self.session is not None:
            self.creates.take(self.address, self.session.sid)


class Connections:
    """Every websocket connection of this process, and each by its id on the bus."""

    def __init__(self) -> None:
        self.all: set[Conn] = set()
        self.by_cid: dict[str, Conn] = {}

    def add(self, conn: Conn) -> None:
        """A connection accepted."""
        self.all.add(conn)
        self.by_cid[conn.cid] = conn

    def discard(self, conn: Conn) -> None:
        """A connection ended."""
        self.all.discard(conn)
        self.by_cid.pop(conn.cid, None)

    def __len__(self) -> int:
        return len(self.all)
