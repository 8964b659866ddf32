"""python -m bench.archive: what the match archive costs in PostgreSQL, and how fast it
answers (the goals of issue 33; docs/accounts.md, "Where data lives").

Starts `python -m server` in a temporary directory with its embedded Redis and embedded
PostgreSQL, registers two accounts and has them play `--played` rated singles matches of one
set with the scripted player (tests/server/server_bot.py). Those real records, made
`--strokes` long (36, the goal's match: `stretched`), are the templates of the synthetic
matches. First `--finished` of them are written into Redis as a room's commit writes a
finished match (its header, its log, its entry in the finished stream), a steady flow, and
archived by the server's own archivist, which drops their live keys: Redis's used memory less
its connections' (`redis_used` says why) is read before them, once the played matches' rooms
and sessions have lapsed, and after. Then the rest, to `--matches` in all, are archived here,
each written as the archivist writes it (HistoryStore.archive: one transaction with the players'
indexes, figures, ratings and rating history), `--writers` at a time, between `--players`
accounts, one of whom (BenchAda) plays in the first 100,000 of them (half of them with fewer;
hers unrated, so that the writers do not queue on her rating's lock, as they would on one
player's matches archived at once, which a player does not play). Each write is timed.

Then: the bytes on disk per match (tables and their indexes, over every match), a player's
page of 50 matches newest first by key with their headers (BenchAda's, at random places in
her list), and a page of 50 of the leaderboard with their ratings, each timed `--reads` times.
The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import redis.asyncio as aioredis

from bench.soak import Player, Stats, fetch, start_server, stop_redis
from server.accounts.store import AccountStore
from server.games.core.play import nearest_single
from server.history.archivist import repeats
from server.history.http import with_rulings
from server.history.store import Archived, HistoryStore, Skills
from server.history.summary import REPEAT_WINDOW, is_rated, rating_mode_of, summarise
from server.store.archive import ArchiveReader, pack_match
from server.store.postgres import Database, socket_url
from server.store.redis_store import _pack, log_key, match_key

PASSWORD = "a long bench password"
NAMES = ("BenchAda", "BenchBen")
HEAVY = 100_000  # matches in the one long list whose pages are timed
TABLES = ("matches", "starts", "player_matches", "ratings", "rating_history", "stats")


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
    """The q-quantile (0..1) of values (seconds), in ms."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def redis_used(redis_url: str) -> tuple[int, str]:
    """Redis's used memory less what its connections hold, bytes, with its slow log emptied,
    and what it is made of: its keys by kind (MEMORY USAGE), cached scripts, channels, the
    connections and their buffers, and what the slow log held (SLOWLOG: up to 128 commands
    that took over 10 ms, with their arguments; Redis's diagnostics, not state).

    The connections are left out because they are not what a match leaves behind, and they
    are what moved the figure (from +3 % to +6 % with the same keys before and after): the
    embedded Redis (6.2) gives a connection a query buffer of 32 kB while it reads a command
    and frees it a moment after, so each reading of `used_memory` holds one such buffer per
    connection caught busy (the reader's own, the archivist's blocked XREADGROUP, a writer's),
    each some 3 % of the 1 MB an idle Redis uses; `used_memory_dataset` holds them too, as it
    is `used_memory` less an overhead whose clients' part Redis samples every 100 ms. So the
    memory and the connections' (CLIENT LIST `tot-mem`: structure, query and output buffers)
    are read in one MULTI, at one instant."""
    r = aioredis.Redis.from_url(redis_url)
    try:
        slow = int(await r.slowlog_len())
        await r.slowlog_reset()
        async with r.pipeline(transaction=True) as pipe:
            pipe.info("memory")
            pipe.client_list()
            info, clients = await pipe.execute()
        used = int(info["used_memory"])
        held = sum(int(c["tot-mem"]) for c in clients)
        busy = sum(int(c["qbuf"]) + int(c["qbuf-free"]) > 0 for c in clients)
        keys = await r.dbsize()
        kinds: dict[str, int] = {}
        sizes: dict[str, int] = {}
        async for key in r.scan_iter(count=1000):  # the live keys: a few dozen here
            kind = key.decode().split(":")[1] if b":" in key else key.decode()
            kinds[kind] = kinds.get(kind, 0) + 1
            sizes[kind] = sizes.get(kind, 0) + int(await r.memory_usage(key) or 0)
        stats = await r.info("stats")
        made = (
            f"{used - held:,} bytes: {keys} keys"
            f" ({', '.join(f'{k} {n}: {sizes[k]:,} bytes' for k, n in kinds.items())}),"
            f" scripts {int(info.get('used_memory_scripts', 0)):,} bytes,"
            f" {stats.get('pubsub_channels')} channels, AOF buffer"
            f" {int(info.get('mem_aof_buffer', 0)):,} bytes; besides, {len(clients)}"
            f" connections holding {held:,} bytes ({busy} with a query buffer); used_memory"
            f" {used:,}; the slow log held {slow} commands"
        )
        return used - held, made
    finally:
        await r.aclose()


def stretched(template: dict[str, Any], strokes: int, rng: random.Random) -> dict[str, Any]:
    """A played record made a match of exactly `strokes` strokes (issue 33's goal is for a
    36-stroke match; the scripted players play 28 to 36): the strokes past it dropped, or more
    added after its last, each one of its strokes again with its shot moved by up to 5 %
    (float32, as the server strikes), a state hash of its own, and a mean stroke's time after
    the one before; its other entries (the end) after them. As much for deflate to find in an
    added stroke as in a played one, and no repeat of one. Not a match that replays: the
    bench measures bytes and times."""
    log = template["log"]
    at = [i for i, e in enumerate(log) if e.get("kind") == "stroke"]
    played = [log[i] for i in at]
    if not played:
        return template
    head, tail = log[: at[min(strokes, len(played)) - 1] + 1], log[at[-1] + 1 :]
    gap = (float(played[-1]["at"]) - float(played[0]["at"])) / max(1, len(played) - 1)
    last = dict(head[-1])
    for n in range(strokes - len(played)):
        entry = dict(played[n % len(played)])
        entry["shot"] = {
            k: nearest_single(float(v) * rng.uniform(0.95, 1.05)) for k, v in entry["shot"].items()
        }
        entry["stroke"] = int(last["stroke"]) + 1
        entry["at"] = float(last["at"]) + gap
        entry["hash"] = hashlib.sha256(f"{template['id']} {entry['stroke']}".encode()).hexdigest()
        head.append(entry)
        last = entry
    moved = float(last["at"]) - float(played[min(strokes, len(played)) - 1]["at"])
    tail = [{**e, "at": float(e["at"]) + moved} if "at" in e else e for e in tail]
    return {**template, "strokes": strokes, "ended": float(template["ended"]) + moved,
            "log": head + tail}  # fmt: skip


def synthetic(template: dict[str, Any], k: int, a: tuple[str, str], b: tuple[str, str]) -> Any:
    """Match k: a copy of a played record between accounts a and b (uid, name)."""
    players = []
    for p, (uid, name) in zip(template["players"], (a, b), strict=True):
        players.append({**p, "account": uid, "name": name, "sid": f"s{uid}"})
    ended = 1.5e9 + k * 10.0
    shift = ended - float(template["ended"])
    log = [{**e, "at": float(e["at"]) + shift} if "at" in e else e for e in template["log"]]
    return {**template, "id": f"mb{k:08d}", "room": f"rb{k:08d}", "players": players,
            "started": float(template["started"]) + shift, "ended": ended, "log": log}  # fmt: skip


async def measure(a: argparse.Namespace, url: str, data: Path) -> None:
    """Play, archive the synthetic rest, measure."""
    redis_url = f"unix://{data}/redis.sock"
    db = Database(socket_url(data / "postgres"))
    await db.open()
    redis = aioredis.Redis.from_url(redis_url)
    accounts, history = AccountStore(redis, db), HistoryStore(redis, db)
    headers = [await register(url, n) for n in NAMES]
    stats = Stats()
    mids = [await play_one(url, headers, stats, k) for k in range(a.played)]
    deadline = time.monotonic() + 120
    while fetch(url + "/healthz")["archived"] < a.played and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    reader = ArchiveReader(db)
    # as the live records were (their rulings and whole state hashes recomputed, as the
    # server serves them): the archivist archives the live record, not one read back
    templates = [with_rulings(t) for t in [await reader.record(m) for m in mids] if t]
    assert len(templates) == a.played, "a played match was not archived"
    strokes = statistics.mean(int(t["strokes"]) for t in templates)
    rng = random.Random(a.seed)
    made = [stretched(t, a.strokes, rng) for t in templates]

    def kept(t: dict[str, Any]) -> str:
        return (
            f"{t['strokes']} strokes {len(pack_match(t)[3])} bytes of inputs"
            f" ({sum(e['kind'] != 'stroke' for e in t['log'])} other entries)"
        )

    print(
        f"{a.played} rated singles matches of one set played, {strokes:.1f} strokes each;"
        f" errors seen by the players: {stats.errors}; archived: "
        f"{', '.join(kept(t) for t in templates)}; the synthetic matches are them made"
        f" {a.strokes} strokes long: {', '.join(kept(t) for t in made)}"
    )
    templates = made
    heavy = await accounts.uid_of(NAMES[0].lower())
    assert heavy is not None
    pool = []
    for i in range(a.players):
        uid, name = f"ub{i:06d}", f"Bench{i:06d}"
        await accounts.create(uid, name, name.lower(), "argon2id-not-really")
        pool.append((uid, name))

    # -- finished matches through Redis, archived by the server's archivist -------------------
    # the rooms close after their grace time, the sessions lapse: only live state stays
    deadline = time.monotonic() + 60
    while await redis.scard("nv:rooms") or await redis.keys("nv:sess:*"):
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.5)
    before, made_before = await redis_used(redis_url)
    started = time.perf_counter()
    for k in range(a.finished):
        record = synthetic(templates[k % len(templates)], HEAVY * 100 + k, *rng.sample(pool, 2))
        log = record.pop("log")
        async with redis.pipeline(transaction=True) as pipe:  # as a room's commit writes it
            for entry in log:
                pipe.xadd(log_key(record["id"]), {"m": _pack(entry)})
            pipe.set(match_key(record["id"]), _pack(record))
            pipe.zadd("nv:matches", {record["id"]: record["started"]})
            pipe.xadd("nv:finished", {"m": record["id"]})
            await pipe.execute()
        while await redis.xlen("nv:finished") > 200:  # a steady flow, not one heap
            await asyncio.sleep(0.05)
    deadline = time.monotonic() + 600
    while fetch(url + "/healthz")["archived"] < a.played + a.finished or await redis.xlen(
        "nv:finished"
    ):
        if time.monotonic() > deadline:
            raise RuntimeError("the archivist did not keep up")
        await asyncio.sleep(0.2)
    took = time.perf_counter() - started
    after, made_after = await redis_used(redis_url)
    growth = 100.0 * (after - before) / before
    print(
        f"{a.finished:,} finished matches through Redis, archived by the server in {took:.0f} s;"
        f" Redis used {before:,} bytes (less its connections') before them, {after:,} after"
        f" ({growth:+.2f} %);"
        f" before: {made_before}; after: {made_after}"
    )

    # -- the synthetic rest, archived as the archivist archives ------------------------------
    writes: list[float] = []
    total = a.matches - a.played - a.finished
    heavy_share = min(HEAVY, total // 2)  # her matches; the rest between the others, rated
    queue: asyncio.Queue[int] = asyncio.Queue()
    for k in range(total):
        queue.put_nowait(k)

    async def writer() -> None:
        while not queue.empty():
            k = queue.get_nowait()
            first = (heavy, NAMES[0]) if k < heavy_share else rng.choice(pool)
            second = rng.choice(pool)
            record = synthetic(templates[k % len(templates)], k, first, second)
            if k < heavy_share:  # unrated: the writers would otherwise queue on her rating's lock
                record["rated"] = False
            rated = [p["account"] for p in record["players"]] if is_rated(record) else []

            def plan(
                skills: Skills, earlier: list[dict[str, Any]], record: dict[str, Any] = record
            ) -> Archived:
                return summarise(record, skills, None, repeats(record, earlier))

            start = time.perf_counter()
            await history.archive(record, rated, rating_mode_of(record), plan, REPEAT_WINDOW)
            writes.append(time.perf_counter() - start)
            if len(writes) % 10_000 == 0:
                print(f"  {len(writes):,} archived", flush=True)

    started = time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(a.writers)))
    took = time.perf_counter() - started
    async with db.pool.acquire() as conn:
        await conn.execute("VACUUM ANALYZE")
        sizes = {
            t: int(await conn.fetchval("SELECT pg_total_relation_size($1)", t)) for t in TABLES
        }
        matches = int(await conn.fetchval("SELECT count(*) FROM matches"))
        inputs = float(await conn.fetchval("SELECT avg(length(inputs)) FROM matches"))
        header = float(await conn.fetchval("SELECT avg(length(header)) FROM matches"))
        heap_pages = int(
            await conn.fetchval(
                "SELECT pg_relation_size('matches') / current_setting('block_size')::int"
            )
        )
        listed = int(
            await conn.fetchval("SELECT count(*) FROM player_matches WHERE pid = $1", heavy)
        )
        cursors = [
            (r["ended"], r["mid"])
            for r in await conn.fetch(
                "SELECT ended, mid FROM player_matches WHERE pid = $1 AND NOT private"
                " ORDER BY random() LIMIT $2",
                heavy, a.reads,
            )
        ]  # fmt: skip
        rated = int(await conn.fetchval("SELECT count(*) FROM ratings WHERE mode = 'singles'"))
    per = sum(sizes.values()) / matches
    print(
        f"archived {total:,} synthetic matches with {a.writers} writers in {took:.0f} s"
        f" ({total / took:,.0f}/s): write p50 {pct(writes, 0.5):.2f} ms,"
        f" p99 {pct(writes, 0.99):.2f} ms"
    )
    print(
        f"{matches:,} matches on disk: {per:.0f} bytes per match, tables with their indexes"
        f" ({', '.join(f'{t} {s / matches:.0f}' for t, s in sizes.items())});"
        f" a row's header {header:.0f} bytes, inputs {inputs:.0f} bytes;"
        f" {matches / max(1, heap_pages):.1f} rows a page of the table"
    )

    # -- reads ----------------------------------------------------------------------------------
    pages: list[float] = []
    for cursor in cursors:
        start = time.perf_counter()
        page = await history.page_of(heavy, 50, cursor)
        await history.headers([mid for _, mid in page])
        pages.append(time.perf_counter() - start)
    offsets: list[float] = []  # the HTTP API's pages (?page=N): by offset, with the count
    for _ in range(a.reads):
        start = time.perf_counter()
        _, page_mids = await history.matches_of(heavy, rng.randrange(max(1, listed - 50)), 50)
        await history.headers(page_mids)
        offsets.append(time.perf_counter() - start)
    boards: list[float] = []
    for _ in range(a.reads):
        start = time.perf_counter()
        _, uids = await history.leaderboard("singles", rng.randrange(max(1, rated - 50)), 50)
        await history.skills(uids, "singles")
        boards.append(time.perf_counter() - start)
    print(
        f"a page of 50 of a list of {listed:,} matches (keyset, with headers): p50"
        f" {pct(pages, 0.5):.2f} ms p99 {pct(pages, 0.99):.2f} ms (by offset and counted, as"
        f" the HTTP API's ?page=N: p50 {pct(offsets, 0.5):.2f} ms p99 {pct(offsets, 0.99):.2f}"
        f" ms); a page of 50 of the"
        f" leaderboard of {rated:,} (with ratings): p50 {pct(boards, 0.5):.2f} ms"
        f" p99 {pct(boards, 0.99):.2f} ms"
    )
    print(
        f"matches={matches} bytes_per_match={per:.0f} write_p99_ms={pct(writes, 0.99):.2f}"
        f" page_p99_ms={pct(pages, 0.99):.2f} leaderboard_p99_ms={pct(boards, 0.99):.2f}"
        f" redis_growth_pct={growth:.2f}"
    )
    await redis.aclose()
    await db.close()


def main() -> None:
    """Parse the options, run, print."""
    ap = argparse.ArgumentParser(prog="python -m bench.archive", description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=1_000_000, help="matches archived in all")
    ap.add_argument("--played", type=int, default=4, help="of them, played to their end")
    ap.add_argument(
        "--finished", type=int, default=10_000,
        help="of them, finished through Redis and archived by the server (Redis's growth)",
    )  # fmt: skip
    ap.add_argument(
        "--strokes", type=int, default=36,
        help="strokes of each synthetic match (the goal's: 36); the played ones' made so",
    )  # fmt: skip
    ap.add_argument("--players", type=int, default=2000, help="accounts of the synthetic ones")
    ap.add_argument("--writers", type=int, default=4, help="archive writes at a time")
    ap.add_argument("--reads", type=int, default=500, help="pages of each kind timed")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(
            Path(tmp),
            {
                "speed_factor": 40,
                "redis_maxmemory": "1gb",
                "grace_seconds": 2,
                "session_ttl": 3,
            },
        )
        try:
            asyncio.run(measure(a, f"http://127.0.0.1:{port}", Path(tmp)))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            stop_redis(Path(tmp))  # before its folder goes


if __name__ == "__main__":
    main()
