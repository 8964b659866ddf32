"""Lesson tries played off the event loop, in worker processes of their own, with a global
bound on the work in flight (issue 37: 249 addresses at the allowed 2 tries a second made
honest rulings 5 s late, every try simulated and judged on the loop; the collision core holds
the GIL, so a thread would not help).

A try goes to a `ProcessPoolExecutor` (spawned, started at the first try) and its answer
comes back as the JSON body, encoded in the worker: the loop only hands bytes on. At most
`at_once` tries are in flight over every address together; past that the try is refused at
once (`Busy`: 503 with `Retry-After`), never queued without bound. The workers run at a lower
priority than the server (nice 10), and end with it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from server.games.novuss.sim import Shot
from server.lessons.catalog import lesson
from server.lessons.play import LessonRefused, play_try

log = logging.getLogger("novuss.lessons")

NICE = 10  # below the server (it serves the matches), above the computer's search (19)
ORPHAN_POLL = 1.0  # seconds between a worker's looks at whether its server still lives


class Busy(Exception):
    """Every slot is taken: the try is refused, to be asked again after `retry_after` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("busy")
        self.retry_after = retry_after


def _start(server: int) -> None:
    """A worker: lower priority than the server, and ends when the server is gone."""
    os.nice(max(0, NICE - os.nice(0)))
    threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(ORPHAN_POLL)
    os._exit(0)


def play(lesson_id: str, shots: list[tuple[float, float, float, float]]) -> tuple[int, bytes]:
    """In a worker: the try played, as (HTTP status, JSON body): 200 with the result, or 400
    with the refusal (server/lessons/http.py answers the same shapes)."""
    try:
        result = play_try(lesson(lesson_id), [Shot(*s) for s in shots])
    except LessonRefused as e:
        return 400, json.dumps({"code": e.code, "message": str(e), "rule": e.rule}).encode()
    return 200, json.dumps(result.to_dict()).encode()


class TryPool:
    """The workers of lesson tries and the bound on what is in flight."""

    def __init__(self, workers: int, at_once: int) -> None:
        self.workers = max(1, workers)
        self.at_once = max(1, at_once)
        self.pool: ProcessPoolExecutor | None = None
        self.running = 0
        self.played = 0
        self.refused = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start, initargs=(os.getpid(),)
            )
        return self.pool

    async def play(self, lesson_id: str, shots: list[Shot]) -> tuple[int, bytes]:
        """The try played in a worker: (status, JSON body); Busy when every slot is taken."""
        if self.running >= self.at_once:
            self.refused += 1
            raise Busy(1)
        self.running += 1
        try:
            args = [(s.x, s.y, s.angle, s.speed) for s in shots]
            for again in (True, False):  # a worker that died is replaced once
                try:
                    future = self._pool().submit(play, lesson_id, args)
                    answer = await asyncio.wrap_future(future)
                    self.played += 1
                    return answer
                except BrokenProcessPool:
                    log.warning("a lesson worker died; its pool is replaced")
                    self.stop()
                    if not again:
                        raise Busy(2) from None
            raise AssertionError("unreachable")
        finally:
            self.running -= 1

    def stop(self) -> None:
        """Stop the workers (at the server's stop, or a broken pool)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def view(self) -> dict[str, Any]:
        """For /healthz."""
        return {"running": self.running, "played": self.played, "refused": self.refused}
