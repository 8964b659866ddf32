"""Caps over everybody (issue 24, item 3): TCP connections counted at the door, a request that
never finishes dropped, stalled readers unable to hold the server's memory, and a burst read
after the server's own stall not held against the client."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from typing import Any

import msgpack
import pytest

from server.edge.buckets import TokenBucket
from server.net.stalls import Stalls
from tests.conftest import GameServer
from tests.server.server_client import as_map, connected
from tests.waits import until, wait_until


def health(srv: GameServer, source: str = "127.0.0.1") -> dict[str, Any]:
    with socket.create_connection(
        ("127.0.0.1", srv.port), timeout=5, source_address=(source, 0)
    ) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return as_map(json.loads(data.split(b"\r\n\r\n", 1)[1]))


def raw_socket(srv: GameServer, rcvbuf: int | None = None) -> socket.socket:
    s = socket.socket()
    if rcvbuf is not None:  # a reader that takes nothing: its window stays tiny
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(10)
    s.connect(("127.0.0.1", srv.port))
    return s


def closed_by_server(s: socket.socket, within: float) -> bool:
    """True if the server closes (or resets) the socket within `within` seconds."""
    s.settimeout(within)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


# -- the door --------------------------------------------------------------------------------
def test_a_request_that_never_finishes_is_dropped_after_the_header_timeout(game_server):
    srv = game_server(header_timeout=1.0)
    s = raw_socket(srv)
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # ... and never the blank line
    assert closed_by_server(s, within=8.0)
    s.close()


def test_tcp_connections_per_address_are_capped_at_accept(game_server):
    srv = game_server(tcp_per_address=4, header_timeout=30.0)
    held = [raw_socket(srv) for _ in range(4)]
    extra = raw_socket(srv)
    assert closed_by_server(extra, within=5.0), "the fifth from this address is dropped"
    state = health(srv, source="127.0.0.2")  # another address still gets in
    assert state["tcp"]["refused"] >= 1
    for s in held:
        s.close()
    # closed connections are uncounted; this one stays
    wait_until(lambda: health(srv)["tcp"]["open"] == 1, 10, "the closed connections uncounted")
    extra.close()
    # a refusal is counted, not logged: a traceback each was a log an attacker could grow
    assert "Traceback" not in srv.log(), srv.log()[-2000:]


def test_the_total_of_tcp_connections_is_capped(game_server):
    srv = game_server(max_connections=6, header_timeout=30.0)
    # each with its request in hand, a login whose body is on its way (a connection still
    # waiting for one, or a websocket before its hello, would be cut to make room:
    # tests/hardening/test_door_reserve.py, tests/hardening/test_holders.py)
    held = [body_pending(srv) for _ in range(6)]
    extra = raw_socket(srv)
    assert closed_by_server(extra, within=5.0)
    for s in [*held, extra]:
        s.close()
    assert admitted_health(srv)["tcp"]["refused"] >= 1


def body_pending(srv: GameServer) -> socket.socket:
    """A login whose head the server has read (its `100 Continue` came back) and whose body
    does not come (answered 408 after 10 s)."""
    s = raw_socket(srv)
    s.sendall(
        b"POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert b" 100 " in head, head
    s.sendall(b"{")
    return s


def admitted_health(srv: GameServer) -> dict[str, Any]:
    """/healthz once the server has seen closed connections go and lets one in again."""

    def let_in() -> dict[str, Any] | None:
        try:
            return health(srv)
        except (IndexError, ValueError, OSError):  # refused at the door: closed unanswered
            return None

    got: dict[str, Any] = wait_until(let_in, 10, "a connection let in after the others closed")
    return got


# -- stalled readers -------------------------------------------------------------------------
def ws_open(srv: GameServer, rcvbuf: int) -> socket.socket:
    """A websocket opened by hand on a socket with a tiny receive buffer."""
    s = raw_socket(srv, rcvbuf)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert b" 101 " in head.split(b"\r\n", 1)[0]
    return s


def ws_send(s: socket.socket, msg: dict[str, Any]) -> None:
    payload = msgpack.packb(msg)
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    s.sendall(struct.pack("!BB", 0x82, 0x80 | len(payload)) + mask + masked)


async def test_stalled_readers_are_dropped_before_they_hold_the_servers_memory(game_server):
    budget = 1  # MiB over all connections; each may hold up to 4 MiB on its own
    srv = game_server(
        send_budget=budget,
        send_queue=4096,
        msg_rate=2000,
        msg_burst=2000,
        snapshot_rate=2000,  # the snapshots' own budget lifted: this is about the sends
        snapshot_burst=2000,
    )
    (owner,) = await connected(srv.ws_url, "Anu")
    await owner.send("create", mode="singles", sets=1, clock=60, private=False)
    rid = (await owner.expect("room"))["id"]
    stalled = [ws_open(srv, rcvbuf=2048) for _ in range(4)]
    for s in stalled:
        ws_send(s, {"t": "hello", "name": "Stall"})
        for _ in range(600):  # every watch is answered by a full snapshot nobody reads
            ws_send(s, {"t": "watch", "room": rid})
    # the clock trims once a second; on a loaded host the watches take a while to be read

    def dropped() -> dict[str, Any] | None:
        state = health(srv)
        return state if state["dropped_behind"] >= 1 else None

    state = await until(dropped, 20, "a stalled reader dropped", every=0.5)
    assert state["dropped_behind"] >= 1
    assert state["unsent_bytes"] <= budget << 20
    await owner.send("ping", n=7)
    await owner.expect("pong", n=7)
    for s in stalled:
        s.close()


# -- a burst read after the server's own stall -------------------------------------------
def test_messages_read_at_once_after_a_stall_are_judged_by_the_rate_they_were_sent_at():
    now = [0.0]
    stalls = Stalls()
    bucket = TokenBucket(
        rate=10.0, burst=5.0, clock=lambda: now[0], slack=lambda: stalls.recent(now[0])
    )
    now[0] = 3.0  # the loop stalled 3 s while the client sent 10 a second: 30 arrive at once
    stalls.saw(3.0, now[0])
    taken = sum(bucket.take() for _ in range(40))
    assert taken == 5 + 30, "the burst, and what the rate allowed during the stall"
    now[0] = 20.0  # long after the stall: the plain burst again
    assert sum(bucket.take() for _ in range(30)) == 5


@pytest.mark.parametrize("late", [0.0, 0.05])
def test_a_heartbeat_on_time_is_no_stall(late):
    stalls = Stalls()
    if late:
        stalls.saw(late, 1.0)
    assert stalls.recent(100.0) == 0.0


async def test_a_client_under_its_rate_is_not_refused_when_the_server_stalls(game_server):
    srv = game_server(msg_rate=10, msg_burst=5)
    (c,) = await connected(srv.ws_url, "Calm")
    # the server's loop is stalled from outside (SIGSTOP) while the client sends 2 a second
    os.kill(srv.proc.pid, 19)
    try:
        for n in range(8):
            await c.send("ping", n=n)
            await asyncio.sleep(0.4)  # the subject: the pace the client sends at
    finally:
        os.kill(srv.proc.pid, 18)
    for n in range(8):
        await c.expect("pong", n=n)


async def test_requests_answered_by_a_whole_room_have_a_budget_of_their_own(game_server):
    srv = game_server(snapshot_burst=3, snapshot_rate=0.1)
    owner, asker = await connected(srv.ws_url, "Anu", "Asker")
    await owner.send("create", mode="singles", sets=1, clock=60, private=False)
    rid = (await owner.expect("room"))["id"]
    for n in range(5):
        await asker.send("watch", room=rid, ref=n)
    answers: list[str] = []
    while len(answers) < 5:
        msg = await asker.inbox.get()
        if msg["t"] == "room":
            answers.append("room")
        elif msg["t"] == "error":
            answers.append(msg["code"])
    assert answers == ["room"] * 3 + ["rate_limited"] * 2
    await asker.send("ping", n=9)
    await asker.expect("pong", n=9)
