"""Who acts in the lobby and the rooms, and what the lobby needs of the layers around it.

A `Member` is a connection as the lobby and the rooms see it: one of this process
(server/net/conn.py) or a stand-in for one of another process whose room this process owns
(server/cluster/remote.py). The lobby service (server/lobby/service.py) reaches the room
runtime and the cluster only through the two protocols below, so that nothing in server/lobby
imports the network layer or the cluster router above it: they are given to it when the hub
is put together (server/net/hub.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from server.lobby.room import Room

QueueEntry = list[Any]  # [sid, name, process, connection] as stored in a quick-match queue


@dataclass(eq=False)
class Session:
    """A player identity that survives reconnects: public id, name, secret resume token, and
    its newest connection."""

    sid: str
    name: str
    token: str
    conn: Member | None = None
    account: str | None = None  # the uid of the account it plays as (None: a guest)


class Member(Protocol):
    """A connection in the lobby or a room, of this process or of another one."""

    session: Session | None
    room: Room | None
    watching: bool
    closed: bool
    queued: tuple[str, QueueEntry] | None  # (mode, entry) while in a quick-match queue

    def send(self, msg: Mapping[str, Any] | bytes, droppable: bool = False) -> None:
        """Deliver a message (a map, or bytes already encoded); `droppable`: a reader that
        falls behind may lose it."""

    def shutdown(self, abort: bool = False) -> None:
        """Close the connection."""


class Client(Member, Protocol):
    """A connection of this process: it has an id on the bus and its own rate budgets."""

    cid: str

    def may_create(self) -> None:
        """Allow one room creation or raise the refusal."""


class Stage(Protocol):
    """The room runtime as the lobby uses it (server/net/runtime.py): who is in each room's
    audience, and the commit-then-deliver of what a room produced."""

    lobby_changed: bool

    def flush(self, room: Room) -> Awaitable[None]:
        """Store what the room produced, then deliver it."""

    def settle(self, room: Room) -> Awaitable[None]:
        """Wait until what the room delivered is stored (flushing what is pending)."""

    def enter(self, member: Member, room: Room, watching: bool) -> None:
        """Put a connection in a room's audience (as a player or a watcher)."""

    def leave_audience(self, member: Member) -> None:
        """Take a connection out of whatever room's audience it is in."""

    def personal(self, message: dict[str, Any], member: Member) -> dict[str, Any]:
        """A `room` event as one connection sees it."""


class Cluster(Protocol):
    """The other processes as the lobby uses them (server/cluster/router.py)."""

    pid: str

    def claim(self, rid: str) -> Awaitable[bool]:
        """Take the lease of a new room."""

    def alive(self, pids: list[str]) -> Awaitable[dict[str, bool]]:
        """Which of these processes are alive."""

    def lobby_changed(self) -> None:
        """Tell every process the shared lobby list changed."""

    def member(self, pid: str, cid: str, sid: str, name: str) -> Member | None:
        """The connection `cid` of process `pid` (here, or a stand-in for another's), or
        None if it is gone."""
