"""The HTTP API's per-address budget (server/edge/reads.py; docs/reliability.md, "The
limits"): a burst, then a steady rate; past it 429 with Retry-After and the error's code,
and other addresses and the static client unaffected; a refusal answered, not raised."""

from __future__ import annotations

import json
from urllib.error import HTTPError
from urllib.request import Request, urlopen

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from server.edge.reads import read_limits
from tests.collector import requests_left_to_the_collector


def get(url: str, forwarded: str | None = None) -> tuple[int, dict[str, str], bytes]:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    try:
        with urlopen(Request(url, headers=headers), timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_an_address_past_its_burst_is_told_to_slow_down_and_others_are_not(game_server):
    srv = game_server(trusted_proxy="127.0.0.1", read_burst=5, read_rate=0.2)
    api = srv.url + "/api/matches"
    first = [get(api, "203.0.113.1")[0] for _ in range(5)]
    status, headers, body = get(api, "203.0.113.1")
    assert first == [200] * 5
    assert status == 429
    assert headers["Retry-After"] == "5"
    assert json.loads(body)["code"] == "rate_limited"
    assert get(srv.url + "/api/matches/nothing-here", "203.0.113.1")[0] == 429, "every read"
    assert get(api, "203.0.113.2")[0] == 200, "another address has its own budget"
    assert get(srv.url + "/", "203.0.113.1")[0] == 200, "the client's files are not counted"
    assert get(srv.url + "/healthz", "203.0.113.1")[0] == 200, "nor a monitor's probe"


async def test_a_refused_read_leaves_no_cycle_holding_its_request():
    """Issue 37: the refusal was raised, and a raised HTTPException holds its traceback,
    whose frames hold the request: a cycle per refusal, for the collector to walk and free
    (3,000 a second made its pass of each second 35 to 60 ms). Answered, it is freed at once."""
    app = web.Application(middlewares=[read_limits(0.0, 1, ())])
    app.router.add_get("/api/x", _ok)
    async with TestClient(TestServer(app)) as client:
        assert (await client.get("/api/x")).status == 200  # the burst of one
        with requests_left_to_the_collector() as left:
            for _ in range(20):
                async with client.get("/api/x") as r:
                    assert r.status == 429 and r.headers["Retry-After"] == "60"
                    assert (await r.json())["code"] == "rate_limited"
    assert left == []


async def _ok(_request: web.BaseRequest) -> web.Response:
    return web.json_response({})
