"""A motion's play-out on the loop's timer (server/net/playout.py): every frame in order at
its time, then the finish; a failing frame still finishes the motion; a cancel stops it."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Callable, Coroutine
from typing import Any

from server.net.playout import PlayOut

RATE = 100.0  # frames a second: short tests


def recorder(
    fail_at: int | None = None, stop_at: int | None = None
) -> tuple[
    list[tuple[int, float]],
    list[float],
    Callable[[int], bool],
    Callable[[PlayOut], Coroutine[Any, Any, None]],
]:
    """What a play-out sent (frame, time) and when it finished, with its two callbacks."""
    sent: list[tuple[int, float]] = []
    finished: list[float] = []

    def emit(k: int) -> bool:
        if k == fail_at:
            raise RuntimeError("a bug in a frame")
        if k == stop_at:
            return False
        sent.append((k, time.time()))
        return True

    async def finish(play: PlayOut) -> None:
        finished.append(time.time())

    return sent, finished, emit, finish


async def test_every_frame_goes_out_in_order_at_its_time_then_the_motion_finishes():
    sent, finished, emit, finish = recorder()
    started = time.time()
    play = PlayOut(started, 10, RATE, emit, finish)
    play.start()
    assert [k for k, _ in sent] == [0], "frame 0 at once: the striker waits for it"
    await asyncio.sleep(0.2)
    await play.wait()
    assert [k for k, _ in sent] == list(range(10))
    for k, at in sent:
        assert at >= started + k / RATE - 0.002, f"frame {k} was early"
    assert len(finished) == 1 and finished[0] >= sent[-1][1]


async def test_frames_that_come_late_are_sent_at_once_and_none_is_skipped():
    sent, finished, emit, finish = recorder()
    play = PlayOut(time.time() - 1.0, 10, RATE, emit, finish)  # all ten are overdue
    play.start()
    await asyncio.sleep(0.05)
    await play.wait()
    assert [k for k, _ in sent] == list(range(10)) and len(finished) == 1


async def test_a_frame_that_fails_still_finishes_the_motion():
    sent, finished, emit, finish = recorder(fail_at=3)
    play = PlayOut(time.time(), 10, RATE, emit, finish)
    play.start()
    await asyncio.sleep(0.1)
    await play.wait()
    assert [k for k, _ in sent] == [0, 1, 2], "the frames after the failure are not sent"
    assert len(finished) == 1, "the ruling still goes out: the match is not left in motion"


async def test_a_superseded_motion_stops_without_finishing():
    sent, finished, emit, finish = recorder(stop_at=4)
    play = PlayOut(time.time(), 10, RATE, emit, finish)
    play.start()
    await asyncio.sleep(0.15)
    assert [k for k, _ in sent] == [0, 1, 2, 3] and finished == []


async def test_a_cancel_stops_the_frames_and_the_finish():
    sent, finished, emit, finish = recorder()
    play = PlayOut(time.time(), 10, RATE, emit, finish)
    play.start()
    await asyncio.sleep(0.025)
    play.cancel()
    count = len(sent)
    await asyncio.sleep(0.15)
    assert len(sent) == count < 10 and finished == []


async def test_a_finished_play_out_is_freed_at_once_not_left_to_the_cycle_collector():
    gc.disable()  # only reference counting: a cycle would keep it (and its motion) alive
    try:
        _sent, finished, emit, finish = recorder()
        play = PlayOut(time.time(), 3, RATE, emit, finish)
        gone = weakref.ref(play)
        play.start()
        await asyncio.sleep(0.05)
        await play.wait()
        assert len(finished) == 1
        del play
        assert gone() is None
    finally:
        gc.enable()
