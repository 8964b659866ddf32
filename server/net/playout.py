"""A motion's frames sent on the event loop's timer.

Why not a task that sleeps between frames: at 500 tables that is thousands of wake-ups a
second, and each task step (a future, a timer, the coroutine's resume) costs several times
what a plain timer callback does (docs/performance.md, "Third round").
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger("novuss.playout")


class PlayOut:
    """Calls `emit(k)` for k = 0 .. frames-1 at `started + k / rate` (wall clock), then runs
    `finish(self)` as a task (given the play-out rather than closing over it: a closure that
    held it would make a reference cycle, and each motion's frames and trajectory would wait
    for the cycle collector instead of being freed when it ends). A frame that comes late is
    sent at once, none is skipped: the clients time the motion by its frames. `emit` returning
    False stops the play-out (the motion was superseded: the room closed or moved away)
    without finishing it. `clock` is the wall clock `started` is read on (a test's own)."""

    def __init__(
        self,
        started: float,
        frames: int,
        rate: float,
        emit: Callable[[int], bool],
        finish: Callable[[PlayOut], Coroutine[Any, Any, None]],
        clock: Callable[[], float] = time.time,
    ):
        self.clock = clock
        self.started, self.frames, self.rate = started, frames, rate
        self.emit, self.finish = emit, finish
        self.loop = asyncio.get_running_loop()
        self.k = 0
        self.timer: asyncio.TimerHandle | None = None
        self.finishing: asyncio.Task[None] | None = None
        self.cancelled = False

    def start(self) -> None:
        """Send frame 0 now (the stroke's first frame is what its striker waits for)."""
        self._frame()

    def cancel(self) -> None:
        """Stop sending; a finish already running is cancelled too, unless it is the caller."""
        self.cancelled = True
        if self.timer is not None:
            self.timer.cancel()
        if self.finishing is not None and self.finishing is not asyncio.current_task():
            self.finishing.cancel()

    async def wait(self) -> None:
        """Until the finish task (if one started) is over."""
        if self.finishing is not None:
            await asyncio.wait([self.finishing])

    def _frame(self) -> None:
        self.timer = None
        if self.cancelled:
            return
        try:
            if not self.emit(self.k):
                return
            self.k += 1
        except Exception:  # a bug in one frame must not leave the match in motion for ever
            log.exception("frame %d of a motion failed; the ruling goes out now", self.k)
            self.k = self.frames
        if self.k < self.frames:
            due = self.started + self.k / self.rate
            self.timer = self.loop.call_at(self.loop.time() + due - self.clock(), self._frame)
        else:
            self.finishing = self.loop.create_task(self.finish(self))
