"""python -m server.migrate --from-redis: a deployment from before PostgreSQL (its records in
Redis under the keys the old stores wrote) moved into a fresh database, every match verified
by replaying it as the archive keeps it, an altered one counted, and run twice the same."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from typing import Any

import msgpack
import redis

from server.games.registry import of_record
from server.store.archive import ArchiveReader
from server.store.postgres import Database
from tests.conftest import ROOT, RedisServer
from tests.pg import PgServer, rows
from tests.replay.crokinole_scripted import crokinole_record
from tests.replay.scripted import scripted_record

P = "nv:"


def packed(value: Any) -> bytes:
    return bytes(msgpack.packb(value, use_bin_type=True))


def old_deployment(r: redis.Redis) -> dict[str, Any]:
    """What the servers before PostgreSQL kept in Redis: two accounts (one deleted), a login,
    three archived matches (Novuss, Crokinole, and one whose log was altered since), one
    finished but not archived, the players' lists, figures, ratings and charts."""
    now = time.time()
    r.hset(P + "acct:{uA}", mapping={"name": "Aili", "hash": "$argon2id$a", "created": 10.0})
    r.set(P + "uname:aili", "uA")
    r.hset(P + "acct:{uB}", mapping={"created": 11.0, "deleted": "1", "deleted_at": 12.0})
    r.set(P + "uname:bert", "uB")
    token_hash = hashlib.sha256(b"a login token").hexdigest()
    r.set(P + "login:" + token_hash, "uA", px=3_600_000)
    r.sadd(P + "logins:{uA}", P + "login:" + token_hash)
    records = {
        "mn1": scripted_record(seed=3, strokes=20, sets=1),
        "mc1": crokinole_record(seed=2),
        "mbad": scripted_record(seed=5, strokes=10, sets=1),
        "mlive": scripted_record(seed=6, strokes=4, sets=1),
    }
    altered = next(e for e in records["mbad"]["log"] if e["kind"] == "stroke")
    altered["shot"]["speed"] *= 0.8  # its stored hash no longer follows
    for k, (mid, record) in enumerate(records.items()):
        record["id"] = mid
        record["ended"] = record.get("ended") or 1000.0 + k
        record["players"][0]["account"] = "uA"
        record["players"][1]["sid"] = f"s{k}"  # a guest
        log = record.pop("log")
        r.set(P + "match:{" + mid + "}", packed(record))
        for entry in log:
            r.xadd(P + "log:{" + mid + "}", {"m": packed(entry)})
        r.zadd(P + "matches", {mid: record["started"]})
        if mid == "mlive":
            r.xadd(P + "finished", {"m": mid})  # not archived yet: left to the archivist
            continue
        r.hset(P + "arc:{" + mid + "}", "done", 1)
        r.zadd(P + "pm:{uA}", {mid: record["ended"]})
        sid = record["players"][1]["sid"]
        r.zadd(P + "pm:{" + sid + "}", {mid: record["ended"]})
        r.expire(P + "pm:{" + sid + "}", 7 * 86400)
    r.hset(P + "stats:{uA}", mapping={"singles:matches": 3, "singles:win": 2})
    r.hset(P + "rating:{uA}", "singles", packed([27.5, 7.1, 3]))
    r.zadd(P + "lb:singles", {"uA": 27.5 - 3 * 7.1})
    r.rpush(P + "rh:{uA}:singles", packed([1000.0, 1530, "mn1"]), packed([1001.0, 1560, "mc1"]))
    r.sadd(P + "sids:{uA}", "sOld")
    # two tournaments: Aili's, being played, with a table's room; one of an account not there
    club = {"id": "tclub", "name": "Club", "organiser": "uA", "created": 900.0, "round": 1}
    r.hset(P + "tour:{tclub}", mapping={"v": 7, "doc": packed(club)})
    r.hset(P + "tour:{tlost}", mapping={"v": 1, "doc": packed({**club, "organiser": "uX"})})
    r.zadd(P + "tours", {"tclub": 900.0, "tlost": 901.0})
    r.sadd(P + "tours:live", "tclub")
    r.hset(P + "tour:rooms", mapping={"rclub1": "tclub", "rlost1": "tlost"})
    return {"records": records, "now": now}


def migrate(redis_url: str, database_url: str, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.migrate", "--from-redis", "--redis-url", redis_url,
         "--database-url", database_url, *more],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


async def test_a_deployment_moves_to_postgres_verified_by_its_replays(
    redis_server: RedisServer, pg_server: PgServer
):
    n = next(redis_server.dbs)
    redis_server.flush(n)
    r = redis.Redis.from_url(redis_server.url(n))
    made = old_deployment(r)
    url = pg_server.empty()  # the migration makes the schema too
    done = migrate(redis_server.url(n), url)
    assert done.returncode == 1, done.stderr  # one match did not verify
    last = done.stdout.strip().splitlines()[-1]
    assert last == (
        "accounts=2 logins=1 matches=3 verified=2 failed=1 unverifiable=0 listed=6 ratings=1"
        " rating_points=2 tournaments=1 tournaments_left=1"
    ), done.stdout
    assert "tournament left in Redis (its organiser has no account): tlost" in done.stdout
    assert "not verified (its replay differs from its record): mbad" in done.stdout
    accounts = {x["uid"]: dict(x) for x in await rows(url, "SELECT * FROM accounts")}
    assert accounts["uA"]["name"] == "Aili" and accounts["uA"]["hash"] == "$argon2id$a"
    assert accounts["uB"]["name"] is None and accounts["uB"]["deleted_at"] == 12.0
    (login,) = await rows(url, "SELECT * FROM logins")
    assert login["uid"] == "uA" and login["hash"] == hashlib.sha256(b"a login token").digest()
    assert 0 < login["expires"] - made["now"] <= 3600 + 1  # set a moment after "now"
    listed = await rows(url, "SELECT pid, mid, expires FROM player_matches ORDER BY 1, 2")
    assert [(x["pid"], x["mid"]) for x in listed if x["pid"] == "uA"] == [
        ("uA", "mbad"), ("uA", "mc1"), ("uA", "mn1"),
    ]  # fmt: skip
    assert all((x["expires"] is None) == (x["pid"] == "uA") for x in listed)
    (rating,) = await rows(url, "SELECT * FROM ratings")
    assert (rating["mu"], rating["sigma"], rating["matches"], rating["listed"]) == (
        27.5, 7.1, 3, True,
    )  # fmt: skip
    assert [x["sid"] for x in await rows(url, "SELECT sid FROM merged_sessions")] == ["sOld"]
    (tour,) = await rows(url, "SELECT tid, created, organiser, version, live, doc FROM tournaments")
    assert (tour["tid"], tour["created"], tour["organiser"], tour["version"], tour["live"]) == (
        "tclub", 900.0, "uA", 7, True,
    )  # fmt: skip
    assert msgpack.unpackb(tour["doc"]) == {"id": "tclub", "name": "Club", "organiser": "uA",
                                            "created": 900.0, "round": 1}  # fmt: skip
    assert [tuple(x) for x in await rows(url, "SELECT rid, tid FROM tournament_rooms")] == [
        ("rclub1", "tclub"),
    ]  # fmt: skip
    # what was archived replays from PostgreSQL, hash by hash and ruling by ruling
    db = Database(url)
    await db.open()
    try:
        reader = ArchiveReader(db)
        for mid in ("mn1", "mc1"):
            record = await reader.record(mid)
            assert record is not None
            replay = of_record(record).replay
            assert replay is not None
            checks = [c for c in replay.checks(record) if c.kind == "stroke"]
            assert checks and all(c.hash_ok and c.ruling_ok for c in checks), mid
        assert await reader.record("mlive") is None  # left to the archivist, in Redis
    finally:
        await db.close()
    assert r.xlen(P + "finished") == 1
    # again: nothing new, the same verdicts; then Redis drops what was copied
    again = migrate(redis_server.url(n), url, "--drop-redis")
    assert (
        again.stdout.strip()
        .splitlines()[-1]
        .startswith(
            "accounts=0 logins=0 matches=0 verified=2 failed=1 unverifiable=0 listed=0 ratings=0"
        )
    ), again.stdout
    assert not r.exists(P + "match:{mn1}", P + "log:{mn1}", P + "acct:{uA}", P + "pm:{uA}")
    assert r.exists(P + "match:{mlive}", P + "log:{mlive}") == 2
    assert len(await rows(url, "SELECT mid FROM matches")) == 3
    r.close()
