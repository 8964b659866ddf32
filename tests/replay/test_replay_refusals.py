"""The replay endpoints' refusals (server/replay/http.py, `answered`): answered as responses,
never raised on to aiohttp, so that no cycle holds the request (issue 37: under a flood of
refusals the collector's pass of each second walked mostly such requests)."""

from __future__ import annotations

import gc
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from server.replay.http import Replays, answered


@answered
async def _busy(_self: Replays, _request: web.Request) -> web.Response:
    raise web.HTTPServiceUnavailable(
        text='{"error": "busy"}', content_type="application/json", headers={"Retry-After": "1"}
    )


async def test_a_refusal_is_answered_whole_and_leaves_no_cycle_holding_its_request():
    replays: Any = object.__new__(Replays)  # the handler reads nothing of it

    async def route(request: web.Request) -> web.Response:
        return await _busy(replays, request)

    app = web.Application()
    app.router.add_get("/api/matches/m1/replay", route)
    async with TestClient(TestServer(app)) as client:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector frees is kept, to be looked at
        try:
            for _ in range(10):
                async with client.get("/api/matches/m1/replay") as r:
                    assert r.status == 503 and r.headers["Retry-After"] == "1"
                    assert r.content_type == "application/json"
                    assert await r.json() == {"error": "busy"}
            gc.collect()
            left = [o for o in gc.garbage if isinstance(o, (web.BaseRequest, web.HTTPException))]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert left == []
