"""The door: TCP connections counted at accept, in all and per client address, before any
HTTP is read, with a reserve for connections that have asked for something.

The websocket gateway counts its sockets per address (server/net/gateway.py), but a client
that never finishes its request never reaches it: 20,000 half-sent requests from one address
used up the process's file descriptors and honest connections were reset. Here every TCP
connection is counted as aiohttp accepts it, and one over a limit is dropped at once. How
long a request may take to arrive is aiohttp's keep-alive timer (set by __main__ from
`--header-timeout`): it runs from the accept and from each answer until the next request is
read, so a half-sent request is dropped when it fires.

A connection without a request in hand (half-sent, or idle between requests) is `waiting`.
Waiting connections may fill the total only up to its reserve (`--tcp-reserve`), so the
last slots always go to connections that asked for something: a seated player's websocket,
a login (issue 37: ~310 addresses with half-sent requests held the whole cap, and 46 of 103
new honest hellos and 7 of 20 logins failed). When a new connection finds no room, the
waiting connection of the address that holds the most waiting ones, its oldest, is cut for
it, and an address holding `--waiting-per-address` cuts its own oldest: half-sent requests
count against their address, and an honest client, which sends its request as it connects,
is the youngest and the last to go (an address's own are cut once they waited CUT_AFTER). While
waiting connections are past half their cap, those waiting longer than QUICK_TIMEOUT are cut
at the next accept: they time out quickly.

A websocket counts as waiting until its hello (server/net/holders.py): upgrading and then
saying nothing is a half-sent request by other means. Once the total is reached with nothing
waiting to cut, the door may let OVERDRAFT connections in past it while websockets of
sessions without a seat are open: the one that turns out to be a seated player's return
displaces one of them (server/net/holders.py); any other is refused or cut as usual.

Behind a trusted proxy every connection comes from the proxy: its address is counted only
in the total (the proxy bounds its clients itself: deploy/nginx.conf).
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from server.edge.proxy import Network, trusted_peer

log = logging.getLogger("novuss.door")
RESERVED_FDS = 256  # descriptors kept for Redis, the log, the files served and the bus
QUICK_TIMEOUT = 2.0  # seconds a connection may wait without a request once the door is busy
# An address past its waiting limit cuts its own oldest only once that one has waited this
# long: the loop accepts a burst of connections before it reads any of them, and a test's 40
# at once from one address, each with its request already sent, were cut as they came in
CUT_AFTER = 1.0
# connections let in past the total while a seated player's return may displace an idle
# websocket (RESERVED_FDS leaves the descriptors for them)
OVERDRAFT = 8
PROXY = "proxy"  # the address key of connections from a trusted proxy (the total only)


def open_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def default_reserve(total: int) -> int:
    """The slots kept from waiting connections: an eighth of the total, at least 4."""
    return max(4, total // 8)


class Door:
    """Admits a TCP connection if the total and its address are under their limits, cutting a
    waiting connection to make room where one may be cut."""

    def __init__(
        self,
        total: int,
        per_address: int,
        trusted: tuple[Network, ...] = (),
        reserve: int | None = None,
        waiting_per_address: int = 16,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.total = total
        self.per_address = per_address
        self.trusted = trusted
        self.reserve = min(total - 1, default_reserve(total) if reserve is None else reserve)
        self.waiting_per_address = waiting_per_address
        self.clock = clock
        self.open: dict[str, int] = {}
        self.count = 0
        self.refused = 0
        self.cut = 0  # waiting connections cut to make room, or for waiting too long
        # whether a connection past the total may come in (an idle websocket could be
        # displaced for it: server/net/holders.py); None: never
        self.overdraw: Callable[[], bool] | None = None
        self._admitted: dict[Any, str | None] = {}  # handler -> its counted address
        # waiting connections: in all (oldest first) and per address, each with its
        # transport and since when it waits
        self._waiting: dict[Any, tuple[asyncio.Transport, float]] = {}
        self._waiting_by: dict[str, dict[Any, None]] = {}

    @property
    def waiting(self) -> int:
        """Connections open without a request in hand."""
        return len(self._waiting)

    def attach(self, server: web.Server) -> None:
        """Count the connections of an aiohttp server. aiohttp has no accept hook: the
        server's own connection_made/connection_lost (which every request handler calls) are
        wrapped on this one instance, and so is its request handler (a request in hand)."""
        made, lost = server.connection_made, server.connection_lost
        handle = server.request_handler

        def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
            made(handler, transport)
            if self.admit(handler, transport):
                return
            self.refused += 1
            # before a byte is read: nothing to answer yet. Not here but on the loop's next
            # turn: aborted in connection_made, the connection was lost before aiohttp's
            # handler task started, which then failed an assertion and logged a traceback
            # per refusal (attacker review, 2026-11-28)
            asyncio.get_running_loop().call_soon(transport.abort)

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            self.release(handler)
            lost(handler, exc)

        async def request_handler(request: web.BaseRequest) -> web.StreamResponse:
            protocol = request.protocol
            self.asking(protocol)
            try:
                return await handle(request)
            finally:
                self.idle(protocol)

        server.connection_made = connection_made  # type: ignore[method-assign]  # no accept hook
        server.connection_lost = connection_lost  # type: ignore[method-assign]  # no accept hook
        server.request_handler = request_handler  # no hook for a request read either

    def admit(self, handler: Any, transport: asyncio.Transport) -> bool:
        """Count a new connection (waiting for its request); False if it is over a limit and
        no waiting connection may be cut for it (it is not counted)."""
        address = self._address(transport)
        if address is not None and self.open.get(address, 0) >= self.per_address:
            return False
        key = PROXY if address is None else address
        if address is not None and len(self._waiting_by.get(key, ())) >= self.waiting_per_address:
            own = next(iter(self._waiting_by[key]))
            if self._cuttable(own):
                self._cut(own)  # its own oldest
        self._cut_stale()
        if self.count >= self.total or self.waiting >= self.total - self.reserve:
            victim = self._heaviest_oldest()
            if victim is not None:
                self._cut(victim)
            elif not self._may_overdraw():
                return False
        if self.count >= self.total and not self._may_overdraw():
            return False
        if address is not None:
            self.open[address] = self.open.get(address, 0) + 1
        self.count += 1
        self._admitted[handler] = address
        self._wait(handler, transport, key)
        return True

    def asking(self, handler: Any) -> None:
        """A request was read on the connection: it no longer waits."""
        if self._waiting.pop(handler, None) is not None:
            key = self._key(handler)
            by = self._waiting_by.get(key)
            if by is not None:
                by.pop(handler, None)
                if not by:
                    del self._waiting_by[key]

    def idle(self, handler: Any) -> None:
        """A request was answered: the connection waits for its next one (a keep-alive)."""
        if handler in self._admitted and handler.transport is not None:
            self._wait(handler, handler.transport, self._key(handler))

    def release(self, handler: Any) -> None:
        """A connection closed: uncount it if it was admitted."""
        if handler not in self._admitted:
            return
        self.asking(handler)
        address = self._admitted.pop(handler)
        self.count -= 1
        if address is not None:
            n = self.open.get(address, 0) - 1
            if n > 0:
                self.open[address] = n
            else:
                self.open.pop(address, None)

    def room_for_newcomer(self) -> bool:
        """Whether a connection that asks for something not reserved (a websocket of a session
        without a seat) may have a slot: those with something in hand stay under the total
        less the reserve, which is kept for seated players and logins."""
        return self.count - self.waiting < self.total - self.reserve

    def view(self) -> dict[str, int]:
        """The numbers /healthz shows."""
        return {
            "open": self.count, "limit": self.total, "refused": self.refused,
            "waiting": self.waiting, "reserve": self.reserve, "cut": self.cut,
        }  # fmt: skip

    def _wait(self, handler: Any, transport: asyncio.Transport, key: str) -> None:
        self._waiting.pop(handler, None)  # to the end: the youngest
        self._waiting[handler] = (transport, self.clock())
        by = self._waiting_by.setdefault(key, {})
        by.pop(handler, None)
        by[handler] = None

    def _key(self, handler: Any) -> str:
        address = self._admitted.get(handler)
        return PROXY if address is None else address

    def _cut(self, handler: Any) -> None:
        """Close a waiting connection now and uncount it (its connection_lost comes later)."""
        transport, _ = self._waiting[handler]
        self.release(handler)
        self.cut += 1
        transport.abort()

    def _cut_stale(self) -> None:
        """Past half their cap, waiting connections older than QUICK_TIMEOUT are cut."""
        limit = (self.total - self.reserve) / 2
        if self.waiting <= limit:
            return
        oldest = self.clock() - QUICK_TIMEOUT
        while self._waiting:
            handler, (_, since) = next(iter(self._waiting.items()))
            if since > oldest:
                return
            self._cut(handler)

    def _heaviest_oldest(self) -> Any:
        """The oldest waiting connection of the address holding the most waiting ones, and of
        those the most connections in all: when every address has one waiting (a flood cut
        down to that), the one holding forty websockets loses it, not the one whose only
        connection is a seated player's return before its hello. Ties went by the order the
        addresses were first seen: a likely way one return of six was lost under issue 37's
        attack in a CI run (docs/testing.md)."""
        if not self._waiting_by:
            return None
        _, heaviest = max(
            self._waiting_by.items(), key=lambda kv: (len(kv[1]), self.open.get(kv[0], 0))
        )
        return next(iter(heaviest))

    def _may_overdraw(self) -> bool:
        return self.overdraw is not None and self.count < self.total + OVERDRAFT and self.overdraw()

    def _cuttable(self, handler: Any) -> bool:
        return self._waiting[handler][1] <= self.clock() - CUT_AFTER

    def _address(self, transport: asyncio.Transport) -> str | None:
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else ""
        return None if trusted_peer(host, self.trusted) else host
