"""CPU work off the event loop: a pool of worker processes with a global bound on the work in
flight (issue 37). The collision core holds the GIL while it simulates, so a thread would
still stall the loop; a process does not.

`Workers` spawns its processes at the first job (a server nobody asks starts none), runs them
at a lower priority than the server (nice 10: the matches come first), and ends them with the
server. At most `at_once` jobs are in flight together, over every client; past that a job is
refused at once with `Busy` (the HTTP answer: 503 with `Retry-After`), never queued without
bound. A job is a module-level function and its arguments, pickled to the worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger("novuss.workers")

T = TypeVar("T")
NICE = 10  # below the server (it serves the matches), above the computer's search (19)
ORPHAN_POLL = 1.0  # seconds between a worker's looks at whether its server still lives


class Busy(Exception):
    """Every slot is taken: the job is refused, to be asked again after `retry_after` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("busy")
        self.retry_after = retry_after


def _start(server: int) -> None:
    """A worker: lower priority than the server, and ends when the server is gone (its end
    of the task queue never reads end-of-file, so it would wait for ever)."""
    os.nice(max(0, NICE - os.nice(0)))
    threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(ORPHAN_POLL)
    os._exit(0)


class Workers:
    """Worker processes and the bound on the jobs in flight."""

    def __init__(self, workers: int, at_once: int) -> None:
        self.workers = max(1, workers)
        self.at_once = max(1, at_once)
        self.pool: ProcessPoolExecutor | None = None
        self.running = 0
        self.done = 0
        self.refused = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start, initargs=(os.getpid(),)
            )
        return self.pool

    def admit(self) -> None:
        """Raise Busy if every slot is taken (before the job's inputs are even read)."""
        if self.running >= self.at_once:
            self.refused += 1
            raise Busy(1)

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """A slot for one job, taken now (Busy if none is free) and held to the block's end:
        what the job needs is read inside, once the slot is there."""
        self.admit()
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1

    async def submit(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in a worker, within a slot already taken. A pool whose worker died is
        replaced once."""
        for again in (True, False):
            try:
                answer = await asyncio.wrap_future(self._pool().submit(fn, *args))
                self.done += 1
                return answer
            except BrokenProcessPool:
                log.warning("a worker died; its pool is replaced")
                self.stop()
                if not again:
                    raise Busy(2) from None
        raise AssertionError("unreachable")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in a worker; Busy when every slot is taken."""
        async with self.slot():
            return await self.submit(fn, *args)

    def stop(self) -> None:
        """Stop the workers (at the server's stop, or a broken pool)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def view(self) -> dict[str, Any]:
        """For /healthz."""
        return {"running": self.running, "played": self.done, "refused": self.refused}
