"""PostgreSQL for the tests: one real embedded server for the session (the one the game server
starts: server/store/postgres.py), a fresh database for each test or game server, made from a
template that holds the migrated schema (CREATE DATABASE ... TEMPLATE: milliseconds).

    def test_x(pg_server):
        url = pg_server.fresh()     # migrated, empty
        url = pg_server.empty()     # no schema at all (the migrations' own tests)

    async def test_y(database):     # a Database opened on a fresh one
        await database.pool.fetchval("SELECT 1")
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from server.store.postgres import (
    Database,
    EmbeddedPostgres,
    migrate,
    pg_bin,
    socket_url,
    start_embedded_postgres,
)

TEMPLATE = "novuss_template"


@dataclass
class PgServer:
    """The session's embedded PostgreSQL and the databases made in it."""

    embedded: EmbeddedPostgres
    names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def folder(self) -> Path:
        """Its data folder, which holds its socket."""
        return self.embedded.folder

    def url(self, database: str) -> str:
        """The URL of one of its databases."""
        return socket_url(self.folder, database)

    @staticmethod
    def name(url: str) -> str:
        """The database a URL of this server names."""
        return url.split("@/", 1)[1].split("?", 1)[0]

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL with psql (on the server's socket); its output."""
        done = subprocess.run(
            [str(pg_bin("psql")), "-h", str(self.folder), "-U", "postgres", "-d", database,
             "-v", "ON_ERROR_STOP=1", "-qAtc", sql],
            capture_output=True, text=True, check=True, timeout=60,
        )  # fmt: skip
        return done.stdout

    def empty(self) -> str:
        """A new database with no schema; its URL."""
        name = f"t{next(self.names)}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def fresh(self) -> str:
        """A new database with every migration applied and no rows; its URL."""
        name = f"t{next(self.names)}"
        self.psql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return self.url(name)


async def _migrate(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await migrate(conn)
    finally:
        await conn.close()


def reachable() -> Path:
    """A new folder under the system's temporary one, outside pytest's own: under root the
    embedded PostgreSQL runs as nobody, who must pass through every folder above its data,
    and pytest makes its base folder root's alone (0700) whenever a run starts, in any
    worktree of this machine."""
    return Path(tempfile.mkdtemp(prefix="novuss-pg-"))


@pytest.fixture
def reachable_dir() -> Iterator[Path]:
    """A data directory an embedded PostgreSQL can live in (see `reachable`), removed after."""
    path = reachable()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The embedded PostgreSQL for the whole run, with the migrated template."""
    base = reachable()
    embedded = start_embedded_postgres(base, durable=False)  # throw-away: no fsync
    server = PgServer(embedded)
    server.psql(f"CREATE DATABASE {TEMPLATE}")
    # in a thread of its own: a browser test's Playwright may be running an event loop here
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, _migrate(server.url(TEMPLATE))).result()
    yield server
    embedded.stop()
    # removed in the background: a database a test made is some 8 MB of small files, and
    # deleting a run's hundreds of them held the end of each pytest process 9 s and more
    subprocess.Popen(["rm", "-rf", str(base)], start_new_session=True)


@pytest.fixture
async def database(pg_server: PgServer) -> AsyncIterator[Database]:
    """A Database opened on a fresh, migrated database."""
    db = Database(pg_server.fresh())
    await db.open()
    yield db
    await db.close()


async def rows(url: str, sql: str, *args: object) -> list[asyncpg.Record]:
    """The rows of one query on a database (to look at what a server stored)."""
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()
