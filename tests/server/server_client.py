"""A real websocket client for the tests: msgpack over aiohttp, with the state a browser keeps
(room, discs, turn, last seq) and a scripted player on top (server_bot.choose_shot)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any, overload
from urllib.request import urlopen

import aiohttp
import msgpack
import pytest

from server.games.novuss.sim.types import Side
from tests.server.server_bot import choose_shot

Msg = dict[str, Any]
TIMEOUT = 20.0
OPEN: list[Client] = []  # closed by close_clients_after_each_test


class Client:
    """One connection. Every received message is kept in `seen`; state follows docs/protocol.md."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.session: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.inbox: asyncio.Queue[Msg] = asyncio.Queue()
        self.seen: list[Msg] = []
        self.reader: asyncio.Task[None] | None = None
        self.token: str | None = None
        self._welcome: Msg | None = None
        self.room: Msg | None = None
        self.seat: int | None = None
        self.discs: list[Msg] = []
        self.turn: int | None = None
        self.sides: list[Side | None] = []  # None: an empty seat
        self.phase = ""
        self.last = 0
        self.seqs: list[int] = []
        self.result: Msg | None = None
        self.strokes_seen: list[int] = []
        self.pongs: dict[int, asyncio.Future[Msg]] = {}  # sync()'s pings waiting for their pong
        self.pings = 0

    @property
    def welcome(self) -> Msg:
        """The welcome of this client's hello: a test's failure when it has said none."""
        assert self._welcome is not None, f"{self.name} has said no hello"
        return self._welcome

    @property
    def current_room(self) -> Msg:
        """The last `room` received: a test's failure when this client has seen none."""
        assert self.room is not None, f"{self.name} is in no room"
        return self.room

    @property
    def own_seat(self) -> int:
        """This client's seat: a test's failure when it holds none."""
        assert self.seat is not None, f"{self.name} holds no seat"
        return self.seat

    async def open(
        self, ws_url: str, headers: dict[str, str] | None = None, local_addr: str | None = None
    ) -> None:
        """Open the socket (from `local_addr`, a loopback address, if given), saying nothing."""
        connector = aiohttp.TCPConnector(local_addr=(local_addr, 0) if local_addr else None)
        self.session = aiohttp.ClientSession(connector=connector)
        OPEN.append(self)
        self.ws = await self.session.ws_connect(ws_url, headers=headers)
        self.reader = asyncio.create_task(self._read())

    async def connect(self, ws_url: str, token: str | None = None) -> Msg:
        """Open the socket and say hello; returns the welcome."""
        await self.open(ws_url)
        return await self.hello(token)

    async def hello(self, token: str | None = None) -> Msg:
        """Say hello on the open socket (resuming `token`'s session if given); returns the
        welcome, kept as `welcome`."""
        await self.send("hello", name=self.name, **({"token": token} if token else {}))
        welcome = await self.expect("welcome")
        self.token, self._welcome = welcome["token"], welcome
        return welcome

    async def close(self) -> None:
        """Drop the connection (as a browser tab closing)."""
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            await asyncio.wait([self.reader])  # a cancel of close() itself still counts
        if self.session is not None:
            await self.session.close()
        self.ws = self.reader = self.session = None

    async def send(self, t: str, **fields: Any) -> None:
        """Send one message."""
        assert self.ws is not None
        await self.ws.send_bytes(msgpack.packb({"t": t, **fields}))

    async def send_raw(self, data: bytes | str) -> None:
        """Send bytes (or text) as they are."""
        assert self.ws is not None
        if isinstance(data, str):
            await self.ws.send_str(data)
        else:
            await self.ws.send_bytes(data)

    async def _read(self) -> None:
        assert self.ws is not None
        async for m in self.ws:
            if m.type != aiohttp.WSMsgType.BINARY:
                continue
            msg = as_map(msgpack.unpackb(m.data, raw=False, strict_map_key=False))
            self._apply(msg)
            self.seen.append(msg)
            pong = self.pongs.pop(msg.get("n", -1), None) if msg["t"] == "pong" else None
            if pong is not None and not pong.done():
                pong.set_result(msg)
            await self.inbox.put(msg)

    def _apply(self, msg: Msg) -> None:
        """Keep the state a client keeps."""
        if "seq" in msg:
            self.seqs.append(msg["seq"])
            self.last = max(self.last, msg["seq"])
        t = msg["t"]
        if t == "room":
            self.room = msg
            self.seat = msg["you"]["seat"] if "you" in msg else self.seat
            self.discs = msg["discs"]
            m = msg["match"]
            if m is not None:
                self.turn, self.phase = m["turn"], m["phase"]
            self.sides = [s and s["side"] for s in msg["seats"]]
        elif t == "stroke":
            self.phase = "motion"
            self.strokes_seen.append(msg["stroke"])
        elif t == "ruling":
            self.discs, self.turn, self.sides = msg["discs"], msg["turn"], msg["sides"]
            self.phase = "play" if msg["turn"] is not None else "over"
        elif t == "result":
            self.result = msg
            self.phase = "over"

    async def expect(self, t: str, timeout: float = TIMEOUT, **match: Any) -> Msg:
        """The next message of type t (with the given field values); others are skipped."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.inbox.get()
                if msg["t"] == t and all(msg.get(k) == v for k, v in match.items()):
                    return msg
                if msg["t"] == "error" and t != "error":
                    raise AssertionError(f"{self.name} got an error: {msg}")

    async def sync(self, timeout: float = TIMEOUT) -> None:
        """A ping/pong round trip (docs/protocol.md): when it returns, everything the server
        sent this connection before it read the ping has arrived (in `seen`; the inbox is left
        as it was but for the pong). What a negative check waits for: the moment has passed."""
        self.pings += 1
        n = 1_000_000 + self.pings
        pong = self.pongs[n] = asyncio.get_running_loop().create_future()
        await self.send("ping", n=n)
        async with asyncio.timeout(timeout):
            await pong

    def drain(self) -> list[Msg]:
        """Everything received and not yet consumed."""
        out = []
        while not self.inbox.empty():
            out.append(self.inbox.get_nowait())
        return out

    # -- a scripted player -----------------------------------------------------------
    def my_turn(self) -> bool:
        """True when this player must strike now."""
        return self.phase == "play" and self.seat is not None and self.turn == self.seat

    async def strike_once(self, mode: str) -> Msg:
        """Aim (a preview) and strike with the scripted player's choice; returns `stroke`."""
        assert self.seat is not None and self.room is not None, "seated in a room"
        side = self.sides[self.seat]
        assert side is not None, "an own seat has a side"
        x, y, angle, speed = choose_shot(self.discs, self.seat, side, self.room["table"], mode)
        self.phase = "sent"
        await self.send("aim", x=x, y=y, angle=angle, power=speed / 8000)
        await self.send("strike", x=x, y=y, angle=angle, speed=speed)
        return await self.expect("stroke")

    @overload
    async def play(self, mode: str, timeout: float = 120.0) -> Msg: ...

    @overload
    async def play(self, mode: str, timeout: float = 120.0, *, strokes: int) -> Msg | None: ...

    async def play(
        self, mode: str, timeout: float = 120.0, strokes: int | None = None
    ) -> Msg | None:
        """Strike whenever it is this player's turn, until the result (or, None, until
        `strokes` of the match have been played)."""
        async with asyncio.timeout(timeout):
            while self.result is None:
                if strokes is not None and len(self.strokes_seen) >= strokes:
                    return None
                if self.my_turn():
                    await self.strike_once(mode)
                    continue
                await self.inbox.get()
        return self.result


def as_map(value: object) -> Msg:
    """A decoded message or JSON document, checked to be the map every reply is."""
    assert isinstance(value, dict), f"a map was expected, not {value!r}"
    return value


def get_json(url: str) -> Msg:
    """A JSON document the server serves over HTTP (health, a match record, the lists)."""
    with urlopen(url, timeout=5) as r:
        return as_map(json.loads(r.read()))


async def connected(ws_url: str, *names: str) -> list[Client]:
    """Clients that have said hello."""
    clients = [Client(n) for n in names]
    for c in clients:
        await c.connect(ws_url)
    return clients


async def close_all(*clients: Client) -> None:
    """Close every client."""
    for c in clients:
        await c.close()


@pytest.fixture
async def close_clients_after_each_test() -> AsyncIterator[None]:
    """Every websocket client a test opens is closed at its end, pass or fail (the root
    conftest asks for it for every async test)."""
    yield
    await close_all(*OPEN)
    OPEN.clear()
