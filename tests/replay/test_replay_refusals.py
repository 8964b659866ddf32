"""The replay endpoints' refusals (server/replay/http.py, `answered`): answered as responses,
never raised on to aiohttp, so that no cycle holds the request (issue 37: under a flood of
refusals the collector's pass of each second walked mostly such requests)."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from server.replay.http import Replays, answered
from tests.collector import requests_left_to_the_collector


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
        with requests_left_to_the_collector() as left:
            for _ in range(10):
                async with client.get("/api/matches/m1/replay") as r:
                    assert r.status == 503 and r.headers["Retry-After"] == "1"
                    assert r.content_type == "application/json"
                    assert await r.json() == {"error": "busy"}
    assert left == []
