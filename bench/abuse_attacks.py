"""The attacks of bench.abuse, each run for a set time from loopback addresses other than
the honest clients' 127.0.0.1: one address (127.0.0.2) or many (127.0.0.2 ... 127.0.0.65).
Each attack is a coroutine `attack(ctx)` that runs until ctx.until; what it counts is
returned as a short text for the report."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import struct
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import msgpack

from server.config import Config

WORKERS = 16  # concurrent attacking loops per attack
OVERTIME = 60.0  # s an attack may run past its time while an honest measure has no sample yet
SNAPSHOT_RATE = Config().snapshot_rate  # watch requests a connection may send a second


@dataclass
class Context:
    """What an attack needs: the server, the honest room, its addresses and its end: its time
    (`until`), or later, once every honest measure under it has its samples (`measured`,
    each asked whether it has them), within OVERTIME. On a loaded machine a window of a few
    seconds could end before the honest side was measured at all ("owner logged in 0/0"):
    the attack then goes on until it was, rather than report nothing."""

    url: str
    rid: str
    addresses: list[str]
    until: float
    measured: list[Callable[[], bool]] = field(default_factory=list)

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ws"

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def address(self, k: int) -> str:
        return self.addresses[k % len(self.addresses)]

    def running(self) -> bool:
        now = time.monotonic()
        if now < self.until:
            return True
        return now < self.until + OVERTIME and not all(has() for has in self.measured)


async def _ws(
    ctx: Context, k: int
) -> tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]:
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(ctx.address(k), 0)))
    try:
        ws = await http.ws_connect(ctx.ws_url, max_msg_size=0, autoping=False)
    except BaseException:
        await http.close()
        raise
    return http, ws


async def _send(ws: aiohttp.ClientWebSocketResponse, msg: dict[str, object]) -> None:
    await ws.send_bytes(msgpack.packb(msg))


async def _loop(ctx: Context, one: Callable[[int], Awaitable[int]]) -> int:
    """Run `one(k)` in WORKERS loops until the attack's end; the sum of what they count."""
    counts = [0] * WORKERS

    async def worker(w: int) -> None:
        k = w
        while ctx.running():
            with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError):
                counts[w] += await one(k)
            k += WORKERS

    await asyncio.gather(*(worker(w) for w in range(WORKERS)))
    return sum(counts)


async def session_flood(ctx: Context) -> str:
    """connect, hello without a token, close: new sessions as fast as possible."""

    async def one(k: int) -> int:
        http, ws = await _ws(ctx, k)
        try:
            await _send(ws, {"t": "hello", "name": f"Flood {k}"})
            reply = msgpack.unpackb((await ws.receive(timeout=5)).data, raw=False)
            return 1 if reply.get("t") == "welcome" else 0
        finally:
            await ws.close()
            await http.close()

    return f"sessions welcomed: {await _loop(ctx, one)}"


async def room_spam(ctx: Context) -> str:
    """connect, hello, create a public room, drop the socket."""

    async def one(k: int) -> int:
        http, ws = await _ws(ctx, k)
        try:
            await _send(ws, {"t": "hello", "name": f"Spam {k}"})
            await ws.receive(timeout=5)
            await _send(ws, {"t": "create", "mode": "singles", "sets": 1, "clock": 30})
            reply = msgpack.unpackb((await ws.receive(timeout=5)).data, raw=False)
            return 1 if reply.get("t") == "room" else 0
        finally:
            await ws.close()
            await http.close()

    return f"rooms created: {await _loop(ctx, one)}"


async def churn(ctx: Context) -> str:
    """connect, hello, watch the honest room, close."""

    async def one(k: int) -> int:
        http, ws = await _ws(ctx, k)
        try:
            await _send(ws, {"t": "hello", "name": f"Churn {k}"})
            await ws.receive(timeout=5)
            await _send(ws, {"t": "watch", "room": ctx.rid})
            await ws.receive(timeout=5)
            return 1
        finally:
            await ws.close()
            await http.close()

    return f"cycles: {await _loop(ctx, one)}"


async def _holding(
    ctx: Context, count: int, act: Callable[[aiohttp.ClientWebSocketResponse, int], Awaitable[int]]
) -> int:
    """`count` connections that said hello and watch the honest room, each running `act`
    until the end."""

    async def held(k: int) -> int:
        http, ws = await _ws(ctx, k)
        try:
            await _send(ws, {"t": "hello", "name": f"Held {k}"})
            await _send(ws, {"t": "watch", "room": ctx.rid})
            return await act(ws, k)
        finally:
            await ws.close()
            await http.close()

    results = await asyncio.gather(*(held(k) for k in range(count)), return_exceptions=True)
    return sum(r for r in results if isinstance(r, int))


async def chat_flood(ctx: Context) -> str:
    """16 watchers of the honest room chatting as fast as they can."""

    async def chat(ws: aiohttp.ClientWebSocketResponse, k: int) -> int:
        sent = 0
        reader = asyncio.create_task(_drain(ws))
        while ctx.running() and not ws.closed:
            await _send(ws, {"t": "chat", "text": f"spam {k} {sent}"})
            sent += 1
            await asyncio.sleep(0.005)
        reader.cancel()
        return sent

    return f"chat lines sent: {await _holding(ctx, 16, chat)}"


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def ping_flood(ctx: Context) -> str:
    """16 connections sending websocket PING frames in a loop."""

    async def pings(ws: aiohttp.ClientWebSocketResponse, k: int) -> int:
        sent = 0
        reader = asyncio.create_task(_drain(ws))
        while ctx.running() and not ws.closed:
            await ws.ping(b"x")
            sent += 1
            if sent % 50 == 0:
                await asyncio.sleep(0)
        reader.cancel()
        return sent

    return f"ping frames sent: {await _holding(ctx, 16, pings)}"


def _raw(ctx: Context, k: int, rcvbuf: int | None = None) -> socket.socket:
    s = socket.socket()
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((ctx.address(k), 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", ctx.port))
    return s


async def slow_http(ctx: Context) -> str:
    """Half-sent HTTP requests, as many as the server lets stay open, held to the end; new
    honest hellos meanwhile (issue 37: at the TCP total 46 of 103 failed)."""
    from bench.abuse_http import hellos  # (it builds on this module)

    held: list[socket.socket] = []
    opened = 0
    probe = asyncio.create_task(hellos(ctx))
    while ctx.running():
        for _ in range(50):
            with contextlib.suppress(OSError):
                s = _raw(ctx, opened)
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never the blank line
                held.append(s)
                opened += 1
        await asyncio.sleep(0.1)
    still = sum(1 for s in held if _open(s))
    for s in held:
        s.close()
    return f"half-sent requests opened: {opened}, still open at the end: {still}; {await probe}"


def _open(s: socket.socket) -> bool:
    """Is the server's end still open? What it sent and the stalled reader never read is
    read now: an end of stream or a reset lies behind it."""
    s.setblocking(False)
    try:
        while s.recv(1 << 16):
            pass
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


async def stalled_readers(ctx: Context) -> str:
    """Watchers of the honest room that never read, from every address, asking for full
    snapshots (each `watch` is answered by one) at the rate the server allows (a client
    asking faster is refused, then closed as abusive) until the server drops them."""
    socks: list[socket.socket] = []
    for k in range(min(512, 32 * len(ctx.addresses))):
        with contextlib.suppress(OSError):
            s = _raw(ctx, k, rcvbuf=4096)
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(
                f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            _frame(s, {"t": "hello", "name": f"Stall {k}"})
            socks.append(s)
    asked = 0
    while ctx.running():
        for s in socks:
            with contextlib.suppress(OSError):
                s.setblocking(False)
                _frame(s, {"t": "watch", "room": ctx.rid})
                asked += 1
        await asyncio.sleep(1 / SNAPSHOT_RATE)
    dropped = sum(1 for s in socks if not _open(s))
    for s in socks:
        s.close()
    return f"stalled readers: {len(socks)}, snapshots asked: {asked}, dropped: {dropped}"


async def _until(
    ws: aiohttp.ClientWebSocketResponse, want: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The next message `want` takes, or an error (returned as it is)."""
    while True:
        m = await ws.receive(timeout=10)
        if m.type != aiohttp.WSMsgType.BINARY:
            raise ConnectionError("closed")
        msg = msgpack.unpackb(m.data, raw=False, strict_map_key=False)
        if msg.get("t") == "error" or want(msg):
            return dict(msg)


def _new_match(before: str | None) -> Callable[[dict[str, Any]], bool]:
    def want(msg: dict[str, Any]) -> bool:
        match = msg.get("match") if msg.get("t") == "room" else None
        if not isinstance(match, dict):
            return False
        return match["id"] != before and msg.get("status") == "playing"

    return want


async def rematch_flood(ctx: Context) -> str:
    """Play the computer, resign at once, `rematch` (it accepts at once), again; refused, a
    new session does the same (issue 37: Redis filled with matches nobody played)."""
    refused = 0

    async def one(k: int) -> int:
        nonlocal refused
        http, ws = await _ws(ctx, k)
        started = 0
        try:
            await _send(ws, {"t": "hello", "name": f"Rematch {k}"})
            await _send(ws, {"t": "computer", "mode": "singles", "level": 1, "sets": 1,
                             "clock": 30})  # fmt: skip
            room = await _until(ws, _new_match(None))
            while ctx.running() and room.get("t") == "room":
                started += 1
                mid = room["match"]["id"]
                await _send(ws, {"t": "resign"})
                await _send(ws, {"t": "rematch"})
                room = await _until(ws, _new_match(mid))
                if room.get("code") == "not_now":  # the computer's stroke in motion
                    room = await _until(ws, lambda m: m.get("t") == "ruling")
                    await _send(ws, {"t": "resign"})
                    await _send(ws, {"t": "rematch"})
                    room = await _until(ws, _new_match(mid))
            if room.get("t") == "error":
                refused += 1
            return started
        finally:
            await ws.close()
            await http.close()

    return f"matches started: {await _loop(ctx, one)}, refusals: {refused}"


async def lessons_flood(ctx: Context) -> str:
    """Every address at the allowed 2 lesson tries a second (and its burst first), each try
    a whole simulated and judged stroke (issue 37: 249 addresses made honest rulings 5 s
    late)."""
    # the lesson's own solution: a legal, played stroke
    from server.games.novuss.lessons import lesson

    s = lesson("direct").solution[0]
    body = {"shots": [{"x": s.x, "y": s.y, "angle": s.angle, "speed": s.speed}]}
    counts: dict[int, int] = {}

    async def address(a: str) -> None:
        connector = aiohttp.TCPConnector(local_addr=(a, 0))
        async with aiohttp.ClientSession(connector=connector) as http:
            next_at = time.monotonic()
            while ctx.running():
                with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError):
                    async with http.post(ctx.url + "/api/lessons/direct", json=body) as r:
                        await r.read()
                        counts[r.status] = counts.get(r.status, 0) + 1
                next_at += 0.5
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))

    await asyncio.gather(*(address(a) for a in ctx.addresses for _ in range(2)))
    return "tries: " + ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))


async def _farm(
    ctx: Context, seats: list[aiohttp.ClientWebSocketResponse], until: float
) -> tuple[int, str]:
    """A rated room of seats[0] that seats[1] joins; seats[1] resigns every match and both
    ask a rematch, until `until` or a refusal: the matches played, and the refusal."""
    await _send(seats[0], {"t": "create", "mode": "singles", "sets": 1, "clock": 30,
                           "rated": True})  # fmt: skip
    room = await _until(seats[0], lambda m: m.get("t") == "room")
    if room.get("t") != "room":
        return 0, str(room.get("code"))
    await _send(seats[1], {"t": "join", "room": room["id"]})
    joined = await _until(seats[1], lambda m: m.get("t") == "room")
    if joined.get("t") != "room":
        await _send(seats[0], {"t": "leave"})
        await _until(seats[0], lambda m: m.get("t") == "left")
        return 0, str(joined.get("code"))
    for ws in seats:
        await _send(ws, {"t": "ready", "ready": True})
    games, msg = 0, await _until(seats[1], _new_match(None))
    with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
        while time.monotonic() < until and msg.get("t") == "room":
            games += 1
            mid = msg["match"]["id"]
            await _send(seats[1], {"t": "resign"})
            for ws in seats:
                await _send(ws, {"t": "rematch"})
            msg = await _until(seats[1], _new_match(mid))
    for ws in seats:  # out of the room before the next: its last messages read
        await _send(ws, {"t": "leave"})
        with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
            await _until(ws, lambda m: m.get("t") == "left")
    return games, str(msg.get("code") or "time")


async def rating_farm(ctx: Context) -> str:
    """One account in both seats of its own rated room (two sessions, the first half of the
    time), then a puppet account resigning rated matches against it (the second half),
    again and again (issue 37: 1500 -> 2700 in six matches)."""
    stamp = f"{int(time.time() * 1000) % 10**8:08d}"
    farmer, puppet = "farm" + stamp, "pup" + stamp
    jars = [aiohttp.CookieJar(unsafe=True) for _ in range(2)]
    https = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(ctx.address(0), 0)),
                                   cookie_jar=jar) for jar in jars]  # fmt: skip
    try:
        for http, name in zip(https, (farmer, puppet), strict=True):
            body = {"username": name, "password": "a long farm password " + stamp}
            async with http.post(ctx.url + "/api/account/register", json=body) as r:
                await r.read()
        half = (time.monotonic() + ctx.until) / 2
        own = [await https[0].ws_connect(ctx.ws_url, max_msg_size=0) for _ in range(2)]
        pup = [own[0], await https[1].ws_connect(ctx.ws_url, max_msg_size=0)]
        for i, ws in enumerate([*own, pup[1]]):
            await _send(ws, {"t": "hello", "name": f"Farm {i}"})
        alone = await _farm(ctx, own, half)
        await own[1].close()
        puppets = await _farm(ctx, pup, ctx.until)
        for ws in pup:
            await ws.close()
        await asyncio.sleep(3.0)  # the archivist's time for the last one
        async with https[0].get(f"{ctx.url}/api/players/{farmer}") as r:
            profile = await r.json()
        rating = (profile.get("ratings") or {}).get("singles")
        farmed = (
            "unrated (no rated match)"
            if rating is None
            else f"{rating['rating']} after {rating['matches']} rated"
        )
        return (f"self-play matches: {alone[0]} ({alone[1]}); against a puppet: {puppets[0]}"
                f" ({puppets[1]}); farmed rating {farmed}")  # fmt: skip
    finally:
        for http in https:
            await http.close()


def _frame(s: socket.socket, msg: dict[str, object]) -> None:
    payload = msgpack.packb(msg)
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    s.sendall(struct.pack("!BB", 0x82, 0x80 | len(payload)) + mask + masked)


Attack = Callable[[Context], Coroutine[Any, Any, str]]
# name -> (the attack, from how many addresses: 1, or the --addresses count)
ATTACKS: dict[str, tuple[Attack, bool]] = {
    "session_flood": (session_flood, False),
    "session_flood_many": (session_flood, True),
    "room_spam": (room_spam, False),
    "room_spam_many": (room_spam, True),
    "churn_many": (churn, True),
    "chat_flood": (chat_flood, False),
    "ping_flood": (ping_flood, False),
    "slow_http": (slow_http, False),
    "slow_http_many": (slow_http, True),
    "stalled_readers_many": (stalled_readers, True),
    "rematch_flood": (rematch_flood, False),
    "rematch_flood_many": (rematch_flood, True),
    "lessons_flood_many": (lessons_flood, True),
    "rating_farm": (rating_farm, False),
}
