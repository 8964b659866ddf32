"""Arrivals paced (server/net/pace.py, issue 37): a bounded number start in a turn, and the
addresses take turns, so one address's burst does not hold another's arrival behind it."""

from __future__ import annotations

import asyncio
import itertools

from server.net.pace import Pace


async def test_a_burst_from_one_address_waits_its_turns_and_another_address_goes_first():
    pace = Pace(per_turn=2, every=0.01)
    started: list[str] = []

    async def arrive(who: str, address: str) -> None:
        await pace.turn(address)
        started.append(who)

    burst = [asyncio.create_task(arrive(f"a{k}", "10.0.0.1")) for k in range(8)]
    await asyncio.sleep(0)  # the burst's first two take the turn's room, six wait
    assert started == ["a0", "a1"]
    honest = asyncio.create_task(arrive("honest", "127.0.0.1"))
    await asyncio.sleep(0)
    assert started == ["a0", "a1"]  # the turn is full: it waits too
    async with asyncio.timeout(5):
        await honest
    # the next turn: one of the burst's address, then the honest one's, before the burst's rest
    assert started == ["a0", "a1", "a2", "honest"]
    async with asyncio.timeout(5):
        await asyncio.gather(*burst)
    assert started[4:] == ["a3", "a4", "a5", "a6", "a7"]
    assert pace.waited == 7


async def test_at_most_per_turn_start_in_one_turn():
    pace = Pace(per_turn=3, every=0.05)
    loop = asyncio.get_running_loop()
    at: list[float] = []

    async def arrive(k: int) -> None:
        await pace.turn(f"10.0.0.{k % 5}")
        at.append(loop.time())

    async with asyncio.timeout(5):
        await asyncio.gather(*(arrive(k) for k in range(12)))
    turns = [at[i : i + 3] for i in range(0, 12, 3)]
    for earlier, later in itertools.pairwise(turns):
        assert later[0] - earlier[0] >= 0.04  # a turn's length apart (the clock's grain aside)


async def test_a_cancelled_arrival_gives_its_place_to_the_next():
    pace = Pace(per_turn=1, every=0.01)
    await pace.turn("a")  # the turn's room taken
    gone = asyncio.create_task(pace.turn("a"))
    await asyncio.sleep(0)
    gone.cancel()  # its connection closed while it waited
    async with asyncio.timeout(5):
        await pace.turn("b")
    assert not pace.waiting
