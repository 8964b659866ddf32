"""A JSON body read whole, within a size and a time (server/edge/body.py), by every API that
takes one: a body in two pieces is one body (it was read as half a body, "not JSON"), a slow
one is refused 408 rather than holding its connection. An in-process aiohttp server and raw
sockets: the pieces and the pauses are the test's."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from server.edge.body import BodyRefused, json_object

SLOW = 0.3  # seconds a body may take here
READING = web.AppKey("reading", asyncio.Event)  # set as the handler starts to read the body


async def echo(request: web.Request) -> web.Response:
    request.app[READING].set()
    try:
        body = await json_object(request, 64, seconds=SLOW)
    except BodyRefused as e:
        return web.json_response({"refused": e.message}, status=e.status)
    return web.json_response(body)


@pytest.fixture
async def server() -> AsyncIterator[TestServer]:
    app = web.Application()
    app[READING] = asyncio.Event()
    app.router.add_post("/echo", echo)
    srv = TestServer(app)
    await srv.start_server()
    yield srv
    await srv.close()


async def post(
    srv: TestServer,
    pieces: list[bytes],
    between: asyncio.Event | None = None,
    kind: str = "application/json",
    missing: int = 0,
) -> tuple[int, Any]:
    """POST the pieces as one body (said to be `missing` bytes longer than they are),
    waiting for `between` before each piece after the first; the status and the JSON."""
    reader, writer = await asyncio.open_connection(srv.host, srv.port)
    size = sum(map(len, pieces)) + missing
    writer.write(
        f"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: {kind}\r\n"
        f"Content-Length: {size}\r\nConnection: close\r\n\r\n".encode()
    )
    for k, piece in enumerate(pieces):
        if k and between is not None:
            await between.wait()
        writer.write(piece)
        await writer.drain()
    head, _, rest = (await reader.read()).partition(b"\r\n\r\n")
    writer.close()
    return int(head.split()[1]), json.loads(rest)


async def test_a_body_in_two_pieces_is_one_body(server: TestServer) -> None:
    # the second piece goes once the handler reads: it has had the first, and waits
    reading = server.app[READING]
    assert await post(server, [b'{"name": "Ma', b'ret"}'], reading) == (200, {"name": "Maret"})


async def test_a_body_that_never_comes_whole_is_refused_408(server: TestServer) -> None:
    # half a body sent, the rest never: the answer comes after SLOW
    status, answer = await post(server, [b'{"name": '], missing=4)
    assert status == 408 and "slow" in answer["refused"]


async def test_too_large_not_json_not_an_object_not_typed(server: TestServer) -> None:
    assert (await post(server, [b'{"a": "' + b"x" * 80 + b'"}']))[0] == 413
    assert (await post(server, [b"{nope"]))[0] == 400
    assert (await post(server, [b"[1, 2]"]))[0] == 400
    assert (await post(server, [b'{"a": 1}'], kind="text/plain"))[0] == 400
    assert await post(server, []) == (200, {})  # no body: an empty object
