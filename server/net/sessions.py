"""Sessions: who a connection is, across reconnects.

`hello` starts a session (a public id, the name, a secret resume token kept in Redis) or
resumes one by its token, and gives a seated player the seat back, wherever its room lives;
a connection that ends leaves its queue and its audience, and a seated player's seat waits
the grace time (004 § 22 (3)). Sessions with no connection and no seat here are forgotten
from memory (their tokens stay in Redis).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable

from server import wire
from server.accounts.policy import is_username_key
from server.accounts.store import LOGIN_TTL_S, AccountStore
from server.cluster.bus import Bus
from server.cluster.remote import Link
from server.cluster.router import Router
from server.config import Config
from server.edge.buckets import KeyedBuckets
from server.games.core.play import Settings
from server.history.store import HistoryStore
from server.lobby.lobby import Lobby
from server.lobby.members import Member, Session
from server.lobby.room import new_id
from server.lobby.service import LobbyService
from server.net import protocol as p
from server.net.conn import Conn
from server.net.holders import Holders
from server.net.names import skeleton
from server.net.runtime import RoomRuntime
from server.store.memory import MemoryWatch
from server.store.postgres import AWAY
from server.store.redis_store import Store


class Sessions:
    """Every session this process knows, and hello and goodbye."""

    def __init__(
        self,
        sessions: dict[str, Session],
        store: Store,
        lobby: Lobby,
        service: LobbyService,
        runtime: RoomRuntime,
        router: Router,
        bus: Bus,
        config: Config,
        settings: Settings,
        memory: MemoryWatch,
        accounts: AccountStore,
        history: HistoryStore,
    ):
        self.accounts = accounts
        self.history = history
        self.sessions = sessions
        self.store = store
        self.lobby = lobby
        self.service = service
        self.runtime = runtime
        self.router = router
        self.bus = bus
        self.pid = bus.pid
        self.config = config
        self.settings = settings
        self.memory = memory
        self.new_sessions = KeyedBuckets(config.session_rate, config.session_burst)
        self.holders = Holders()  # the gateway's, once the hub has built it
        self.stopping = False  # at shutdown: a dropped connection does not start a grace
        # told of each connection's hello and end (the challenges: who is online where)
        self.arrived: list[Callable[[Conn], Awaitable[None]]] = []
        self.departed: list[Callable[[Conn], Awaitable[None]]] = []

    async def hello(self, conn: Conn, name: str, token: str | None) -> None:
        """Start or resume a session; a resumed player gets the seat back. Near the TCP
        total only a seated player's hello is admitted (server/net/holders.py)."""
        if conn.session is not None:
            raise p.ProtocolError("not_now", "This connection has already said hello.")
        self.holders.hello_started(conn)
        try:
            seated = await self._hello(conn, name, token)
        except BaseException:
            self.holders.hello_failed(conn)
            raise
        self.holders.admitted(conn, seated)

    async def _hello(self, conn: Conn, name: str, token: str | None) -> bool:
        """hello's work; whether the session is seated in a live room."""
        session = await self._session(name, token, conn)
        near_total = token is not None and not self.holders.room_for_newcomer()
        if near_total and not await self._seated(session.sid):  # the reserve: seated players'
            raise self.holders.refuse()
        if session.conn is not None and session.conn is not conn:
            self._replace(session.conn)
        session.conn = conn
        conn.session = session
        conn.hello_at = time.time()  # the newest connection of a session is the one that stays
        self.bus.broadcast(["session", session.sid, self.pid, conn.hello_at])
        room = self.lobby.room_of(session.sid)
        where = None if room is not None else await self.store.seat_of(session.sid)
        if where is not None:
            owner = await self.router.owner(where[0])
            if owner == self.pid:
                room = self.lobby.rooms.get(where[0])  # taken over just now
            elif owner is not None:  # another process's room: its owner hears of the return
                conn.remote = Link(where[0], owner)
                self.bus.send(owner, ["back", self.pid, conn.cid, session.sid, session.name])
            else:
                where = None  # the room is gone
        if room is not None:
            conn.room = room
            room.back(session.sid, time.time())
            where = (room.id, room.seat_of(session.sid) or 0)
        conn.send(wire.Welcome({
            "t": "welcome",
            "session": session.sid,
            "token": session.token,
            "name": session.name,
            "account": session.name if session.account else None,
            "seat": None if where is None else {"room": where[0], "seat": where[1]},
            "speed_factor": self.settings.speed_factor,
            "grace": self.config.grace_seconds,
            "protocol": p.PROTOCOL_VERSION,
        }))  # fmt: skip
        if room is not None:
            await self.runtime.flush(room)
        for arrived in self.arrived:
            await arrived(conn)
        if token is not None:  # used: kept on (after the handover, which must not wait)
            await self.store.touch_sessions([token], self.config.session_ttl)
        return where is not None

    async def _seated(self, sid: str) -> bool:
        """Is the session seated in a live room, here or on another process?"""
        if self.lobby.room_of(sid) is not None:
            return True
        where = await self.store.seat_of(sid)
        return where is not None and await self.router.owner(where[0]) is not None

    def _admit(self, address: str) -> None:
        """Refuse a new session when Redis is nearly full, when this process's connections
        reach the door's reserve, or when its address started too many lately (a session
        costs Redis nothing much, but a script makes thousands)."""
        if self.memory.full:
            raise p.ProtocolError(
                "server_full", "The server is full just now; please try again in a few minutes."
            )
        if not self.holders.room_for_newcomer():  # the reserve is the seated players'
            raise self.holders.refuse()
        if not self.new_sessions.take(address):
            raise p.ProtocolError(
                "rate_limited",
                f"Too many new sessions from your address: at most"
                f" {self.config.session_burst:g} at once, then one every"
                f" {1 / self.config.session_rate:g} s. Say hello with your token to resume.",
            )

    def elsewhere(self, sid: str, pid: str, at: float) -> None:
        """A session said hello on process `pid` at `at`: a connection of it here that is
        older is replaced, as a second hello here would replace it."""
        session = self.sessions.get(sid)
        if pid == self.pid or session is None or not isinstance(session.conn, Conn):
            return
        if session.conn.hello_at > at:  # this one is the newer
            return
        self._replace(session.conn)
        session.conn = None

    def _replace(self, old: Member) -> None:
        old.send({"t": "error", "code": "replaced", "message": "You connected elsewhere."})
        old.session = None
        self.runtime.leave_audience(old)
        old.shutdown()

    async def _session(self, name: str, token: str | None, conn: Conn) -> Session:
        """The session a hello starts or resumes. A logged-in connection plays under its
        account's name; a guest session resumed by one becomes the account's (and its matches
        with it: a guest who registers keeps them); a session of an account resumed by
        anybody else (logged out, or another account) is not resumed: a new one starts."""
        uid, username = conn.account or (None, None)
        saved = None if token is None else await self.store.load_session(token)
        if token is not None and saved is None:
            raise p.ProtocolError(
                "bad_token", "This resume token is not known; say hello without it."
            )
        if saved is None or saved.get("account") not in (None, uid):
            self._admit(conn.address)
            if uid is None:
                await self._not_a_members_name(name)
            session = Session(new_id("s"), username or name, secrets.token_urlsafe(24))
            self.sessions[session.sid] = session
            await self._save(session, uid)
            return session
        known = self.sessions.get(saved["sid"])
        if known is None:
            known = Session(saved["sid"], saved["name"], token or "", account=saved.get("account"))
            self.sessions[saved["sid"]] = known
        known.token = token or ""  # a session first seen from another process has none yet
        if uid is not None and known.account is None:  # a guest who logged in
            assert username is not None
            known.name = username
            await self._save(known, uid)
            await self.history.merge_guest(known.sid, uid)
        return known

    async def _not_a_members_name(self, name: str) -> None:
        """A guest may not be called as a registered player is, nor by a name that reads the
        same (server/net/names.py, `skeleton`): a seat shows the name, and a guest must not
        pass for the member. PostgreSQL away: not known, let in."""
        key = skeleton(name)
        if not is_username_key(key):
            return
        try:
            uid = await self.accounts.uid_of(key)
        except AWAY:
            return
        if uid is not None:
            raise p.ProtocolError(
                "name_taken",
                "That name is a registered player's: choose another, or log in as that player.",
            )

    async def _save(self, session: Session, uid: str | None) -> None:
        session.account = uid
        record = {"sid": session.sid, "name": session.name, "account": uid}
        await self.store.save_session(session.token, record, self.config.session_ttl)
        if uid is not None:
            await self.accounts.bind_session(session.sid, uid, LOGIN_TTL_S)

    async def disconnected(self, conn: Member) -> None:
        """A connection ended: leave the queue; a player's seat waits the grace time."""
        conn.closed = True
        session = conn.session
        if isinstance(conn, Conn):
            for departed in self.departed:
                await departed(conn)
            await self.service.dequeue(conn)
            if conn.remote is not None:  # the owner of its room does the rest
                self.bus.send(conn.remote.owner, ["closed", self.pid, conn.cid])
                conn.remote = None
        room = conn.room
        self.runtime.leave_audience(conn)
        if session is None or session.conn is not conn:
            return
        session.conn = None
        if self.stopping:
            return
        if room is not None and not room.closed and room.seat_of(session.sid) is not None:
            room.drop(session.sid, time.time())
            await self.runtime.flush(room)

    async def refresh(self, connected: list[str]) -> None:
        """Keep the sessions of these tokens (this process's connections) alive: a session
        lives `--session-ttl` after its last connection ended, wherever that was."""
        await self.store.touch_sessions(connected, self.config.session_ttl)

    def forget(self) -> None:
        """Forget sessions with no connection and no seat here: their tokens stay in Redis, so
        a later hello reloads them, and without this the dict grows by one per visitor."""
        seated = {s.sid for room in self.lobby.rooms.values() for _, s in room.seated()}
        for sid in [sid for sid, s in self.sessions.items() if s.conn is None]:
            if sid not in seated:
                del self.sessions[sid]
        self.new_sessions.prune()
