"""The suite's two waits on a state: `wait_until` (sync) and `until` (async). Every test that
waits for something it cannot await directly (a row, a figure, a phase) polls it through one
of them; the deadline only bounds a failure. No test sleeps for a fixed time to wait for
something (docs/testing.md "No fixed sleeps").

They live apart from tests/conftest.py because conftest imports the clients
(tests/server/server_client.py, tests/accounts/account_client.py), which use them."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any

EVERY_S = 0.05  # a poll's interval: often enough to be quick, rare enough not to load


def wait_until(
    check: Callable[[], Any], timeout: float = 15.0, what: str = "", every: float = EVERY_S
) -> Any:
    """Call check() until it returns something true, and return that; fail after timeout s."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)  # the poll's interval, not a wait: check() is the wait


async def until(
    check: Callable[[], Any], timeout: float = 15.0, what: str = "", every: float = EVERY_S
) -> Any:
    """Await check() (a plain function or a coroutine function) until it gives something
    true, and return that; fail after timeout s."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if inspect.isawaitable(got):
            got = await got
        if got:
            return got
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(every)  # the poll's interval, not a wait: check() is the wait
