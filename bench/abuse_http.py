"""The attacks of bench.abuse over the HTTP API (issue 37): replays recomputed from many
addresses, a stranger's wrong passwords against an owner, registrations of a taken name and
logins with made-up names from many addresses. Each runs until ctx.until, as those of
bench/abuse_attacks.py, and returns what it got as a short text. The login attacks measure
the honest side too: an owner logging in from 127.0.0.1 with its own device cookie twice a
second (how many got in, and how long the logins took); the half-sent requests
(abuse_attacks.slow_http) measure new honest hellos with `hellos`."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Awaitable, Callable

import aiohttp
import msgpack

from bench.abuse_attacks import Context, _send, _until, _ws

PROBE_EVERY = 0.5  # s between an honest probe's tries
PROBES = 3  # an owner's logins the attack lasts for at least (Context.measured)
PASSWORD = "the owner's own long password"


def _session(address: str) -> aiohttp.ClientSession:
    """A client from `address`, keeping cookies (a browser of its own)."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0))
    return aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True))


async def hellos(ctx: Context) -> str:
    """New honest connections from 127.0.0.1 twice a second, each a hello answered by
    `welcome` within 5 s, until the attack's end: 'hellos ok/tried'."""
    ok = tried = 0
    while ctx.running():
        tried += 1
        with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError):
            async with _session("127.0.0.1") as http:
                ws = await http.ws_connect(ctx.ws_url, receive_timeout=5)
                await _send(ws, {"t": "hello", "name": "Newcomer"})
                msg = await ws.receive(timeout=5)
                ok += msgpack.unpackb(msg.data, raw=False).get("t") == "welcome"
                await ws.close()
        await asyncio.sleep(PROBE_EVERY)
    return f"honest hellos {ok}/{tried}"


class Owner:
    """An account's owner: registered from 127.0.0.1 (its address and device trusted from
    then), logging in again and again while the attack runs."""

    def __init__(self, ctx: Context, name: str):
        self.ctx = ctx
        self.name = name
        self.http = _session("127.0.0.1")
        self.times: list[float] = []  # ms of each login that got in
        self.refused: Counter[int] = Counter()
        ctx.measured.append(lambda: self.tried >= PROBES)

    @property
    def tried(self) -> int:
        return len(self.times) + sum(self.refused.values())

    async def register(self) -> None:
        body = {"username": self.name, "password": PASSWORD}
        async with self.http.post(self.ctx.url + "/api/account/register", json=body) as r:
            await r.read()

    async def probe(self) -> None:
        """Log in twice a second until the attack's end (PROBES times at least)."""
        body = {"username": self.name, "password": PASSWORD}
        while self.ctx.running():
            t0 = time.perf_counter()
            try:
                async with self.http.post(self.ctx.url + "/api/account/login", json=body) as r:
                    await r.read()
                    if r.status == 200:
                        self.times.append((time.perf_counter() - t0) * 1e3)
                    else:
                        self.refused[r.status] += 1
            except (TimeoutError, aiohttp.ClientError, OSError):
                self.refused[0] += 1  # no answer: dropped at accept, or reset
            await asyncio.sleep(PROBE_EVERY)

    def said(self) -> str:
        ordered = sorted(self.times) or [0.0]
        refused = _counted(self.refused) or "none"
        p50 = ordered[len(ordered) // 2]
        return (f"owner logged in {len(self.times)}/{self.tried} (p50 {p50:.0f}"
                f" ms, max {ordered[-1]:.0f} ms; refused: {refused})")  # fmt: skip


def _stamp() -> str:
    return f"{int(time.time() * 1000) % 10**8:08d}"


async def _from_every_address(
    ctx: Context, per_address: int, one: Callable[[aiohttp.ClientSession, int], Awaitable[int]]
) -> Counter[int]:
    """`per_address` loops on each address, each calling `one(http, k)` (an HTTP status)
    again as soon as it is answered, until the attack's end: the statuses counted."""
    statuses: Counter[int] = Counter()

    async def loop(http: aiohttp.ClientSession, k: int) -> None:
        while ctx.running():
            try:
                statuses[await one(http, k)] += 1
            except (TimeoutError, aiohttp.ClientError, OSError):
                statuses[0] += 1
                await asyncio.sleep(0.1)

    sessions = [_session(a) for a in ctx.addresses]
    try:
        await asyncio.gather(*(loop(h, k) for k, h in enumerate(sessions)
                               for _ in range(per_address)))  # fmt: skip
    finally:
        for h in sessions:
            await h.close()
    return statuses


def _counted(statuses: Counter[int]) -> str:
    return ", ".join(f"{n} {'failed' if s == 0 else s}" for s, n in sorted(statuses.items()))


async def _with_owner(
    ctx: Context, per_address: int, one: Callable[[aiohttp.ClientSession, int], Awaitable[int]],
    owner: Owner,
) -> str:  # fmt: skip
    await owner.register()
    statuses, _ = await asyncio.gather(_from_every_address(ctx, per_address, one), owner.probe())
    await owner.http.close()
    return f"attempts: {_counted(statuses)}; {owner.said()}"


async def _post(http: aiohttp.ClientSession, url: str, body: dict[str, str]) -> int:
    async with http.post(url, json=body) as r:
        await r.read()
        return r.status


async def login_lockout(ctx: Context) -> str:
    """Wrong passwords for the owner's account from every address, as fast as answered
    (issue 37: 100 from 10 addresses locked the owner out for 888 s), while the owner logs
    in from its own address and device."""
    owner = Owner(ctx, "owner" + _stamp())
    body = {"username": owner.name, "password": "a stranger's wrong guess"}
    return await _with_owner(
        ctx, 2, lambda http, _k: _post(http, ctx.url + "/api/account/login", body), owner
    )


async def taken_names(ctx: Context) -> str:
    """Registrations of a name that is taken from every address (issue 37: never counted,
    each an argon2 hash: the honest login's p50 went to 807 ms)."""
    owner = Owner(ctx, "taken" + _stamp())
    body = {"username": owner.name, "password": "any long password 123"}
    return await _with_owner(
        ctx, 4, lambda http, _k: _post(http, ctx.url + "/api/account/register", body), owner
    )


async def unknown_logins(ctx: Context) -> str:
    """Logins with made-up names from every address (issue 37: two 15-minute counters in
    Redis each, +11 MB a minute; each a dummy hash)."""
    owner = Owner(ctx, "known" + _stamp())
    made = iter(range(10**9))

    async def one(http: aiohttp.ClientSession, _k: int) -> int:
        body = {"username": f"nobody{next(made)}x", "password": "a guessed password"}
        return await _post(http, ctx.url + "/api/account/login", body)

    return await _with_owner(ctx, 4, one, owner)


async def _live_match(ctx: Context) -> str:
    """The honest room's match id (watched once)."""
    http, ws = await _ws(ctx, 0)
    try:
        await _send(ws, {"t": "hello", "name": "Curious"})
        await _send(ws, {"t": "watch", "room": ctx.rid})
        room = await _until(ws, lambda m: m.get("t") == "room" and bool(m.get("match")))
        return str(room["match"]["id"])
    finally:
        await ws.close()
        await http.close()


async def replay_flood(ctx: Context) -> str:
    """The honest live match's replay and its strokes' motions asked from every address at
    the allowed rate (10 a second after a burst of 100): its log grows with every stroke, so
    the kept recomputation goes stale again and again (issue 37: 200 addresses made the
    honest strike-to-stroke p99 400 ms)."""
    mid = await _live_match(ctx)
    base = f"{ctx.url}/api/matches/{mid}/replay"

    async def one(http: aiohttp.ClientSession, k: int) -> int:
        t0 = time.monotonic()
        async with http.get(base if k % 2 else f"{base}/1") as r:
            await r.read()
        await asyncio.sleep(max(0.0, 0.2 - (time.monotonic() - t0)))  # 2 loops: 10 a second
        return r.status

    return f"match {mid}; requests: {_counted(await _from_every_address(ctx, 2, one))}"


ATTACKS = {
    "replay_flood_many": (replay_flood, True),
    "login_lockout_many": (login_lockout, True),
    "taken_names_many": (taken_names, True),
    "unknown_logins_many": (unknown_logins, True),
}
