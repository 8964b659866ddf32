"""A motion's play-out on the loop's timer (server/net/playout.py): every frame in order at
its time, then the finish; a failing frame still finishes the motion; a cancel stops it."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Callable

from server.net.playout import PlayOut

RATE = 100.0  # frames a second: short tests
DEADLINE = 5.0  # seconds: only a failure waits this long


class Recorder:
    """What a play-out sent (frame, time on the clock) and when it finished, with its two
    callbacks and an event for each thing a test waits on: the finish, a stop, frame k."""

    def __init__(
        self,
        fail_at: int | None = None,
        stop_at: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.fail_at, self.stop_at, self.clock = fail_at, stop_at, clock
        self.sent: list[tuple[int, float]] = []
        self.finished: list[float] = []
        self.done = asyncio.Event()  # finished, or stopped by emit's False
        self.frame_sent: dict[int, asyncio.Event] = {}

    def emit(self, k: int) -> bool:
        if k == self.fail_at:
            raise RuntimeError("a bug in a frame")
        if k == self.stop_at:
            self.done.set()
            return False
        self.sent.append((k, self.clock()))
        self.frame_sent.setdefault(k, asyncio.Event()).set()
        return True

    async def finish(self, play: PlayOut) -> None:
        self.finished.append(self.clock())
        self.done.set()

    def play(self, started: float, frames: int) -> PlayOut:
        return PlayOut(started, frames, RATE, self.emit, self.finish, clock=self.clock)

    async def until_done(self) -> None:
        await asyncio.wait_for(self.done.wait(), DEADLINE)

    async def until_frame(self, k: int) -> None:
        await asyncio.wait_for(self.frame_sent.setdefault(k, asyncio.Event()).wait(), DEADLINE)


async def past_on_the_loop(play: PlayOut, when: float) -> None:
    """Until the loop's timer reaches wall time `when` (on the play-out's clock): a timer set
    for then fires after every timer set for earlier, so any frame due by then would be out."""
    reached = asyncio.Event()
    play.loop.call_at(play.loop.time() + when - play.clock(), reached.set)
    await asyncio.wait_for(reached.wait(), DEADLINE)


async def test_every_frame_goes_out_in_order_at_its_time_then_the_motion_finishes():
    rec = Recorder()
    started = time.time()
    play = rec.play(started, 10)
    play.start()
    assert [k for k, _ in rec.sent] == [0], "frame 0 at once: the striker waits for it"
    await rec.until_done()
    await play.wait()
    assert [k for k, _ in rec.sent] == list(range(10))
    for k, at in rec.sent:
        assert at >= started + k / RATE - 0.002, f"frame {k} was early"
    assert len(rec.finished) == 1 and rec.finished[0] >= rec.sent[-1][1]


async def test_frames_that_come_late_are_sent_at_once_and_none_is_skipped():
    started = time.time()
    rec = Recorder(clock=lambda: started + 1.0)  # the clock reads a second on: all ten overdue
    play = rec.play(started, 10)
    play.start()
    await rec.until_done()
    await play.wait()
    assert [k for k, _ in rec.sent] == list(range(10)) and len(rec.finished) == 1


async def test_a_frame_that_fails_still_finishes_the_motion():
    rec = Recorder(fail_at=3)
    play = rec.play(time.time(), 10)
    play.start()
    await rec.until_done()
    await play.wait()
    assert [k for k, _ in rec.sent] == [0, 1, 2], "the frames after the failure are not sent"
    assert len(rec.finished) == 1, "the ruling still goes out: the match is not left in motion"


async def test_a_superseded_motion_stops_without_finishing():
    rec = Recorder(stop_at=4)
    started = time.time()
    play = rec.play(started, 10)
    play.start()
    await rec.until_done()  # emit said stop at frame 4
    await past_on_the_loop(play, started + 10 / RATE)  # when the motion would have ended
    assert [k for k, _ in rec.sent] == [0, 1, 2, 3] and rec.finished == []


async def test_a_cancel_stops_the_frames_and_the_finish():
    rec = Recorder()
    started = time.time()
    play = rec.play(started, 10)
    play.start()
    await rec.until_frame(2)
    play.cancel()
    count = len(rec.sent)
    await past_on_the_loop(play, started + 10 / RATE)  # when the motion would have ended
    assert len(rec.sent) == count < 10 and rec.finished == []


async def test_a_finished_play_out_is_freed_at_once_not_left_to_the_cycle_collector():
    gc.disable()  # only reference counting: a cycle would keep it (and its motion) alive
    try:
        rec = Recorder()
        play = rec.play(time.time(), 3)
        gone = weakref.ref(play)
        play.start()
        await rec.until_done()
        await play.wait()
        assert len(rec.finished) == 1
        del play
        assert gone() is None
    finally:
        gc.enable()
