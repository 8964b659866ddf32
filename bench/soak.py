"""python -m bench.soak --minutes N: many scripted matches against one server, for a set time.

Singles and doubles matches run side by side; spectators come and go; players drop (their socket
closes mid-match, sometimes mid-motion) and come back with their token and `resume{since}`. At
the end it prints matches finished, strokes, errors, resumes, lost strokes and the server's RSS
at the start and the end. Without --url it starts `python -m server` itself (embedded Redis in a
temporary directory).

"Lost" means a stroke some client was told about (`stroke`, which is sent only once stored)
that is missing from the match's record; "duplicate" a stroke number twice in a record; "gaps"
a client seeing a seq jump (it then resumes, as the protocol says). All must stay zero.

The resilient player here (`Player`) is also what tests/hardening drives through server
crashes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import aiohttp
import msgpack
import psutil
import redis
from redis.exceptions import RedisError

ROOT = Path(__file__).resolve().parents[1]
SERVER_START_S = 30.0  # from its command to a healthy server, on a loaded machine
sys.path.insert(0, str(ROOT))  # the scripted player lives with the tests (tests/server)
from bench.one_address import ONE_ADDRESS, as_args  # noqa: E402
from bench.ports import DidNotStart, launch  # noqa: E402
from server.games.novuss.sim.types import Side  # noqa: E402
from tests.server.server_bot import choose_shot  # noqa: E402

Msg = dict[str, Any]
PHYSICS_LIMIT = (
    "at most"  # the physics refusing a table with too many discs (server/games/novuss/sim)
)


@dataclass
class Live:
    """A match being played: what the progress report shows of it."""

    started: float
    task: asyncio.Task[Any] | None
    players: list[Player] = field(default_factory=list)


@dataclass
class Stats:
    """What the soak counts, across every match."""

    matches: int = 0
    strokes: int = 0
    errors: int = 0
    resumes: int = 0
    watchers: int = 0
    lost: int = 0
    duplicates: int = 0  # stroke numbers twice in a record
    repeated: int = 0  # events a client received twice (seq not above its last)
    gaps: int = 0
    physics_refusals: int = 0
    error_codes: Counter[str] = field(default_factory=Counter)
    answered: dict[str, set[int]] = field(default_factory=dict)  # match id -> stroke numbers
    samples: list[str] = field(default_factory=list)  # the first few errors in full
    rss: list[float] = field(default_factory=list)  # the server's RSS (MB) every minute
    live: dict[str, Live] = field(default_factory=dict)  # matches being played, by tag
    gc: dict[str, Any] = field(default_factory=dict)  # the server's collector at the end

    def error(self, what: str, detail: str = "") -> None:
        """Count one error (an error reply or a broken invariant)."""
        self.errors += 1
        self.error_codes[what] += 1
        if len(self.samples) < 10:
            self.samples.append(f"{what}: {detail}"[:300])


class Player:
    """A client that survives everything: its socket closing, the server dying. It keeps the
    state a browser keeps (docs/protocol.md) and strikes with the scripted bot when its turn."""

    def __init__(self, name: str, url: str, stats: Stats, headers: dict[str, str] | None = None):
        self.name, self.url, self.stats = name, url, stats
        self.headers = headers or {}  # a login cookie and its Origin (bench.archive)
        self.ws_url = url.replace("http", "ws", 1) + "/ws"
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None
        self.token: str | None = None
        self.rid: str | None = None
        self.seat: int | None = None
        self.mode = "singles"
        self.table: Msg = {}
        self.mid: str | None = None
        self.discs: list[Msg] = []
        self.sides: list[Side | None] = []
        self.turn: int | None = None
        self.phase = ""  # "", "play", "sent", "motion", "over"
        self.last = 0
        self.result: Msg | None = None
        self.changed = asyncio.Event()
        self.pongs: dict[int, asyncio.Future[None]] = {}
        self.refused: Msg | None = None  # the last error answering a strike
        self.strikes = 0  # strikes sent, to tell which one a reconnect left unanswered
        self.stroke: Msg | None = None  # the last `stroke` received
        self.sent_at = 0.0  # when it last sent anything (monotonic)

    # -- the connection ------------------------------------------------------------------
    async def connect(self, deadline: float = 60.0) -> Msg:
        """(Re)connect and say hello (with the token once known), retrying while the server is
        down; a player with a room then resumes from its last seq."""
        await self.close()
        end = time.monotonic() + deadline
        while True:
            try:
                self.http = aiohttp.ClientSession()
                ws = await self.http.ws_connect(self.ws_url, max_msg_size=0, headers=self.headers)
                hello: Msg = {"t": "hello", "name": self.name}
                if self.token:
                    hello["token"] = self.token
                await ws.send_bytes(msgpack.packb(hello))
                welcome = msgpack.unpackb((await ws.receive(timeout=10)).data, raw=False)
                if not isinstance(welcome, dict):
                    raise TypeError("the server answered hello with a non-map")
                if welcome.get("t") != "welcome":
                    raise ConnectionError(f"hello answered by {welcome}")
                self.ws = ws  # only now: nothing may be sent before the hello
                break
            except (aiohttp.ClientError, OSError, TypeError, ValueError, TimeoutError) as e:
                await self.close()
                if time.monotonic() > end:
                    raise ConnectionError(f"{self.name} could not reconnect: {e}") from e
                await asyncio.sleep(0.2)
        self.token = welcome["token"]
        self.reader = asyncio.create_task(self._read())
        if self.rid is not None and welcome["seat"] is None and self.seat is not None:
            # the seat is gone: the match ended (and the room closed) while this player was
            # away; check_record() counts it as an error if the record has no result
            self.phase = "over"
        elif self.rid is not None and welcome["seat"] is not None:
            self.seat = welcome["seat"]["seat"]
            unanswered = self.strikes if self.phase == "sent" else None
            await self.send("resume", room=self.rid, since=self.last)
            self.stats.resumes += 1
            await self.barrier()
            if self.phase == "sent" and self.strikes == unanswered:
                self.phase = "play"  # that strike was never stored: nobody was told of it
        return welcome

    async def close(self) -> None:
        """Drop the socket (as a tab closing); the state is kept for the resume."""
        if self.reader is not None:
            self.reader.cancel()
            # wait() and not `suppress(CancelledError): await reader`: that also swallowed a
            # cancellation of the caller itself, so a cancelled chaos or spectator task went
            # on for ever (the soak runs that never ended, docs/reliability.md)
            await asyncio.wait([self.reader])
        if self.ws is not None:
            with contextlib.suppress(Exception):
                # a server that is paused or gone never answers the close: do not wait long
                async with asyncio.timeout(2.0):
                    await self.ws.close()
        if self.http is not None:
            await self.http.close()
        self.ws = self.reader = self.http = None

    async def send(self, t: str, **fields: Any) -> None:
        """Send one message (silently lost if the socket is down: the resume repairs it)."""
        if self.ws is None:
            return
        self.sent_at = time.monotonic()
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.send_bytes(msgpack.packb({"t": t, **fields}))

    async def barrier(self, timeout: float = 20.0) -> None:
        """Wait until everything the server sent before a `pong` has been applied."""
        n = random.randrange(1, 2**31)
        self.pongs[n] = asyncio.get_running_loop().create_future()
        await self.send("ping", n=n)
        try:
            async with asyncio.timeout(timeout):
                await self.pongs[n]
        finally:
            self.pongs.pop(n, None)

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for m in self.ws:
                if m.type == aiohttp.WSMsgType.BINARY:
                    await self._apply(msgpack.unpackb(m.data, raw=False, strict_map_key=False))
                    self.changed.set()
        finally:
            self.changed.set()

    # -- what a browser keeps ----------------------------------------------------------
    async def _apply(self, msg: Msg) -> None:
        t = msg["t"]
        if t == "pong":
            n = msg.get("n")
            fut = self.pongs.get(n) if isinstance(n, int) else None
            if fut is not None and not fut.done():
                fut.set_result(None)
            return
        if t == "error":
            if self.phase == "sent":
                msg = {**msg, "context": "strike"}
            self.stats.error(msg["code"], f"{self.name} phase={self.phase}: {msg}")
            if self.phase == "sent":
                self.refused, self.phase = msg, "play"
            return
        if "seq" in msg and t != "room":
            if msg["seq"] <= self.last:
                self.stats.repeated += 1
                return
            if msg["seq"] > self.last + 1:  # missed something: ask again (docs/protocol.md)
                self.stats.gaps += 1
                await self.send("resume", room=self.rid, since=self.last)
                return
            self.last = msg["seq"]
        if t == "room":
            self._room(msg)
        elif t == "stroke":
            self.phase, self.stroke = "motion", msg
            if self.mid is not None:
                self.stats.answered.setdefault(self.mid, set()).add(msg["stroke"])
        elif t == "ruling":
            self.discs, self.turn, self.sides = msg["discs"], msg["turn"], msg["sides"]
            self.phase = "play" if msg["turn"] is not None else "over"
        elif t == "result":
            self.result, self.phase = msg, "over"

    def _room(self, msg: Msg) -> None:
        self.last = msg["seq"]  # a room is a complete state (docs/protocol.md)
        self.rid, self.mode, self.table = msg["id"], msg["mode"], msg["table"]
        if msg["you"]["seat"] is not None:
            self.seat = msg["you"]["seat"]
        self.discs = msg["discs"]
        self.sides = [s and s["side"] for s in msg["seats"]]
        match = msg["match"]
        if match is None:
            return
        self.mid, self.turn = match["id"], match["turn"]
        if match["result"] is not None:
            self.result = self.result or {"winner": match["result"].get("winner")}
        if self.phase != "sent" or match["phase"] != "play":
            self.phase = match["phase"]

    def my_turn(self) -> bool:
        """True when this player must strike now."""
        return self.phase == "play" and self.seat is not None and self.turn == self.seat

    async def strike(self) -> None:
        """Aim once and strike with the scripted player's choice."""
        assert self.seat is not None
        side = self.sides[self.seat]
        assert side is not None, "a seated player's seat has a side"
        x, y, angle, speed = choose_shot(self.discs, self.seat, side, self.table, self.mode)
        self.phase, self.refused = "sent", None
        self.strikes += 1
        await self.send("aim", x=x, y=y, angle=angle, power=speed / 8000)
        await self.send("strike", x=x, y=y, angle=angle, speed=speed)

    async def play(self, timeout: float) -> None:
        """Strike whenever it is this player's turn until the match is over. A doubles table
        the physics refuses (too many discs) is resigned: that is the physics' limit, counted
        apart (physics_refusals), not the server's error."""
        async with asyncio.timeout(timeout):
            while self.phase != "over":
                self.changed.clear()
                if self.refused is not None and PHYSICS_LIMIT in self.refused["message"]:
                    self.stats.physics_refusals += 1
                    self.stats.errors -= 1
                    self.stats.error_codes["bad_stroke"] -= 1
                    if self.stats.samples and self.stats.samples[-1].startswith("bad_stroke"):
                        self.stats.samples.pop()  # counted apart, not as an error
                    self.refused = None
                    await self.send("resign")
                elif self.my_turn():
                    await self.strike()
                elif time.monotonic() - self.sent_at > 10:  # as the web client: never idle
                    await self.send("ping")
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.5):
                        await self.changed.wait()


async def seat_match(
    url: str,
    mode: str,
    stats: Stats,
    tag: str,
    players: list[Player] | None = None,
    game: str = "novuss",
    kind: type[Player] = Player,
) -> list[Player]:
    """Players (of class `kind`) in a new room of `game` and `mode`, all ready: the match has
    started. They are added to `players` as they connect, so that a caller's list has them
    even if the seating fails."""
    n = 2 if mode == "singles" else 4
    players = [] if players is None else players
    players += [kind(f"{tag}-{i}", url, stats) for i in range(n)]
    for p in players:
        await p.connect()
    await players[0].send("create", mode=mode, sets=1, clock=120, private=False, game=game)
    await players[0].barrier()
    assert players[0].rid is not None, "create was not answered by a room"
    for p in players[1:]:
        await p.send("join", room=players[0].rid)
        await p.barrier()
    for p in players:
        await p.send("ready")
    for p in players:
        await p.barrier()
        while p.mid is None:
            p.changed.clear()
            async with asyncio.timeout(20):
                await p.changed.wait()
    return players


async def chaos(players: list[Player], rng: random.Random, grace: float) -> None:
    """Drop a random player now and then (mid-motion or not) and bring it back before the
    grace time is out."""
    while True:
        await asyncio.sleep(rng.uniform(1.0, 4.0))
        victim = rng.choice(players)
        if victim.phase == "over":
            continue
        await victim.close()
        await asyncio.sleep(rng.uniform(0.0, min(2.0, grace / 4)))
        try:
            await victim.connect()
        except asyncio.CancelledError:
            await victim.close()  # the match ended meanwhile: no socket left behind
            raise


async def spectate(url: str, rid: str, rng: random.Random, stats: Stats) -> None:
    """Watchers come and go for the whole match."""
    while True:
        await asyncio.sleep(rng.uniform(0.5, 3.0))
        watcher = Player(f"w{rng.randrange(10**6)}", url, stats)
        try:
            await watcher.connect()
            await watcher.send("watch", room=rid)
            stats.watchers += 1
            await asyncio.sleep(rng.uniform(0.5, 5.0))
        finally:
            await watcher.close()


def fetch(url: str) -> Any:
    """GET a JSON document."""
    with urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def check_record(url: str, mid: str, stats: Stats, finished: bool = True) -> int:
    """Compare a match's record with the strokes clients were told of (and, if it should be
    finished, check it has a result); returns the record's strokes."""
    record = fetch(f"{url}/api/matches/{mid}")
    if finished and record.get("result") is None:
        stats.error("match_unfinished", mid)
    log = record["log"]
    numbers = [e["stroke"] for e in log if e["kind"] == "stroke"]
    stats.duplicates += len(numbers) - len(set(numbers))
    stats.lost += len(stats.answered.get(mid, set()) - set(numbers))
    if numbers != list(range(1, len(numbers) + 1)):
        stats.error("record_out_of_order")
    return len(numbers)


async def one_match(url: str, mode: str, rng: random.Random, stats: Stats, grace: float) -> None:
    """Seat, play to the result with drops and watchers, check the record, leave."""
    tag = f"{mode[0]}{rng.randrange(10**6)}"
    live = stats.live[tag] = Live(time.monotonic(), asyncio.current_task())
    try:
        await _play_match(url, mode, rng, stats, grace, tag, live)
    finally:
        del stats.live[tag]
        for p in live.players:  # a match cut by the bound leaves no socket behind
            await p.close()


async def _play_match(
    url: str, mode: str, rng: random.Random, stats: Stats, grace: float, tag: str, live: Live
) -> None:
    players = live.players
    await seat_match(url, mode, stats, tag, players)
    rid, mid = players[0].rid, players[0].mid
    assert rid is not None and mid is not None
    side = [
        asyncio.create_task(chaos(players, rng, grace)),
        asyncio.create_task(spectate(url, rid, rng, stats)),
    ]
    try:
        await asyncio.gather(*(p.play(timeout=600) for p in players))
    finally:
        for task in side:
            task.cancel()
        await asyncio.gather(*side, return_exceptions=True)
    stats.strokes += check_record(url, mid, stats)
    stats.matches += 1
    for p in players:
        await p.send("leave")
        await p.close()


MATCH_LIMIT_S = 300.0  # a scripted match takes 1 to 3 minutes; past this it is stuck
SLOW_MATCH_S = 240.0  # the progress report shows in full a match older than this


def describe_player(p: Player) -> str:
    """One line of what a scripted player believes."""
    return (
        f"{p.name} seat={p.seat} phase={p.phase} turn={p.turn} last={p.last} "
        f"strikes={p.strikes} socket={'up' if p.ws is not None and not p.ws.closed else 'down'}"
    )


async def describe_match(url: str, tag: str, live: Live) -> list[str]:
    """What the clients and the server know of a slow match, and where its task waits."""
    lines = [f"  slow match {tag}: {time.monotonic() - live.started:.0f} s"]
    lines += ["    " + describe_player(p) for p in live.players]
    mid = live.players[0].mid if live.players else None
    if mid is not None:
        try:
            record = await asyncio.to_thread(fetch, f"{url}/api/matches/{mid}")
            strokes = sum(1 for e in record["log"] if e["kind"] == "stroke")
            lines.append(
                f"    server: result={record.get('result')} strokes={strokes} "
                f"keys={sorted(record)}"[:400]
            )
        except Exception as e:  # the report must not stop the soak
            lines.append(f"    server: {type(e).__name__}: {e}")
    if live.task is not None:
        stack = live.task.get_stack(limit=12)
        lines += [f"    at {f.f_code.co_filename}:{f.f_lineno} {f.f_code.co_name}" for f in stack]
    return lines


async def report(url: str, stats: Stats, pid: int | None, t0: float) -> None:
    """Every minute, a progress line (and the RSS sample) on stderr; slow matches in full."""
    while True:
        await asyncio.sleep(60)
        rss = rss_mb(pid)
        if rss is not None:
            stats.rss.append(rss)
        print(
            f"[{(time.monotonic() - t0) / 60:4.1f} min] matches={stats.matches} "
            f"strokes={stats.strokes} errors={stats.errors} resumes={stats.resumes} "
            f"playing={len(stats.live)} rss_mb={rss if rss is None else round(rss, 1)}",
            file=sys.stderr,
            flush=True,
        )
        for tag, live in list(stats.live.items()):
            if time.monotonic() - live.started > SLOW_MATCH_S:
                print("\n".join(await describe_match(url, tag, live)), file=sys.stderr, flush=True)


def rss_mb(pid: int | None) -> float | None:
    """A process's resident memory in MB."""
    return None if pid is None else psutil.Process(pid).memory_info().rss / 2**20


def stop_redis(data: Path, timeout: float = 20.0) -> None:
    """Stop the server's embedded Redis if it outlived the server (one stopped before its
    clean exit, or killed: its Redis is a daemon of its own), before its folder is removed: a
    redis-server whose folder is gone runs on for ever. SHUTDOWN NOSAVE (the bench's data is
    thrown away; saving 10,000 matches' AOF would take a while), then SIGKILL if it has not
    ended in `timeout` s."""
    try:
        redis_server = psutil.Process(int((data / "redis.pid").read_text()))
        if redis_server.name() != "redis-server":
            return  # the pid is another process's now
    except (OSError, ValueError, psutil.Error):
        return  # no pid file (Redis removes it at its clean exit), or gone
    with contextlib.suppress(RedisError, OSError):
        client = redis.Redis(unix_socket_path=str(data / "redis.sock"), socket_timeout=5)
        client.shutdown(nosave=True)
    try:
        redis_server.wait(timeout)
    except psutil.TimeoutExpired:
        redis_server.kill()
        redis_server.wait(5)


def start_server(
    data_dir: Path, options: dict[str, object], root: Path = ROOT
) -> tuple[subprocess.Popen[bytes], int]:
    """`python -m server` on a free port, with its own embedded Redis; returns it and its port
    once it listens there and is healthy. `root`: the tree whose server runs (another
    commit's, to compare)."""
    log = (data_dir / "server.log").open("ab")

    def spawn(port: int) -> subprocess.Popen[bytes]:
        args = [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(data_dir)]
        args += as_args(options)
        return subprocess.Popen(args, cwd=root, stdout=log, stderr=subprocess.STDOUT)

    def healthy(port: int) -> bool:
        fetch(f"http://127.0.0.1:{port}/healthz")
        return True

    try:
        return launch(spawn, healthy, SERVER_START_S, "the server")
    except DidNotStart:
        print((data_dir / "server.log").read_text(errors="replace")[-3000:], file=sys.stderr)
        raise


async def soak(
    url: str, minutes: float, slots: int, seed: int, grace: float, pid: int | None
) -> tuple[Stats, float | None, float | None]:
    """Run `slots` matches at a time (every third a doubles) until the time is up."""
    stats = Stats()
    rng = random.Random(seed)
    rss_start = rss_mb(pid)
    end = time.monotonic() + minutes * 60
    started = 0

    async def slot(k: int) -> None:
        nonlocal started
        while time.monotonic() < end:
            started += 1
            mode = "doubles" if started % 3 == 0 else "singles"
            try:
                # A bound on the whole match (seating, play, record, leave), not only on play:
                # a soak run once hung after its time in one match's own client.
                async with asyncio.timeout(MATCH_LIMIT_S):
                    await one_match(url, mode, random.Random(rng.random()), stats, grace)
            except Exception as e:  # a stuck or broken match is the soak's finding, not a crash
                stats.error(f"match failed: {type(e).__name__}: {e}"[:120])

    reporter = asyncio.create_task(report(url, stats, pid, time.monotonic()))
    await asyncio.gather(*(slot(k) for k in range(slots)))
    reporter.cancel()
    left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    print(f"soak: time is up; {len(left)} tasks left to cancel", file=sys.stderr, flush=True)
    with contextlib.suppress(OSError, ValueError):
        stats.gc = (await asyncio.to_thread(fetch, url + "/healthz")).get("gc", {})
    return stats, rss_start, rss_mb(pid)


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run the soak and print the figures."""
    ap = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="how long to run")
    ap.add_argument("--url", default="", help="a running server (default: start one)")
    ap.add_argument("--slots", type=int, default=4, help="matches played at the same time")
    ap.add_argument("--speed-factor", type=float, default=10.0, help="of the server started")
    ap.add_argument("--grace", type=float, default=30.0, help="grace seconds of the server")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    proc = None
    url = args.url.rstrip("/")
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        if not url:
            proc, port = start_server(Path(tmp), {
                "speed_factor": args.speed_factor, "grace_seconds": args.grace,
                "appendfsync": "everysec", **ONE_ADDRESS,
            })  # fmt: skip
            url = f"http://127.0.0.1:{port}"
        try:
            t0 = time.monotonic()
            stats, rss0, rss1 = asyncio.run(
                soak(
                    url, args.minutes, args.slots, args.seed, args.grace, proc.pid if proc else None
                )
            )
            elapsed = time.monotonic() - t0
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    print("the server did not stop on SIGTERM in 20 s; killed", file=sys.stderr)
                    print((Path(tmp) / "server.log").read_text()[-3000:], file=sys.stderr)
                    proc.kill()
                    proc.wait()
                stop_redis(Path(tmp))  # its embedded Redis outlives a kill
    health = "" if proc is not None else json.dumps(fetch(url + "/healthz"))
    print(f"soak: {elapsed / 60:.1f} min against {url} ({args.slots} matches at a time)")
    print(f"matches finished: {stats.matches}")
    print(f"strokes: {stats.strokes}")
    print(f"errors: {stats.errors} {dict(+stats.error_codes)}")
    for sample in stats.samples:
        print("  " + sample)
    print(f"resumes: {stats.resumes}")
    print(f"watchers: {stats.watchers}")
    print(f"lost strokes: {stats.lost}  duplicated strokes: {stats.duplicates}")
    print(f"events received twice: {stats.repeated}  seq gaps: {stats.gaps}")
    print(f"doubles strokes the physics refused (resigned): {stats.physics_refusals}")
    if rss0 is not None and rss1 is not None:
        print(f"server RSS: {rss0:.1f} MB at start, {rss1:.1f} MB at end")
        print("server RSS each minute (MB): " + " ".join(f"{r:.1f}" for r in stats.rss))
    if stats.gc:
        print(f"server garbage collections (young, middle, full): {stats.gc['collections']}, "
              f"longest pauses (ms): {stats.gc['longest_pause_ms']}")  # fmt: skip
    else:
        print(f"server RSS: n/a (not started here) {health}")


if __name__ == "__main__":
    main()
