"""The honest side of bench.abuse: a singles match played on, and a watcher, all from
127.0.0.1, each pinging ten times a second. What they measure is what an attack costs the
people who came to play: round trips, refusals, and whether the match lost anything."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import msgpack

from bench.load_aim import choose

Msg = dict[str, Any]
PING_EVERY = 0.1  # s between an honest client's pings


@dataclass
class Measure:
    """What one honest client saw since the last reset."""

    rtts: list[float] = field(default_factory=list)  # ms
    errors: list[str] = field(default_factory=list)  # error codes received
    lost: int = 0  # connections dropped under it, pings never answered

    def p99(self) -> float:
        """The 99th percentile round trip (ms); 0 with none."""
        if not self.rtts:
            return 0.0
        ordered = sorted(self.rtts)
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


class Honest:
    """One honest connection: reads everything, pings, and plays when it is its turn."""

    def __init__(self, url: str, name: str):
        self.ws_url = url.replace("http", "ws", 1) + "/ws"
        self.name = name
        self.measure = Measure()
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.sent: dict[int, float] = {}
        self.n = 0
        self.room: Msg | None = None
        self.seat: int | None = None
        self.turn: int | None = None
        self.discs: list[Msg] = []
        self.sides: list[str | None] = []
        self.inbox: asyncio.Queue[Msg] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []

    async def connect(self) -> None:
        """Open the socket from 127.0.0.1, say hello, start reading and pinging."""
        connector = aiohttp.TCPConnector(local_addr=("127.0.0.1", 0))
        self.http = aiohttp.ClientSession(connector=connector)
        self.ws = await self.http.ws_connect(self.ws_url, max_msg_size=0)
        await self.send({"t": "hello", "name": self.name})
        self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._ping())]
        await self.expect("welcome")

    async def send(self, msg: Msg) -> None:
        """Send one message (a dropped socket counts as lost)."""
        assert self.ws is not None
        try:
            await self.ws.send_bytes(msgpack.packb(msg))
        except (ConnectionError, RuntimeError):
            self.measure.lost += 1

    async def expect(self, t: str, timeout: float = 20.0) -> Msg:
        """The next message of type t."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.inbox.get()
                if msg["t"] == t:
                    return msg

    async def close(self) -> None:
        """Stop and close."""
        for task in self.tasks:
            task.cancel()
        if self.tasks:
            await asyncio.wait(self.tasks)
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()

    async def _read(self) -> None:
        assert self.ws is not None
        async for m in self.ws:
            if m.type != aiohttp.WSMsgType.BINARY:
                continue
            msg = msgpack.unpackb(m.data, raw=False, strict_map_key=False)
            self._apply(msg)
            await self.inbox.put(msg)
        self.measure.lost += 1  # the server closed it

    def _apply(self, msg: Msg) -> None:
        t = msg["t"]
        if t == "pong":
            sent = self.sent.pop(msg.get("n", -1), None)
            if sent is not None:
                self.measure.rtts.append((time.monotonic() - sent) * 1000)
        elif t == "error":
            self.measure.errors.append(str(msg.get("code")))
        elif t == "room":
            self.room = msg
            self.seat = msg["you"]["seat"]
            self.discs = msg["discs"]
            self.sides = [s and s["side"] for s in msg["seats"]]
            self.turn = msg["match"]["turn"] if msg["match"] else None
        elif t == "ruling":
            self.discs, self.turn, self.sides = msg["discs"], msg["turn"], msg["sides"]

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_EVERY)
            self.n += 1
            self.sent[self.n] = time.monotonic()
            await self.send({"t": "ping", "n": self.n})
            stale = [n for n, at in self.sent.items() if time.monotonic() - at > 10.0]
            for n in stale:  # ten seconds without a pong: that ping is lost
                del self.sent[n]
                self.measure.lost += 1


class Table:
    """Two honest players in a singles match of many sets, and an honest watcher."""

    def __init__(self, url: str):
        self.players = [Honest(url, "Honest A"), Honest(url, "Honest B")]
        self.watcher = Honest(url, "Honest watcher")
        self.rid = ""
        self.player_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Seat the match and start playing it."""
        a, b = self.players
        for c in (a, b, self.watcher):
            await c.connect()
        await a.send({"t": "create", "mode": "singles", "sets": 8, "clock": 120, "private": False})
        self.rid = (await a.expect("room"))["id"]
        await b.send({"t": "join", "room": self.rid})
        await b.expect("room")
        await self.watcher.send({"t": "watch", "room": self.rid})
        await self.watcher.expect("room")
        for c in (a, b):
            await c.send({"t": "ready"})
        self.player_task = asyncio.create_task(self._play())

    async def _play(self) -> None:
        """Strike about once a second whenever it is a player's turn (a match of 8 sets
        outlasts the run; a finished one is offered a rematch)."""
        while True:
            await asyncio.sleep(1.0)
            for c in self.players:
                if c.room is None or c.seat is None or c.turn != c.seat or not c.room["table"]:
                    continue
                side = c.sides[c.seat] if c.seat < len(c.sides) else None
                shot = choose(c.discs, c.seat, side or "S", c.room["table"], False)
                if shot is None:
                    await c.send({"t": "pass"})
                else:
                    x, y, angle, speed = shot
                    await c.send({"t": "strike", "x": x, "y": y, "angle": angle, "speed": speed})
                c.turn = None  # until the ruling says whose turn it is

    def keys(self) -> list[str]:
        """The Redis keys of the honest room and its match (server/store/redis_store.py)."""
        room = self.players[0].room
        match = room.get("match") if room else None
        mid = [f"nv:match:{{{match['id']}}}", f"nv:log:{{{match['id']}}}"] if match else []
        return [f"nv:room:{self.rid}", f"nv:ev:{self.rid}", *mid]

    def reset(self) -> None:
        """Start measuring afresh (a new attack)."""
        for c in (*self.players, self.watcher):
            c.measure = Measure()

    def figures(self) -> tuple[float, float, int, int]:
        """(players' p99 ms, watcher's p99 ms, lost, refused) since the last reset."""
        players = Measure()
        for c in self.players:
            players.rtts += c.measure.rtts
        lost = sum(c.measure.lost for c in (*self.players, self.watcher))
        refused = sum(
            1
            for c in (*self.players, self.watcher)
            for code in c.measure.errors
            if code not in ("not_your_turn", "not_now")  # the scripted players' own timing
        )
        return players.p99(), self.watcher.measure.p99(), lost, refused

    async def close(self) -> None:
        """Stop playing and close."""
        if self.player_task is not None:
            self.player_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.player_task
        for c in (*self.players, self.watcher):
            await c.close()
