"""Websockets near the TCP total: the door's reserve kept for seated players (issue 37).

The door (server/net/door.py) keeps its last `--tcp-reserve` slots from connections without
a request in hand, but a websocket, once upgraded, is a request in hand for as long as it is
open: attackers from many addresses who open whole websockets (a hello, or just the upgrade,
then silence or a trickle of pings) could hold every slot, and a seated player who dropped
could not come back, nor anybody log in. Here:

- until its hello a websocket is *waiting* at the door, like a half-sent request (the door
  cuts such connections first when it needs room, and quickly when it is busy);
- a hello of a session without a seat in a live room (a newcomer, or a returning visitor of
  the lobby) is refused with `server_full` once the connections with something in hand reach
  the total less the reserve: the reserve is left to seated players' returns and the HTTP
  logins. The socket stays open, waiting again, as after any refused hello;
- a seated player's hello is always admitted. When the whole total was full, the door let
  its connection in past it (OVERDRAFT), and the return displaces the websocket, without a
  seat and idle for HOLD_IDLE (nothing sent but pings), of the address holding the most
  websockets (its longest idle): that one gets `server_full` and is closed.

The websockets per address are those counted by the gateway's AddressCounter
(`--conns-per-address`, server/net/limits.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from server.net import protocol as p
from server.net.conn import Conn
from server.net.door import Door
from server.net.limits import AddressCounter

# seconds without a message (pings aside) before a websocket without a seat may be displaced
# for a seated player's return: the web client's lobby pings every 10 s and sends nothing else
HOLD_IDLE = 30.0


def server_full() -> p.ProtocolError:
    """The refusal a newcomer gets past the non-reserved part (as when Redis is nearly full)."""
    return p.ProtocolError(
        "server_full", "The server is full just now; please try again in a few minutes."
    )


class Holders:
    """This process's websockets as the door sees them: waiting for their hello, admitted
    without a seat (guests), or a seated player's; and the refusals and displacements."""

    def __init__(
        self, addresses: AddressCounter | None = None, clock: Callable[[], float] = time.monotonic
    ):
        self.door: Door | None = None  # None (no door attached): nothing is refused
        self.addresses = addresses
        self.clock = clock
        self._handlers: dict[Conn, Any] = {}  # open websocket -> its request handler (the door's)
        self.guests: dict[Conn, None] = {}  # admitted without a seat, oldest hello first
        self.refused = 0  # newcomers' hellos refused `server_full` near the total
        self.displaced = 0  # idle websockets closed for a seated player's return

    def attach(self, door: Door) -> None:
        """Count at this door; it may let a connection past its total while a guest is open."""
        self.door = door
        door.overdraw = lambda: bool(self.guests)

    def opened(self, conn: Conn, handler: Any) -> None:
        """A websocket upgraded: until its hello it waits at the door."""
        self._handlers[conn] = handler
        if self.door is not None:
            self.door.idle(handler)

    def closed(self, conn: Conn) -> None:
        """A websocket ended."""
        self._handlers.pop(conn, None)
        self.guests.pop(conn, None)

    def hello_started(self, conn: Conn) -> None:
        """A hello is being answered: a request in hand (a slow store must not make the door
        cut it as a connection that says nothing)."""
        handler = self._handlers.get(conn)
        if self.door is not None and handler is not None:
            self.door.asking(handler)

    def hello_failed(self, conn: Conn) -> None:
        """The hello was refused: the socket waits again, as before it."""
        handler = self._handlers.get(conn)
        if self.door is not None and handler is not None:
            self.door.idle(handler)

    def room_for_newcomer(self) -> bool:
        """Whether a session without a seat may be admitted now."""
        return self.door is None or self.door.room_for_newcomer()

    def refuse(self) -> p.ProtocolError:
        """Count a newcomer's hello refused near the total; the refusal to raise."""
        self.refused += 1
        return server_full()

    def admitted(self, conn: Conn, seated: bool) -> None:
        """A hello was answered: a guest's socket is a candidate for displacement; a seated
        player's, past the door's total, displaces one."""
        if not seated:
            self.guests[conn] = None
        elif self.door is not None and self.door.count > self.door.total:
            self._displace()

    def _displace(self) -> None:
        """Close the longest idle guest of the address holding the most websockets."""
        before = self.clock() - HOLD_IDLE
        idle = [c for c in self.guests if not c.closed and c.acted_at <= before and idle_guest(c)]
        if not idle:
            return
        held = {} if self.addresses is None else self.addresses.open
        victim = max(idle, key=lambda c: (held.get(c.address, 0), -c.acted_at))
        self.displaced += 1
        self.guests.pop(victim, None)
        victim.send(server_full().reply())
        victim.shutdown(code=1013, reason=b"server full")  # 1013: try again later

    def view(self) -> dict[str, int]:
        """The numbers /healthz shows as `ws`."""
        return {
            "open": len(self._handlers),
            "guests": len(self.guests),
            "refused": self.refused,
            "displaced": self.displaced,
        }


def idle_guest(conn: Conn) -> bool:
    """Has the connection nothing to lose but its socket: no seat (watching, or in no room)
    and no place in a quick-match queue?"""
    in_room = conn.room is not None or conn.remote is not None
    return conn.queued is None and (conn.watching or not in_room)
