"""What passing costs, and that it cannot go on for ever: `python -m bench.passes`.

    python -m bench.passes [--matches 20] [--sets 8]

Starts `python -m server` (embedded Redis in a temporary directory) and has pairs of players
do nothing but pass, match after match, until each match ends by cautions (004 § 26 (2),
(4), § 22 (5); docs/rules.md, "Cautions"). Per pass it reports the server's CPU, the Redis
bytes the match record and the room's events add, and, over the run, the server's RSS and
Redis's memory, so that a match of passes is seen to be bounded in length and in what it
keeps. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import aiohttp
import msgpack
import psutil

from bench.one_address import ONE_ADDRESS
from bench.soak import start_server

Msg = dict[str, Any]


async def player(ws_url: str, name: str) -> tuple[aiohttp.ClientSession, Any, Msg]:
    http = aiohttp.ClientSession()
    ws = await http.ws_connect(ws_url)
    await ws.send_bytes(msgpack.packb({"t": "hello", "name": name}))
    welcome = msgpack.unpackb((await ws.receive()).data, raw=False)
    return http, ws, welcome


async def one_match(ws_url: str, sets: int, k: int) -> int:
    """Two players pass until the match is over; the number of passes it took."""
    (ha, a, _), (hb, b, _) = await player(ws_url, f"A{k}"), await player(ws_url, f"B{k}")
    try:
        await a.send_bytes(
            msgpack.packb(
                {"t": "create", "mode": "singles", "sets": sets, "clock": 60, "private": False}
            )
        )
        room = await until(a, "room")
        await b.send_bytes(msgpack.packb({"t": "join", "room": room["id"]}))
        for ws in (a, b):
            await ws.send_bytes(msgpack.packb({"t": "ready"}))
        seats = {0: a, 1: b}
        passes = 0
        turn = None
        while True:
            msg = await until(a, "room", "ruling", "result")
            if msg["t"] == "result":
                return passes
            turn = msg["match"]["turn"] if msg["t"] == "room" and msg["match"] else msg.get("turn")
            if turn is not None and (msg["t"] == "ruling" or msg["match"]["phase"] == "play"):
                await seats[turn].send_bytes(msgpack.packb({"t": "pass"}))
                passes += 1
    finally:
        for ws, http in ((a, ha), (b, hb)):
            await ws.close()
            await http.close()


async def until(ws: Any, *kinds: str) -> Msg:
    while True:
        msg = _map(msgpack.unpackb((await ws.receive(timeout=30)).data, raw=False))
        if msg["t"] in kinds:
            return msg


def _map(value: object) -> Msg:
    if not isinstance(value, dict):
        raise TypeError(f"a map was expected, not {type(value).__name__}")
    return value


def health(url: str) -> Msg:
    with urlopen(url + "/healthz", timeout=5) as r:
        return _map(json.loads(r.read()))


def main(argv: list[str] | None = None) -> None:
    """Run the matches of passes and print the figures."""
    ap = argparse.ArgumentParser(prog="python -m bench.passes", description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--sets", type=int, default=8, help="sets per match (the bound grows with it)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="passes-") as tmp:
        proc, port = start_server(Path(tmp), {"appendfsync": "everysec", **ONE_ADDRESS})
        url = f"http://127.0.0.1:{port}"
        try:
            server = psutil.Process(proc.pid)
            before = health(url)["redis_memory"]["used"]
            rss0 = server.memory_info().rss
            cpu0 = sum(server.cpu_times()[:2])
            t0 = time.monotonic()
            counts = [
                asyncio.run(one_match(url.replace("http", "ws") + "/ws", args.sets, k))
                for k in range(args.matches)
            ]
            elapsed = time.monotonic() - t0
            cpu = sum(server.cpu_times()[:2]) - cpu0
            rss = server.memory_info().rss
            time.sleep(1.5)  # /healthz reads Redis's memory once a second
            after = health(url)["redis_memory"]["used"]
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    passes = sum(counts)
    bound = 2 * args.sets + 5
    print(f"{args.matches} matches of {args.sets} sets, passes only: {passes} passes in all")
    print(f"passes per match: min {min(counts)} max {max(counts)} (the bound: {bound})")
    print(f"server CPU per pass: {cpu / passes * 1e3:.2f} ms; {elapsed / passes * 1e3:.1f} ms wall")
    print(f"Redis bytes per pass (records and events kept): {(after - before) / passes:.0f}")
    print(f"server RSS: {rss0 / 2**20:.1f} MB before, {rss / 2**20:.1f} MB after")
    print(
        f"matches={args.matches} passes={passes} max_passes_per_match={max(counts)} "
        f"bound={bound} cpu_ms_per_pass={cpu / passes * 1e3:.2f} "
        f"redis_bytes_per_pass={(after - before) / passes:.0f} "
        f"rss_growth_mb={(rss - rss0) / 2**20:.1f}"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
