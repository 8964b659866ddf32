"""A motion's play-out on the loop's timer (server/net/playout.py): nothing sent while it
plays, the finish (its ruling) once at the motion's end, never early; a late timer finishes
at once; a cancel stops it."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Callable

from server.net.playout import PlayOut

DEADLINE = 5.0  # seconds: only a failure waits this long


class Recorder:
    """When a play-out finished (on its clock), with the finish callback and an event a test
    waits on."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.finished: list[float] = []
        self.done = asyncio.Event()

    async def finish(self, play: PlayOut) -> None:
        self.finished.append(self.clock())
        self.done.set()

    def play(self, ends: float) -> PlayOut:
        return PlayOut(ends, self.finish, clock=self.clock)

    async def until_done(self) -> None:
        await asyncio.wait_for(self.done.wait(), DEADLINE)


async def past_on_the_loop(play: PlayOut, when: float) -> None:
    """Until the loop's timer reaches wall time `when` (on the play-out's clock): a timer set
    for then fires after every timer set for earlier, so a finish due by then would be out."""
    reached = asyncio.Event()
    play.loop.call_at(play.loop.time() + when - play.clock(), reached.set)
    await asyncio.wait_for(reached.wait(), DEADLINE)


async def test_the_motion_finishes_once_at_its_end_and_not_before():
    rec = Recorder()
    ends = time.time() + 0.1
    play = rec.play(ends)
    play.start()
    assert rec.finished == [], "not at the start"
    await rec.until_done()
    await play.wait()
    assert len(rec.finished) == 1 and rec.finished[0] >= ends - 0.002, "not early"


async def test_a_motion_already_over_finishes_at_once():
    now = time.time()
    rec = Recorder(clock=lambda: now + 1.0)  # the clock reads a second on: the end is past
    play = rec.play(now)
    play.start()
    await rec.until_done()
    await play.wait()
    assert len(rec.finished) == 1


async def test_a_cancel_stops_the_finish():
    rec = Recorder()
    ends = time.time() + 0.05
    play = rec.play(ends)
    play.start()
    play.cancel()
    await past_on_the_loop(play, ends + 0.01)  # when the motion would have ended
    assert rec.finished == []


async def test_a_finished_play_out_is_freed_at_once_not_left_to_the_cycle_collector():
    gc.disable()  # only reference counting: a cycle would keep it (and its motion) alive
    try:
        rec = Recorder()
        play = rec.play(time.time() + 0.01)
        gone = weakref.ref(play)
        play.start()
        await rec.until_done()
        await play.wait()
        assert len(rec.finished) == 1
        del play
        assert gone() is None
    finally:
        gc.enable()
