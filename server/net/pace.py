"""Arrivals paced: a bounded number of websocket upgrades and hellos a turn, the addresses in
turn (issue 37).

An upgrade and a hello each cost the event loop a little (the handshake written, a session
stored, the bus told), and their steps run in the loop turn their socket became readable in:
1,300 websockets from 64 addresses arriving and saying hello at once were a 215 ms stall
(`python -m bench.abuse --only ws_holders_many`), and every honest player's ping waited
behind it. Here at most PER_TURN of them start in one EVERY_S; the others wait, served one
address at a time in turn, so one address's thousand arrivals delay another's by a round of
addresses, not by the thousand. An arrival that finds nobody waiting and the turn's budget
left goes on at once: on a server not under such a burst nothing waits.
"""

from __future__ import annotations

import asyncio
from collections import deque

PER_TURN = 8  # arrivals started in one turn
EVERY_S = 0.005  # a turn's length: at most 1,600 arrivals a second


class Pace:
    """The arrivals of one process: `turn(address)` returns when it is the address's turn."""

    def __init__(self, per_turn: int = PER_TURN, every: float = EVERY_S) -> None:
        self.per_turn = per_turn
        self.every = every
        self.waiting: dict[str, deque[asyncio.Future[None]]] = {}  # by address, in turn order
        self.used = 0  # started in the turn that began at `began`
        self.began = 0.0
        self.timer: asyncio.TimerHandle | None = None
        self.waited = 0  # arrivals that waited for their turn (/healthz)

    def free(self) -> bool:
        """Would `turn` return at once: nobody waits and this turn has room?"""
        return not self.waiting and self._room(asyncio.get_running_loop().time())

    async def turn(self, address: str) -> None:
        """Wait for the address's turn (at once when nobody waits and the turn has room)."""
        loop = asyncio.get_running_loop()
        if self.free():
            self.used += 1
            return
        ready: asyncio.Future[None] = loop.create_future()
        self.waiting.setdefault(address, deque()).append(ready)
        self.waited += 1
        if self.timer is None:
            self.timer = loop.call_at(self.began + self.every, self._release)
        await ready  # cancelled (the connection closed): skipped at its turn

    def _room(self, now: float) -> bool:
        if now - self.began >= self.every:
            self.began, self.used = now, 0
        return self.used < self.per_turn

    def _release(self) -> None:
        """A new turn: start up to per_turn waiting arrivals, one address after another."""
        loop = asyncio.get_running_loop()
        self.timer = None
        self.began, self.used = loop.time(), 0
        while self.waiting and self.used < self.per_turn:
            address = next(iter(self.waiting))
            queue = self.waiting.pop(address)
            ready = queue.popleft()
            if queue:  # the address goes to the end of the round
                self.waiting[address] = queue
            if not ready.done():
                ready.set_result(None)
                self.used += 1
        if self.waiting:
            self.timer = loop.call_at(self.began + self.every, self._release)
