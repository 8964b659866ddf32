"""The door's reserve (issue 37): connections without a request in hand (half-sent, or idle
between requests) cannot take the last slots, the address holding the most of them loses its
oldest first, and a new honest connection always gets in. Pure tests of server/net/door.py
and, over a real server, honest hellos and logins while ~20 addresses hold half-sent
requests (on the code before, every honest connection was dropped at accept)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

import aiohttp
import msgpack

from server.net.door import CUT_AFTER, QUICK_TIMEOUT, Door
from tests.conftest import GameServer
from tests.hardening.test_caps import health
from tests.waits import until


class Transport:
    """A stand-in for an accepted socket: its peer, and whether the door cut it."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.aborted = False

    def get_extra_info(self, name: str) -> Any:
        return (self.host, 40000) if name == "peername" else None

    def abort(self) -> None:
        self.aborted = True


class Handler:
    """A stand-in for aiohttp's RequestHandler (what the door reads of it)."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def connect(door: Door, host: str) -> tuple[Handler, bool]:
    handler = Handler(Transport(host))
    return handler, door.admit(handler, handler.transport)  # type: ignore[arg-type]


def test_waiting_connections_leave_the_reserve_to_connections_that_ask():
    door = Door(total=20, per_address=64, reserve=5, waiting_per_address=100, clock=Clock())
    held = [connect(door, f"10.0.0.{k % 5}")[0] for k in range(15)]
    assert door.waiting == 15 and not any(h.transport.aborted for h in held)
    honest, admitted = connect(door, "10.9.9.9")
    assert admitted, "a new connection gets in: a waiting one is cut for it"
    assert sum(h.transport.aborted for h in held) == 1 and door.count == 15
    door.asking(honest)  # it sent its request: it holds a reserved slot now
    for _ in range(10):  # more half-sent requests never take the reserve
        connect(door, "10.0.0.1")
    assert door.waiting <= 15 and door.count <= 20
    assert not honest.transport.aborted, "a connection with a request in hand is never cut"


def test_the_address_holding_the_most_waiting_connections_loses_its_oldest_first():
    door = Door(total=10, per_address=64, reserve=2, waiting_per_address=100, clock=Clock())
    one, _ = connect(door, "10.0.0.1")  # one honest, slow to ask
    flood = [connect(door, "10.0.0.2")[0] for _ in range(7)]
    _, admitted = connect(door, "10.0.0.3")
    assert admitted and flood[0].transport.aborted, "the heaviest address's oldest went"
    assert not one.transport.aborted


def test_of_addresses_waiting_alike_the_one_holding_the_most_connections_loses_first():
    door = Door(total=6, per_address=64, reserve=2, waiting_per_address=100, clock=Clock())
    returning, _ = connect(door, "10.0.0.1")  # a seated player's return, before its hello
    holders = []
    for k in range(5):
        holder, _ = connect(door, "10.0.0.2")
        holders.append(holder)
        if k < 4:
            door.asking(holder)  # a websocket with a hello: held, not waiting
    _, admitted = connect(door, "10.0.0.3")  # the total reached, one waiting at each address
    assert admitted and holders[4].transport.aborted, "the address holding five lost its own"
    assert not returning.transport.aborted, "not the first address seen, alone and waiting"


def test_an_address_at_its_waiting_limit_cuts_its_own_oldest():
    clock = Clock()
    door = Door(total=100, per_address=64, reserve=10, waiting_per_address=3, clock=clock)
    mine = [connect(door, "10.0.0.1")[0] for _ in range(4)]
    assert door.waiting == 4, "a burst accepted before any is read: none cut yet"
    clock.now = CUT_AFTER
    mine.append(connect(door, "10.0.0.1")[0])
    assert [h.transport.aborted for h in mine] == [True, False, False, False, False]
    assert door.waiting == 4 and door.cut == 1


def test_when_the_door_is_busy_connections_waiting_long_are_cut_at_the_next_accept():
    clock = Clock()
    door = Door(total=20, per_address=64, reserve=4, waiting_per_address=100, clock=clock)
    old = [connect(door, f"10.0.0.{k}")[0] for k in range(9)]  # past half of the 16 waiting
    clock.now = QUICK_TIMEOUT + 0.1
    young, _ = connect(door, "10.0.1.1")
    assert all(h.transport.aborted for h in old) and not young.transport.aborted
    assert door.waiting == 1


def test_a_quiet_door_lets_connections_wait_their_whole_timeout():
    clock = Clock()
    door = Door(total=100, per_address=64, reserve=10, waiting_per_address=100, clock=clock)
    first, _ = connect(door, "10.0.0.1")
    clock.now = 60.0
    connect(door, "10.0.0.2")
    assert not first.transport.aborted, "only aiohttp's keep-alive timer closes it here"


def test_an_answered_connection_waits_again_and_closing_uncounts_it():
    door = Door(total=10, per_address=64, reserve=2, waiting_per_address=100, clock=Clock())
    h, _ = connect(door, "10.0.0.1")
    door.asking(h)
    assert door.waiting == 0
    door.idle(h)  # keep-alive: waiting for its next request
    assert door.waiting == 1
    door.release(h)
    assert (door.count, door.waiting, door.open) == (0, 0, {})


def test_a_full_door_of_connections_with_requests_refuses():
    door = Door(total=4, per_address=64, reserve=1, waiting_per_address=100, clock=Clock())
    for k in range(4):
        h, _ = connect(door, f"10.0.0.{k}")
        door.asking(h)
    _, admitted = connect(door, "10.0.0.9")
    assert not admitted and door.refused == 0  # (counted by the accept hook, not admit)


# -- over a real server ----------------------------------------------------------------------
def half_sent(srv: GameServer, source: str) -> socket.socket | None:
    s = socket.socket()
    s.settimeout(5)
    try:
        s.bind((source, 0))
        s.connect(("127.0.0.1", srv.port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # ... and never the blank line
    except OSError:
        s.close()
        return None
    return s


async def hello(srv: GameServer) -> str:
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(f"ws://127.0.0.1:{srv.port}/ws") as ws,
    ):
        await ws.send_bytes(msgpack.packb({"t": "hello", "name": "Honest"}))
        msg = await ws.receive(timeout=10)
        return str(msgpack.unpackb(msg.data, raw=False)["t"])


def gone(s: socket.socket) -> bool:
    """Has the server closed (or reset) this socket? Without waiting."""
    s.setblocking(False)
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


async def test_honest_hellos_and_logins_get_in_while_many_addresses_hold_half_sent_requests(
    game_server,
):
    srv = game_server(max_connections=60, header_timeout=30.0, tcp_reserve=12)
    held: list[socket.socket] = []
    # 20 addresses, 8 half-sent requests each: far past the 60 connections in all
    for k in range(160):
        s = half_sent(srv, f"127.0.0.{2 + k % 20}")
        if s is not None:
            held.append(s)
    # the server's cuts and refusals reach these sockets
    await until(lambda: any(gone(s) for s in held), what="the door full")
    answers = []
    for _ in range(5):
        answers.append(await hello(srv))
        for k in range(20):  # the flood goes on between the honest connections
            s = half_sent(srv, f"127.0.0.{2 + k}")
            if s is not None:
                held.append(s)
    assert answers == ["welcome"] * 5
    async with aiohttp.ClientSession() as http:
        body = {"username": "doorkeeper1", "password": "a long enough password"}
        async with http.post(
            f"http://127.0.0.1:{srv.port}/api/account/register", json=body,
            headers={"Origin": f"http://127.0.0.1:{srv.port}"},
        ) as r:  # fmt: skip
            assert r.status == 200, await r.text()
    state = await asyncio.to_thread(health, srv)
    assert state["tcp"]["cut"] > 0 and state["tcp"]["open"] <= 60
    for s in held:
        with contextlib.suppress(OSError):
            s.close()


async def test_a_login_whose_body_never_comes_is_answered_and_gives_its_slot_back(game_server):
    # its head read, it holds a reserved slot: a body sent a byte at a time would keep it
    srv = game_server()
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
    s.sendall(
        b"POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{"
    )

    def answer() -> bytes:
        data = b""
        while not data.endswith(b"}") and (chunk := s.recv(4096)):
            data += chunk
        return data

    data = await asyncio.to_thread(answer)
    assert data.startswith(b"HTTP/1.1 408"), data
    assert b'"error": "bad_request"' in data.split(b"\r\n\r\n", 1)[1], data
    s.close()
