"""The challenges' service: send, answer, cancel, and the expiry (docs/protocol.md,
"challenge").

A challenge is kept in Redis (store.py), so the challenged player may answer from any tab on
any process; what each side is told goes to its connections wherever they are (the bus's `to`,
server/cluster/bus.py). The challenger's connection holds the challenge: its process tells the
expiry, and cancels the challenges of a connection that closes (the room could not seat it).
An accept makes the room on the accepting player's process, which owns it, and seats both as
a quick match seats its table wherever its players are connected: a normal room, where the
match begins once each player has said ready, as in a room made by `create`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from redis.exceptions import RedisError

from server.accounts.policy import is_username_key, username_key
from server.accounts.store import AccountStore
from server.challenges.book import (
    Challenge,
    ChallengeRefused,
    End,
    Terms,
    refusal_for_limits,
)
from server.challenges.store import ChallengeStore
from server.cluster.bus import Bus
from server.cluster.router import Router
from server.games.registry import rating_mode
from server.lobby.lobby import Lobby
from server.lobby.members import Client, Member, Stage
from server.lobby.room import new_id
from server.lobby.service import LobbyService
from server.net import protocol as p

log = logging.getLogger("novuss.challenges")

GONE = ChallengeRefused("challenge_gone", "That challenge is no longer waiting.")


class Challenges:
    """This process's side of the challenges."""

    def __init__(
        self,
        store: ChallengeStore,
        accounts: AccountStore,
        lobby: Lobby,
        service: LobbyService,
        stage: Stage,
        router: Router,
        bus: Bus,
        local: Callable[[str], Member | None],
        seconds: float,
    ):
        self.store = store
        self.accounts = accounts
        self.lobby = lobby
        self.service = service
        self.stage = stage
        self.router = router
        self.bus = bus
        self.local = local  # this process's connection by id
        self.pid = router.pid
        self.seconds = seconds  # a challenge unanswered so long expires (--challenge-seconds)
        self.present: dict[str, str] = {}  # this process's connections of accounts: cid -> uid
        self.mine: dict[str, Challenge] = {}  # sent from this process's connections, by id

    # -- presence ----------------------------------------------------------------------
    async def arrived(self, conn: Client) -> None:
        """A connection said hello: if it is an account's, it is online here, and sees the
        challenges already waiting for it (a new tab, a reloaded page)."""
        uid = None if conn.session is None else conn.session.account
        if uid is None:
            return
        self.present[conn.cid] = uid
        await self.store.here(uid, self.pid, conn.cid)
        now = time.time()
        for chid in await self.store.waiting_for(uid, now):
            ch = await self.store.get(chid)
            if ch is not None:
                conn.send(ch.offer(now))

    async def departed(self, conn: Client) -> None:
        """A connection closed: no longer online here; its challenges are cancelled. Redis
        away, it is left at that: the seat's grace must still start (the sessions call this
        first), a stale entry is of a connection `_online` finds gone, and the challenges
        expire."""
        uid = self.present.pop(conn.cid, None)
        try:
            if uid is not None:
                await self.store.gone(uid, conn.cid)
            for ch in [c for c in self.mine.values() if c.cid == conn.cid]:
                await self._end(ch, "cancelled")
        except RedisError:
            log.warning("challenges: a closed connection's presence not cleared (Redis away)")

    async def _online(self, uid: str) -> dict[str, str]:
        """An account's open connections (id -> process) on live processes."""
        where = await self.store.where(uid)
        others = sorted(set(where.values()) - {self.pid})
        alive = await self.router.alive(others) if others else {}
        return {
            cid: pid
            for cid, pid in where.items()
            if (pid == self.pid and self.local(cid) is not None) or alive.get(pid)
        }

    def _tell(self, pid: str, cid: str, msg: Mapping[str, Any]) -> None:
        if pid != self.pid:
            self.bus.deliver(pid, cid, p.encode(msg), False)
        elif (conn := self.local(cid)) is not None:
            conn.send(msg)

    async def _tell_both(self, ch: Challenge, msg: Mapping[str, Any]) -> None:
        self._tell(ch.pid, ch.cid, msg)
        for cid, pid in (await self._online(ch.target)).items():
            self._tell(pid, cid, msg)

    async def _end(self, ch: Challenge, why: End) -> bool:
        """End a challenge and tell both sides, unless another process ended it first."""
        self.mine.pop(ch.id, None)
        if not await self.store.take(ch):
            return False
        await self._tell_both(ch, ch.ended(why))
        return True

    # -- the messages ------------------------------------------------------------------
    async def send(self, conn: Client, to: str, terms: Terms) -> None:
        """Challenge the registered player named `to`: refused (nothing kept or told) when
        the challenger is a guest or seated, the name is nobody's, or the challenger's own,
        the player is offline, or too many challenges wait (book.py's limits); then counted
        against the challenger's budget of room creations (server/net/limits.py)."""
        sess = conn.session
        assert sess is not None
        if sess.account is None:  # a guest's name is nobody's to answer to
            raise ChallengeRefused("account_needed", "Log in to challenge a player.")
        await self.service.free(conn)
        key = username_key(to.strip())
        uid = await self.accounts.uid_of(key) if is_username_key(key) else None
        name = (await self.accounts.names([uid])).get(uid) if uid is not None else None
        if uid is None or name is None:  # a deleted account keeps its key, not its name
            raise ChallengeRefused("unknown_player", "There is no player of that name.")
        if uid == sess.account:
            raise ChallengeRefused("self_challenge", "You cannot challenge yourself.")
        where = await self._online(uid)
        if not where:
            raise ChallengeRefused("player_offline", "That player is not online.")
        now = time.time()
        # read, then written below: two sent in the same instant may pass a limit by one,
        # which is no flood (the room budget still holds)
        refused = refusal_for_limits(
            await self.store.sent_by(sess.sid, now), len(await self.store.waiting_for(uid, now)),
            uid,
        )  # fmt: skip
        if refused is not None:
            raise refused
        self.service.room_for_more()
        conn.may_create()
        ch = Challenge(
            new_id("h"), sess.sid, sess.name, sess.account, self.pid, conn.cid, uid, name, terms,
            now + self.seconds,
        )  # fmt: skip
        await self.store.put(ch)
        self.mine[ch.id] = ch
        conn.send(ch.sent(now))
        for cid, pid in where.items():
            self._tell(pid, cid, ch.offer(now))

    async def answer(self, conn: Client, chid: str, accept: bool) -> None:
        """The challenged player's answer (from any of their tabs)."""
        ch = await self.store.get(chid)
        sess = conn.session
        assert sess is not None
        if ch is None or ch.target != sess.account:
            raise GONE  # nor is anybody told whether somebody else's challenge exists
        if not accept:
            if not await self._end(ch, "declined"):
                raise GONE
            return
        await self.service.free(conn)  # refused: the challenge still waits
        challenger = await self._challenger(ch)
        if challenger is None:
            await self._end(ch, "gone")
            return
        if not await self.store.take(ch):
            raise GONE
        self.mine.pop(ch.id, None)
        await self.service.dequeue(challenger)  # out of a quick-match queue of this process
        seated = await self._seat(ch, challenger, conn)
        await self._tell_both(ch, ch.ended("accepted" if seated else "busy"))

    async def _challenger(self, ch: Challenge) -> Member | None:
        """The challenger's connection (a stand-in if another process's), if still open."""
        if ch.pid == self.pid:
            return self.local(ch.cid)
        if not (await self.router.alive([ch.pid])).get(ch.pid):
            return None
        return self.router.member(ch.pid, ch.cid, ch.sender, ch.sender_name)

    async def _seat(self, ch: Challenge, challenger: Member, conn: Client) -> bool:
        """Make the room here and seat both (the challenger at 0, the challenged at 1: in
        doubles, opponents); False if either took a seat elsewhere meanwhile."""
        assert conn.session is not None
        t = ch.terms
        rid = new_id("r")
        sids = [ch.sender, conn.session.sid]
        claimed = [sid for sid in sids if await self.service.store.claim(sid, rid)]
        if len(claimed) < len(sids):
            for sid in claimed:
                await self.service.store.release(sid, rid)
            return False
        players = await self.service.identities.players(
            [(ch.sender, ch.sender_name), (conn.session.sid, conn.session.name)],
            rating_mode(t.game, t.mode),
        )
        room = self.lobby.new_room(t.mode, t.sets, t.clock, False, rid, t.game, rated=t.rated)
        await self.router.claim(rid)  # a fresh random id: nobody else holds it
        await self.service.dequeue(conn)
        self.lobby.add(room)
        room.join_together(players, time.time())  # one `room`, both seated
        for member in (challenger, conn):
            self.stage.enter(member, room, watching=False)
        self.stage.lobby_changed = True
        await self.stage.flush(room)
        return True

    async def cancel(self, conn: Client, chid: str) -> None:
        """The challenger takes a challenge back."""
        ch = await self.store.get(chid)
        if ch is None or conn.session is None or ch.sender != conn.session.sid:
            raise GONE
        if not await self._end(ch, "cancelled"):
            raise GONE

    # -- the expiry --------------------------------------------------------------------
    async def expire(self, now: float) -> None:
        """End this process's challenges whose time is up."""
        for ch in [c for c in self.mine.values() if c.expires <= now]:
            await self._end(ch, "expired")

    async def run(self) -> None:
        """The expiry loop (a challenge ends within a second of its time)."""
        while True:
            await asyncio.sleep(1.0)
            try:
                await self.expire(time.time())
            except Exception:  # the loop must outlive a Redis hiccup
                log.exception("challenge expiry failed")
