"""Per-address limits on the HTTP API (docs/reliability.md, "The limits").

The JSON API and the replay pages answer from Redis, and a replay first recomputes its whole
match (some 78 ms for 150 strokes, on the server's CPU): asked freely, they let one address
keep the server busy with reads. Each client address (behind a trusted proxy, the address
it names) has one token bucket over them: a player who opens a profile, its matches and a
replay spends a handful, a page's polling a token a second or two; a script that asks
hundreds a second gets 429 with Retry-After and the error's code, and nothing else changes.
The static client, its pages and /healthz are not counted: files from memory, and a
monitor's probe.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from server.edge.buckets import KeyedBuckets
from server.edge.proxy import Network, client_address

LIMITED = ("/api/", "/m/")  # the path prefixes that cost the server work
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class AddressBudget:
    """One kind of request's budget per client address (behind a trusted proxy, the address
    it names): `burst` at once, then `rate` a second. Past it, the 429 `rate_limited` with
    Retry-After to answer (answered, not raised: a raised HTTPException holds its traceback,
    whose frames hold the request, in a cycle only the collector frees; issue 37: 3,000
    refusals a second made the clock's collection of each second 35 to 60 ms)."""

    def __init__(self, rate: float, burst: float, trusted: tuple[Network, ...], what: str):
        self.buckets = KeyedBuckets(rate, burst)
        self.trusted = trusted
        self.body = json.dumps({"code": "rate_limited", "message": f"Too many {what}: slow down."})
        self.retry = str(max(1, math.ceil(1 / rate))) if rate > 0 else "60"  # 0: the burst only

    def admit(self, request: web.Request) -> web.Response | None:
        """Allow one from the request's address (None), or the 429 that refuses it."""
        address = client_address(request.remote or "", request.headers, self.trusted)
        if self.buckets.take(address):
            return None
        return web.Response(
            text=self.body, status=429, content_type="application/json",
            headers={"Retry-After": self.retry},
        )  # fmt: skip


def read_limits(rate: float, burst: float, trusted: tuple[Network, ...]) -> Middleware:
    """The middleware: `burst` requests at once per client address, then `rate` a second."""
    budget = AddressBudget(rate, burst, trusted, "requests")

    @web.middleware
    async def limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith(LIMITED):
            refused = budget.admit(request)
            if refused is not None:
                return refused
        return await handler(request)

    return limit
