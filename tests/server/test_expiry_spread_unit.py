"""Rooms expiring together close over several ticks (issue 37: ~1,200 spam rooms whose grace
ended in one tick were closed one commit after another in that tick, and the honest rooms'
clocks waited 971 ms). The real room runtime over a store that only records its commits:
no I/O. bench/expiry.py measures it over a real Redis."""

from __future__ import annotations

import asyncio
import math
from typing import Any

from server.cluster.bus import Bus
from server.games.core.play import Settings
from server.lobby.lobby import Lobby
from server.lobby.room import Room
from server.net.conn import Connections
from server.net.runtime import TICK_COMMITS, RoomRuntime
from server.store.redis_store import Commit

SETTINGS = Settings()
NOW = 1_800_000_000.0
GRACE = 20.0  # server/lobby/room.py WAITING_GRACE: a room without a match


class RecordingStore:
    """What the runtime asks of its store: commits, recorded in order."""

    def __init__(self) -> None:
        self.commits: list[Commit] = []

    async def commit(self, c: Commit, owner: str | None = None) -> None:
        self.commits.append(c)


async def _ignore(_message: list[Any]) -> None:
    """The bus's handler: nothing arrives (it is never started)."""


async def runtime_with_spam(rooms: int, per_tick: int) -> tuple[RoomRuntime, list[Room], Room]:
    store = RecordingStore()
    lobby = Lobby(SETTINGS, 120.0)
    runtime = RoomRuntime(lobby, store, SETTINGS, Bus(None, "p", _ignore), Connections())  # type: ignore[arg-type]
    runtime.expire_per_tick = per_tick
    honest = lobby.add(lobby.new_room("singles", 1, 3600.0, False))
    honest.join("a", "Anna", None, None, NOW)
    honest.join("b", "Bert", None, None, NOW)
    honest.set_ready("a", True, NOW)
    honest.set_ready("b", True, NOW)
    spam = [lobby.add(lobby.new_room("singles", 1, 30.0, False)) for _ in range(rooms)]
    for k, room in enumerate(spam):
        room.join(f"s{k}", f"Spam {k}", None, None, NOW)
    for room in [honest, *spam]:
        await runtime.flush(room)
    for k, room in enumerate(spam):
        room.drop(f"s{k}", NOW)  # all their sockets closed at once
        await runtime.flush(room)
    return runtime, spam, honest


def test_rooms_whose_grace_ends_together_close_a_few_a_tick_and_all_in_the_end():
    async def run() -> None:
        runtime, spam, honest = await runtime_with_spam(100, per_tick=16)
        closed_by_tick = []
        t = NOW + GRACE
        for _ in range(10):
            await runtime.tick(t)
            closed_by_tick.append(sum(r.closed for r in spam))
            t += 0.1
        assert closed_by_tick[:7] == [16, 32, 48, 64, 80, 96, 100]
        assert not honest.closed and honest.id in runtime.lobby.rooms
        assert all(r.id not in runtime.lobby.rooms for r in spam)

    asyncio.run(run())


def test_the_honest_rooms_are_visited_every_tick_while_the_spam_closes():
    async def run() -> None:
        runtime, spam, honest = await runtime_with_spam(64, per_tick=8)
        assert honest.match is not None
        due = honest.next_due()
        assert due is not None and math.isfinite(due)
        t = NOW + GRACE
        seen = []
        while any(not r.closed for r in spam):
            await runtime.tick(t)
            seen.append(runtime.lobby.deadlines.due_at(honest.id))
            t += 0.1
        # the honest room keeps its own deadline (its next clock) through the spam's
        # closing: never left waiting behind it, never visited for nothing
        assert len(seen) == 8 and all(d is not None and d > NOW + GRACE for d in seen)

    asyncio.run(run())


class RoundTripStore(RecordingStore):
    """A Redis a round trip away: each commit answered on the loop's next turn, and how
    many were asked at once."""

    def __init__(self) -> None:
        super().__init__()
        self.in_flight = 0
        self.most_in_flight = 0

    async def commit(self, c: Commit, owner: str | None = None) -> None:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        answer = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(answer.set_result, None)
        await answer
        self.in_flight -= 1
        await super().commit(c, owner)


def test_a_ticks_commits_go_a_few_at_a_time():
    # at 1,000 tables a second's watcher counts, committed one round trip after another,
    # held the clock loop, and every room's clock, for seconds; all at once, they would fill
    # the store's connections ahead of the players' strokes
    async def run() -> None:
        store = RoundTripStore()
        lobby = Lobby(SETTINGS, 120.0)
        runtime = RoomRuntime(lobby, store, SETTINGS, Bus(None, "p", _ignore), Connections())  # type: ignore[arg-type]
        rooms = [lobby.add(lobby.new_room("singles", 1, 3600.0, False)) for _ in range(20)]
        for k, room in enumerate(rooms):
            room.join(f"s{k}", f"Player {k}", None, None, NOW)
            await runtime.flush(room)
        for room in rooms:  # a watcher each: their counts changed
            room.watchers += 1
            runtime.watchers_changed.add(room.id)
        store.most_in_flight = 0
        await runtime.tick(NOW + 2.0)
        assert store.most_in_flight == TICK_COMMITS, "a few at once, not one nor all"
        assert len(store.commits) == 40, "every room committed, at its join and its count"

    asyncio.run(run())
