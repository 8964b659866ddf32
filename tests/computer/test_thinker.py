"""The computer's worker pool (server/computer/thinker.py): it thinks at the lowest priority, and
tells a hung search (burning a core, or stuck) from one waiting for the CPU."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from server.computer.thinker import FLOOR, Thinkers
from tests.waits import wait_until


def niceness() -> int:
    return os.nice(0)


def nap(seconds: float) -> str:
    time.sleep(seconds)  # the subject: a search that takes wall time and no CPU
    return "done"


def spin(seconds: float) -> str:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return "done"


def trickle(seconds: float) -> str:
    """A search on a busy host: a little CPU now and then."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        spin(0.02)
        time.sleep(0.2)  # the subject: the CPU it waits for between its bits of work
    return "done"


def watch_until_done(pool: Thinkers, future: object, limit: float) -> None:
    """Tick the watch as the computer's clock does, every 0.05 s."""
    end = time.monotonic() + limit
    while time.monotonic() < end and not future.done():  # type: ignore[attr-defined]
        pool.watch(time.monotonic())
        time.sleep(0.05)  # the subject: the pace of the computer's clock that ticks the watch


@pytest.fixture
def pool() -> Iterator[Thinkers]:
    thinkers = Thinkers(workers=1, timeout=0.4)
    yield thinkers
    thinkers.stop()


def test_workers_think_at_the_lowest_priority_below_the_server(pool):
    assert pool.ask(niceness).result(timeout=60) == 19


@pytest.mark.parametrize(
    "search, seconds",
    [
        (nap, 1.2),  # three timeouts of wall time, almost no CPU
        (trickle, 3.0),  # past STALLED timeouts (2.4 s), a little CPU now and then, 0.3 s
    ],
)
def test_a_search_waiting_for_cpu_is_left_to_answer(pool, search, seconds):
    pool.ask(nap, 0.0).result(timeout=60)  # the worker started
    future = pool.ask(search, seconds)
    watch_until_done(pool, future, limit=30)
    assert future.result(timeout=1) == "done"
    assert pool.replaced == 0


def test_a_search_burning_a_core_past_its_time_is_replaced(pool):
    pool.ask(nap, 0.0).result(timeout=60)
    future = pool.ask(spin, 30.0)
    started = time.monotonic()
    watch_until_done(pool, future, limit=20)
    assert pool.replaced == 1
    assert time.monotonic() - started < 10
    assert future.done() and not future.cancelled() and future.exception() is not None


def test_a_search_stuck_without_cpu_is_replaced_after_stalled_timeouts(pool):
    pool.ask(nap, 0.0).result(timeout=60)
    future = pool.ask(nap, 60.0)
    watch_until_done(pool, future, limit=20)
    assert pool.replaced == 1


def test_a_search_runnable_without_cpu_is_left_to_answer(pool, monkeypatch):
    """A worker starved of CPU on a loaded host uses none for longer than STALLED timeouts,
    yet it is not stuck: it waits in the run queue. Here a sleeping one is reported runnable
    (the real host's run queue cannot be made to starve it reliably)."""
    pool.ask(nap, 0.0).result(timeout=60)
    seen = pool.cpu
    monkeypatch.setattr(pool, "cpu", lambda: {pid: (t, True) for pid, (t, _) in seen().items()})
    future = pool.ask(nap, 3.0)  # past STALLED timeouts (2.4 s) without CPU
    watch_until_done(pool, future, limit=30)
    assert future.result(timeout=1) == "done"
    assert pool.replaced == 0


def given(budget_s: float | None) -> float | None:
    return budget_s


def test_a_decision_that_waited_for_a_worker_thinks_only_for_what_is_left(pool):
    pool.ask(nap, 0.0).result(timeout=60)
    pool.ask(nap, 0.6)  # the only worker is busy for 0.6 s of the next decision's 1 s
    late = pool.decide(given, budget=1.0).result(timeout=60)
    assert FLOOR <= late <= 0.5
    assert pool.decide(given, budget=None).result(timeout=60) is None


SERVER_KILLED = """
import os, signal, sys
from server.computer.thinker import Thinkers
pool = Thinkers(workers=2, timeout=10)
pool.ask(os.getpid).result(timeout=60)
print(" ".join(map(str, pool.pids())), flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no clean-up, as a crash
"""


def test_workers_end_when_their_server_is_killed():
    out = subprocess.run(
        [sys.executable, "-c", SERVER_KILLED], capture_output=True, text=True, timeout=120
    )
    workers = [int(pid) for pid in out.stdout.split()]
    assert workers, out.stderr
    wait_until(lambda: not any(alive(pid) for pid in workers), 15, "the workers gone")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


SERVER_STOPPED = """
import time
from server.computer.thinker import Thinkers
from tests.computer.test_thinker import spin
from tests.waits import wait_until
pool = Thinkers(workers=1, timeout=60)
pool.ask(spin, 0.0).result(timeout=60)
pool.ask(spin, 120.0)  # a search that would run two minutes
def running():
    pool.watch(time.monotonic())  # notes the searches that started
    return pool.running
wait_until(running, 60, "the search running")
pool.stop()
"""


def test_a_server_stopping_does_not_wait_for_a_search_in_flight():
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", SERVER_STOPPED], check=True, timeout=100)
    assert time.monotonic() - started < 60


def test_a_hung_search_is_caught_while_another_worker_keeps_answering():
    pool = Thinkers(workers=2, timeout=0.5)
    try:
        for warm in [pool.ask(nap, 0.3) for _ in range(2)]:  # both workers started
            warm.result(timeout=60)
        hung = pool.ask(spin, 60.0)
        end = time.monotonic() + 30
        while time.monotonic() < end and pool.replaced == 0:
            quick = pool.ask(nap, 0.05)  # the other worker answers all along
            while not quick.done() and time.monotonic() < end:
                pool.watch(time.monotonic())
                time.sleep(0.02)  # the subject: the clock's ticks of the watch meanwhile
        assert pool.replaced == 1
        assert hung.done() and hung.exception() is not None
    finally:
        pool.stop()
