"""The room runtime: who watches each room, the commit-then-deliver of what a room produced,
and the play-out of its motions (their rulings released when they have played).

`flush(room)` is the one way anything a room produced reaches anybody: its events, log entries
and checkpoint are stored in one fenced commit (server/store), and only then delivered, in
order, to the room's audience (connections of this process, written through
server/net/fanout.py, and stand-ins for other processes' connections, server/cluster/remote.py).
A motion goes out whole in its `stroke` event; its end is a timer on the loop
(server/net/playout.py), started once the stroke is stored.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from server import wire
from server.cluster.bus import Bus
from server.cluster.remote import RemoteConn
from server.games.core.play import Motion, Out, Settings
from server.lobby.events import Event
from server.lobby.lobby import Lobby
from server.lobby.members import Member
from server.lobby.room import Room
from server.net import protocol as p
from server.net.aims import WatcherAims
from server.net.conn import Conn, Connections
from server.net.playout import PlayOut
from server.net.stroke_times import StrokeTimes
from server.store.redis_store import Commit, LeaseLost, Store, StoredEvent

log = logging.getLogger("novuss.runtime")

WATCHERS_PUSH = 1.0  # watcher counts are batched about once a second
EXPIRE_PER_TICK = 16
"""Rooms one tick of the clock loop closes at most; the rest close on the next ticks (issue
37: ~1,200 spam rooms whose absent players' grace ended in one tick were closed one commit
after another, and the honest rooms' clocks waited 971 ms behind them). bench/expiry.py."""
TICK_COMMITS = 8
"""Commits the clock loop has in flight at once (`_flush_some`): a few, beside the players'
own, of the store's connections (server/store/redis_store.py)."""
AIM_ENDS = frozenset({"stroke", "ruling", "takeback", "result"})
"""Events after which a preview still waiting for the watchers is stale: the aim is over."""


def room_commit(
    room: Room,
    outbox: list[Out | Event],
    logs: list[Any],
    records: list[Any],
    before: dict[str, int],
    now: float,
) -> tuple[Commit, dict[str, int]]:
    """What one flush stores for what the room produced: its checkpoint, the events in
    `outbox`, its log entries and record headers, its lobby summary, and who sits where if
    that changed since `before` (the seats last stored). Also the seats now: the next flush's
    `before`. bench/commit.py times the store on these very commits."""
    seated = {} if room.closed else {s.sid: i for i, s in room.seated()}
    commit = Commit(
        rid=room.id,
        checkpoint=None if room.closed else room.to_dict(now),
        events=[
            StoredEvent(o.seq, o.audience, o.packed, o.readers)
            for o in outbox
            if isinstance(o, Event)
        ],
        log=logs,
        records=records,
        summary=dict(room.summary()) if room.listed else None,
        seated=seated if seated != before else {},
        unseated=[sid for sid in before if sid not in seated],
        invite=room.invite,
        kept=len(room.events),
    )
    return commit, seated


class RoomRuntime:
    """The rooms of this process at run time (the `Stage` of server/lobby/members.py)."""

    def __init__(
        self,
        lobby: Lobby,
        store: Store,
        settings: Settings,
        bus: Bus,
        conns: Connections,
    ):
        self.lobby = lobby
        self.store = store
        self.settings = settings
        self.bus = bus
        self.pid = bus.pid
        self.conns = conns
        self.audience: dict[str, set[Member]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.playing: dict[str, PlayOut] = {}
        self.to_play: dict[str, Motion] = {}
        self.flushing: dict[str, asyncio.Future[None]] = {}  # room -> its commit in flight
        self.unsaved: set[str] = set()
        self.watchers_changed: set[str] = set()
        self.lobby_changed = True
        self.seated: dict[str, dict[str, int]] = {}  # room -> its seats as last committed
        self.listed: dict[str, dict[str, Any] | None] = {}  # room -> its last committed summary
        self.saved_seq: dict[str, int] = {}  # room -> the seq of its last committed checkpoint
        self.on_forget: list[Callable[[str], None]] = []  # others' per-room state to drop
        self.stroke_times = StrokeTimes()  # a strike's arrival to its motion written
        self.watcher_aims = WatcherAims(self._watchers)  # previews to watchers, slower
        self.commits = 0
        self.errors = 0
        self.expire_per_tick = EXPIRE_PER_TICK
        self._last_watchers = 0.0

    # -- the audience ------------------------------------------------------------------
    def enter(self, member: Member, room: Room, watching: bool) -> None:
        """Put a connection in a room's audience (as a player or a watcher)."""
        self.leave_audience(member)
        member.room = room
        member.watching = watching
        self.audience.setdefault(room.id, set()).add(member)
        if isinstance(member, RemoteConn):
            self.bus.send(member.pid, ["enter", member.cid, room.id, self.pid])
        if watching:
            room.watchers += 1
            self.watchers_changed.add(room.id)

    def leave_audience(self, member: Member) -> None:
        """Take a connection out of whatever room's audience it is in (here, or the remote
        room its process forwards to)."""
        if isinstance(member, Conn) and member.remote is not None:
            self.bus.send(member.remote.owner, ["detach", self.pid, member.cid])
            member.remote = None
        room = member.room
        if room is None:
            return
        if isinstance(member, RemoteConn):
            self.bus.send(member.pid, ["leave", member.cid, room.id])
        self.audience.get(room.id, set()).discard(member)
        if member.watching:
            room.watchers -= 1
            self.watchers_changed.add(room.id)
        member.room = None
        member.watching = False

    def personal(self, message: dict[str, Any], member: Member) -> dict[str, Any]:
        """A `room` event as one connection sees it: with its role and (players) the invite."""
        if message.get("t") != "room" or member.room is None or member.session is None:
            return message
        seat = member.room.seat_of(member.session.sid)
        role = "watcher" if seat is None else "player"
        invite = member.room.invite if seat is not None else None
        return {**message, "you": {"role": role, "seat": seat}, "invite": invite}

    def _watchers(self, rid: str) -> list[Member]:
        return [m for m in self.audience.get(rid, ()) if m.watching]

    def _team(self, member: Member, room: Room) -> int | None:
        if member.session is None:
            return None
        seat = room.seat_of(member.session.sid)
        return None if seat is None else seat % 2

    # -- commit and delivery -----------------------------------------------------------
    async def settle(self, room: Room) -> None:
        """Wait until what the room delivered is stored: wait for the commit in flight, then
        flush what is still pending, if anything. A `watch` settles the room before its
        snapshot. Each used to flush: a commit of the whole room though nothing had changed,
        one after another on the room's lock, and 512 watchers at their allowed rate queued a
        thousand of them a second ahead of the players' strokes (docs/reliability.md,
        "Stalled readers"). Now every watcher waits on the one commit in flight and is woken
        with the others when it is delivered."""
        while (done := self.flushing.get(room.id)) is not None:
            await asyncio.shield(done)
        if self._pending(room):
            await self.flush(room, if_pending=True)

    def _pending(self, room: Room) -> bool:
        """Has the room produced what is not stored yet (or is it empty, to be closed)?"""
        stored = not (room.outbox or room.log or room.records or room.id in self.unsaved)
        return not stored or (room.empty and not room.closed and not self._busy(room))

    async def flush(self, room: Room, if_pending: bool = False) -> None:
        """Store what the room produced (one MULTI/EXEC), then deliver it in order. If Redis
        fails, nothing is delivered: the items wait in the room and the tick loop retries.
        `if_pending`: not if an earlier flush took everything while this one waited."""
        lock = self.locks.setdefault(room.id, asyncio.Lock())
        async with lock:
            if if_pending and not self._pending(room):
                return
            done = self.flushing[room.id] = asyncio.get_running_loop().create_future()
            try:
                await self._flush(room)
            finally:
                del self.flushing[room.id]
                done.set_result(None)
                self.schedule(room)

    async def _flush(self, room: Room) -> None:
        if room.empty and not room.closed and not self._busy(room):
            self._close(room)
        outbox, logs, records = room.outbox, room.log, room.records
        room.outbox, room.log, room.records = [], [], []
        before = self.seated.get(room.id, {})
        commit, seated = room_commit(room, outbox, logs, records, before, time.time())
        try:
            await self.store.commit(commit, owner=self.pid)
        except LeaseLost:
            self.lost(room)
            return
        except Exception:  # any store failure: keep everything and retry on the next tick
            log.exception("commit of room %s failed; will retry", room.id)
            self.errors += 1
            room.outbox[:0], room.log[:0], room.records[:0] = outbox, logs, records
            self.unsaved.add(room.id)
            return
        self.commits += 1
        self.unsaved.discard(room.id)
        self.seated[room.id] = seated
        self.saved_seq[room.id] = room.seq
        if self.listed.get(room.id) != commit.summary:
            self.listed[room.id] = commit.summary
            self.bus.lobby_changed()
        for item in outbox:
            self._deliver(room, item)
        motion = self.to_play.pop(room.id, None)
        if motion is not None and not room.closed:
            play = self.playing[room.id] = self._play_out(room, motion)
            play.start()
            # The motion went to every socket of the room above, in its `stroke` (the
            # paths): the stroke's server time ends here.
            self.stroke_times.written(room.id, time.perf_counter())
        if room.closed:
            self._evict(room)

    def deliver_transient(self, room: Room) -> None:
        """Deliver what needs no commit (aim previews, clock repeats) when nothing else
        waits before it."""
        outs = [o for o in room.outbox if isinstance(o, Out)]
        if len(outs) == len(room.outbox):
            room.outbox.clear()
            for out in outs:
                self._deliver(room, out)
        self.schedule(room)

    def schedule(self, room: Room) -> None:
        """Set when the clock loop next visits the room (server/lobby/deadlines.py); called
        after everything that may change its clocks: each flush, each delivery of previews
        and each visit."""
        self.lobby.schedule(room, room.id in self.unsaved)

    def _deliver(self, room: Room, item: Out | Event) -> None:
        members = list(self.audience.get(room.id, ()))
        if isinstance(item, Out):
            data = p.encode({"t": item.kind, **item.data})
            if item.kind == "aim":  # a preview: droppable, the next one supersedes it
                aimer = room.seats[item.data["seat"]]
                for m in members:  # not back to the aimer, who drew it (docs/protocol.md)
                    if m.watching:
                        continue  # at the watchers' own rate (server/net/aims.py)
                    if aimer is None or m.session is None or m.session.sid != aimer.sid:
                        m.send(data, True)
                self.watcher_aims.offer(room.id, data)
                return
            for m in members:
                m.send(data)
            return
        if item.kind in AIM_ENDS:
            self.watcher_aims.drop(room.id)
        if item.kind == "room":
            message = item.message
            for m in members:
                m.send(self.personal(message, m))
            return
        data = item.packed
        hidden = p.encode(item.visible_to(None)) if item.audience is not None else data
        for m in members:
            sid = None if m.session is None else m.session.sid
            m.send(data if item.shown_to(self._team(m, room), sid) else hidden)

    # -- motion ------------------------------------------------------------------------
    def play(self, room: Room, motion: Motion | None) -> None:
        """Play a motion out once the flush that follows has stored its stroke."""
        if motion is not None:
            self.to_play[room.id] = motion

    def _play_out(self, room: Room, motion: Motion) -> PlayOut:
        """Release the ruling when the motion has played (real speed times the speed
        factor): the clients saw the whole motion in its `stroke`."""

        async def finish(play: PlayOut) -> None:
            if not (room.closed or room.match is None or room.match.motion is not motion):
                room.finish_motion(time.time())
                self.lobby_changed = True
                await self.flush(room)
            if self.playing.get(room.id) is play:
                del self.playing[room.id]

        return PlayOut(motion.ends(self.settings), finish)

    # -- rooms closing or lost ---------------------------------------------------------
    def _busy(self, room: Room) -> bool:
        return room.match is not None and room.match.motion is not None

    def _close(self, room: Room) -> None:
        self.lobby.remove(room)
        self.lobby_changed = True

    def _evict(self, room: Room) -> None:
        for m in list(self.audience.pop(room.id, ())):
            m.send(wire.Left(t="left", room=room.id))
            if isinstance(m, RemoteConn):
                self.bus.send(m.pid, ["leave", m.cid, room.id])
            m.room = None
            m.watching = False
        self._forget(room.id)

    def lost(self, room: Room) -> None:
        """Another process owns the room now (this one was cut off or paused past its lease):
        stop acting on it at once. Its connections here are closed; their clients reconnect
        and resume from the new owner."""
        log.warning("process %s lost the lease of room %s", self.pid, room.id)
        play = self.playing.pop(room.id, None)
        if play is not None:
            play.cancel()
        self.lobby.remove(room)
        self.unsaved.discard(room.id)
        for m in list(self.audience.pop(room.id, ())):
            m.room = None
            m.shutdown()
        for conn in list(self.conns.all):
            if conn.room is room:
                conn.room = None
        self._forget(room.id)

    def _forget(self, rid: str) -> None:
        # else one entry per room ever closed here
        self.locks.pop(rid, None)
        self.seated.pop(rid, None)
        self.listed.pop(rid, None)
        self.to_play.pop(rid, None)
        self.saved_seq.pop(rid, None)
        self.stroke_times.forget(rid)
        self.watcher_aims.forget(rid)
        for forget in self.on_forget:
            forget(rid)

    # -- the rooms' clocks -------------------------------------------------------------
    async def tick(self, now: float) -> None:
        """Run the clocks (stroke clock, grace, aim previews) of the rooms with one due,
        retrying the commit of rooms left unsaved; batch watcher counts about once a second.
        Rooms that close are closed after the others' visits, at most `expire_per_tick` of
        them: the rest stay due and close on the next ticks."""
        closing: list[Room] = []
        flushing: list[Room] = []
        for rid in self.lobby.deadlines.pop_due(now):
            room = self.lobby.rooms.get(rid)
            if room is None:
                continue
            before = room.status
            room.tick(now)
            if room.status != before:
                self.lobby_changed = True
            durable = any(isinstance(o, Event) for o in room.outbox) or room.log or room.records
            if room.empty and not self._busy(room):
                closing.append(room)
            elif durable or room.id in self.unsaved or room.empty:
                flushing.append(room)
            elif room.outbox:
                self.deliver_transient(room)
            else:
                self.schedule(room)
        await self._flush_some(flushing)
        closing_now: list[Room] = []
        for k, room in enumerate(closing):
            if k < self.expire_per_tick and not room.closed:
                closing_now.append(room)
            else:
                self.schedule(room)  # still empty: due again at the next tick
        await self._flush_some(closing_now)
        if now - self._last_watchers >= WATCHERS_PUSH and self.watchers_changed:
            self._last_watchers = now
            changed, self.watchers_changed = self.watchers_changed, set()
            counted: list[Room] = []
            for rid in changed:
                watched = self.lobby.rooms.get(rid)
                if watched is not None:
                    msg = p.encode(wire.Watchers(t="watchers", room=rid, n=watched.watchers))
                    for m in list(self.audience.get(rid, ())):
                        m.send(msg, droppable=True)
                    counted.append(watched)
            # the lobby hash shows the counts to every process
            await self._flush_some(counted)
            self.lobby_changed = True

    async def _flush_some(self, rooms: list[Room]) -> None:
        """Commit these rooms TICK_COMMITS at a time: one after another, a second of watcher
        counts changing at 1,000 tables held the clock loop (every room's clock) for seconds;
        all at once, they filled the store's connections ahead of the players' strokes."""
        for k in range(0, len(rooms), TICK_COMMITS):
            await asyncio.gather(*map(self.flush, rooms[k : k + TICK_COMMITS]))

    async def stop(self) -> None:
        """Cancel every play-out (the rooms are stored: another process, or this one after a
        restart, plays on from the checkpoint)."""
        tasks = [play.finishing for play in self.playing.values() if play.finishing]
        for play in self.playing.values():
            play.cancel()
        if tasks:
            await asyncio.wait(tasks)
