"""One client process of the load harness (bench/load.py): many websockets on one asyncio loop.

Players go through the whole protocol as a browser does: hello, create or join, ready, aim
previews while they "think", strike (bench/load_aim.py), pass when nothing sensible is left,
rematch when a match ends, resume after a dropped connection. Spectators watch a room and
ping like the web client. Everybody checks the room's event sequence and that every stroke it
saw is followed by its ruling. The measurements are sent back to the parent as one dict.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import socket
import struct
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import msgpack
import uvloop

from bench.load_aim import choose
from bench.load_bots import start_computer_match
from server.net.fanout import COMPRESS_MIN, LEVEL, MEMLEVEL, WBITS, ws_frame

Msg = dict[str, Any]
PING_EVERY = 10.0  # as the web client: the server closes connections silent for a minute
SPECTATORS_NICE = 5  # a third of the players' share of a contended core
AIMS_PER_S = 4.0  # previews while thinking, well under the server's 30 messages/s budget
LAG_BUCKET_MS = 0.5  # histogram resolution of latencies
LAG_BUCKETS = 4000  # up to 2 s; slower samples land in the last bucket
SLOW_S = 0.05  # a stroke slower than the goal: counted by when it was struck (bursts or not)
TCP_INFO_LEN = 256
TCPI_BYTES_RECEIVED = 128  # offset of the u64 tcpi_bytes_received in Linux's struct tcp_info


@dataclass
class Plan:
    """What one client process does (sent from the parent; all times are time.time())."""

    url: str
    worker: int
    singles: int
    doubles: int
    spectators: int
    measure_from: float  # samples before this (the ramp) are not counted
    stop_at: float  # no strike after this
    end_at: float  # every connection closes now (after the last motions finished)
    think: float  # mean seconds a player takes before striking
    deflate: bool  # offer permessage-deflate, as browsers do
    seed: int
    spectator_url: str = ""  # spectators connect here (another server process) if set
    # Players and spectators in separate processes: the players' process hands each seated
    # table to a spectators' process on these queues ((room id, tag, watchers, table index);
    # None: no more tables), so the strikers that time the latency do not wait behind
    # thousands of sockets. Empty when one process does both: it seats the spectators itself.
    watch_queues: list[Any] = field(default_factory=list)
    rooms_in: Any = None  # a spectators' process: its queue of tables to watch
    bots: int = 0  # matches against the computer (bench/load_bots.py)
    bot_level: int = 0  # their level (0: each level in turn)


class Histogram:
    """Milliseconds in LAG_BUCKET_MS buckets: percentiles without keeping every sample."""

    def __init__(self) -> None:
        self.counts = [0] * LAG_BUCKETS

    def add(self, ms: float) -> None:
        """Count one sample."""
        self.counts[min(LAG_BUCKETS - 1, max(0, int(ms / LAG_BUCKET_MS)))] += 1


@dataclass
class Stats:
    """Everything this process measured in the measurement window."""

    latency: Histogram = field(default_factory=Histogram)  # strike sent -> stroke received
    loop_lag: Histogram = field(default_factory=Histogram)  # this process's own event loop
    counts: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    slow: Counter[int] = field(default_factory=Counter)  # second of the window -> slow strokes
    motion_bytes: int = 0  # wire bytes spectators received for motions (stroke to ruling)
    motion_seconds: float = 0.0  # ... over this much spectator-time in motion
    motions: int = 0  # ... in this many motions seen by a spectator

    def as_dict(self) -> dict[str, Any]:
        """Plain data for the parent process."""
        return {
            "latency": self.latency.counts,
            "loop_lag": self.loop_lag.counts,
            "counts": dict(self.counts),
            "errors": dict(self.errors),
            "slow": dict(self.slow),
            "motion_bytes": self.motion_bytes,
            "motion_seconds": self.motion_seconds,
            "motions": self.motions,
        }


class Client:
    """One websocket with the state a browser keeps for its room."""

    def __init__(self, ctx: Worker, name: str, spectator: bool):
        self.ctx, self.name, self.spectator = ctx, name, spectator
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.token: str | None = None
        self.room_id: str | None = None
        self.last = 0  # highest seq applied
        self.seat: int | None = None
        self.mode = "singles"
        self.table: Msg = {}
        self.discs: list[Msg] = []
        self.turn: int | None = None
        self.sides: list[str | None] = []
        self.phase = ""
        # strokes seen whose ruling has not come yet -> when seen
        self.open_strokes: dict[int, float] = {}
        self.sent_strike: float | None = None
        self.thinking: asyncio.Future[Any] | None = None
        self.room_msg: asyncio.Future[Msg] | None = None
        self.motion_since: float | None = None
        self.sock: Any = None  # the TCP socket now, whose kernel counts the bytes received
        self.wire_base = 0  # bytes received on the sockets before this one
        self.wire_seen = 0
        self.wire_at_stroke = 0
        self.closing = False

    # -- the socket ------------------------------------------------------------------
    async def connect(self) -> None:
        """Open the socket, count its wire bytes, say hello (with the token after a drop)."""
        plan = self.ctx.plan
        url = plan.spectator_url if self.spectator and plan.spectator_url else plan.url
        ws = await self.ctx.session.ws_connect(
            url, compress=15 if plan.deflate else 0, autoping=True, max_msg_size=0
        )
        self.ws = ws
        self._count_wire(ws)
        await self.send("hello", name=self.name, **({"token": self.token} if self.token else {}))

    def _count_wire(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Count bytes as they come off the TCP socket (before inflating, with the websocket
        headers), so a compressed stream is measured as sent: the kernel's own count
        (TCP_INFO), which works whatever event loop reads the socket."""
        protocol = getattr(getattr(ws, "_conn", None), "protocol", None)
        transport = getattr(protocol, "transport", None)
        self.wire_base = self.wire  # what the sockets before this one received
        self.sock = transport.get_extra_info("socket") if transport is not None else None
        if self.sock is None:
            self.ctx.stats.counts["wire_count_unavailable"] += 1

    def _received(self) -> int:
        """tcpi_bytes_received of this socket (0 when it is closed)."""
        try:
            info = self.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_LEN)
        except (OSError, AttributeError):
            return 0
        return int(struct.unpack_from("Q", info, TCPI_BYTES_RECEIVED)[0])

    @property
    def wire(self) -> int:
        """Bytes received on this client's sockets so far (a closed socket's last count)."""
        if self.sock is not None:
            self.wire_seen = max(self.wire_seen, self.wire_base + self._received())
        return self.wire_seen

    async def send(self, t: str, **fields: Any) -> None:
        """One message; a closed socket is left to the reader's reconnect."""
        if self.ws is None or self.ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.send_bytes(msgpack.packb({"t": t, **fields}))
            if self.ctx.measuring(time.time()):
                self.ctx.stats.counts["sent"] += 1

    async def run(self) -> None:
        """Read until the end of the run, reconnecting (and resuming) after a drop."""
        while not self.closing:
            assert self.ws is not None
            async for m in self.ws:
                if m.type == aiohttp.WSMsgType.BINARY:
                    self.on_message(msgpack.unpackb(m.data, raw=False, strict_map_key=False))
            if self.closing:
                return
            self.ctx.count("disconnects")
            await asyncio.sleep(0.5)
            with contextlib.suppress(aiohttp.ClientError, OSError):
                await self.connect()

    async def pinger(self) -> None:
        """Ping like the web client, so the server does not close us as idle."""
        while not self.closing:
            await asyncio.sleep(PING_EVERY * random.uniform(0.8, 1.0))
            await self.send("ping")

    # -- messages --------------------------------------------------------------------
    def on_message(self, msg: Msg) -> None:
        """Apply one server message as docs/protocol.md says a client should."""
        ctx = self.ctx
        t = msg["t"]
        if ctx.measuring(time.time()):  # the rates are per second of the window
            ctx.count("received")
            ctx.count("received " + t)
        seq = msg.get("seq")
        if t == "room":
            self.on_room(msg)
            return
        if seq is not None:
            if seq <= self.last:
                return
            if seq > self.last + 1:
                ctx.count("seq_gaps")
                self.ctx.later(self.resync())
                return
            self.last = seq
        handler = getattr(self, "on_" + t, None)
        if handler is not None:
            handler(msg)

    def on_welcome(self, msg: Msg) -> None:
        self.token = msg["token"]
        if self.room_id is None:
            return
        if self.spectator:  # reconnected: pick the stream up where it broke
            self.ctx.later(self.send("watch", room=self.room_id, since=self.last))
        elif msg["seat"] is not None:
            self.ctx.later(self.send("resume", room=self.room_id, since=self.last))

    async def resync(self) -> None:
        if self.room_id is None:
            return
        if self.spectator:
            await self.send("watch", room=self.room_id, since=self.last)
        else:
            await self.send("resume", room=self.room_id, since=self.last)

    def on_room(self, msg: Msg) -> None:
        """A complete state: take it whole (strokes it shows at rest have been ruled)."""
        self.last = msg["seq"]
        self.room_id = msg["id"]
        self.mode = msg["mode"]
        self.table = msg["table"]
        self.seat = msg["you"]["seat"]
        self.discs = msg["discs"]
        self.sides = [s and s["side"] for s in msg["seats"]]
        match = msg["match"]
        if match is not None:
            self.turn, self.phase = match["turn"], match["phase"]
            done = match["stroke"] - (1 if match["phase"] == "motion" else 0)
            self.open_strokes = {s: t for s, t in self.open_strokes.items() if s > done}
        if self.room_msg is not None and not self.room_msg.done():
            self.room_msg.set_result(msg)
        self.maybe_strike()

    def on_stroke(self, msg: Msg) -> None:
        now = time.time()
        self.phase = "motion"
        self.open_strokes[msg["stroke"]] = now
        ctx = self.ctx
        struck = self.sent_strike if msg["seat"] == self.seat else None
        if struck is not None:  # the motion has reached its striker
            self.sent_strike = None
            if ctx.measuring(struck):
                ctx.stats.latency.add((now - struck) * 1000)
                if now - struck > SLOW_S:
                    ctx.stats.slow[int(struck - ctx.plan.measure_from)] += 1
        ctx.count("strokes_seen")
        if self.spectator:
            # the wire from here to the ruling, and the stroke itself (already in the count)
            self.motion_since, self.wire_at_stroke = now, self.wire - wire_size(msg, ctx.plan)

    def on_ruling(self, msg: Msg) -> None:
        now = time.time()
        ctx = self.ctx
        if msg["stroke"] is not None:
            self.open_strokes.pop(msg["stroke"], None)
        ctx.count("rulings_seen")
        self.discs, self.turn, self.sides = msg["discs"], msg["turn"], msg["sides"]
        self.phase = "play" if msg["turn"] is not None else "over"
        if self.motion_since is not None and ctx.measuring(self.motion_since):
            ctx.stats.motion_seconds += now - self.motion_since
            ctx.stats.motion_bytes += self.wire - self.wire_at_stroke
            ctx.stats.motions += 1
        self.motion_since = None
        self.maybe_strike()

    def on_result(self, msg: Msg) -> None:
        self.phase = "over"
        self.ctx.count("results_seen")
        if not self.spectator and time.time() < self.ctx.plan.stop_at:
            self.ctx.later(self.send("rematch"))

    def on_error(self, msg: Msg) -> None:
        code = msg["code"]
        self.ctx.stats.errors[code] += 1
        if code == "bad_stroke" and self.seat is not None and self.turn == self.seat:
            self.ctx.count("passes")
            self.sent_strike = None
            self.ctx.later(self.send("pass"))

    # -- playing ---------------------------------------------------------------------
    def maybe_strike(self) -> None:
        """It is my turn at rest: think (sending aim previews), then strike."""
        if self.spectator or self.seat is None or self.phase != "play":
            return
        if self.turn != self.seat or time.time() >= self.ctx.plan.stop_at:
            return
        if self.thinking is None or self.thinking.done():
            self.thinking = self.ctx.later(self.take_turn())

    async def take_turn(self) -> None:
        think = self.ctx.plan.think * random.uniform(0.5, 1.5)
        assert self.seat is not None
        side = self.sides[self.seat]
        shot = choose(self.discs, self.seat, side or "S", self.table, self.mode == "doubles")
        steps = max(1, int(think * AIMS_PER_S))
        for i in range(steps):
            await asyncio.sleep(think / steps)
            if self.phase != "play" or self.turn != self.seat:
                return
            if shot is not None and i < steps - 1:
                x, y, angle, speed = shot
                power = speed / self.table["max_speed"]
                await self.send("aim", x=x, y=y, angle=angle, power=power)
        if time.time() >= self.ctx.plan.stop_at:
            return  # no strike after the window: its motion could outlast the drain
        if shot is None:
            self.ctx.count("passes")
            await self.send("pass")
            return
        x, y, angle, speed = shot
        self.phase = "sent"
        self.sent_strike = time.time()
        self.ctx.count("strikes")
        await self.send("strike", x=x, y=y, angle=angle, speed=speed)


class Worker:
    """This process: its plan, its connections, its measurements."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.stats = Stats()
        self.clients: list[Client] = []
        self.rng = random.Random(plan.seed + plan.worker)
        self.session: aiohttp.ClientSession
        self.tasks: set[asyncio.Future[Any]] = set()

    def measuring(self, at: float) -> bool:
        """Is `at` inside the measurement window?"""
        return self.plan.measure_from <= at <= self.plan.stop_at

    def count(self, what: str, n: int = 1) -> None:
        """Count an occurrence (all of the run, not only the window: these are totals)."""
        self.stats.counts[what] += n

    async def open(self, name: str, spectator: bool) -> Client:
        client = Client(self, name, spectator)
        self.clients.append(client)
        await client.connect()
        if self.measuring(time.time()):
            self.count("connected_in_window")  # the ramp was too short: this skews the figures
        return client

    async def start_match(self, i: int, doubles: bool, delay: float, watchers: int) -> None:
        """Seat a table (create, join, ready), then let its spectators in."""
        await asyncio.sleep(delay)
        tag = f"w{self.plan.worker}m{i}"
        host = await self.open(f"{tag}a", spectator=False)
        host.room_msg = asyncio.get_running_loop().create_future()
        self.spawn(host)
        mode = "doubles" if doubles else "singles"
        await host.send("create", mode=mode, sets=8, clock=300.0, private=False)
        room = await asyncio.wait_for(host.room_msg, 60)
        players = [host]
        for j in range(3 if doubles else 1):
            guest = await self.open(f"{tag}{'bcd'[j]}", spectator=False)
            guest.room_msg = asyncio.get_running_loop().create_future()
            self.spawn(guest)
            await guest.send("join", room=room["id"])
            await asyncio.wait_for(guest.room_msg, 60)
            players.append(guest)
        for p in players:
            await p.send("ready", ready=True)
        self.count("matches")
        self.stats.counts["players"] += len(players)
        queues = self.plan.watch_queues
        if queues:
            queues[i % len(queues)].put((room["id"], tag, watchers, i))
        else:
            await self.watch(room["id"], tag, watchers, i)

    async def watch(self, rid: str, tag: str, watchers: int, i: int) -> None:
        """Let a table's spectators in."""
        for j in range(watchers):
            spectator = await self.open(f"{tag}s{j}", spectator=True)
            spectator.room_id = rid
            self.spawn(spectator)
            await spectator.send("watch", room=rid)
            self.count("spectators")

    async def watch_handed(self) -> None:
        """A spectators' process: watch every table the players' process hands over."""
        loop = asyncio.get_running_loop()
        tables: asyncio.Queue[Any] = asyncio.Queue()

        def pump() -> None:  # a daemon thread: it never holds the process's exit up
            while True:
                item = self.plan.rooms_in.get()
                loop.call_soon_threadsafe(tables.put_nowait, item)
                if item is None:
                    return

        threading.Thread(target=pump, daemon=True).start()
        while True:
            try:  # the run's end stops the wait even if no end mark comes
                async with asyncio.timeout(max(0.0, self.plan.end_at - time.time())):
                    item = await tables.get()
            except TimeoutError:
                return
            if item is None:
                return
            self.later(self._watch_guarded(*item))

    async def _watch_guarded(self, rid: str, tag: str, watchers: int, i: int) -> None:
        try:
            await self.watch(rid, tag, watchers, i)
        except (TimeoutError, aiohttp.ClientError, OSError) as e:
            self.stats.errors[f"watch:{type(e).__name__}"] += 1

    def spawn(self, client: Client) -> None:
        self.later(client.run())
        self.later(client.pinger())

    def later(self, coro: Any) -> asyncio.Future[Any]:
        """Run a coroutine on its own, keeping a reference until it is done."""
        task: asyncio.Future[Any] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Future[Any]) -> None:
        """Forget a finished task; a client's failure is counted, not lost."""
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.stats.errors[f"client:{type(task.exception()).__name__}"] += 1

    async def loop_lag(self) -> None:
        """How late this process's own loop runs: if the clients lag, the figures do too."""
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.05)
            late = time.perf_counter() - t - 0.05
            if self.measuring(time.time()):
                self.stats.loop_lag.add(late * 1000)

    async def main(self) -> dict[str, Any]:
        plan = self.plan
        connector = aiohttp.TCPConnector(limit=0)
        self.session = aiohttp.ClientSession(connector=connector)
        lag = asyncio.ensure_future(self.loop_lag())
        tables = [False] * plan.singles + [True] * plan.doubles
        self.rng.shuffle(tables)
        ramp = max(0.0, plan.measure_from - time.time())
        per_table = [plan.spectators // max(1, len(tables))] * len(tables)
        for i in range(plan.spectators - sum(per_table)):
            per_table[i % len(tables)] += 1
        starts = [
            asyncio.ensure_future(
                self.start_match(i, d, ramp * i / max(1, len(tables)), per_table[i])
            )
            for i, d in enumerate(tables)
        ]
        starts += [
            asyncio.ensure_future(
                start_computer_match(self, i, ramp * i / max(1, plan.bots), plan.bot_level)
            )
            for i in range(plan.bots)
        ]
        if plan.rooms_in is not None:
            starts.append(asyncio.ensure_future(self.watch_handed()))
        try:
            for s in asyncio.as_completed(starts):
                try:
                    await s
                except (TimeoutError, aiohttp.ClientError, OSError) as e:
                    self.stats.errors[f"start:{type(e).__name__}"] += 1
        finally:
            for q in plan.watch_queues:
                q.put(None)
        await asyncio.sleep(max(0.0, plan.end_at - time.time()))
        # the computer strikes on after the players stop: its last motions may outlast the drain
        self.stats.counts["dropped_rulings"] = sum(
            1 for c in self.clients for seen in c.open_strokes.values() if seen <= plan.stop_at
        )
        self.stats.counts["connected_at_end"] = sum(
            c.ws is not None and not c.ws.closed for c in self.clients
        )
        for c in self.clients:
            c.closing = True
        lag.cancel()
        await asyncio.gather(
            *(c.ws.close() for c in self.clients if c.ws is not None), return_exceptions=True
        )
        await self.session.close()
        return self.stats.as_dict()


def run_worker(plan: Plan, out: Any) -> None:
    """Process entry point: run the plan and put the measurements on `out` (a queue)."""
    if plan.rooms_in is not None:
        # a spectators' process yields its core to the players' when both want it: the
        # strikers' clocks time the server, and a stroke read late because spectators'
        # messages were being read is the clients' delay, not the server's
        os.nice(SPECTATORS_NICE)
    # uvloop here too: the clients share the machine with the server, so the cheaper they are
    # the more of it the server gets
    result = uvloop.run(Worker(plan).main())
    result["worker"] = plan.worker
    out.put(result)


def wire_size(msg: Msg, plan: Plan) -> int:
    """The bytes a message took on the wire, framed (and compressed) as the server does
    (server/net/fanout.py): msgpack gives back the very bytes the server encoded."""
    data = msgpack.packb(msg, use_bin_type=True)
    if plan.deflate and len(data) >= COMPRESS_MIN:
        z = zlib.compressobj(LEVEL, zlib.DEFLATED, -WBITS, MEMLEVEL)
        data = (z.compress(data) + z.flush(zlib.Z_SYNC_FLUSH))[:-4]  # the sync flush's tail
    return len(ws_frame(data))


def percentile(counts: list[int], q: float) -> float:
    """The q-quantile (0..1) in ms of a merged Histogram's counts."""
    total = sum(counts)
    if total == 0:
        return math.nan
    rank, seen = q * (total - 1), 0
    for i, n in enumerate(counts):
        seen += n
        if seen > rank:
            return (i + 0.5) * LAG_BUCKET_MS
    return LAG_BUCKETS * LAG_BUCKET_MS
