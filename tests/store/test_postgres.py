"""PostgreSQL as the system of record (server/store/postgres.py), against the real embedded
server: the migrations from an empty database and from each earlier version, three at once;
the schema's constraints; the archive's transaction, idempotent and serialised per player; the
embedded server ended with the process that started it, even by SIGKILL; an unreachable
database said in one line at start."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import asyncpg
import psutil
import pytest

from bench.ports import free_port
from server.accounts.store import AccountStore
from server.history.store import HistoryStore
from server.history.summary import summarise
from server.store.postgres import Database, migrate, migrations, schema_version
from tests.conftest import ROOT, RedisServer
from tests.pg import PgServer

SCHEMA = """
SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
 WHERE table_schema = 'public' ORDER BY 1, 2
"""
CONSTRAINTS = """
SELECT conrelid::regclass::text, contype, pg_get_constraintdef(oid) FROM pg_constraint
 WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2, 3
"""
INDEXES = "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1"


async def shape(conn: asyncpg.Connection[Any]) -> list[list[Any]]:
    """A database's tables, columns, constraints and indexes."""
    return [[tuple(r) for r in await conn.fetch(q)] for q in (SCHEMA, CONSTRAINTS, INDEXES)]


async def test_migrations_from_empty_apply_each_once(pg_server: PgServer):
    conn = await asyncpg.connect(pg_server.empty())
    try:
        assert await schema_version(conn) == 0
        latest = len(migrations())
        assert await migrate(conn) == list(range(1, latest + 1))
        assert await schema_version(conn) == latest
        assert await migrate(conn) == []  # once
        rows = await conn.fetch("SELECT version, name FROM schema_migrations ORDER BY 1")
        assert [(r["version"], r["name"]) for r in rows] == [(v, n) for v, n, _ in migrations()]
    finally:
        await conn.close()


async def test_migrations_from_each_earlier_version_reach_the_same_schema(pg_server: PgServer):
    full = await asyncpg.connect(pg_server.fresh())
    try:
        expected = await shape(full)
    finally:
        await full.close()
    latest = len(migrations())
    assert latest >= 2
    for version in range(1, latest):
        conn = await asyncpg.connect(pg_server.empty())
        try:
            assert await migrate(conn, target=version) == list(range(1, version + 1))
            assert await schema_version(conn) == version
            assert await migrate(conn) == list(range(version + 1, latest + 1))
            assert await shape(conn) == expected, version
        finally:
            await conn.close()


async def test_three_servers_starting_together_apply_each_migration_once(pg_server: PgServer):
    url = pg_server.empty()
    conns = [await asyncpg.connect(url) for _ in range(3)]
    try:
        applied = await asyncio.gather(*(migrate(c) for c in conns))
        assert sorted(v for a in applied for v in a) == list(range(1, len(migrations()) + 1))
        assert await conns[0].fetchval("SELECT count(*) FROM schema_migrations") == len(
            migrations()
        )
    finally:
        for c in conns:
            await c.close()


async def test_the_schema_refuses_what_python_would(database: Database):
    pool = database.pool
    accounts = AccountStore(None, database)  # type: ignore[arg-type]  # no Redis needed
    # a name taken, whatever its case, and by two at once: one wins
    results = await asyncio.gather(
        *(accounts.create(f"u{i}", "Mari", "mari", "h") for i in range(5))
    )
    assert sorted(results) == [False] * 4 + [True]
    assert not await accounts.create("u9", "MARI", "mari", "h")
    with pytest.raises(asyncpg.CheckViolationError):  # a name that is not its key's
        await pool.execute(
            "INSERT INTO accounts (uid, name_key, name, hash, created) VALUES ('u8', 'x', 'y',"
            " 'h', 0)"
        )
    with pytest.raises(asyncpg.ForeignKeyViolationError):  # a rating of no account
        await pool.execute(
            "INSERT INTO ratings (uid, mode, mu, sigma, matches, ordinal)"
            " VALUES ('nobody', 'singles', 25, 8, 0, 1)"
        )
    with pytest.raises(asyncpg.CheckViolationError):
        await pool.execute("INSERT INTO starts (id, entry) VALUES ('\\x00'::bytea, '\\x80'::bytea)")
    # a deleted account keeps its name's key: nobody else gets the name
    (uid,) = [f"u{i}" for i, ok in enumerate(results) if ok]
    await accounts.mark_deleted(uid)
    assert not await accounts.create("u7", "mari", "mari", "h")
    assert await accounts.account(uid) == {
        "created": (await accounts.account(uid) or {})["created"], "deleted": "1",
        "deleted_at": (await accounts.account(uid) or {})["deleted_at"],
    }  # fmt: skip
    assert await pool.fetchval("SELECT name IS NULL AND hash IS NULL FROM accounts") is True


def record(mid: str, ended: float, a: str = "ua", b: str = "ub") -> dict[str, Any]:
    """A finished rated singles record between accounts a and b (a wins)."""
    players = [
        {"seat": i, "team": i, "name": u.upper(), "sid": f"s{u}", "account": u}
        for i, u in enumerate((a, b))
    ]
    start = {"kind": "start", "at": ended - 5, "first_team": 0, "state": {"x": 1}}
    stroke = {"kind": "stroke", "at": ended - 4, "stroke": 1, "seat": 0, "own": 1,
              "shot": {"x": 0.1, "y": 0.2, "angle": 1.0, "speed": 2.0}, "hash": "ab" * 32,
              "ruling": {"seat": 0, "penalty": False, "pocketed": [3]}}  # fmt: skip
    reply = {**stroke, "at": ended - 3, "stroke": 2, "seat": 1, "own": 0,
             "ruling": {"seat": 1, "penalty": False, "pocketed": []}}  # fmt: skip
    return {
        "id": mid, "room": "r1", "game": "novuss", "mode": "singles", "sets": 1, "clock": 30.0,
        "players": players, "rated": True, "started": ended - 5, "ended": ended, "strokes": 2,
        "score": [1, 0], "result": {"winner": 0, "reason": "rounds"}, "private": False,
        "log": [start, stroke, reply, {"kind": "end", "at": ended, "result": {"winner": 0}}],
    }  # fmt: skip


async def archive(history: HistoryStore, rec: dict[str, Any]) -> Any:
    uids = [p["account"] for p in rec["players"]]
    return await history.archive(rec, uids, "singles", lambda s, _earlier: summarise(rec, s))


async def test_the_archive_is_one_row_however_often_and_ratings_move_one_after_the_other(
    database: Database,
):
    accounts = AccountStore(None, database)  # type: ignore[arg-type]
    history = HistoryStore(None, database)  # type: ignore[arg-type]
    for u in ("ua", "ub", "uc"):
        assert await accounts.create(u, u.upper(), u, "h")
    # the same match archived by three at once: one row, counted once
    done = await asyncio.gather(*(archive(history, record("m1", 100.0)) for _ in range(3)))
    assert sum(d is not None for d in done) == 1
    assert await database.pool.fetchval("SELECT count(*) FROM matches") == 1
    assert (await history.stats("ua"))["singles:matches"] == 1
    # ten matches of ua against ub and uc, archived at once: every one moves ua's rating
    await asyncio.gather(
        *(archive(history, record(f"m{k}", 200.0 + k, "ua", ("ub", "uc")[k % 2]))
          for k in range(2, 12))
    )  # fmt: skip
    skills = await history.skills(["ua", "ub", "uc"], "singles")
    assert skills["ua"][2] == 11 and skills["ub"][2] + skills["uc"][2] == 11
    history_points = await history.rating_history("ua", "singles", 100)
    assert len(history_points) == 11
    # each read the rating the one before left (ua won every one: eleven different steps up)
    assert len({p[1] for p in history_points}) == 11
    total, mids = await history.matches_of("ua", 0, 5)
    assert total == 11 and mids == ["m11", "m10", "m9", "m8", "m7"]
    page = await history.page_of("ua", 5, (208.0, "m8"))
    assert [m for _, m in page] == ["m7", "m6", "m5", "m4", "m3"]
    assert [m for _, m in await history.page_of("ua", 3)] == ["m11", "m10", "m9"]
    count, board = await history.leaderboard("singles", 0, 10)
    assert count == 3 and board[0] == "ua"
    await history.forget_player("ua", "deleted player")
    count, board = await history.leaderboard("singles", 0, 10)
    assert count == 2 and "ua" not in board
    (header,) = await history.headers(["m3"])
    assert header is not None
    assert [p["name"] for p in header["players"]] == ["deleted player", "UC"]


def test_the_embedded_postgres_ends_when_its_server_is_killed(reachable_dir: Path):
    """SIGKILL leaves no PostgreSQL behind: the kernel's parent-death signal ends it."""
    base = reachable_dir
    script = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from server.store.postgres import start_embedded_postgres
        pg = start_embedded_postgres(Path({str(base)!r}))
        print(pg.process.pid, flush=True)
        sys.stdin.read()  # until killed
    """)
    proc = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdout is not None
    postmaster = psutil.Process(int(proc.stdout.readline()))
    assert postmaster.is_running() and "postgres" in postmaster.name()
    children = postmaster.children()
    assert children, "the postmaster's own processes"
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    _gone, alive = psutil.wait_procs([postmaster, *children], timeout=30)
    assert alive == []
    # and the next start finds the folder as a fast shutdown left it
    again = subprocess.run(
        [sys.executable, "-c", "from pathlib import Path; from server.store.postgres import "
         f"start_embedded_postgres as s; p = s(Path({str(base)!r})); p.stop(); print('ok')"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert again.stdout.strip() == "ok", again.stderr
    assert not (base / "postgres" / "postmaster.pid").exists()


def test_an_unreachable_database_is_said_in_one_line_and_the_server_exits(
    redis_server: RedisServer, tmp_path: Path
):
    url = f"postgresql://postgres@/novuss?host={tmp_path / 'nothing-here'}"
    done = subprocess.run(
        [sys.executable, "-m", "server", "--port", str(free_port()), "--data-dir",
         str(tmp_path), "--redis-url", redis_server.url(next(redis_server.dbs)),
         "--database-url", url],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("novuss:")]
    assert len(errors) == 1 and "is unreachable" in errors[0], done.stderr
    assert "Traceback" not in done.stderr
