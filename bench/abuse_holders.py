"""The attack of bench.abuse on the TCP total with whole websockets (issue 37): from every
address, websockets opened and held until the server refuses more (a third only upgraded
and silent, a third after a hello silent, a third after a hello pinging every 5 s), opened
again as the server cuts them; from the first connection the server refuses them (the total,
or its part for newcomers, reached), an honest player seated in a match of its own drops and
comes back (hello with its token, then resume) once a second and an owner logs in twice a
second, all from 127.0.0.1.

With the default total (from the open-file limit) the addresses' own caps (32 websockets
each) end the attack long before the total: run it with a small one,

    python -m bench.abuse --only ws_holders_many --addresses 16 --max-connections 300

Returns the websockets the attack held at its end and what it was answered, the honest
returns that got their seat and room back, and the owner's logins."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from typing import Any
from urllib.request import urlopen

import aiohttp

from bench.abuse_attacks import Context, _send, _until, _ws
from bench.abuse_http import PROBE_EVERY, Owner, _stamp

RETURN_EVERY = 1.0  # s between the seated player's returns
RETURNS = 3  # returns the attack lasts for at least (Context.measured)
RETURN_WITHIN = 15.0  # s a return may take, its tries again included (the seat's grace: 120)
RETRY_AFTER = 1.0  # s before a cut connection is tried again (with jitter)
HOLD_PING = 5.0  # s between the pings of a holder that pings


async def _seated(ctx: Context) -> tuple[aiohttp.ClientSession, Any, Any, str, str]:
    """Two honest players from 127.0.0.1 in a singles match: (http, first's ws, second's ws,
    room id, the first's resume token)."""
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.1", 0)))
    a = await http.ws_connect(ctx.ws_url, max_msg_size=0)
    b = await http.ws_connect(ctx.ws_url, max_msg_size=0)
    await _send(a, {"t": "hello", "name": "Seated"})
    token = str((await _until(a, lambda m: m.get("t") == "welcome"))["token"])
    await _send(b, {"t": "hello", "name": "Opponent"})
    await _until(b, lambda m: m.get("t") == "welcome")
    await _send(a, {"t": "create", "mode": "singles", "sets": 1, "clock": 300})
    rid = str((await _until(a, lambda m: m.get("t") == "room"))["id"])
    await _send(b, {"t": "join", "room": rid})
    await _until(b, lambda m: m.get("t") == "room")
    for ws in (a, b):
        await _send(ws, {"t": "ready"})
    return http, a, b, rid, token


async def _returns(ctx: Context, token: str, rid: str, first: Any) -> str:
    """The seated player drops and comes back once a second until the attack's end (RETURNS
    times at least): a return counts when, within RETURN_WITHIN, a welcome names the seat and
    the resume answers with the room. As docs/protocol.md asks of a client ("After a
    reconnect"), a connection the server closes or leaves unanswered before then is tried
    again after about a second: before its hello the server cannot tell it from an
    attacker's, and on a loaded machine it may cut it. Those tries are counted and said."""
    ok = tried = 0
    took: list[float] = []  # ms from the first new connection to the room, of each return
    failed: Counter[str] = Counter()  # why the others did not get back
    again: Counter[str] = Counter()  # why a connection was tried again
    ctx.measured.append(lambda: tried >= RETURNS)
    await first.close()
    while ctx.running():
        tried += 1
        t0 = time.perf_counter()
        why = await _return(ctx, token, rid, t0 + RETURN_WITHIN, again)
        if why is None:
            ok += 1
            took.append((time.perf_counter() - t0) * 1e3)
        else:
            failed[why] += 1
        await asyncio.sleep(RETURN_EVERY)
    took.sort()
    times = f"p50 {took[len(took) // 2]:.0f} ms, max {took[-1]:.0f} ms" if took else "none"
    why = "".join(f"; {n} {what}" for what, n in failed.items())
    retried = ", ".join(f"{n} {what}" for what, n in again.items())
    retried = f"; connections tried again: {retried}" if retried else ""
    return f"seated returns {ok}/{tried} ({times}{why}{retried})"


async def _return(
    ctx: Context, token: str, rid: str, deadline: float, again: Counter[str]
) -> str | None:
    """One return, its connection tried again until `deadline` when the server cut or did
    not answer it: None once back in the room, else why not (and the connection left
    closed)."""
    while True:
        step = "connect"
        http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.1", 0)))
        ws: Any = None
        try:
            ws = await http.ws_connect(ctx.ws_url, max_msg_size=0, receive_timeout=5)
            step = "hello"
            await _send(ws, {"t": "hello", "name": "Seated", "token": token})
            welcome = await _until(ws, lambda m: m.get("t") == "welcome")
            if (welcome.get("seat") or {}).get("room") != rid:
                return f"hello answered {welcome.get('code') or 'without the seat'}"
            step = "resume"
            await _send(ws, {"t": "resume", "room": rid, "since": 0})
            room = await _until(ws, lambda m: m.get("t") == "room")
            return None if room.get("id") == rid else f"resume answered {room.get('code')}"
        except (TimeoutError, aiohttp.ClientError, OSError) as e:
            why = f"{step}: {type(e).__name__}"
            if time.perf_counter() + RETRY_AFTER >= deadline:
                return why
            again[why] += 1
        finally:
            if ws is not None:
                await ws.close()
            await http.close()
        await asyncio.sleep(RETRY_AFTER * random.uniform(0.75, 1.25))


async def _hold(ctx: Context, k: int, answers: Counter[str], full: asyncio.Event) -> None:
    """One holder: open, (hello,) hold until cut or the end; again. `full` is set at the
    first refusal: the server's total (or its part for newcomers) is reached."""
    kind = k % 3  # 0: upgrade only; 1: hello, silent; 2: hello, pings
    while ctx.running():
        try:
            http, ws = await _ws(ctx, k)
        except (TimeoutError, aiohttp.ClientError, OSError):
            answers["dropped"] += 1
            full.set()
            await asyncio.sleep(0.5)
            continue
        try:
            if kind:
                await _send(ws, {"t": "hello", "name": f"Holder {k}"})
                reply = await _until(ws, lambda m: m.get("t") == "welcome")
                answers[str(reply.get("code", reply["t"]))] += 1
                if reply.get("code") == "server_full":
                    full.set()
            n = 0
            while ctx.running() and not ws.closed:
                with contextlib.suppress(asyncio.TimeoutError):
                    msg = await ws.receive(timeout=HOLD_PING)
                    if msg.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                        break  # closed by the server
                if kind == 2:
                    n += 1
                    await _send(ws, {"t": "ping", "n": n})
        except (TimeoutError, aiohttp.ClientError, OSError, ConnectionError):
            pass
        finally:
            if ctx.running():  # the server ended it: cut to make room, or displaced
                answers["cut"] += 1
            await ws.close()
            await http.close()


def _health(url: str) -> dict[str, Any]:
    with urlopen(url + "/healthz", timeout=10) as r:
        value = json.loads(r.read())
    return value if isinstance(value, dict) else {}


async def _peaks(ctx: Context) -> str:
    """The most TCP connections and websockets with no seat /healthz showed (read from
    127.0.0.1 once a second: a request in hand, in the reserve), and its refusals at the end."""
    tcp = guests = 0
    state: dict[str, Any] = {}
    while ctx.running():
        with contextlib.suppress(OSError, ValueError, KeyError):
            state = await asyncio.to_thread(_health, ctx.url)
            tcp = max(tcp, int(state["tcp"]["open"]))
            guests = max(guests, int(state["ws"]["guests"]))
        await asyncio.sleep(1.0)
    ws = state.get("ws", {})
    return (
        f"peak tcp {tcp}/{state.get('tcp', {}).get('limit')}, peak guests {guests}, "
        f"server_full {ws.get('refused')}, displaced {ws.get('displaced')}"
    )


async def ws_holders(ctx: Context) -> str:
    """Websockets held from every address up to the total (32 per address, the per-address
    cap), while a seated player comes back and an owner logs in."""
    http, a, b, rid, token = await _seated(ctx)
    owner = Owner(ctx, "holder" + _stamp())
    await owner.register()
    answers: Counter[str] = Counter()
    full = asyncio.Event()
    holders = [_hold(ctx, k, answers, full) for k in range(len(ctx.addresses) * 32)]
    drain = asyncio.create_task(_drain(b))

    async def once_full() -> str:
        """The honest side, from the moment the attack is refused its first connection."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(ctx.until - time.monotonic()):
                await full.wait()
        if not ctx.running():
            return "the total never reached: nothing measured"
        held_for = time.monotonic()
        returns, _, peaks = await asyncio.gather(
            _returns(ctx, token, rid, a), owner.probe(), _peaks(ctx)
        )
        return f"{peaks}; measured {time.monotonic() - held_for:.0f} s at the cap: {returns}"

    try:
        _, honest = await asyncio.gather(asyncio.gather(*holders), once_full())
    finally:
        drain.cancel()
        await b.close()
        await http.close()
        await owner.http.close()
    counted = ", ".join(f"{n} {s}" for s, n in sorted(answers.items()))
    return f"holders: {counted}; {honest}; {owner.said()} (every {PROBE_EVERY:g} s)"


async def _drain(ws: Any) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


ATTACKS = {"ws_holders_many": (ws_holders, True)}
