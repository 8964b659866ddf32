"""python -m bench.archive: what the match history costs, per match, in Redis.

Starts `python -m server` with its embedded Redis in a temporary directory, registers two
accounts, and has them play `--matches` rated singles matches of one set with the scripted
player (tests/server/server_bot.py). Once every match is archived it prints, per match:
the bytes of its record (header and log: `MEMORY USAGE`), of its archiving mark, and of the
four index entries it adds (each player's list and rating history), the strokes, and how many
matches a GB holds.

Then `--synthetic N` more matches are archived into the same two players' histories (each a
copy of a played match's header under a new id, written through HistoryStore.write as the
archivist writes), timing each write, and the profile's pages are read over HTTP at random
(p50 and p99 of `GET /api/players/{name}/matches?page=P` and of `GET /api/players/{name}`).
The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import aiohttp
import redis.asyncio as aioredis

from bench.load import free_port
from bench.soak import Player, Stats, fetch, start_server
from server.history.store import HistoryStore, pm_key, rh_key
from server.history.summary import summarise
from server.store.redis_store import _bytes, _entries, _map, _pack, log_key, match_key

PASSWORD = "a long bench password"
NAMES = ("BenchAda", "BenchBen")


async def register(url: str, name: str) -> dict[str, str]:
    """Register an account; the headers of a page of the server's own that is logged in."""
    jar = aiohttp.CookieJar(unsafe=True)
    body = {"username": name, "password": PASSWORD}
    async with (
        aiohttp.ClientSession(cookie_jar=jar) as s,
        s.post(url + "/api/account/register", json=body, headers={"Origin": url}) as r,
    ):
        r.raise_for_status()
        cookie = r.cookies["nv_login"].value
    return {"Origin": url, "Cookie": f"nv_login={cookie}"}


async def play_one(url: str, headers: list[dict[str, str]], stats: Stats, k: int) -> str:
    """One rated singles match of one set between the two accounts, played to its end."""
    players = [Player(f"p{k}-{i}", url, stats, h) for i, h in enumerate(headers)]
    for p in players:
        await p.connect()
    a, b = players
    await a.send("create", mode="singles", sets=1, clock=120, private=False, rated=True)
    await a.barrier()
    await b.send("join", room=a.rid)
    await b.barrier()
    for p in players:
        await p.send("ready")
    while a.mid is None:
        a.changed.clear()
        async with asyncio.timeout(20):
            await a.changed.wait()
    await asyncio.gather(*(p.play(300) for p in players))
    mid = a.mid
    for p in players:
        await p.close()
    assert mid is not None
    return mid


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, in ms."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(url: str, redis_url: str, matches: int, synthetic: int, seed: int) -> None:
    """Play, wait for the archive, measure, then grow the history and time the profile."""
    headers = [await register(url, n) for n in NAMES]
    stats = Stats()
    mids = [await play_one(url, headers, stats, k) for k in range(matches)]
    deadline = time.monotonic() + 60
    while fetch(url + "/healthz")["archived"] < matches and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    r = aioredis.Redis.from_url(redis_url)
    uids = [_bytes(await r.get(f"nv:uname:{n.lower()}")).decode() for n in NAMES]
    record = log = mark = strokes = packed = 0
    for mid in mids:
        entries = [_map(f[b"m"]) for f in _entries(await r.xrange(log_key(mid)))]
        packed += len(zlib.compress(_pack(entries), 6))
        record += await r.memory_usage(match_key(mid)) or 0
        log += await r.memory_usage(log_key(mid)) or 0
        mark += await r.memory_usage(f"nv:arc:{{{mid}}}") or 0
        strokes += int(_map(await r.get(match_key(mid)))["strokes"])
    index = 0
    for uid in uids:
        index += await r.memory_usage(pm_key(uid)) or 0
        index += await r.memory_usage(rh_key(uid, "singles")) or 0
    per = (record + log + mark + index) / matches
    print(f"{matches} rated singles matches of one set, {strokes / matches:.1f} strokes each")
    print(
        f"bytes per match: header {record / matches:.0f}, log {log / matches:.0f}"
        f" ({log / strokes:.0f} per stroke), archiving mark {mark / matches:.0f},"
        f" index entries (2 players' lists and rating histories) {index / matches:.0f};"
        f" total {per:.0f} -> {2**30 / per:,.0f} matches per GB"
    )
    print(
        f"the log as one msgpack blob, zlib level 6: {packed / matches:.0f} bytes per match"
        f" (what a compacted archive would keep); errors seen by the players: {stats.errors}"
    )

    # -- a long history: synthetic copies archived as the archivist does ---------------
    history = HistoryStore(r)
    template = _map(await r.get(match_key(mids[0])))
    template["log"] = []
    writes: list[float] = []
    for i in range(synthetic):
        mid = f"mbench{i:07d}"
        ended = 1.0e9 + i
        header = {**template, "id": mid, "ended": ended, "rated": False}
        await r.set(match_key(mid), _pack(header))
        plan = summarise({**header, "log": []}, {})
        start = time.perf_counter()
        await history.write(plan)
        writes.append(time.perf_counter() - start)
    rng = random.Random(seed)
    total = matches + synthetic
    pages, profiles = [], []
    async with aiohttp.ClientSession() as s:
        for _ in range(300):
            page = rng.randrange(max(1, total // 20))
            start = time.perf_counter()
            async with s.get(f"{url}/api/players/{NAMES[0]}/matches?page={page}") as resp:
                body: Any = await resp.json()
            pages.append(time.perf_counter() - start)
            assert resp.status == 200 and body["total"] == total, body
            start = time.perf_counter()
            async with s.get(f"{url}/api/players/{NAMES[0]}") as resp:
                await resp.read()
            profiles.append(time.perf_counter() - start)
    if writes:
        print(
            f"archive write per match ({synthetic} synthetic): p50 {pct(writes, 0.5):.2f} ms,"
            f" p99 {pct(writes, 0.99):.2f} ms, mean {1000 * statistics.mean(writes):.2f} ms"
        )
    print(
        f"with {total:,} matches in the player's list: matches page p50 {pct(pages, 0.5):.1f} ms"
        f" p99 {pct(pages, 0.99):.1f} ms; profile p50 {pct(profiles, 0.5):.1f} ms"
        f" p99 {pct(profiles, 0.99):.1f} ms"
    )
    print(
        f"bytes_per_match={per:.0f} matches_per_gb={2**30 / per:.0f}"
        f" write_p50_ms={pct(writes, 0.5) if writes else 0:.2f}"
        f" page_p50_ms={pct(pages, 0.5):.1f} page_p99_ms={pct(pages, 0.99):.1f}"
    )
    await r.aclose()


def main() -> None:
    """Parse the options, run, print."""
    ap = argparse.ArgumentParser(prog="python -m bench.archive", description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=4, help="matches played to their end")
    ap.add_argument("--synthetic", type=int, default=10_000, help="archived copies added")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(
            port, Path(tmp), {"speed_factor": 40, "frame_rate": 10, "redis_maxmemory": "1gb"}
        )
        try:
            url, redis_url = f"http://127.0.0.1:{port}", f"unix://{tmp}/redis.sock"
            asyncio.run(measure(url, redis_url, a.matches, a.synthetic, a.seed))
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
