"""python -m server.migrate: the database's schema, and an existing deployment's records moved
from Redis into PostgreSQL (docs/accounts.md, "Moving a deployment to PostgreSQL").

    python -m server.migrate                  apply the schema's migrations, and stop
    python -m server.migrate --from-redis     also copy what Redis kept for good

--from-redis copies the accounts (names, password hashes, deleted ones), the logins (by their
tokens' hashes, with the time they have left), every archived match (its header and its
inputs, server/store/archive.py), each player's list of matches, the figures, the ratings (off
the leaderboard where they were), the rating histories and the guest sessions accounts took
over. Every match is verified before it is written: its record as Redis holds it is packed as
the archive keeps it, read back and replayed by its game, and each stroke's recomputed state
hash and ruling must be the stored ones. A match that does not replay so is still copied (its
record is all there is of it), and counted; the last line says how many of each. Run it
while no server writes (a rolling upgrade would archive meanwhile, and those matches are
skipped as already there). It can be run again: what is there already is left as it is.
Matches that finished but were not archived yet stay in Redis's stream: the archivist of the
new servers archives them. The tournaments are copied with their documents' versions, whether
they are being played and their tables' rooms (one whose organiser has no account is left, and
counted). `--drop-redis` deletes what was copied from Redis afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import msgpack
import redis.asyncio as aioredis

from server.games.registry import of_record
from server.games.seam import ReplayError
from server.store.archive import pack_match, unpack_match
from server.store.embedded import start_embedded
from server.store.postgres import Database, PostgresError, start_embedded_postgres
from server.store.redis_store import P, _bytes, _entries, _map, log_key, match_key

BATCH = 500  # keys read a pipeline


@dataclass
class Counts:
    """What was copied, and what could not be verified."""

    accounts: int = 0
    logins: int = 0
    matches: int = 0
    verified: int = 0
    failed: list[str] = field(default_factory=list)  # replayed to other hashes or rulings
    unverifiable: list[str] = field(default_factory=list)  # a game with no replay
    listed: int = 0
    ratings: int = 0
    points: int = 0
    tournaments: int = 0
    orphans: list[str] = field(default_factory=list)  # tournaments of an unknown organiser

    def line(self) -> str:
        """The machine-readable summary."""
        return (
            f"accounts={self.accounts} logins={self.logins} matches={self.matches}"
            f" verified={self.verified} failed={len(self.failed)}"
            f" unverifiable={len(self.unverifiable)} listed={self.listed}"
            f" ratings={self.ratings} rating_points={self.points}"
            f" tournaments={self.tournaments} tournaments_left={len(self.orphans)}"
        )


def _text(value: Any) -> str:
    return _bytes(value).decode()


async def _keys(redis: aioredis.Redis, pattern: str) -> list[str]:
    return sorted([_text(k) async for k in redis.scan_iter(match=pattern, count=1000)])


def verify(record: dict[str, Any]) -> bool | None:
    """Does the record, as the archive keeps it, replay to its stored hashes and rulings? None
    for a game with no replay."""
    replay = of_record(record).replay
    if replay is None:
        return None
    _, start, header, inputs = pack_match(record)
    archived = unpack_match(start, header, inputs)
    try:
        checks = list(replay.checks(archived))
    except ReplayError:
        return False
    strokes = sum(e.get("kind") == "stroke" for e in record.get("log", []))
    judged = [c for c in checks if c.kind == "stroke"]
    return all(c.ok for c in checks) and len(judged) == strokes


async def copy_accounts(redis: aioredis.Redis, conn: Any, counts: Counts) -> None:
    """The accounts (by their usernames, so a record no name points to is left) and logins."""
    now = time.time()
    for key in await _keys(redis, P + "uname:*"):
        uid = _text(await redis.get(key))
        raw = await redis.hgetall(P + "acct:{" + uid + "}")
        acct = {_text(k): _text(v) for k, v in raw.items()}
        if not acct:
            continue
        deleted = acct.get("deleted") == "1"
        done = await conn.fetchval(
            "INSERT INTO accounts (uid, name_key, name, hash, created, deleted_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1",
            uid, key[len(P + "uname:") :], None if deleted else acct.get("name"),
            None if deleted else acct.get("hash"), float(acct.get("created", now)),
            float(acct.get("deleted_at", now)) if deleted else None,
        )  # fmt: skip
        counts.accounts += done is not None
    for key in await _keys(redis, P + "login:*"):
        owner, ms = await redis.get(key), await redis.pttl(key)
        if owner is None or ms is None or ms <= 0:
            continue
        done = await conn.fetchval(
            "INSERT INTO logins (hash, uid, expires) SELECT $1, $2, $3 WHERE EXISTS"
            " (SELECT 1 FROM accounts WHERE uid = $2 AND deleted_at IS NULL)"
            " ON CONFLICT DO NOTHING RETURNING 1",
            bytes.fromhex(key[len(P + "login:") :]), _text(owner), now + ms / 1000,
        )  # fmt: skip
        counts.logins += done is not None


async def copy_matches(redis: aioredis.Redis, conn: Any, counts: Counts) -> set[str]:
    """Every archived match (its `arc:` mark done), verified; the ids now in PostgreSQL."""
    present: set[str] = set()
    marks = await _keys(redis, P + "arc:*")
    for mark in marks:
        if await redis.hget(mark, "done") is None:
            continue  # not archived yet: the new archivist does it from the stream
        mid = mark[len(P + "arc:{") : -1]
        blob = await redis.get(match_key(mid))
        if blob is None:
            continue
        record = _map(blob)
        record["log"] = [_map(f[b"m"]) for f in _entries(await redis.xrange(log_key(mid)))]
        if record.get("ended") is None:
            continue
        ok = verify(record)
        if ok is None:
            counts.unverifiable.append(mid)
        elif ok:
            counts.verified += 1
        else:
            counts.failed.append(mid)
        start_id, start, header, inputs = pack_match(record)
        async with conn.transaction():
            await conn.execute(
                "INSERT INTO starts (id, entry) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                start_id, start,
            )  # fmt: skip
            done = await conn.fetchval(
                "INSERT INTO matches (mid, game, started, ended, private, start, header, inputs)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING 1",
                mid, str(record.get("game") or "novuss"),
                float(record.get("started") or record["ended"]), float(record["ended"]),
                bool(record.get("private")), start_id, header, inputs,
            )  # fmt: skip
        counts.matches += done is not None
        present.add(mid)
    return present


async def copy_players(redis: aioredis.Redis, conn: Any, counts: Counts, present: set[str]) -> None:
    """Each player's lists, figures, ratings, rating histories and merged sessions."""
    now = time.time()
    for prefix, private in (("pm:", False), ("pmp:", True)):
        for key in await _keys(redis, P + prefix + "*"):
            pid = key[len(P + prefix + "{") : -1]
            ttl = await redis.ttl(key)
            expires = now + ttl if ttl and ttl > 0 else None
            rows: Any = await redis.zrange(key, 0, -1, withscores=True)
            batch = [(pid, private, float(s), _text(m), expires) for m, s in rows
                     if _text(m) in present]  # fmt: skip
            await conn.executemany(
                "INSERT INTO player_matches (pid, private, ended, mid, expires)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                batch,
            )
    known = {r["uid"] for r in await conn.fetch("SELECT uid FROM accounts")}
    for key in await _keys(redis, P + "stats:*"):
        uid = key[len(P + "stats:{") : -1]
        if uid not in known:
            continue
        raw = await redis.hgetall(key)
        await conn.executemany(
            "INSERT INTO stats (uid, counter, value) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            [(uid, _text(k), int(v)) for k, v in raw.items()],
        )
    for key in await _keys(redis, P + "rating:*"):
        uid = key[len(P + "rating:{") : -1]
        if uid not in known:
            continue
        for mode_raw, blob in (await redis.hgetall(key)).items():
            mode = _text(mode_raw)
            mu, sigma, n = msgpack.unpackb(blob)
            listed = await redis.zscore(P + "lb:" + mode, uid) is not None
            done = await conn.fetchval(
                "INSERT INTO ratings (uid, mode, mu, sigma, matches, ordinal, listed)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING 1",
                uid, mode, float(mu), float(sigma), int(n), float(mu) - 3 * float(sigma), listed,
            )  # fmt: skip
            counts.ratings += done is not None
            points = [msgpack.unpackb(r) for r in await redis.lrange(
                P + "rh:{" + uid + "}:" + mode, 0, -1)]  # fmt: skip
            chart = [(uid, mode, float(at), int(shown), str(mid)) for at, shown, mid in points
                     if str(mid) in present]  # fmt: skip
            await conn.executemany(
                "INSERT INTO rating_history (uid, mode, at, shown, mid)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                chart,
            )
    for key in await _keys(redis, P + "sids:*"):
        uid = key[len(P + "sids:{") : -1]
        if uid in known:
            await conn.executemany(
                "INSERT INTO merged_sessions (uid, sid) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [(uid, _text(s)) for s in await redis.smembers(key)],
            )


async def copy_tournaments(redis: aioredis.Redis, conn: Any, counts: Counts) -> None:
    """Each tournament's document and version, whether it is being played, its tables' rooms."""
    live = {_text(t) for t in await redis.smembers(P + "tours:live")}
    for key in await _keys(redis, P + "tour:{*"):
        tid = key[len(P + "tour:{") : -1]
        v, blob = await redis.hmget(key, ["v", "doc"])
        if v is None or blob is None:
            continue
        doc = msgpack.unpackb(_bytes(blob), raw=False, strict_map_key=False)
        done = await conn.fetchval(
            "INSERT INTO tournaments (tid, created, organiser, version, live, doc)"
            " SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM accounts WHERE uid = $3)"
            " ON CONFLICT DO NOTHING RETURNING 1",
            tid, float(doc.get("created") or 0.0), str(doc.get("organiser")), int(v),
            tid in live, _bytes(blob),
        )  # fmt: skip
        if done is None and not await conn.fetchval(
            "SELECT 1 FROM tournaments WHERE tid = $1", tid
        ):
            counts.orphans.append(tid)
        counts.tournaments += done is not None
    rooms = await redis.hgetall(P + "tour:rooms")
    await conn.executemany(
        "INSERT INTO tournament_rooms (rid, tid) SELECT $1, $2 WHERE EXISTS"
        " (SELECT 1 FROM tournaments WHERE tid = $2) ON CONFLICT DO NOTHING",
        [(_text(r), _text(t)) for r, t in rooms.items()],
    )


async def drop_copied(redis: aioredis.Redis, present: set[str]) -> int:
    """Delete from Redis what now lives in PostgreSQL; how many keys."""
    keys = [match_key(m) for m in present] + [log_key(m) for m in present]
    keys += [P + "arc:{" + m + "}" for m in present]
    for pattern in ("uname:*", "acct:*", "login:*", "logins:*", "pm:*", "pmp:*", "stats:*",
                    "rating:*", "rh:*", "lb:*", "sids:*", "tour:{*", "tours", "tours:live",
                    "tour:rooms"):  # fmt: skip
        keys += await _keys(redis, P + pattern)
    for i in range(0, len(keys), BATCH):
        async with redis.pipeline(transaction=False) as pipe:  # one key a command
            for k in keys[i : i + BATCH]:
                pipe.delete(k)
            await pipe.execute()
    if present:
        await redis.zrem(P + "matches", *present)
    return len(keys)


async def from_redis(redis: aioredis.Redis, db: Database, drop: bool) -> Counts:
    """Copy everything (see the module's docstring); the counts."""
    counts = Counts()
    listed, charted = "SELECT count(*) FROM player_matches", "SELECT count(*) FROM rating_history"
    async with db.pool.acquire() as conn:
        before = int(await conn.fetchval(listed)), int(await conn.fetchval(charted))
        await copy_accounts(redis, conn, counts)
        present = await copy_matches(redis, conn, counts)
        await copy_players(redis, conn, counts, present)
        await copy_tournaments(redis, conn, counts)
        counts.listed = int(await conn.fetchval(listed)) - before[0]
        counts.points = int(await conn.fetchval(charted)) - before[1]
    if drop:
        await drop_copied(redis, present)
    return counts


async def run(args: argparse.Namespace) -> int:
    """Migrate (and copy); the exit status."""
    embedded = None if args.database_url else start_embedded_postgres(Path(args.data_dir))
    db = Database(embedded.url if embedded is not None else args.database_url)
    try:
        await db.open()
        print("schema up to date", flush=True)
        if not args.from_redis:
            return 0
        url = args.redis_url or start_embedded(Path(args.data_dir))
        redis = aioredis.Redis.from_url(url)
        try:
            counts = await from_redis(redis, db, args.drop_redis)
        finally:
            await redis.aclose()
        for mid in counts.failed:
            print(f"not verified (its replay differs from its record): {mid}", flush=True)
        for mid in counts.unverifiable:
            print(f"not verified (its game has no replay): {mid}", flush=True)
        for tid in counts.orphans:
            print(f"tournament left in Redis (its organiser has no account): {tid}", flush=True)
        print(counts.line(), flush=True)
        return 1 if counts.failed else 0
    except (PostgresError, asyncpg.PostgresError) as e:
        print(f"novuss: {e}", file=sys.stderr, flush=True)
        return 2
    finally:
        await db.close()
        if embedded is not None:
            embedded.stop()


def main(argv: list[str] | None = None) -> None:
    """Parse the options and run."""
    ap = argparse.ArgumentParser(
        prog="python -m server.migrate", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--from-redis", action="store_true", help="copy Redis's records (see above)")
    ap.add_argument("--redis-url", default="", help="the Redis (empty: the embedded one)")
    ap.add_argument("--database-url", default="", help="PostgreSQL (empty: the embedded one)")
    ap.add_argument("--data-dir", default="data", help="where the embedded ones keep their files")
    ap.add_argument("--drop-redis", action="store_true", help="delete what was copied from Redis")
    raise SystemExit(asyncio.run(run(ap.parse_args(argv))))


if __name__ == "__main__":
    main()
