"""The computer's thinking, in worker processes: a search runs for up to a second and a half of
pure Python over the Cython core, which holds the GIL, so a thread would stall the event loop
and every room of the process with it (docs/bot.md, "In the product").

One `concurrent.futures.ProcessPoolExecutor` of workers at nice 19, started on demand (a
server nobody plays the computer on starts no process). A decision's time runs from its
asking, so one that waited for a worker searches less. A search that burns more CPU than its
time, or a worker that dies, costs the pool: it is killed and replaced, and whoever was
waiting asks again. A worker ends when its server is gone.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

import psutil

log = logging.getLogger("novuss.thinker")

T = TypeVar("T")
FLOOR = 0.05  # seconds a decision thinks at least, however late its worker starts on it
ORPHAN_POLL = 1.0  # seconds between a worker's looks at whether its server still lives
STALLED = 6  # a search using no CPU for this many timeouts, and not waiting for it, is stuck
NICE = 19  # the workers' niceness: the lowest priority that still gets CPU on a busy host


_starts: Any = None  # in a worker: where it reports each search it starts


def background(server: int, starts: Any) -> None:
    """Start a worker: it thinks with the CPU the server leaves, and ends with the server.

    The lowest niceness: its weight is 15 against the server's 1024, so a waking server
    preempts it at once and it takes under 2 % of a core the server wants; but it still
    gets that much, where the idle class (SCHED_IDLE) would get nothing at all while
    anything else runs, and a person playing the computer on a busy host would wait for
    ever for its stroke.

    A worker's end of the task queue never reads end-of-file (each worker holds a writer of
    it too), so a worker whose server was killed would wait on it for ever, holding its
    memory: a thread ends the process once its parent is no longer `server`.

    `starts` is the queue the worker reports each search on as it starts it (run)."""
    global _starts
    _starts = starts
    os.nice(NICE - os.nice(0))
    threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(ORPHAN_POLL)
    os._exit(0)


def run(token: int, fn: Callable[..., T], *args: Any) -> T:
    """fn(*args), in a worker, after telling the server which search this process starts
    and its own CPU seconds then: the server then times each search by its own worker."""
    _starts.put((token, os.getpid(), time.process_time()))
    return fn(*args)


def in_time(fn: Callable[..., T], until: float | None, *args: Any) -> T:
    """fn(*args, budget_s), the budget being what is left until `until` (epoch seconds) when
    a worker starts on it: a decision that waited behind others thinks less, so the computer
    still answers in its time on a busy host, weaker rather than late. None: no limit."""
    budget = None if until is None else max(FLOOR, until - time.time())
    return fn(*args, budget)


@dataclass(slots=True)
class Search:
    """A search a worker reported started: its process, that process's CPU seconds then,
    the most seen since, and when they last grew."""

    pid: int
    cpu_start: float
    cpu_seen: float
    moved_at: float


class Thinkers:
    """A lazily started pool of worker processes, replaced whole when one dies or hangs."""

    def __init__(self, workers: int, timeout: float):
        # one per core by default: at nice 19 a worker takes only what nobody else wants,
        # so more of them never slow the server, and a decision waits less for a free one
        self.workers = workers if workers > 0 else len(os.sched_getaffinity(0))
        self.timeout = timeout
        self.pool: ProcessPoolExecutor | None = None
        self.starts: Any = None  # the pool's queue of searches started (run)
        self.flight: dict[Future[Any], int] = {}  # asked and not answered -> its token
        self.running: dict[int, Search] = {}  # started and not answered, by token
        self.replaced = 0  # pools killed and replaced (a worker died or a search hung)
        self.asked = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # spawn, not fork: the server's process has threads (Redis, the loop) a fork
            # would copy mid-lock; the workers import only the pure search
            context = multiprocessing.get_context("spawn")
            self.starts = context.SimpleQueue()  # written at once: before the answer
            self.pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=background,
                initargs=(os.getpid(), self.starts),
            )
        return self.pool

    def ask(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Run fn(*args) in a worker (a broken pool is replaced first, so this never raises
        for a worker that died earlier). The future fails with BrokenProcessPool if its
        worker dies or the pool is replaced, or is cancelled if the pool goes first."""
        self.asked += 1
        token = self.asked
        try:
            future: Future[T] = self._pool().submit(run, token, fn, *args)
        except BrokenProcessPool:
            self.replace("a worker died")
            future = self._pool().submit(run, token, fn, *args)
        self.flight[future] = token
        return future

    def decide(self, fn: Callable[..., T], *args: Any, budget: float | None) -> Future[T]:
        """Ask fn(*args, budget_s) of a worker, to be answered within `budget` seconds from
        now (the time waiting for a free worker included); None: no limit."""
        return self.ask(in_time, fn, None if budget is None else time.time() + budget, *args)

    def watch(self, now: float) -> None:
        """Called every tick: a search that has used more than `timeout` seconds of its
        worker's CPU is hung, and a search cannot be stopped but with its process: the pool
        is replaced. Each search is timed from its own start (its worker reports it, run),
        so a queue behind a busy pool is never taken for a hang, nor a hung search hidden
        by the others' answers. CPU seconds, not the wall clock's: at the lowest priority,
        on a busy machine, a sound search may wait for CPU far longer than it computes, and
        replacing it would only lose the work. A search whose worker uses no CPU at all
        for STALLED times `timeout` (stopped, or blocked on something) is hung too, unless
        the worker is runnable: waiting in the run queue for the CPU, not stuck. (Its CPU
        seconds are counted in 10 ms ticks: beside `bench.load` and three test workers a
        search at nice 19 got less than a tick in 2.4 s and was taken for stuck.)"""
        self._note_starts(now)
        for future in [f for f in self.flight if f.done()]:  # its waiter sees how it ended
            self.running.pop(self.flight.pop(future), None)
        if not self.running:
            return
        cpu = self.cpu()
        for search in self.running.values():
            used, runnable = cpu.get(search.pid, (search.cpu_seen, False))
            if used > search.cpu_seen:
                search.cpu_seen, search.moved_at = used, now
            elif runnable:
                search.moved_at = now
            if used - search.cpu_start > self.timeout or now - search.moved_at > (
                STALLED * self.timeout
            ):
                self.replace("a search ran out of time")
                return

    def _note_starts(self, now: float) -> None:
        asked = set(self.flight.values())
        while self.starts is not None and not self.starts.empty():
            token, pid, cpu_then = self.starts.get()
            if token in asked:  # not one answered, failed or cancelled already
                self.running[token] = Search(pid, cpu_then, cpu_then, now)

    def cpu(self) -> dict[int, tuple[float, bool]]:
        """Each worker's CPU seconds so far, and whether it is runnable (running, or waiting
        for a core); a worker that just ended is left out."""
        used: dict[int, tuple[float, bool]] = {}
        for pid in self.pids():
            with contextlib.suppress(psutil.Error):
                process = psutil.Process(pid)
                with process.oneshot():  # one read of /proc/<pid>/stat for both
                    times = process.cpu_times()
                    runnable = process.status() == psutil.STATUS_RUNNING
                used[pid] = (times.user + times.system, runnable)
        return used

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
        _kill(pool)
        self.flight.clear()
        self.running.clear()
        self.starts = None

    def stop(self) -> None:
        """Kill the workers at shutdown: their decisions are not needed any more, and the
        interpreter's exit would otherwise wait for each search in flight to end (for ever,
        for a hung one)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            _kill(pool)
        self.starts = None

    def view(self) -> dict[str, Any]:
        """For /healthz."""
        return {"workers": self.pids(), "asked": self.asked, "replaced": self.replaced}


def _kill(pool: ProcessPoolExecutor) -> None:
    # the executor keeps its processes in a private map: the only way to stop a search
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
