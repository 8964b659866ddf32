"""GET /healthz: whether the server is up, for anybody; its figures, for its operator.

The figures (rooms, connections, sessions, process id, the collector's pauses, unsent
bytes, every room and connection counted on each call) are the operator's and the
benchmarks': told to the world they describe the server's load to an attacker, and an
unmetered address asking hundreds a second would make the server count its 6,000
connections hundreds of times a second. So the figures go only to the addresses of
`--health-networks` (the client's address as the limits take it, server/edge/proxy.py:
behind a trusted proxy, the one it forwards), by default this host's own; anybody else gets
`{"ok": ...}` and its status (200, or 503 when Redis does not answer), a monitor's probe,
with Redis asked at most once a second whoever asks.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping

from server.edge.proxy import Network, client_address, within

PROBE_S = 1.0
"""How long the world's answer stands before Redis is asked again."""


class Health:
    """Who sees the figures, and the world's cached verdict on Redis."""

    def __init__(
        self,
        operators: tuple[Network, ...],
        trusted: tuple[Network, ...],
        ping: Callable[[], Awaitable[bool]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.operators = operators
        self.trusted = trusted
        self._ping = ping
        self._clock = clock
        self._verdict: tuple[float, bool] | None = None  # (when, Redis answered)
        self._asking: asyncio.Future[bool] | None = None

    def operator(self, peer: str, headers: Mapping[str, str]) -> bool:
        """Does a request from `peer` with these headers come from an address that may
        read the figures?"""
        return within(client_address(peer, headers, self.trusted), self.operators)

    async def alive(self) -> bool:
        """Did Redis answer within the last second? Asked once however many wait on it."""
        now = self._clock()
        if self._verdict is not None and now - self._verdict[0] < PROBE_S:
            return self._verdict[1]
        if self._asking is None:
            self._asking = asyncio.ensure_future(self._probe())
        return await asyncio.shield(self._asking)

    async def _probe(self) -> bool:
        try:
            ok = await self._ping()
        except Exception:  # any Redis failure is the answer, not an error of the probe
            ok = False
        self._verdict = (self._clock(), ok)
        self._asking = None
        return ok
