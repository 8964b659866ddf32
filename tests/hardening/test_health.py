"""GET /healthz (server/edge/health.py): the figures to the operator's addresses only, to
anybody else whether the server is up, with Redis asked at most once a second; and no answer
names the server's software."""

from __future__ import annotations

import asyncio
import json

import pytest

from server.edge.health import PROBE_S, Health
from server.edge.proxy import parse_networks
from tests.hardening.test_read_limits import get

pytestmark = pytest.mark.fresh_server  # options of their own: the operators' addresses


def test_the_figures_go_to_this_host_and_the_world_is_told_only_whether_it_is_up(game_server):
    srv = game_server(trusted_proxy="127.0.0.1")
    status, _, body = get(srv.url + "/healthz")  # from this host, no proxy between
    figures = json.loads(body)
    assert status == 200 and figures["ok"] is True and figures["redis"] == "ok"
    assert {"rooms", "connections", "sessions", "process", "gc", "stroke_ms"} <= set(figures)
    status, _, body = get(srv.url + "/healthz", "203.0.113.7")  # a client behind the proxy
    assert status == 200 and json.loads(body) == {"ok": True}
    status, _, body = get(srv.url + "/healthz?strokes_since=0", "203.0.113.7")
    assert status == 200 and json.loads(body) == {"ok": True}, "whatever it asks"


def test_the_operators_addresses_are_the_servers_option(game_server):
    srv = game_server(health_networks="198.51.100.0/24")
    status, _, body = get(srv.url + "/healthz")
    assert status == 200 and json.loads(body) == {"ok": True}, "this host is not listed"


def test_no_answer_names_the_servers_software(game_server):
    srv = game_server()
    for path in ("/", "/healthz", "/api/matches", "/nothing-here"):
        _, headers, _ = get(srv.url + path)
        assert headers["Server"] == "novuss", (path, headers["Server"])


async def test_the_world_asks_redis_at_most_once_a_second_however_many_ask() -> None:
    asked: list[float] = []
    down = False

    async def ping() -> bool:
        asked.append(asyncio.get_running_loop().time())
        await asyncio.sleep(0)  # an answer from another task, as Redis's is
        if down:
            raise ConnectionError("Redis went away")
        return True

    now = [100.0]
    health = Health(parse_networks("127.0.0.1"), (), ping, lambda: now[0])
    assert all(await asyncio.gather(*(health.alive() for _ in range(50))))
    assert len(asked) == 1, "fifty at once: one question"
    assert await health.alive() and len(asked) == 1, "the answer stands for a second"
    down = True
    now[0] += PROBE_S * 0.9
    assert await health.alive() and len(asked) == 1, "still within the second"
    now[0] += PROBE_S * 0.2
    assert await health.alive() is False and len(asked) == 2, "a second later: asked again"
    assert health.operator("127.0.0.1", {}) and not health.operator("203.0.113.7", {})
