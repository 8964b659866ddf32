"""Rooms expiring together: what closing them costs the clock loop (issue 37).

    python -m bench.expiry [--rooms 1200] [--per-tick 32]

A redis-server of its own (as bench/commit.py), and this process's real room runtime
(server/net/runtime.py) over a real Store: --rooms rooms, each with one player who dropped at
the same moment (as a spammer closing all its sockets at once), and one honest singles match
in play. Then the clock loop's ticks (0.1 s apart) from the moment their grace ends, until
every spam room is closed: first with every room closed in the one tick (the code before:
no limit), then at most --per-tick a tick (server/net/runtime.py EXPIRE_PER_TICK). Per run:
the ticks it took, the longest tick (wall ms: the honest rooms' clocks wait that long for
the next tick), and the longest event-loop stall (a 10 ms heartbeat's worst lateness). The
last line is machine-readable.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from bench.commit import own_redis
from server.cluster.bus import Bus
from server.games.core.play import Settings
from server.lobby.lobby import Lobby
from server.net.conn import Connections
from server.net.runtime import EXPIRE_PER_TICK, RoomRuntime
from server.store.redis_store import Store, lease_key

TICK = 0.1  # the server's default --tick-seconds
GRACE = 20.0  # server/lobby/room.py WAITING_GRACE: a room without a match


async def _ignore(_message: list[Any]) -> None:
    """The bus's handler: nothing arrives here (the bus is not started)."""


async def heartbeat(worst: list[float], stop: asyncio.Event) -> None:
    """The loop's worst lateness (ms) for a 10 ms sleep, until `stop`."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(0.01)
        worst[0] = max(worst[0], (time.perf_counter() - t0 - 0.01) * 1e3)


async def one_run(url: str, rooms: int, per_tick: int) -> tuple[int, float, float]:
    """(ticks to close every spam room, longest tick ms, longest loop stall ms)."""
    store = Store(url)
    await store.redis.flushdb()
    bus = Bus(store.redis, "bench-expiry", _ignore)
    lobby = Lobby(Settings(), 120.0)
    runtime = RoomRuntime(lobby, store, Settings(), bus, Connections())
    runtime.expire_per_tick = per_tick
    now = 1_800_000_000.0
    honest = lobby.add(lobby.new_room("singles", 1, 3600.0, False))
    spam = [lobby.add(lobby.new_room("singles", 1, 30.0, False)) for _ in range(rooms)]
    for room in [honest, *spam]:
        await store.redis.set(lease_key(room.id), bus.pid)
    honest.join("honest-a", "Anna", None, None, now)
    honest.join("honest-b", "Bert", None, None, now)
    for sid in ("honest-a", "honest-b"):
        honest.set_ready(sid, True, now)
    for k, room in enumerate(spam):
        room.join(f"spam-{k}", f"Spam {k}", None, None, now)
    for room in [honest, *spam]:
        await runtime.flush(room)  # seated and stored, as after their creation
    for k, room in enumerate(spam):
        room.drop(f"spam-{k}", now)  # every socket closed at once
        await runtime.flush(room)
    worst_tick, worst_stall, ticks = 0.0, [0.0], 0
    stop = asyncio.Event()
    beat = asyncio.create_task(heartbeat(worst_stall, stop))
    t = now + GRACE
    while any(not r.closed for r in spam):
        t0 = time.perf_counter()
        await runtime.tick(t)
        worst_tick = max(worst_tick, (time.perf_counter() - t0) * 1e3)
        ticks += 1
        t += TICK
        await asyncio.sleep(0.001)  # the loop's own sleep between ticks, shortened
    stop.set()
    await beat
    assert not honest.closed
    await store.close()
    return ticks, worst_tick, worst_stall[0]


async def bench(url: str, rooms: int, per_tick: int) -> None:
    """Both runs, printed."""
    before = await one_run(url, rooms, rooms + 1)
    after = await one_run(url, rooms, per_tick)
    for name, (ticks, tick_ms, stall_ms) in (("all in one tick", before), ("spread", after)):
        print(f"{name:16} {rooms} rooms closed in {ticks} ticks; longest tick {tick_ms:.1f} ms,"
              f" longest loop stall {stall_ms:.1f} ms")  # fmt: skip
    print(
        f"rooms={rooms} per_tick={per_tick} before_ticks={before[0]} "
        f"before_tick_ms={before[1]:.1f} before_stall_ms={before[2]:.1f} after_ticks={after[0]} "
        f"after_tick_ms={after[1]:.1f} after_stall_ms={after[2]:.1f}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    """Run both and print the figures."""
    ap = argparse.ArgumentParser(prog="python -m bench.expiry", description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=1200)
    ap.add_argument("--per-tick", type=int, default=EXPIRE_PER_TICK)
    args = ap.parse_args(argv)
    with own_redis() as (url, _pid):
        asyncio.run(bench(url, args.rooms, args.per_tick))


if __name__ == "__main__":
    main()
