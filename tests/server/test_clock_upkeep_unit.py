"""The clock loop's once-a-second upkeep (server/net/clock.py): its three parts (the
connections' sweeps, the collector, Redis's upkeep) each run once a second, on different
ticks, and a wall clock set back does not stop them."""

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
        self.all: list[Any] = []  # the connections (none)
        self.lobby_changed = False

    def note(self, part: str) -> None:
        self.ran.append((part, self.tick))

    # the gateway, the sessions, the collector, the heap, the memory watch
    def close_idle(self) -> None:
        self.note("sweeps")

    def trim_backlogs(self) -> int:
        return 0

    def forget(self) -> None:
        pass

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
    assert set(ticks) == {"sweeps", "collector", "redis"}
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
    assert {part for part, _ in parts.ran} == {"sweeps", "collector", "redis"}
