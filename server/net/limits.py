"""The server's limits on what one client (or one address) may cost it, in one place.

The values come from server/config.py (each has a command-line option and a NOVUSS_ variable);
this module holds the mechanisms: token buckets for message and room-creation rates, a counter
of connections per address, and the error a refusal sends. The gateway (server/net/gateway.py) calls
them; docs/reliability.md lists the values and why.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from server.config import Config
from server.edge.buckets import KeyedBuckets, TokenBucket
from server.net.protocol import ProtocolError
from server.net.stalls import Stalls


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits in force, read once from the configuration."""

    max_frame_bytes: int  # larger messages get `too_large` (above 64 KiB: the socket closes)
    msg_rate: float  # messages per second a connection may send, sustained
    msg_burst: float  # ... and in one burst
    abuse_limit: int  # `rate_limited` refusals a connection gets before it is closed
    create_rate: float  # rooms a connection may create per second, sustained
    create_burst: float  # ... and in one burst
    address_create_rate: float  # rooms created per second from one client address
    address_create_burst: float  # ... and in one burst
    conns_per_address: int  # open websockets per client address
    snapshot_rate: float  # requests answered by a whole room or list, per second
    snapshot_burst: float  # ... and in one burst
    chat_rate: float  # chat lines per second from one session, sustained
    chat_burst: float  # ... and in one burst
    room_chat_rate: float  # chat lines per second one room carries
    room_chat_burst: float  # ... and in one burst
    session_rate: float  # new sessions per second from one client address, sustained
    session_burst: float  # ... and in one burst
    idle_seconds: float  # a connection that sends nothing (not even ping) this long is closed
    send_queue: int  # messages queued per client before previews are dropped

    @classmethod
    def from_config(cls, config: Config) -> Limits:
        """The limits named in a Config."""
        return cls(
            max_frame_bytes=config.max_frame_bytes,
            msg_rate=config.msg_rate,
            msg_burst=config.msg_burst,
            abuse_limit=config.abuse_limit,
            create_rate=config.create_rate,
            create_burst=config.create_burst,
            address_create_rate=config.address_create_rate,
            address_create_burst=config.address_create_burst,
            conns_per_address=config.conns_per_address,
            snapshot_rate=config.snapshot_rate,
            snapshot_burst=config.snapshot_burst,
            chat_rate=config.chat_rate,
            chat_burst=config.chat_burst,
            room_chat_rate=config.room_chat_rate,
            room_chat_burst=config.room_chat_burst,
            session_rate=config.session_rate,
            session_burst=config.session_burst,
            idle_seconds=config.idle_seconds,
            send_queue=config.send_queue,
        )


@dataclass(slots=True)
class ConnGuard:
    """One connection's budget: its message and room-creation buckets, refusals, last message."""

    limits: Limits
    stalls: Stalls | None = None  # the loop's stalls: a burst read after one is not the client's
    messages: TokenBucket = field(init=False)
    creates: TokenBucket = field(init=False)
    snapshots: TokenBucket = field(init=False)
    refused: int = 0
    last_heard: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        slack = None if self.stalls is None else self.stalls.recent
        self.messages = TokenBucket(self.limits.msg_rate, self.limits.msg_burst, slack=slack)
        self.creates = TokenBucket(self.limits.create_rate, self.limits.create_burst)
        self.snapshots = TokenBucket(
            self.limits.snapshot_rate, self.limits.snapshot_burst, slack=slack
        )

    def heard(self) -> ProtocolError | None:
        """Count one incoming message: None if it may be handled, else the error to answer
        (the message itself is then ignored)."""
        self.last_heard = time.monotonic()
        if self.messages.take():
            return None
        self.refused += 1
        return ProtocolError(
            "rate_limited",
            f"Too many messages: at most {self.limits.msg_rate:g} a second"
            f" (bursts of {self.limits.msg_burst:g}); this one was ignored.",
        )

    @property
    def abusive(self) -> bool:
        """True once the connection kept flooding after enough refusals: close it."""
        return self.refused >= self.limits.abuse_limit

    def idle(self, now: float) -> bool:
        """True when nothing was heard for longer than the idle limit (`now`: monotonic)."""
        return now - self.last_heard > self.limits.idle_seconds

    def may_snapshot(self) -> None:
        """Allow one request answered by a whole room or room list, or raise `rate_limited`
        (counted as abuse like any other refusal: a client that goes on asking after being
        refused is closed, not served a refusal for ever)."""
        if not self.snapshots.take():
            self.refused += 1
            raise ProtocolError(
                "rate_limited",
                f"Too many watch, resume, join, ready or lobby requests: at most"
                f" {self.limits.snapshot_burst:g} at once, then {self.limits.snapshot_rate:g}"
                " a second.",
            )

    def may_create(self) -> None:
        """Allow one room creation or raise `rate_limited`."""
        if not self.creates.take():
            raise ProtocolError(
                "rate_limited",
                f"Too many rooms created: at most {self.limits.create_burst:g} at once, then one"
                f" every {1 / self.limits.create_rate:g} s.",
            )


class AddressCounter:
    """Open connections per client address, so one host cannot hold every socket."""

    def __init__(self, limit: int):
        self.limit = limit
        self.open: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        """Count a new connection from `address`; False (not counted) if it is over the limit."""
        n = self.open.get(address, 0)
        if n >= self.limit:
            return False
        self.open[address] = n + 1
        return True

    def release(self, address: str) -> None:
        """A connection admitted from `address` closed."""
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)


class CreateBudgets:
    """Room creations per client address and per session, across connections: a client that
    reconnects (or opens its 32 connections) does not get a fresh budget."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.per_address = KeyedBuckets(limits.address_create_rate, limits.address_create_burst)
        self.per_session = KeyedBuckets(limits.create_rate, limits.create_burst)

    def take(self, address: str, sid: str) -> None:
        """Allow one room creation or raise `rate_limited`."""
        if not self.per_session.take(sid):
            raise ProtocolError(
                "rate_limited",
                f"Too many rooms created: at most {self.limits.create_burst:g} at once, then one"
                f" every {1 / self.limits.create_rate:g} s.",
            )
        if not self.per_address.take(address):
            raise ProtocolError(
                "rate_limited",
                f"Too many rooms created from your address: at most"
                f" {self.limits.address_create_burst:g} at once, then one every"
                f" {1 / self.limits.address_create_rate:g} s.",
            )

    def prune(self) -> None:
        """Forget addresses and sessions whose budgets are full again."""
        self.per_address.prune()
        self.per_session.prune()


class ChatBudgets:
    """Chat lines per session (across its connections) and per room (from everybody in it):
    a flooder, or sixteen of them, cannot fill every viewer's link with chat."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.per_session = KeyedBuckets(limits.chat_rate, limits.chat_burst)
        self.per_room = KeyedBuckets(limits.room_chat_rate, limits.room_chat_burst)

    def take(self, sid: str, rid: str) -> None:
        """Allow one chat line or raise `rate_limited`."""
        if not self.per_session.take(sid):
            raise ProtocolError(
                "rate_limited",
                f"Too much chat: at most {self.limits.chat_burst:g} lines at once, then one"
                f" every {1 / self.limits.chat_rate:g} s.",
            )
        if not self.per_room.take(rid):
            raise ProtocolError(
                "rate_limited",
                f"This room's chat is busy: at most {self.limits.room_chat_rate:g} lines a"
                " second from everybody.",
            )

    def prune(self) -> None:
        """Forget sessions and rooms whose budgets are full again."""
        self.per_session.prune()
        self.per_room.prune()
