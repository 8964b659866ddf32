"""A motion played out: its ruling released when the motion has played, on the loop's timer.

Nothing is sent while it plays: the `stroke` message carried the whole motion as exact paths
(docs/protocol.md, "Motion"), and every client animates it at its own display's rate. The
server only waits for its end, with one timer, not a task that sleeps.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any


class PlayOut:
    """Runs `finish(self)` as a task at wall time `ends` (given the play-out rather than
    closing over it: a closure that held it would make a reference cycle, and each motion's
    paths would wait for the cycle collector instead of being freed when it ends). `clock`
    is the wall clock `ends` is read on (a test's own)."""

    def __init__(
        self,
        ends: float,
        finish: Callable[[PlayOut], Coroutine[Any, Any, None]],
        clock: Callable[[], float] = time.time,
    ):
        self.clock = clock
        self.ends = ends
        self.finish = finish
        self.loop = asyncio.get_running_loop()
        self.timer: asyncio.TimerHandle | None = None
        self.finishing: asyncio.Task[None] | None = None
        self.cancelled = False

    def start(self) -> None:
        """Set the timer for the motion's end."""
        self.timer = self.loop.call_at(self.loop.time() + self.ends - self.clock(), self._end)

    def cancel(self) -> None:
        """Stop waiting; a finish already running is cancelled too, unless it is the caller."""
        self.cancelled = True
        if self.timer is not None:
            self.timer.cancel()
        if self.finishing is not None and self.finishing is not asyncio.current_task():
            self.finishing.cancel()

    async def wait(self) -> None:
        """Until the finish task (if one started) is over."""
        if self.finishing is not None:
            await asyncio.wait([self.finishing])

    def _end(self) -> None:
        self.timer = None
        if not self.cancelled:
            self.finishing = self.loop.create_task(self.finish(self))
