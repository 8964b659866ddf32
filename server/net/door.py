"""The door: TCP connections counted at accept, in all and per client address, before any
HTTP is read.

The websocket gateway counts its sockets per address (server/net/gateway.py), but a client
that never finishes its request never reaches it: 20,000 half-sent requests from one address
used up the process's file descriptors and honest connections were reset. Here every TCP
connection is counted as aiohttp accepts it, and one over a limit is dropped at once. How
long a request may take to arrive is aiohttp's keep-alive timer (set by __main__ from
`--header-timeout`): it runs from the accept and from each answer until the next request is
read, so a half-sent request is dropped when it fires.

Behind a trusted proxy every connection comes from the proxy: its address is counted only
in the total (the proxy bounds its clients itself: deploy/nginx.conf).
"""

from __future__ import annotations

import asyncio
import logging
import resource
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from server.edge.proxy import Network, trusted_peer

log = logging.getLogger("novuss.door")
RESERVED_FDS = 256  # descriptors kept for Redis, the log, the files served and the bus


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


class Door:
    """Admits a TCP connection if the total and its address are under their limits."""

    def __init__(self, total: int, per_address: int, trusted: tuple[Network, ...] = ()):
        self.total = total
        self.per_address = per_address
        self.trusted = trusted
        self.open: dict[str, int] = {}
        self.count = 0
        self.refused = 0
        self._admitted: dict[Any, str | None] = {}  # handler -> its counted address

    def attach(self, server: web.Server) -> None:
        """Count the connections of an aiohttp server. aiohttp has no accept hook: the
        server's own connection_made/connection_lost (which every request handler calls) are
        wrapped on this one instance."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
            made(handler, transport)
            if self.admit(handler, transport):
                return
            self.refused += 1
            transport.abort()  # before a byte is read: nothing to answer yet

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            self.release(handler)
            lost(handler, exc)

        server.connection_made = connection_made  # type: ignore[method-assign]  # no accept hook
        server.connection_lost = connection_lost  # type: ignore[method-assign]  # no accept hook

    def admit(self, handler: Any, transport: asyncio.Transport) -> bool:
        """Count a new connection; False if it is over a limit (and not counted)."""
        if self.count >= self.total:
            return False
        address = self._address(transport)
        if address is not None:
            n = self.open.get(address, 0)
            if n >= self.per_address:
                return False
            self.open[address] = n + 1
        self.count += 1
        self._admitted[handler] = address
        return True

    def release(self, handler: Any) -> None:
        """A connection closed: uncount it if it was admitted."""
        if handler not in self._admitted:
            return
        address = self._admitted.pop(handler)
        self.count -= 1
        if address is not None:
            n = self.open.get(address, 0) - 1
            if n > 0:
                self.open[address] = n
            else:
                self.open.pop(address, None)

    def view(self) -> dict[str, int]:
        """The numbers /healthz shows."""
        return {"open": self.count, "limit": self.total, "refused": self.refused}

    def _address(self, transport: asyncio.Transport) -> str | None:
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else ""
        return None if trusted_peer(host, self.trusted) else host
