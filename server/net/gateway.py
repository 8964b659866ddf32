"""The gateway: websocket connections from accept to close, and their limits.

Each connection is read by its own task; before a frame reaches the dispatcher the
connection's budgets are charged (server/net/limits.py: message rates, abuse, idle time), and
the connections per address are counted at the door.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from aiohttp import WSMsgType, web

from server.accounts.store import login_hash
from server.edge.origin import refuse_foreign
from server.edge.proxy import Network, client_address
from server.net import protocol as p
from server.net.conn import Conn, Connections
from server.net.dispatch import Dispatcher
from server.net.fanout import Wire, may_deflate
from server.net.holders import Holders
from server.net.limits import AddressCounter, ConnGuard, CreateBudgets, Limits
from server.net.pace import Pace
from server.net.stalls import Stalls

CLOSE_WAIT = 2.0  # seconds a client has to answer the server's close at shutdown
HARD_FRAME_LIMIT = 65536  # above this aiohttp closes the socket; below, oversize gets an error


class Login(Protocol):
    """A login the upgrade request's cookie names."""

    @property
    def uid(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def token(self) -> str: ...


class Logins(Protocol):
    """What the gateway asks of the accounts before the upgrade (server/accounts/http.py)."""

    @property
    def origins(self) -> frozenset[str]: ...

    async def logged_in(self, request: web.Request) -> Login | None: ...


Recheck = Callable[[Conn, str], Awaitable[None]]
"""Close a connection just registered whose login ended while it was upgraded
(server/accounts/logouts.py)."""


class Gateway:
    """Accepts websockets, reads them, and hands each frame to the dispatcher."""

    def __init__(
        self,
        conns: Connections,
        limits: Limits,
        dispatcher: Dispatcher,
        ended: Callable[[Conn], Awaitable[None]],
        send_queue: int,
        trusted: tuple[Network, ...] = (),
        send_budget: int = 16 << 20,
        accounts: Logins | None = None,
        recheck: Recheck | None = None,
    ):
        self.accounts = accounts
        self.recheck = recheck  # a login that ends ends its sockets
        self.conns = conns
        self.limits = limits
        self.addresses = AddressCounter(limits.conns_per_address)
        self.holders = Holders(self.addresses)  # attached to the door by server/app.py
        self.pace = Pace()  # upgrades and hellos a loop turn, the addresses in turn
        self.creates = CreateBudgets(limits)
        self.dispatcher = dispatcher
        self.ended = ended
        self.send_queue = send_queue
        self.trusted = trusted
        self.send_budget = send_budget  # bytes unsent over all connections
        self.stalls = Stalls()
        self.dropped_behind = 0  # connections dropped to keep the send budget

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        """One websocket connection from accept to close."""
        # autoping off: a client's PING frames are messages like any other, charged to its
        # budget before they are answered (else a ping flood bypasses the limits)
        ws = web.WebSocketResponse(max_msg_size=HARD_FRAME_LIMIT, heartbeat=20.0, autoping=False)
        account = None
        address = client_address(request.remote or "", request.headers, self.trusted)
        await self._turn(request, address)
        if self.accounts is not None:
            refuse_foreign(request, self.accounts.origins)  # before the upgrade: a 403
            account = await self.accounts.logged_in(request)
        await ws.prepare(request)
        if not self.addresses.admit(address):
            refusal = p.ProtocolError(
                "too_many_connections",
                f"At most {self.limits.conns_per_address} connections per address.",
            )
            await ws.send_bytes(p.encode(refusal.reply()))
            await ws.close(code=1008, message=b"too many connections")
            return ws
        guard = ConnGuard(self.limits, self.stalls)
        conn = Conn(ws, self.send_queue, guard, address=address, creates=self.creates)
        conn.transport = request.transport
        if account is not None:
            conn.account, conn.login = (account.uid, account.name), login_hash(account.token)
        if request.transport is not None:
            deflate = may_deflate(ws.headers.get("Sec-WebSocket-Extensions", ""))
            conn.wire = Wire(request.transport, deflate, conn.limit * 1024)
        self.conns.add(conn)
        self.holders.opened(conn, request.protocol)
        try:
            if account is not None and self.recheck is not None:
                await self.recheck(conn, account.token)
            async for msg in ws:
                if msg.type in (WSMsgType.BINARY, WSMsgType.TEXT):
                    await self.receive(conn, msg.data)
                elif msg.type is WSMsgType.PING and self.admit(conn):
                    await ws.pong(msg.data)
                if conn.closed:
                    break
        except ConnectionResetError:  # the peer went away mid-write (a pong): nothing to say
            pass
        finally:
            self.addresses.release(address)
            self.conns.discard(conn)
            self.holders.closed(conn)
            await self.ended(conn)
            with contextlib.suppress(ConnectionResetError):
                await ws.close()
        return ws

    async def _turn(self, request: web.Request, address: str) -> None:
        """Wait for the address's turn to upgrade (server/net/pace.py). Meanwhile the
        connection waits at the door as one that asked nothing yet: cut first when the door
        needs room (server/net/holders.py), as it is again after the upgrade until its hello."""
        door = self.holders.door
        if door is None or self.pace.free():
            await self.pace.turn(address)
            return
        door.idle(request.protocol)
        try:
            await self.pace.turn(address)
        finally:
            door.asking(request.protocol)

    def admit(self, conn: Conn) -> bool:
        """Charge one client message (or PING frame) to its connection's budget: False if it
        is refused (answered with `rate_limited`, or `abuse` and closed when it goes on)."""
        refusal = conn.guard.heard()
        if conn.guard.abusive:  # refused often enough, for messages or for snapshots
            conn.send(p.ProtocolError("abuse", "Flooding: this connection is closed.").reply())
            conn.shutdown()
            return False
        if refusal is None:
            return True
        conn.send(refusal.reply())
        return False

    async def receive(self, conn: Conn, data: bytes | str) -> None:
        """Charge one client message to its connection's budgets, then dispatch it."""
        if self.admit(conn):
            if conn.session is None:  # a hello (or a message before one) waits its turn
                await self.pace.turn(conn.address)
            await self.dispatcher.handle(conn, data)

    def close_idle(self, share: Iterable[Conn]) -> None:
        """Close the connections of this share that said nothing for longer than the idle
        limit (the clock hands every connection over once a second, a share a tick)."""
        mono = time.monotonic()
        for conn in share:
            if not conn.closed and conn.guard.idle(mono):
                limit = self.limits.idle_seconds
                conn.send(p.ProtocolError("idle", f"Nothing heard for {limit:g} s.").reply())
                conn.shutdown()

    def prune(self) -> None:
        """Forget the create budgets that are full again (once a second)."""
        self.creates.prune()

    @staticmethod
    def unsent(share: Iterable[Conn]) -> int:
        """The bytes that wait unsent in these connections' sockets."""
        return sum(conn.backlog() for conn in share if not conn.closed)

    def trim_backlogs(self) -> int:
        """Keep what waits unsent in all the sockets under the send budget: past it, the
        connections furthest behind are dropped (their clients resync when they reconnect).
        Each connection has its own cap too (`--send-queue`), but thousands of stalled
        readers each under it would still hold the server's memory. How many were dropped."""
        backlogs = [(c.backlog(), c) for c in self.conns.all if not c.closed]
        total = sum(b for b, _ in backlogs)
        dropped = 0
        if total <= self.send_budget:
            return 0
        for backlog, conn in sorted(backlogs, key=lambda bc: bc[0], reverse=True):
            if total <= self.send_budget or backlog == 0:
                break
            conn.shutdown(abort=True)
            total -= backlog
            dropped += 1
        self.dropped_behind += dropped
        return dropped

    async def close_all(self) -> None:
        """Close every websocket at shutdown (clients reconnect and resume after the restart):
        all at once, and a client that does not answer the close within CLOSE_WAIT seconds
        is cut off (one at a time, each waiting aiohttp's 10 s, a few silent clients held a
        SIGTERM up for minutes)."""
        conns = list(self.conns.all)
        closing = [
            asyncio.ensure_future(c.ws.close(code=1001, message=b"server shutting down"))
            for c in conns
        ]
        if closing:
            await asyncio.wait(closing, timeout=CLOSE_WAIT)
        for conn, task in zip(conns, closing, strict=True):
            if not task.done():
                task.cancel()
                if conn.transport is not None:
                    conn.transport.abort()
