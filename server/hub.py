"""The composition root: every part of one server process built with what it needs passed
in, its websocket routes and HTTP routes collected, its loops started and stopped. The only
module (with server/app.py, which serves what it builds, and server/__main__.py) that may
import from every layer (tests/architecture/test_layers.py).

The parts (docs/architecture.md, "The parts"):

- transport, server/net: the gateway (websockets from accept to close, their limits), the
  dispatcher (decode, check, route), sessions (hello, resume, presence), the table's moves
  (net/play.py), the room runtime (store, then deliver; motions played out), the clock
  loop, the relay to rooms owned by other processes;
- server/lobby: the lobby service and its rooms; server/cluster: ownership across processes;
- the capabilities, each with its service, routes and store: accounts (logins, logouts,
  profiles), challenges, computer (its seats, practice), competitions, history (the archivist
  and the records' API), lessons, replay.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

from aiohttp import web

from server import gc_policy
from server.accounts.http import Accounts
from server.accounts.logouts import Logouts
from server.accounts.players import Players
from server.accounts.store import AccountStore
from server.challenges.routes import routes as challenge_routes
from server.challenges.service import Challenges
from server.challenges.store import ChallengeStore
from server.cluster.bus import Bus
from server.cluster.lease import Leases
from server.cluster.router import Router
from server.competitions.http import TournamentRoutes, uid_of
from server.competitions.loop import TournamentLoop
from server.competitions.service import TournamentService
from server.competitions.store import TournamentStore
from server.competitions.tables import Tables
from server.computer.practice import Practice
from server.computer.routes import routes as computer_routes
from server.computer.seats import Computer
from server.config import Config
from server.edge.origin import allowed_origins
from server.edge.proxy import parse_networks
from server.games.core.play import Settings
from server.games.registry import NAMES, game
from server.history.archivist import Archivist
from server.history.http import Records
from server.history.store import HistoryStore
from server.lessons.http import Lessons
from server.lobby.identity import Identities
from server.lobby.lobby import Lobby
from server.lobby.members import Session
from server.lobby.pairing import Widening
from server.lobby.room import new_id
from server.lobby.service import LobbyService
from server.net.clock import Clock
from server.net.conn import Conn, Connections
from server.net.dispatch import Dispatcher, lobby_routes, merged, table_routes
from server.net.gateway import Gateway
from server.net.limits import ChatBudgets, Limits
from server.net.play import Table
from server.net.relay import Relay
from server.net.runtime import RoomRuntime
from server.net.sessions import Sessions
from server.replay.http import Replays
from server.store.memory import MemoryWatch
from server.store.postgres import Database
from server.store.redis_store import Store

log = logging.getLogger("novuss.hub")


class Hub:
    """All connections, sessions and rooms of this process."""

    def __init__(
        self, config: Config, store: Store, db: Database, settings: Settings, web_dir: Path
    ):
        self.config = config
        self.store = store
        self.pid = new_id("p")  # this process on the bus and in the room leases
        self.lobby = Lobby(settings, config.grace_seconds, config.event_buffer)
        self.conns = Connections()
        self.memory = MemoryWatch(refuse_at=config.memory_refuse)
        self.sessions: dict[str, Session] = {}
        self.bus = Bus(store.redis, self.pid, self._on_bus, config.bus_key.encode())
        self.leases = Leases(store.redis, self.pid, config.lease_seconds)
        self.runtime = RoomRuntime(self.lobby, store, settings, self.bus, self.conns)
        # The router and the relay hand frames and ends up to the dispatcher and the
        # sessions, which need the router and the relay themselves: they are reached
        # through these closures, bound once the parts below exist.
        self.router = Router(
            store, self.bus, self.leases, self.lobby, settings, self.sessions,
            config.grace_seconds, config.event_buffer, config.lease_seconds,
            stage=self.runtime,
            handle=lambda conn, data: self.dispatcher.handle(conn, data),
            ended=lambda conn: self.session_service.disconnected(conn),
            local=self.conns.by_cid.get,
        )  # fmt: skip
        accounts, history = AccountStore(store.redis, db), HistoryStore(store.redis, db)
        trusted = parse_networks(config.trusted_proxy)
        self.logouts = Logouts(self.conns, self.bus, accounts)
        self.accounts = Accounts(
            accounts, history, allowed_origins(config.allowed_origins), trusted,
            self.logouts.announce, config.register_per_address, config.logins_per_address,
        )  # fmt: skip
        self.players = Players(accounts, history, self.accounts.viewer)
        self.archivist = Archivist(store, history, accounts, self.pid)
        self.service = LobbyService(
            self.lobby, store, self.runtime, self.router, self.memory,
            Identities(accounts, history),
            Widening(config.quick_widen, config.quick_open_after),
        )  # fmt: skip
        self.runtime.on_forget.append(self.service.forget)
        self.relay = Relay(
            self.conns, self.router, self.runtime, self.lobby, self.service, store, self.bus,
            elsewhere=lambda sid, pid, at: self.session_service.elsewhere(sid, pid, at),
        )  # fmt: skip
        self.session_service = Sessions(
            self.sessions, store, self.lobby, self.service, self.runtime, self.router,
            self.bus, config, settings, self.memory, accounts, history,
        )  # fmt: skip
        limits = Limits.from_config(config)
        table = Table(self.lobby, self.runtime, ChatBudgets(limits), self.memory)
        self.computer = Computer(self.lobby, self.runtime, self.service, config)
        self.challenges = Challenges(
            ChallengeStore(store.redis), accounts, self.lobby, self.service, self.runtime,
            self.router, self.bus, self.conns.by_cid.get, config.challenge_seconds,
        )  # fmt: skip
        self.session_service.arrived.append(self.challenges.arrived)
        self.session_service.departed.append(self.challenges.departed)
        practice = Practice(self.lobby, self.runtime, self.computer.thinkers, self.computer.budget)
        table.struck.append(practice.struck)
        self.dispatcher = Dispatcher(
            self.session_service,
            self.relay,
            merged(
                lobby_routes(self.service, self._subscribe),
                table_routes(table),
                computer_routes(self.computer, practice),
                challenge_routes(self.challenges),
            ),
            config.max_frame_bytes,
            max(game(name).max_speed for name in NAMES),
        )
        self.gateway = Gateway(
            self.conns, limits, self.dispatcher, self.session_service.disconnected,
            config.send_queue, trusted, config.send_budget << 20, self.accounts,
            self.logouts.recheck,
        )  # fmt: skip
        self.session_service.holders = self.gateway.holders  # near the total: seated first
        self.clock = Clock(
            self.runtime, self.service, self.session_service, self.gateway, self.conns,
            config.tick_seconds, store, self.memory, config.session_ttl,
        )  # fmt: skip
        # the capabilities with HTTP routes of their own
        tours = TournamentStore(store.redis, db)
        tables = Tables(self.lobby, self.runtime, self.router, store, tours, {})
        self.competitions = TournamentService(
            tours, tables, uid_of(self.accounts), self.players.history
        )
        self.competitions_loop = TournamentLoop(self.competitions)
        self.archivist.on_archived.append(self.competitions_loop.match_archived)
        self.lessons = Lessons(trusted)
        self.replays = Replays(
            store, accounts, web_dir / "replay.html", self.accounts.viewer, trusted
        )
        self.http: list[web.RouteDef] = [
            *Records(
                store, accounts, config.recent_matches, self.accounts.viewer, trusted
            ).routes(),
            *self.replays.routes(),
            *self.accounts.routes(),
            *self.players.routes(),
            *self.lessons.routes(),
            *TournamentRoutes(self.competitions, self.accounts).routes(),
        ]
        self.started = time.time()
        self._tasks: list[asyncio.Task[None]] = []

    async def _on_bus(self, msg: list[Any]) -> None:
        if msg[0] == "logout":
            self.logouts.on_bus(msg)
            return
        await self.relay.on_bus(msg)

    async def _subscribe(self, conn: Conn, on: bool) -> None:
        await self.clock.subscribe(conn, on)

    # -- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Join the bus, take over every room nobody owns (all of them after a restart of a
        lone process) and start the clock and cluster loops."""
        await self.bus.start()
        await self.leases.renew([])
        self.memory.update(*await self.store.memory())
        for rid in await self.store.room_ids():
            await self.router.take_over(rid)
        self.gateway.stalls.start()
        loops = (self.clock.run(), self._cluster_loop(), self.archivist.run(),
                 self.competitions_loop.run(), self.challenges.run())  # fmt: skip
        self._tasks = [asyncio.create_task(loop) for loop in loops]
        self.computer.start()

    async def stop(self) -> None:
        """Stop the loops and close every connection; rooms stay in Redis and their leases
        are released, so another process takes them over at once."""
        self.gateway.stalls.stop()
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        if tasks:  # wait(), not suppress(CancelledError): a cancel of stop() still counts
            await asyncio.wait(tasks)
        await self.computer.stop()
        self.lessons.pool.stop()
        self.replays.workers.stop()
        await self.runtime.stop()
        await self.close_connections()
        await self.leases.stop(list(self.lobby.rooms))
        await self.bus.stop()

    async def close_connections(self) -> None:
        """Close every websocket at shutdown (clients reconnect and resume after the restart;
        their grace time starts when the rooms are reloaded, not now)."""
        self.session_service.stopping = True
        await self.gateway.close_all()

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        """One websocket connection from accept to close."""
        return await self.gateway.serve(request)

    def health(self, strokes_since: float | None = None) -> dict[str, Any]:
        """The numbers GET /healthz shows (the strokes' server times since `strokes_since`,
        wall time, or of the last minute)."""
        rooms = self.lobby.rooms.values()
        return {
            "rooms": len(self.lobby.rooms),
            "live": sum(r.status == "playing" for r in rooms),
            "connections": len(self.conns),
            "sessions": len(self.sessions),
            "process": self.pid,
            "remote_connections": len(self.router.remotes),
            "bus": {
                "published": self.bus.published,
                "received": self.bus.received,
                "refused": self.bus.refused,
            },
            "commits": self.runtime.commits,
            "store_errors": self.runtime.errors,
            "unsaved_rooms": len(self.runtime.unsaved),
            "uptime": round(time.time() - self.started, 1),
            "gc": gc_policy.STATS.view(),
            "heap": self.clock.heap.view(),
            "redis_memory": self.memory.view(),
            "unsent_bytes": sum(c.backlog() for c in self.conns.all),
            "dropped_behind": self.gateway.dropped_behind,
            "loop_stall_ms": round(self.gateway.stalls.recent() * 1000, 1),
            "archived": self.archivist.archived,
            # PostgreSQL (or Redis) away: finished matches wait in Redis to be archived
            "archive_waiting": self.archivist.waiting,
            "computer": self.computer.view(),
            "lessons": self.lessons.pool.view(),
            "replays": self.replays.workers.view(),
            "stroke_ms": self.runtime.stroke_times.view(strokes_since),
        }

    # -- the cluster loop --------------------------------------------------------------
    async def _cluster_loop(self) -> None:
        # renewals well inside the lease; liveness checked every second whatever the lease
        period = min(1.0, self.config.lease_seconds / 3)
        while True:
            await asyncio.sleep(period)
            try:
                await self.cluster_tick()
            except Exception:  # the loop must outlive a Redis hiccup
                log.exception("cluster tick failed")

    async def cluster_tick(self) -> None:
        """Renew leases, take over rooms of dead processes, and let go of connections whose
        other end died (server/cluster/router.py, server/net/relay.py)."""
        alive = await self.router.tick(self.relay.owners_here())
        self.relay.tick(alive)
