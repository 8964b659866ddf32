"""The global budget of argon2 work (docs/accounts.md, "Passwords"): at most AT_ONCE hashes
run (in threads, argon2-cffi releases the GIL), at most QUEUE requests wait for one, and
past that the answer is `busy` (503) with `Retry-After`. A login from where its account
logged in lately (its owner's address or device) goes ahead of the others and is not refused
for the queue being full (it has a queue of its own, as long): a flood of logins with
made-up or taken names from many addresses, each within its own address's limits, fills the
queue, and the owner must still get in (issue 37: the honest login's p50 was 807 ms, and a
full queue refused everybody alike)."""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from server.accounts.errors import AccountError

T = TypeVar("T")
AT_ONCE = 2  # argon2id runs (19 MiB each) at a time
QUEUE = 32  # requests waiting for one, of strangers; the owners' have as many again
FIRST_GUESS_S = 0.15  # seconds a hash takes, until one was timed (docs/accounts.md)


class Hashing:
    """Runs argon2 work within the budget: owners' first, then the others in arrival order."""

    def __init__(self, at_once: int = AT_ONCE, queue: int = QUEUE):
        self.at_once = at_once
        self.queue = queue
        # threads of their own, as many as run at once: each thread's malloc arena keeps the
        # 19 MiB of its last hash, and the default executor's six held 114 MiB after a login
        # flood (bench.abuse login_lockout_many: RSS 85 -> 200 MB)
        self.pool = ThreadPoolExecutor(at_once, thread_name_prefix="argon2")
        self.running = 0
        self._owners: deque[asyncio.Future[None]] = deque()
        self._others: deque[asyncio.Future[None]] = deque()
        self.seconds = FIRST_GUESS_S  # a hash's time, smoothed
        self.refused = 0

    @property
    def waiting(self) -> int:
        """Requests waiting for a slot."""
        return len(self._owners) + len(self._others)

    def retry_after(self) -> int:
        """Seconds until what waits now has been hashed, at least 1."""
        return max(1, math.ceil((self.waiting + self.running) * self.seconds / self.at_once))

    async def run(self, owner: bool, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a thread once a slot is free; AccountError(busy) if too many
        wait before it (`owner`: the account's own address or device)."""
        await self._slot(owner)
        t0 = time.perf_counter()
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, work, *args)
        finally:
            self.seconds = 0.8 * self.seconds + 0.2 * (time.perf_counter() - t0)
            self.running -= 1
            self._next()

    async def _slot(self, owner: bool) -> None:
        line = self._owners if owner else self._others
        if self.running < self.at_once and not self.waiting:
            self.running += 1
            return
        if len(line) >= self.queue:
            self.refused += 1
            raise AccountError(
                "busy", "The server is busy; try again in a moment.", 503,
                params={"retry_after": self.retry_after()},
            )  # fmt: skip
        turn = asyncio.get_running_loop().create_future()
        line.append(turn)
        try:
            await turn  # _next counted this one as running when it set the result
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.running -= 1  # given the slot as it was cancelled: pass it on
                self._next()
            elif turn in line:
                line.remove(turn)
            raise

    def _next(self) -> None:
        while self.running < self.at_once and (self._owners or self._others):
            turn = (self._owners or self._others).popleft()
            if not turn.done():
                self.running += 1
                turn.set_result(None)
