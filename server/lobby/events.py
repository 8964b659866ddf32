"""A room's sequenced events: numbered, kept for resume within a count and a size, each
message msgpack-encoded once. Pure, no I/O.

A client that reconnects says the last `seq` it saw and gets exactly what it missed, as it may
read it (a team's chat is its writers' team's: others get a `hidden` placeholder with the
same `seq`, so nobody's sequence has gaps); when some of that is no longer kept, the caller
sends a whole `room` instead.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

from server import wire

# The kept events' bytes, besides their count (the buffer): 256 events of up to ~3.6 KB each
# held 0.9 MB for one room (issue 37); a resume that needs older ones gets a whole `room`.
EVENT_BYTES = 128 * 1024


@dataclass(frozen=True, slots=True)
class Event:
    """A sequenced event as kept for resume, its message msgpack-encoded once. A room keeps
    the last `buffer` events (256): as one bytes object each instead of a tree of dicts and
    lists, at 500 tables they are no longer most of what the cycle collector walks
    (docs/performance.md, "Third round"), and the hub sends these very bytes."""

    seq: int
    audience: int | None
    kind: str  # the message's "t"
    packed: bytes
    readers: tuple[str, ...] = ()  # team chat: the sessions of the team when it was written

    @classmethod
    def of(
        cls, seq: int, audience: int | None, message: dict[str, Any], readers: tuple[str, ...] = ()
    ) -> Event:
        """The event of a message (which carries its own "t" and "seq")."""
        packed = msgpack.packb(message, use_bin_type=True)
        return cls(seq, audience, message["t"], packed, readers)

    @property
    def message(self) -> dict[str, Any]:
        """The message, decoded afresh (a copy: the event itself never changes)."""
        message = msgpack.unpackb(self.packed, raw=False, strict_map_key=False)
        assert isinstance(message, dict)  # every event is a map with "t" (Event.of)
        return message

    def shown_to(self, team: int | None, sid: str | None) -> bool:
        """May the session `sid`, now of `team` (None: a watcher), read it? A team's message
        is its writers' team's: whoever takes one of their seats later does not read it."""
        if self.audience is None:
            return True
        if self.readers:
            return sid in self.readers
        return self.audience == team

    def visible_to(self, team: int | None, sid: str | None = None) -> dict[str, Any]:
        """The message as `sid` of `team` gets it: an event meant for others is replaced by a
        `hidden` placeholder, so everybody's seq stays without gaps."""
        if self.shown_to(team, sid):
            return self.message
        return dict(wire.Hidden(t="hidden", seq=self.seq))


class EventBuffer:
    """The last `size` events of a room (and no more than EVENT_BYTES of them), and the
    room's sequence number: the `seq` of the newest event, kept or not."""

    def __init__(self, size: int = 256) -> None:
        self.seq = 0
        self.events: deque[Event] = deque(maxlen=size)
        self.bytes = 0  # the kept events' size: bounded too (EVENT_BYTES)

    def add(
        self,
        kind: str,
        data: Mapping[str, Any],
        audience: int | None = None,
        readers: tuple[str, ...] = (),
    ) -> Event:
        """The next event: a message of type `kind` with `data`, numbered and kept."""
        self.seq += 1
        event = Event.of(self.seq, audience, {"t": kind, "seq": self.seq, **data}, readers)
        self.keep(event)
        return event

    def keep(self, event: Event) -> None:
        """Keep an event for resume, within the count and EVENT_BYTES (the oldest go first;
        the newest is always kept)."""
        if len(self.events) == self.events.maxlen:
            self.bytes -= len(self.events[0].packed)
        self.events.append(event)
        self.bytes += len(event.packed)
        while self.bytes > EVENT_BYTES and len(self.events) > 1:
            self.bytes -= len(self.events.popleft().packed)

    def forget(self) -> None:
        """Keep none of the events so far (the sequence goes on): whoever resumes from before
        the next one gets a whole `room`."""
        self.events.clear()
        self.bytes = 0

    def restore(self, seq: int, events: Iterable[Event]) -> None:
        """After a reload: the sequence as it was checkpointed, and the stored events up to
        it (a store may hold one written after the checkpoint: it is not the room's)."""
        self.seq = seq
        for e in events:
            if e.seq <= seq:
                self.keep(e)

    def missed(
        self, since: int, team: int | None, sid: str | None = None
    ) -> list[dict[str, Any]] | None:
        """The events after `since` as the session `sid` of `team` (None: a watcher) may see
        them, or None when some are no longer kept (the caller then sends a full snapshot)."""
        if since == self.seq:
            return []
        if since > self.seq:
            return None  # a number from the future (a store that lost data): resync whole
        if not self.events or self.events[0].seq > since + 1:
            return None
        return [e.visible_to(team, sid) for e in self.events if e.seq > since]
