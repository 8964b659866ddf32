"""The limits (server/net/limits.py) over real sockets: floods are refused then closed, room
creation is rate limited, connections per address are capped, silent connections are closed,
and a reader too slow for the events is dropped without slowing anybody else."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import struct
import time

import msgpack
import pytest

from server.edge.buckets import TokenBucket
from server.net.limits import AddressCounter
from tests.conftest import GameServer
from tests.server.server_client import Client, Msg, close_all, connected, get_json
from tests.server.test_server_match_e2e import seat_singles
from tests.waits import until


async def next_message(clients: list[Client], timeout: float) -> None:
    """Until one of the clients receives its next message (kept in its `seen`), or the
    timeout."""
    gets = [asyncio.ensure_future(c.inbox.get()) for c in clients]
    _done, pending = await asyncio.wait(
        gets, timeout=max(0.0, timeout), return_when=asyncio.FIRST_COMPLETED
    )
    for get in pending:
        get.cancel()


def health(srv: GameServer) -> Msg:
    return get_json(srv.url + "/healthz")


def test_token_bucket_refills_at_its_rate():
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3.0, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert bucket.take() and not bucket.take()
    now[0] += 100.0  # never more than the burst
    assert sum(bucket.take() for _ in range(10)) == 3


def test_address_counter_admits_up_to_its_limit():
    counter = AddressCounter(2)
    assert counter.admit("a") and counter.admit("a") and not counter.admit("a")
    assert counter.admit("b")
    counter.release("a")
    assert counter.admit("a") and not counter.admit("a")


async def test_a_flood_is_refused_then_closed_and_others_play_on(game_server):
    srv = game_server()  # the default limits: 30 a second, bursts of 60, 20 refusals
    flooder, calm = Client("Flood"), Client("Calm")
    await flooder.connect(srv.ws_url)
    await calm.connect(srv.ws_url)
    assert flooder.ws is not None
    for n in range(300):
        with contextlib.suppress(ConnectionError, RuntimeError):
            await flooder.ws.send_bytes(msgpack.packb({"t": "ping", "n": n}))
    assert flooder.reader is not None
    async with asyncio.timeout(10):  # the server closes it; its reader has read all before
        await flooder.reader
    codes = [m.get("code") for m in flooder.seen if m["t"] == "error"]
    pongs = [m for m in flooder.seen if m["t"] == "pong"]
    assert len(pongs) >= 55, "a burst answered (and what refilled meanwhile)"
    assert codes.count("rate_limited") == 19 and codes[-1] == "abuse", codes
    await calm.send("ping", n=1)
    assert (await calm.expect("pong"))["n"] == 1, "the calm connection is untouched"
    await close_all(flooder, calm)


async def test_a_watch_flood_is_refused_then_closed_and_the_match_plays_on(game_server):
    srv = game_server()  # snapshots: bursts of 10, then 2 a second; 20 refusals
    a, b, rid = await seat_singles(srv)
    (flooder,) = await connected(srv.ws_url, "Watcher")
    assert flooder.ws is not None
    for _ in range(60):  # well within the message rate, far over the snapshot rate
        with contextlib.suppress(ConnectionError, RuntimeError):
            await flooder.ws.send_bytes(msgpack.packb({"t": "watch", "room": rid}))
    assert flooder.reader is not None
    async with asyncio.timeout(10):  # the server closes it; its reader has read all before
        await flooder.reader
    codes = [m.get("code") for m in flooder.seen if m["t"] == "error"]
    snapshots = [m for m in flooder.seen if m["t"] == "room"]
    assert 10 <= len(snapshots) <= 12, "the burst is answered (and what refilled meanwhile)"
    assert codes.count("rate_limited") == 19 and codes[-1] == "abuse", codes
    striker = a if a.my_turn() else b
    stroke = await striker.strike_once("singles")
    assert stroke["t"] == "stroke", "the players play on"
    await striker.expect("ruling")
    await close_all(a, b, flooder)


async def test_a_ready_toggle_flood_is_refused_like_a_watch_flood(game_server):
    # each `ready` sends the whole room to everyone in it: 58 toggles sent 532 snapshots
    # to 12 watchers (attacker review, 2026-11-28)
    srv = game_server()
    (owner, watcher) = await connected(srv.ws_url, "Toggler", "Watcher")
    await owner.send("create", mode="singles", sets=1, clock=60, private=False)
    rid = (await owner.expect("room"))["id"]
    await watcher.send("watch", room=rid)
    await watcher.expect("room")
    for k in range(40):  # within the message rate, over the snapshot rate
        with contextlib.suppress(ConnectionError, RuntimeError):
            await owner.send("ready", ready=k % 2 == 0)
    assert owner.reader is not None
    async with asyncio.timeout(10):  # the server closes the toggler
        await owner.reader
    codes = [m.get("code") for m in owner.seen if m["t"] == "error"]
    assert codes.count("rate_limited") == 19 and codes[-1] == "abuse", codes
    rooms = [m for m in watcher.seen if m["t"] == "room"]
    assert len(rooms) <= 1 + 12 + 2, "the burst's rooms (and the toggler's leaving), not 40"
    await close_all(owner, watcher)


async def test_watching_a_room_commits_nothing_when_nothing_changed(game_server):
    # each watch used to store the whole room: watchers at their allowed rate queued their
    # commits ahead of the players' strokes (docs/reliability.md, "Stalled readers")
    srv = game_server()
    a, b, rid = await seat_singles(srv)
    (watcher,) = await connected(srv.ws_url, "Watcher")
    before = health(srv)["commits"]
    for _ in range(10):
        await watcher.send("watch", room=rid)
        await watcher.expect("room")
    assert health(srv)["commits"] - before <= 2, "a clock repeat may commit, not each watch"
    await close_all(a, b, watcher)


async def test_rooms_cannot_be_created_without_limit(game_server):
    srv = game_server()  # bursts of 5, then one every 10 s
    (c,) = await connected(srv.ws_url, "Builder")
    for _ in range(5):
        await c.send("create", mode="singles", sets=1, clock=30, private=False)
        await c.expect("room")
        await c.send("leave")
        await c.expect("left")
    rooms = health(srv)["rooms"]
    await c.send("create", mode="singles", sets=1, clock=30, private=False, ref=3)
    err = await c.expect("error")
    assert err["code"] == "rate_limited" and err["ref"] == 3 and "rooms" in err["message"]
    assert health(srv)["rooms"] == rooms
    await close_all(c)


async def test_connections_per_address_are_capped(game_server):
    srv = game_server(conns_per_address=3)
    clients = await connected(srv.ws_url, "A", "B", "C")
    extra = Client("D")
    with pytest.raises(AssertionError, match="too_many_connections"):
        await extra.connect(srv.ws_url)
    await extra.close()
    await clients[0].close()
    await until(lambda: health(srv)["connections"] == 2, 10, "the server let the closed one go")
    again = Client("E")
    await again.connect(srv.ws_url)  # a slot is free again
    await close_all(*clients, again)


@pytest.mark.alone  # pings every 0.5 s of real time against a 1.5 s idle limit
async def test_silent_connections_are_closed(game_server):
    srv = game_server(idle_seconds=1.5)
    silent, talker = await connected(srv.ws_url, "Silent", "Talker")
    assert silent.ws is not None
    for n in range(6):  # 3 s: twice the idle limit, with a ping every half second
        await talker.send("ping", n=n)
        await asyncio.sleep(0.5)  # the subject: time passes, one talks and one is silent
    assert silent.ws.closed or (await silent.expect("error", timeout=2))["code"] == "idle"
    assert any(m.get("code") == "idle" for m in silent.seen)
    assert talker.ws is not None and not talker.ws.closed
    await close_all(silent, talker)


# -- a slow reader: a raw socket that never reads --------------------------------------
def _frame(payload: bytes) -> bytes:
    """A masked binary websocket frame, as a client must send it."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x82]) + (
        bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n)
    )
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def stalled_reader(port: int) -> socket.socket:
    """A websocket that says hello and then never reads (a tiny receive buffer)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    s.sendall(_frame(msgpack.packb({"t": "hello", "name": "Sloth"})))
    return s


def welcomed(s: socket.socket) -> None:
    """Read the handshake's answer up to the `welcome` (the one read this reader makes)."""
    s.settimeout(10)
    got = b""
    while b"welcome" not in got:
        chunk = s.recv(4096)
        assert chunk, f"closed before the welcome: {got!r}"
        got += chunk


async def test_a_stalled_reader_is_dropped_and_slows_nobody(game_server):
    srv = game_server(speed_factor=4, msg_rate=10000, msg_burst=10000, send_queue=64)
    a, b, rid = await seat_singles(srv)
    sloth = stalled_reader(srv.port)
    await asyncio.to_thread(welcomed, sloth)  # counted among the connections now
    connections = health(srv)["connections"]
    watch = _frame(msgpack.packb({"t": "watch", "room": rid}))
    # every watch is answered by a whole room (a few KB): thousands of them fill every buffer
    sloth.setblocking(False)
    sent = 0
    players = [a, b]
    lags: list[float] = []
    t_end = time.monotonic() + 8
    while time.monotonic() < t_end and len(lags) < 4:
        for _ in range(200):
            try:
                sloth.send(watch)
                sent += 1
            except (BlockingIOError, OSError):
                break
        striker = next((p for p in players if p.my_turn()), None)
        if striker is None:
            await next_message(players, t_end - time.monotonic())
            continue
        await striker.strike_once("singles")
        stroke = next(m for m in reversed(striker.seen) if m["t"] == "stroke")
        t0 = time.monotonic()
        ruling = await striker.expect("ruling")
        assert ruling["stroke"] == stroke["stroke"]
        lags.append(time.monotonic() - t0 - stroke["duration"] / 4)
        for p in players:
            while p.phase not in ("play", "over"):
                await p.inbox.get()
    assert sent > 100 and len(lags) >= 2
    assert max(lags) < 1.0, f"the ruling came late for the players: {lags}"
    await until(lambda: health(srv)["connections"] < connections, 10, "the reader dropped")
    sloth.close()
    back = Client("Sloth")  # it reconnects and resyncs like any dropped client
    await back.connect(srv.ws_url)
    await back.send("watch", room=rid)
    assert (await back.expect("room"))["seq"] == a.last
    await close_all(a, b, back)
