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

import math
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from server.edge.buckets import KeyedBuckets
from server.edge.proxy import Network, client_address

LIMITED = ("/api/", "/m/")  # the path prefixes that cost the server work
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def read_limits(rate: float, burst: float, trusted: tuple[Network, ...]) -> Middleware:
    """The middleware: `burst` requests at once per client address, then `rate` a second."""
    buckets = KeyedBuckets(rate, burst)
    retry = str(max(1, math.ceil(1 / rate))) if rate > 0 else "60"  # 0: the burst only

    @web.middleware
    async def limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith(LIMITED):
            address = client_address(request.remote or "", request.headers, trusted)
            if not buckets.take(address):
                # answered, not raised: a raised HTTPException holds its traceback, whose
                # frames hold the request, in a cycle only the collector frees (issue 37:
                # 3,000 refusals a second made the clock's collection of each second 35 to
                # 60 ms, most of what it walked these refusals' requests)
                return web.json_response(
                    {"code": "rate_limited", "message": "Too many requests: slow down."},
                    status=429,
                    headers={"Retry-After": retry},
                )
        return await handler(request)

    return limit
