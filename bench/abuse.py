"""What one client can cost everyone else: `python -m bench.abuse`.

    python -m bench.abuse [--seconds 20] [--settle 30] [--addresses 64] [--only NAME ...]

Starts `python -m server` with its default limits (embedded Redis in a temporary
directory), seats an honest singles match and an honest watcher on 127.0.0.1 (playing, and
pinging ten times a second), then runs each attack of bench/abuse_attacks.py for --seconds
from 127.0.0.2 (one address) or 127.0.0.2 ... 127.0.0.(1 + --addresses) (the `_many` ones),
and lets the server settle for --settle seconds after each. Per attack it prints:

- the honest players' and watcher's ping p99 during the attack (ms);
- the longest event-loop stall seen by the server in the attack (ms, /healthz
  `loop_stall_ms`: collector pauses included);
- the server's RSS before, at its peak, and after settling (MB);
- Redis memory added per minute (MB, `used_memory_dataset`) and keys added;
- what the honest clients lost (dropped connections, unanswered pings) and the refusals
  they got;
- what the attack itself achieved.

The last line is machine-readable. The goals (issues 20 and 24, docs/reliability.md):
honest p99 under 50 ms, RSS back within 20 % of its start, Redis growth under 1 MB a minute
from one address and 64 MB from 64, nothing lost or refused.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import psutil
import redis

from bench.abuse_attacks import ATTACKS, Context
from bench.abuse_honest import Table
from bench.soak import start_server


@dataclass
class Row:
    """One attack's figures."""

    name: str
    many: bool
    player_p99: float
    watcher_p99: float
    stall_ms: float
    rss_before: float
    rss_peak: float
    rss_after: float
    redis_mb_min: float
    keys: int
    lost: int
    refused: int
    achieved: str

    def line(self) -> str:
        return (
            f"{self.name:22} p99 {self.player_p99:6.1f}/{self.watcher_p99:6.1f} ms  "
            f"stall {self.stall_ms:6.1f} ms  RSS {self.rss_before:5.1f}>{self.rss_peak:5.1f}>"
            f"{self.rss_after:5.1f} MB  redis {self.redis_mb_min:+6.2f} MB/min {self.keys:+6d} "
            f"keys  lost {self.lost} refused {self.refused}  ({self.achieved})"
        )


def health(url: str) -> dict[str, Any]:
    with urlopen(url + "/healthz", timeout=10) as r:
        value = json.loads(r.read())
    return value if isinstance(value, dict) else {}


def dataset(store: redis.Redis) -> int:
    """The bytes Redis holds for the data (its clients' buffers and its own overhead left
    out: they come and go with connections, not with what a client made it keep)."""
    return int(store.info("memory")["used_memory_dataset"])


async def sample(url: str, proc: psutil.Process, until: float) -> tuple[float, float]:
    """Peak RSS (MB) and the longest loop stall (ms) while an attack runs."""
    peak = stall = 0.0
    while time.monotonic() < until:
        peak = max(peak, proc.memory_info().rss / 2**20)
        with contextlib.suppress(OSError, KeyError, ValueError):
            stall = max(stall, float((await asyncio.to_thread(health, url))["loop_stall_ms"]))
        await asyncio.sleep(0.5)
    return peak, stall


async def run_attack(
    name: str, url: str, table: Table, proc: psutil.Process, store: redis.Redis, args: Any
) -> Row:
    """One attack, measured, then the settling time."""
    attack, many = ATTACKS[name]
    addresses = [f"127.0.0.{2 + k}" for k in range(args.addresses if many else 1)]
    rss_before = proc.memory_info().rss / 2**20
    used0, keys0 = dataset(store), store.dbsize()
    table.reset()
    t0 = time.monotonic()
    until = t0 + args.seconds
    ctx = Context(url, table.rid, addresses, until)
    achieved, (peak, stall) = await asyncio.gather(attack(ctx), sample(url, proc, until))
    player_p99, watcher_p99, lost, refused = table.figures()
    minutes = (time.monotonic() - t0) / 60
    used1, keys1 = dataset(store), store.dbsize()
    await asyncio.sleep(args.settle)
    return Row(
        name,
        many,
        player_p99,
        watcher_p99,
        stall,
        rss_before,
        max(peak, rss_before),
        proc.memory_info().rss / 2**20,
        (used1 - used0) / 2**20 / minutes,
        int(keys1) - int(keys0),
        lost,
        refused,
        achieved,
    )


async def bench(url: str, proc: psutil.Process, data: Path, args: Any) -> list[Row]:
    """Every chosen attack in turn, against one honest match."""
    store = redis.Redis(unix_socket_path=str(data / "redis.sock"))
    table = Table(url)
    await table.start()
    await asyncio.sleep(2.0)  # the match under way before the first attack
    rows = []
    try:
        for name in args.only or list(ATTACKS):
            row = await run_attack(name, url, table, proc, store, args)
            print(row.line(), flush=True)
            rows.append(row)
    finally:
        await table.close()
        store.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    """Run the attacks and print their figures."""
    ap = argparse.ArgumentParser(prog="python -m bench.abuse", description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="each attack's length")
    ap.add_argument("--settle", type=float, default=30.0, help="quiet seconds after each")
    ap.add_argument("--addresses", type=int, default=64, help="addresses of the _many attacks")
    ap.add_argument("--only", nargs="*", choices=list(ATTACKS), help="these attacks only")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="abuse-") as tmp:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = start_server(port, Path(tmp), {"appendfsync": "everysec"})
        url = f"http://127.0.0.1:{port}"
        try:
            proc = psutil.Process(server.pid)
            baseline = proc.memory_info().rss / 2**20
            rows = asyncio.run(bench(url, proc, Path(tmp), args))
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                print("the server did not stop on SIGTERM in 20 s; killed", flush=True)
                server.kill()
                server.wait()
                pidfile = Path(tmp) / "redis.pid"  # its embedded Redis outlives a kill
                if pidfile.exists():
                    os.kill(int(pidfile.read_text()), signal.SIGKILL)
    one = [r.redis_mb_min for r in rows if not r.many] or [0.0]
    many = [r.redis_mb_min for r in rows if r.many] or [0.0]
    growth = max(r.rss_after for r in rows) / baseline * 100 - 100 if rows else 0.0
    print(
        f"attacks={len(rows)} worst_honest_p99_ms={max(r.player_p99 for r in rows):.1f} "
        f"worst_watcher_p99_ms={max(r.watcher_p99 for r in rows):.1f} "
        f"worst_stall_ms={max(r.stall_ms for r in rows):.1f} "
        f"worst_rss_growth_pct={growth:.0f} "
        f"worst_redis_mb_per_min_one_addr={max(one):.2f} "
        f"worst_redis_mb_per_min_many_addr={max(many):.2f} "
        f"honest_lost={sum(r.lost for r in rows)} honest_refused={sum(r.refused for r in rows)}"
    )


if __name__ == "__main__":
    main()
