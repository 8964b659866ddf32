"""The dispatcher: decode a client frame, check it, and route it to its handler.

It holds no game or lobby logic: every message type maps to one call of the part that owns
it (sessions, the lobby service, the table, the relay to another process's room), and every
refusal those raise becomes one `error` reply (docs/protocol.md) with nothing changed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from server import wire
from server.games.core.play import MatchRefused, Shot
from server.lobby.members import Member
from server.lobby.room import LobbyError
from server.lobby.service import LobbyService
from server.net import protocol as p
from server.net.conn import Conn
from server.net.play import Table
from server.net.relay import LOCAL_MESSAGES, Relay
from server.net.sessions import Sessions

log = logging.getLogger("novuss.dispatch")

Route = Callable[[Any, Any], Awaitable[None]]
Routes = Mapping[type, Route]
"""message type -> the one call that handles it (after hello)"""


class RouteClash(ValueError):
    """Two parts claim the same message type."""


def merged(*tables: Routes) -> Routes:
    """The routes of every part in one table; a message type claimed twice is a mistake of
    the composition, refused at start-up rather than one route silently replacing another."""
    out: dict[type, Route] = {}
    for table in tables:
        for kind, route in table.items():
            if kind in out:
                raise RouteClash(f"{kind.__name__} is routed twice")
            out[kind] = route
    return out


def lobby_routes(lob: LobbyService, subscribe: Callable[[Conn, bool], Awaitable[None]]) -> Routes:
    """The lobby's messages (create, join, watch, resume, leave, the lobby list). Create and
    LobbySub only ever come from this process's connections (the relay forwards neither)."""
    return {
        p.LobbySub: lambda c, m: subscribe(c, m.on),
        p.Create: lambda c, m: lob.create(
            c, m.mode, m.sets, m.clock, m.private, m.game, dict(m.options), m.rated
        ),
        p.Join: lambda c, m: lob.join(c, m.room, m.invite, m.seat, m.team),
        p.Watch: lambda c, m: lob.watch(c, m.room, m.invite, m.since),
        p.Resume: lambda c, m: lob.resume(c, m.room, m.since),
        p.Leave: lambda c, m: lob.leave(c),
    }


def table_routes(tab: Table) -> Routes:
    """The moves at the table."""
    return {
        p.Ready: lambda c, m: tab.ready(c, m.ready),
        p.Rematch: lambda c, m: tab.rematch(c),
        p.Aim: lambda c, m: tab.aim(c, m.x, m.y, m.angle, m.power),
        p.Strike: lambda c, m: tab.strike(c, Shot(m.x, m.y, m.angle, m.speed)),
        p.Pass: lambda c, m: tab.pass_turn(c),
        p.Resign: lambda c, m: tab.resign(c),
        p.Chat: lambda c, m: tab.chat(c, m.text, m.team),
    }


# answered by a whole room or room list: costly, so they have a budget of their own
# answered by a whole room or room list; a `ready` by a room to everyone in it (toggled 58
# times it sent 532 snapshots, 373 KB, to 12 watchers: attacker review, 2026-11-28)
SNAPSHOTS = (p.Watch, p.Resume, p.Join, p.LobbySub, p.Ready)


class Dispatcher:
    """One message of one connection (of this process, or forwarded by another's) at a time."""

    def __init__(
        self,
        sessions: Sessions,
        relay: Relay,
        routes: Routes,
        max_frame_bytes: int,
        max_speed: float,
    ):
        self.sessions = sessions
        self.relay = relay
        self.routes = dict(routes)
        self.max_frame_bytes = max_frame_bytes
        self.max_speed = max_speed

    async def handle(self, conn: Member, data: bytes | str) -> None:
        """Decode and act on one message (of a local connection, or of a remote one whose
        process forwarded it to this room owner: the limits were applied there)."""
        ref = None
        try:
            env = p.decode(data, self.max_frame_bytes, self.max_speed)
            ref = env.ref
            if isinstance(conn, Conn) and not isinstance(env.msg, p.Ping):
                conn.acted_at = time.monotonic()  # pings alone leave a socket idle
            if isinstance(conn, Conn) and isinstance(env.msg, SNAPSHOTS):
                conn.guard.may_snapshot()
            if isinstance(conn, Conn) and await self.relay.forward(conn, env.msg, data):
                return
            await self.dispatch(conn, env.msg)
        except p.ProtocolError as e:
            if isinstance(conn, Conn) and conn.guard.abusive:  # the 20th snapshot refused
                conn.send(p.ProtocolError("abuse", "Flooding: this connection is closed.").reply())
                conn.shutdown()
                return
            e.ref = e.ref if e.ref is not None else ref
            conn.send(e.reply())
        except (LobbyError, MatchRefused) as e:
            rule, reason = getattr(e, "rule", ""), getattr(e, "reason", "")
            conn.send(p.ProtocolError(e.code, e.message, ref, rule, reason).reply())
        except Exception:  # a bug must cost one reply, not the connection or the process
            log.exception("handling a message failed")
            conn.send(
                p.ProtocolError("internal", "The server failed on this message.", ref).reply()
            )

    async def dispatch(self, conn: Member, msg: p.ClientMessage) -> None:
        """Route a typed message to its handler."""
        if isinstance(msg, p.Ping):
            conn.send(wire.Pong(t="pong", n=msg.n, time=time.time()))
            return
        if not isinstance(conn, Conn) and isinstance(msg, LOCAL_MESSAGES):
            # the relay forwards none of these: a process that sent one is not ours to obey
            raise p.ProtocolError("not_now", "This message is for the connection's process.")
        if isinstance(msg, p.Hello):
            assert isinstance(conn, Conn)
            await self.sessions.hello(conn, msg.name, msg.token)
            return
        if conn.session is None:
            raise p.ProtocolError("hello_first", "Say hello (with your name) first.")
        await self.routes[type(msg)](conn, msg)
