"""The clock loop (every `--tick-seconds`, 0.1 s): the rooms' clocks, the lobby list pushed to
its subscribers (at most every 0.5 s), every connection looked at once a second (idle ones
closed, unsent bytes kept under the send budget), and once a second the upkeep: unused
sessions forgotten, rated quick-match tables paired (server/lobby/matchmaking.py), the paced
cycle collection (server/gc_policy.py), freed memory handed back (server/heap.py).

The upkeep's three parts run on different ticks of the second (UPKEEP_PHASES), not on one,
and the connections are looked at a share a tick (server/net/rounds.py): all at once they
held the loop for 32 to 45 ms once a second at 500 tables (the middle collection 22 to 32
ms, the sweeps over every connection 10 to 13 ms, then Redis's upkeep), and every stroke
that arrived meanwhile waited behind all of them (docs/performance.md, "Seventh round",
"Eleventh round")."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque

from server import gc_policy, heap
from server.lobby.service import LobbyService
from server.net import protocol as p
from server.net.conn import Conn, Connections
from server.net.gateway import Gateway
from server.net.rounds import Rounds
from server.net.runtime import RoomRuntime
from server.net.sessions import Sessions
from server.store.memory import MemoryWatch
from server.store.redis_store import Store

log = logging.getLogger("novuss.clock")

LOBBY_PUSH = 0.5  # seconds between lobby pushes at most
SESSIONS_REFRESH = 60.0  # connected sessions' lives renewed this often (at most a third of it)
UPKEEP_PHASES = (0.0, 0.35, 0.7)
"""Where in each second the upkeep's parts fall (forgetting sessions and budgets, the
collector, the upkeep that asks Redis), as fractions of it: a few ticks apart, so that no
tick does two."""


class Clock:
    """What runs on time rather than on a message."""

    def __init__(
        self,
        runtime: RoomRuntime,
        service: LobbyService,
        sessions: Sessions,
        gateway: Gateway,
        conns: Connections,
        period: float,
        store: Store,
        memory: MemoryWatch,
        session_ttl: float,
    ):
        self.runtime = runtime
        self.service = service
        self.sessions = sessions
        self.gateway = gateway
        self.conns = conns
        self.period = period
        self.store = store
        self.memory = memory
        self.refresh_every = min(SESSIONS_REFRESH, session_ttl / 3)
        self._last_refresh = 0.0
        self.collections = gc_policy.Pace()  # memory flat (server/gc_policy.py)
        self.heap = heap.Trimmer()  # and what was freed given back (server/heap.py)
        self._last_lobby = 0.0
        self._upkeep_due: list[float] | None = None  # each part's next time (wall clock)
        shares = max(1, round(1.0 / period))  # every connection looked at once a second
        self.rounds: Rounds[Conn] = Rounds(shares)
        # the unsent bytes of the last second's shares: what all the sockets hold, nearly
        self.unsent: deque[int] = deque(maxlen=shares)

    async def run(self) -> None:
        """Tick for ever."""
        while True:
            await asyncio.sleep(self.period)
            try:
                await self.tick(time.time())
            except Exception:  # the loop must outlive any one room's failure
                log.exception("tick failed")

    async def tick(self, now: float) -> None:
        """Run every room's clocks, retry unsaved rooms, push the lobby and watcher counts,
        close idle connections."""
        due = self._upkeep_due
        if due is None or max(due) > now + 1.0:  # the first tick, or the clock was set back
            due = self._upkeep_due = [now + phase for phase in UPKEEP_PHASES]
        self._sweep()
        if now >= due[0]:
            due[0] = _next_second(due[0], now)
            self.gateway.prune()
            self.sessions.forget()
        if now >= due[1]:
            due[1] = _next_second(due[1], now)
            self.collections.maintain(time.monotonic())
            self.heap.maintain(time.monotonic())
        if now >= due[2]:
            due[2] = _next_second(due[2], now)
            await self._upkeep(now)
        await self.runtime.tick(now)
        if self.runtime.lobby_changed and now - self._last_lobby >= LOBBY_PUSH:
            self._last_lobby = now
            self.runtime.lobby_changed = False
            subscribers = [conn for conn in self.conns.all if conn.lobby]
            if subscribers:
                view = p.encode(await self.service.view())
                for conn in subscribers:
                    conn.send(view, droppable=True)

    def _sweep(self) -> None:
        """This tick's share of the connections: the idle closed, their unsent bytes noted;
        when the last second's shares add up to more than the send budget, every socket is
        measured and the furthest behind dropped (Gateway.trim_backlogs)."""
        share = self.rounds.share(self.conns.all)
        self.gateway.close_idle(share)
        self.unsent.append(self.gateway.unsent(share))
        if sum(self.unsent) > self.gateway.send_budget:
            self.gateway.trim_backlogs()
            self.unsent.clear()

    async def _upkeep(self, now: float) -> None:
        """Read Redis's memory; seat the quick-match tables that the widening rating windows
        allow now; renew the lives of the connected sessions now and then."""
        self.memory.update(*await self.store.memory())
        await self.service.pair_waiting()
        if now - self._last_refresh >= self.refresh_every:
            self._last_refresh = now
            tokens = [c.session.token for c in self.conns.all if c.session and c.session.token]
            await self.sessions.refresh(tokens)

    async def subscribe(self, conn: Conn, on: bool) -> None:
        """Subscribe a connection to the lobby list (answered now and on every change)."""
        conn.lobby = on
        if on:
            conn.send(await self.service.view())


def _next_second(due: float, now: float) -> float:
    """A part's next time: a second after its last, keeping its place in the second (a second
    from now if the loop fell behind by more than one)."""
    return due + 1.0 if due + 1.0 > now else now + 1.0
