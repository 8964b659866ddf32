"""The computer's thinking, in worker processes: a search runs for up to a second and a half of
pure Python over the Cython core, which holds the GIL, so a thread would stall the event loop
and every room of the process with it (docs/bot.md, "In the product").

One `concurrent.futures.ProcessPoolExecutor`, started on the first decision (a server nobody
plays the computer on starts no process). A search that runs longer than its time, or a worker
that dies, costs the pool: it is killed and replaced, and whoever was waiting asks again.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger("novuss.thinker")

T = TypeVar("T")
NICE = 10  # the workers' niceness over the server's


class Thinkers:
    """A lazily started pool of worker processes, replaced whole when one dies or hangs."""

    def __init__(self, workers: int, timeout: float):
        self.workers = max(1, workers)
        self.timeout = timeout
        self.pool: ProcessPoolExecutor | None = None
        # what was asked and not answered -> when it was first seen running (None: queued)
        self.flight: dict[Future[Any], float | None] = {}
        self.progress = 0.0  # when a search in flight was last seen answered
        self.replaced = 0  # pools killed and replaced (a worker died or a search hung)
        self.asked = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # spawn, not fork: the server's process has threads (Redis, the loop) a fork
            # would copy mid-lock; the workers import only the pure search
            context = multiprocessing.get_context("spawn")
            # below the server's own priority: thinking waits, serving people does not
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=os.nice, initargs=(NICE,)
            )
        return self.pool

    def ask(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Run fn(*args) in a worker (a broken pool is replaced first, so this never raises
        for a worker that died earlier). The future fails with BrokenProcessPool if its
        worker dies or the pool is replaced, or is cancelled if the pool goes first."""
        self.asked += 1
        try:
            future: Future[T] = self._pool().submit(fn, *args)
        except BrokenProcessPool:
            self.replace("a worker died")
            future = self._pool().submit(fn, *args)
        self.flight[future] = None
        return future

    def watch(self, now: float) -> None:
        """Called every tick: a search running longer than `timeout` is hung, and a search
        cannot be stopped but with its process: the pool is replaced. The time spent queued
        behind other searches is not counted (a busy pool is not a hung one): the executor
        marks a search running as it hands it to a worker's queue, one ahead of what the
        workers run, so a search counts from the later of that and the last answer."""
        for future, since in list(self.flight.items()):
            if future.done():  # answered, failed or cancelled: its waiter sees which
                del self.flight[future]
                self.progress = now
            elif since is None and future.running():
                self.flight[future] = now
            elif since is not None and now - max(since, self.progress) > self.timeout:
                self.replace("a search ran out of time")
                return

    def pids(self) -> list[int]:
        """The worker processes' ids (empty before the first decision)."""
        if self.pool is None:
            return []
        # the executor keeps its processes in a private map: the only way to their pids
        processes = getattr(self.pool, "_processes", None) or {}
        return sorted(p.pid for p in processes.values() if p.pid is not None)

    def replace(self, why: str) -> None:
        """Kill every worker and start afresh on the next decision: a hung search cannot be
        cancelled otherwise, and a dead worker has already broken the pool. Every search in
        flight fails (BrokenProcessPool, or cancelled if still queued)."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        log.warning("replacing the computer's worker processes (%s)", why)
        self.replaced += 1
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            if process.is_alive():
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        self.flight.clear()

    def stop(self) -> None:
        """Stop the workers at shutdown (their decisions are not needed any more)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def view(self) -> dict[str, Any]:
        """For /healthz."""
        return {"workers": self.pids(), "asked": self.asked, "replaced": self.replaced}
