"""The clock loop's once-a-second upkeep (server/net/clock.py): its three parts (forgetting
sessions, the collector, Redis's upkeep) each run once a second, on different ticks, and a
wall clock set back does not stop them; every connection is looked at once a second, a
share a tick, and the sockets' unsent bytes past the send budget are trimmed."""

from __future__ import annotations

from itertools import pairwise
from typing import Any, cast

from server.net.clock import Clock

TICK = 0.1  # the server's default --tick-seconds


class Parts:
    """Stand-ins for what the clock drives, noting the tick each part ran on."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, int]] = []
        self.tick = 0
        self.all: list[Any] = []  # the connections
        self.lobby_changed = False
        self.looked_at: list[tuple[Any, int]] = []  # (connection, tick) by close_idle
        self.send_budget = 1000
        self.trims: list[int] = []  # the ticks trim_backlogs ran on

    def note(self, part: str) -> None:
        self.ran.append((part, self.tick))

    # the gateway, the sessions, the collector, the heap, the memory watch
    def close_idle(self, share: list[Any]) -> None:
        self.looked_at += [(conn, self.tick) for conn in share]

    def unsent(self, share: list[Any]) -> int:
        return sum(conn.backlog for conn in share)

    def trim_backlogs(self) -> int:
        self.trims.append(self.tick)
        return 0

    def prune(self) -> None:
        pass

    def forget(self) -> None:
        self.note("sessions")

    def maintain(self, now: float) -> bool:
        if self is self.collector:
            self.note("collector")
        return False

    def update(self, used: int, limit: int) -> None:
        self.note("redis")

    # the store, the lobby service, the sessions' refresh, the room runtime
    async def memory(self) -> tuple[int, int]:
        return 0, 0

    async def pair_waiting(self) -> None:
        pass

    async def refresh(self, tokens: list[str]) -> None:
        pass

    async def view(self) -> dict[str, Any]:
        return {}

    async def runtime_tick(self, now: float) -> None:
        pass

    collector: Parts


def clock_of(parts: Parts) -> Clock:
    anything = cast(Any, parts)
    runtime = type("Runtime", (), {"tick": parts.runtime_tick, "lobby_changed": False})()
    clock = Clock(
        runtime, anything, anything, anything, anything, TICK, anything, anything, 600.0
    )  # fmt: skip
    parts.collector = parts
    clock.collections = anything  # not the test process's own collector
    clock.heap = cast(Any, type("Heap", (), {"maintain": lambda self, now: False})())
    return clock


async def run(clock: Clock, parts: Parts, start: float, ticks: int) -> None:
    for k in range(ticks):
        parts.tick = k
        await clock.tick(start + k * TICK)


async def test_each_part_runs_once_a_second_and_never_two_on_one_tick() -> None:
    parts = Parts()
    await run(clock_of(parts), parts, 1_000_000.0, 50)  # 5 s
    ticks: dict[str, list[int]] = {}
    for part, tick in parts.ran:
        ticks.setdefault(part, []).append(tick)
    assert set(ticks) == {"sessions", "collector", "redis"}
    for part, at in ticks.items():
        assert len(at) == 5, f"{part}: once a second ({at})"
        assert all(9 <= b - a <= 11 for a, b in pairwise(at)), f"{part}: {at}"
    by_tick = [tick for _, tick in parts.ran]
    assert len(by_tick) == len(set(by_tick)), "no tick runs two parts"


async def test_a_wall_clock_set_back_does_not_stop_the_upkeep() -> None:
    parts = Parts()
    clock = clock_of(parts)
    await run(clock, parts, 1_000_000.0, 20)
    parts.ran.clear()
    await run(clock, parts, 1_000_000.0 - 3600, 20)  # an hour back (NTP, an operator)
    assert {part for part, _ in parts.ran} == {"sessions", "collector", "redis"}


class Connection:
    def __init__(self, backlog: int = 0) -> None:
        self.backlog = backlog
        self.session = None  # a guest's before its hello: no session to keep alive


async def test_every_connection_is_looked_at_once_a_second_a_share_a_tick() -> None:
    parts = Parts()
    parts.all = [Connection() for _ in range(95)]
    await run(clock_of(parts), parts, 1_000_000.0, 30)  # 3 s
    for conn in parts.all:
        at = [tick for c, tick in parts.looked_at if c is conn]
        assert len(at) == 3 and all(b - a == 10 for a, b in pairwise(at)), at
    per_tick = [sum(1 for _, t in parts.looked_at if t == tick) for tick in range(30)]
    assert max(per_tick) == 10, "95 connections in ten shares of at most 10"


async def test_a_connection_that_comes_is_looked_at_within_two_seconds() -> None:
    parts = Parts()
    parts.all = [Connection() for _ in range(20)]
    clock = clock_of(parts)
    await run(clock, parts, 1_000_000.0, 3)  # a round under way
    late = Connection()
    parts.all.append(late)
    await run(clock, parts, 1_000_000.0 + 0.3, 20)
    assert any(c is late for c, _ in parts.looked_at)


async def test_unsent_bytes_past_the_budget_are_trimmed_within_a_second() -> None:
    parts = Parts()
    parts.all = [Connection(backlog=30) for _ in range(30)]  # 900 bytes: under 1000
    clock = clock_of(parts)
    await run(clock, parts, 1_000_000.0, 20)
    assert parts.trims == [], "under the budget, the sockets are not all measured"
    parts.all[17].backlog = 5000  # a stalled reader
    for k in range(10):
        parts.tick = 100 + k
        await clock.tick(1_000_000.0 + 3.0 + k * TICK)
    assert len(parts.trims) == 1, "measured once the share with it was looked at"
