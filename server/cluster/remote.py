"""The two ends of a connection that is served by one process and in a room of another."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgpack

from server.cluster.bus import Bus
from server.lobby.members import QueueEntry, Session

if TYPE_CHECKING:
    from server.lobby.room import Room


@dataclass(frozen=True, slots=True)
class Link:
    """On the connection's process: the remote room it is in and the process owning it."""

    rid: str
    owner: str


@dataclass(eq=False)
class RemoteConn:
    """On the owner's process: a stand-in for a connection of another process, a `Member` of
    the lobby (server/lobby/members.py) like a local connection (audience, seat, personal
    messages); what it sends goes over the bus to the connection's process."""

    pid: str
    cid: str
    bus: Bus
    session: Session | None = None
    room: Room | None = None
    watching: bool = False
    lobby: bool = False
    closed: bool = False
    queued: tuple[str, QueueEntry] | None = None  # always None: queues are its process's

    def send(self, msg: Mapping[str, Any] | bytes, droppable: bool = False) -> None:
        """Queue a message for the connection on its own process."""
        if self.closed:
            return
        data = msg if isinstance(msg, bytes) else msgpack.packb(msg, use_bin_type=True)
        self.bus.deliver(self.pid, self.cid, data, droppable)

    def shutdown(self, abort: bool = False) -> None:
        """Have the connection's process close it."""
        if not self.closed:
            self.closed = True
            self.bus.send(self.pid, ["close", self.cid])
