"""The Redis store. One MULTI/EXEC per commit, so a room's checkpoint, its new events and its
match-log entries land together or not at all.

Keys (prefix "nv:"):
  rooms            set of live room ids (reloaded at start)
  room:{rid}       the room's checkpoint (msgpack: seats, match state, pending ruling, seq)
  ev:{rid}         stream of the room's last events (field m: the message, a: audience,
                   r: for team chat, the sessions that may read it)
  log:{mid}        the match log stream: start, every stroke with its ruling, end (append-only;
                   deleted, with the header, once the match is archived in PostgreSQL:
                   docs/accounts.md, "History")
  match:{mid}      the match record's header (players, config, result), msgpack; the braces are
                   a Redis Cluster hash tag: a match's two keys share a slot
  matches          sorted set of match ids by start time (recent matches not yet archived)
  finished         stream of ended match ids for the archivist (server/history/store.py)
  lobby            hash room id -> lobby summary (every process lists every room from it)
  seats            hash session id -> [room id, seat] (a reconnect to any process finds its seat)
  invites          hash invite -> room id (a private room is found from any process)
  queue:{mode}     list of quick-match entries (msgpack [sid, name, process id, connection id])
  lease:{rid}      the id of the process that owns the room (SET NX PX, see server/cluster)
  claim:{sid}      the room where a session sits, across processes: taken atomically before a
                   seat (it lapses after 30 s unless the room's commit confirms it), so one
                   session never holds two seats
  sess:{sha256}    a session by the hash of its resume token (the token itself is not stored);
                   it lives --session-ttl (10 min) after its last connection (docs/reliability.md)

A commit made with an `owner` runs as one Lua script that first checks `lease:{rid}` holds that
owner: a process that lost its lease (paused, cut off) can never overwrite the new owner's room.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgpack
import redis.asyncio as aioredis
from redis.exceptions import DataError, NoScriptError, ResponseError

P = "nv:"

# The fenced commit: KEYS[1] is the room's lease, ARGV[1] the committing process, ARGV[2] the
# commands as one msgpack array of arrays of words (every word a msgpack str, see _words). Scripts
# run atomically, so the check and the writes cannot be separated by a takeover. It runs by its
# SHA1 (EVALSHA): the text goes to Redis only when Redis does not know it (see Store.commit).
# One packed argument, not one per word: redis-py encodes and frames every argument in Python,
# and that was most of a commit's CPU (bench/commit.py).
_FENCED = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('NOLEASE the room is owned by another process')
end
for _, op in ipairs(cmsgpack.unpack(ARGV[2])) do
  redis.call(unpack(op))
end
return 1
"""
_FENCED_SHA = hashlib.sha1(_FENCED.encode()).hexdigest()

# Quick match: take `n` entries from the head of a queue only when it holds that many.
_TAKE = """
if redis.call('LLEN', KEYS[1]) < tonumber(ARGV[1]) then return {} end
local out = {}
for i = 1, tonumber(ARGV[1]) do out[i] = redis.call('LPOP', KEYS[1]) end
return out
"""


# A session's claim on a place (a room id, or a queue): taken if free or already this place.
_CLAIM = """
local cur = redis.call('GET', KEYS[1])
if not cur then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if cur == ARGV[1] then return 1 end
return 0
"""
# Let go of a claim not yet confirmed by a commit (compare, and only one that can lapse).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('PTTL', KEYS[1]) > 0 then
  redis.call('DEL', KEYS[1])
end
return 1
"""
CLAIM_TTL_S = 30.0  # an unconfirmed claim (a seat about to be committed) lapses after this


def match_key(mid: str) -> str:
    """The key of a match record's header (hash-tagged by the match)."""
    return P + "match:{" + mid + "}"


def log_key(mid: str) -> str:
    """The key of a match's log stream (in its header's slot)."""
    return P + "log:{" + mid + "}"


def claim_key(sid: str) -> str:
    """The key holding where a session is (a room, or a queue)."""
    return P + "claim:" + sid


class LeaseLost(Exception):
    """A fenced commit found the room's lease held by another process: nothing was written."""


def _pack(data: Any) -> bytes:
    packed = msgpack.packb(data, use_bin_type=True)
    assert isinstance(packed, bytes)  # msgpack is untyped; packb returns bytes
    return packed


# The fenced commit's words: Redis's Lua cmsgpack reads msgpack's str type but not its bin type,
# so bytes and str are both packed as str (their bytes as they are, a str's as UTF-8: what
# redis-py sends for them). Numbers are turned into bytes before, as redis-py does (repr).
_words = msgpack.Packer(use_bin_type=False).pack


def _number(value: Any) -> bytes:
    """A number as redis-py sends it (refused as redis-py refuses it, before anything is sent)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(f"a number was expected, not {value!r}")
    return repr(value).encode()


def _check_ids(c: Commit) -> None:
    """The session ids and invite, which a fenced commit sends as words of their own, are str
    (else DataError, as redis-py raises, with nothing sent): the packed words reach Lua as they
    are, and a None there would fail one command in the middle of the script, after the ones
    before it had written. (The room and match ids are checked by the key names they make.)"""
    for sid in (*c.unseated, *c.seated):
        if not isinstance(sid, str):
            raise DataError(f"room commit: a session id must be a str, not {sid!r}")
    if c.invite is not None and not isinstance(c.invite, str):
        raise DataError(f"room commit: the invite must be a str, not {c.invite!r}")


def _unpack(data: bytes | str | None) -> Any:
    return msgpack.unpackb(_bytes(data), raw=False, strict_map_key=False)


def _map(data: bytes | str | None) -> dict[str, Any]:
    """A stored msgpack map (a checkpoint, a record, a session)."""
    value = _unpack(data)
    if not isinstance(value, dict):
        raise TypeError(f"a stored map was expected, not {type(value).__name__}")
    return value


def _bytes(value: object) -> bytes:
    """A Redis reply as bytes: this client never decodes replies (decode_responses is off),
    so redis-py's `bytes | str` is always bytes here."""
    if not isinstance(value, bytes):
        raise TypeError(f"Redis answered {type(value).__name__}, bytes were expected")
    return value


def _entries(reply: object) -> list[dict[bytes, bytes]]:
    """The field maps of an XRANGE reply, oldest first."""
    if reply is None:
        return []
    if not isinstance(reply, list):
        raise TypeError(f"XRANGE answered {type(reply).__name__}")
    out: list[dict[bytes, bytes]] = []
    for _id, fields in reply:
        if not isinstance(fields, dict):
            raise TypeError("an XRANGE entry without fields")
        out.append({_bytes(k): _bytes(v) for k, v in fields.items()})
    return out


def lease_key(rid: str) -> str:
    """The Redis key of a room's lease."""
    return P + "lease:" + rid


def token_key(token: str) -> str:
    """The Redis key of a session: a hash of its token, so a dump of Redis reveals no token."""
    return P + "sess:" + hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One room event as kept for resume: its seq, who may see it (None: all, or a team), and
    its message msgpack-encoded (the room keeps it so: it is stored as it is)."""

    seq: int
    audience: int | None
    packed: bytes
    readers: tuple[str, ...] = ()  # team chat: the sessions that may read it

    @classmethod
    def of(cls, seq: int, audience: int | None, message: dict[str, Any]) -> StoredEvent:
        """The stored event of a message."""
        return cls(seq, audience, _pack(message))

    @property
    def message(self) -> dict[str, Any]:
        """The message, decoded."""
        return _map(self.packed)


@dataclass(slots=True)
class Commit:
    """What one room change writes: the checkpoint plus what was appended since the last one."""

    rid: str
    checkpoint: dict[str, Any] | None  # None: the room closed
    events: list[StoredEvent]
    log: list[tuple[str, dict[str, Any]]]  # (match id, entry)
    records: list[dict[str, Any]]  # match headers to (re)write, each with "id" and "started"
    summary: dict[str, Any] | None  # lobby summary, None if the room is private or closed
    seated: dict[str, int] = field(default_factory=dict)  # session id -> seat, now
    unseated: list[str] = field(default_factory=list)  # sessions seated before, not now
    invite: str | None = None  # a private room's invite (found from any process)
    kept: int | None = None  # events the room keeps now (its byte bound may keep fewer)


POOL_SIZE = 64  # connections to Redis per process
POOL_WAIT_S = 20.0  # how long a command waits for a free connection before it fails
TOUCH_CHUNK = 200  # session lives renewed a round trip (Store.touch_sessions)


class Archive(Protocol):
    """The archived matches, read (server/store/archive.py `ArchiveReader`)."""

    async def record(self, mid: str) -> dict[str, Any] | None: ...
    async def headers(self, mids: list[str]) -> dict[str, dict[str, Any]]: ...
    async def recent(self, count: int) -> list[dict[str, Any]]: ...


class Store:
    """Async access to Redis for everything the server keeps."""

    def __init__(self, url: str, event_buffer: int = 256, password: str = ""):
        self.url = url
        self.event_buffer = event_buffer
        self._maxlen = b"%d" % event_buffer  # the event streams' MAXLEN, as a word
        # A blocking pool: under load a burst of commits waits for a free connection instead
        # of failing with "Too many connections" (which lost rulings and leases in bench.load).
        auth = {"password": password} if password else {}
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=POOL_SIZE, timeout=POOL_WAIT_S, **auth
        )
        self.redis = aioredis.Redis.from_pool(pool)  # closing the client closes the pool
        self.archive: Archive | None = None  # where finished matches go (set by the hub)

    async def ping(self) -> bool:
        """True when Redis answers. Once more on a broken connection: after Redis restarted,
        the pool's first connection is a dead one, and Redis is up all the same."""
        try:
            return bool(await self.redis.ping())
        except aioredis.ConnectionError:
            return bool(await self.redis.ping())

    async def close(self) -> None:
        """Drop the connection pool."""
        await self.redis.aclose()

    def _ops(self, c: Commit) -> list[list[str | bytes]]:
        """The commands of one commit, in order, every word a str or bytes (numbers as redis-py
        would encode them), so the fenced commit can pack them as they are."""
        rid = c.rid
        ops: list[list[str | bytes]] = []
        # What frees memory comes first. Redis at its maxmemory (noeviction) refuses a script
        # whose first write may grow memory, and lets one through whose first write cannot
        # (a script without flags: Redis 6.2, embedded, tested; 7's src/script.c
        # scriptVerifyOOM checks only a script's first write alike): so a room can always close
        # and a match nobody played be deleted, and the server recovers once a flood stops
        # (issue 37).
        # A match nobody played (Room.aborted): its keys go, nothing more is written of it.
        aborted = {rec["id"] for rec in c.records if rec.get("aborted")}
        for mid in aborted:
            ops.append(["DEL", match_key(mid), log_key(mid)])
            ops.append(["ZREM", P + "matches", mid])
        for sid in c.unseated:
            ops.append(["HDEL", P + "seats", sid])
            ops.append(["DEL", claim_key(sid)])  # a claim elsewhere waits for this one
        if c.checkpoint is not None and c.kept is not None and c.kept <= len(c.events):
            ops.append(["DEL", P + "ev:" + rid])  # none kept of those stored (Room.drop)
        if c.checkpoint is None:  # the room closed: its events are not kept any more
            ops.append(["SREM", P + "rooms", rid])
            ops.append(["DEL", P + "room:" + rid, P + "ev:" + rid])
            ops.append(["HDEL", P + "lobby", rid])
            if c.invite:
                ops.append(["HDEL", P + "invites", c.invite])
        for mid, entry in c.log:
            if mid not in aborted:
                ops.append(["XADD", log_key(mid), "*", "m", _pack(entry)])
        for rec in c.records:
            if rec["id"] in aborted:
                continue
            ops.append(["SET", match_key(rec["id"]), _pack(rec)])
            if not rec.get("private"):  # a private match is served to its invite only
                ops.append(["ZADD", P + "matches", _number(rec["started"]), rec["id"]])
            if rec.get("ended") is not None:  # to the archivist (server/history), with its end
                ops.append(["XADD", P + "finished", "*", "m", rec["id"]])
        if c.checkpoint is None:
            return ops
        if c.events:
            ev_key, maxlen = P + "ev:" + rid, self._maxlen
            if c.kept is not None and c.kept < self.event_buffer:  # the room's byte bound
                maxlen = b"%d" % max(1, c.kept)
            for ev in c.events:
                aud = b"" if ev.audience is None else b"%d" % ev.audience
                ops.append(["XADD", ev_key, "MAXLEN", maxlen, "*",
                            "m", ev.packed, "a", aud, "r", " ".join(ev.readers)])  # fmt: skip
        ops.append(["SET", P + "room:" + rid, _pack(c.checkpoint)])
        ops.append(["SADD", P + "rooms", rid])
        if c.summary is None:
            ops.append(["HDEL", P + "lobby", rid])
        else:
            ops.append(["HSET", P + "lobby", rid, _pack(c.summary)])
        for sid, seat in c.seated.items():
            ops.append(["HSET", P + "seats", sid, _pack([rid, seat])])
            ops.append(["SET", claim_key(sid), rid])  # confirmed: held while seated
        if c.invite:
            ops.append(["HSET", P + "invites", c.invite, rid])
        return ops

    async def commit(self, c: Commit, owner: str | None = None) -> None:
        """Write one room change atomically. With `owner`, only while that process holds the
        room's lease (else LeaseLost and nothing is written); without, as one MULTI/EXEC."""
        _check_ids(c)  # before the key names are made of them
        ops = self._ops(c)
        if owner is None:
            pipe = self.redis.pipeline(transaction=True)
            for op in ops:
                pipe.execute_command(*op)
            await pipe.execute()
            return
        args = (lease_key(c.rid), owner, _words(ops))
        try:
            try:
                await self.redis.evalsha(_FENCED_SHA, 1, *args)
            except NoScriptError:
                # Redis does not know the script (restarted, SCRIPT FLUSH, another server): it
                # ran nothing. EVAL runs it with its text and caches it for the next EVALSHA.
                await self.redis.eval(_FENCED, 1, *args)
        except ResponseError as e:
            if str(e).startswith("NOLEASE"):
                raise LeaseLost(c.rid) from None
            raise

    async def room_ids(self) -> list[str]:
        """The ids of every live room (of every process)."""
        return sorted(_bytes(r).decode() for r in await self.redis.smembers(P + "rooms"))

    async def load_room(self, rid: str) -> tuple[dict[str, Any], list[StoredEvent]] | None:
        """A room's checkpoint with its kept events (oldest first), or None if it is gone."""
        blob = await self.redis.get(P + "room:" + rid)
        if blob is None:
            return None
        events = []
        for fields in _entries(await self.redis.xrange(P + "ev:" + rid)):
            msg = _map(fields[b"m"])
            aud = fields.get(b"a", b"")
            readers = tuple(fields.get(b"r", b"").decode().split())
            events.append(StoredEvent(msg["seq"], int(aud) if aud else None, fields[b"m"], readers))
        return _map(blob), events

    async def checkpoint_seq(self, rid: str) -> int | None:
        """The event seq of a room's stored checkpoint, or None if the room is gone."""
        blob = await self.redis.get(P + "room:" + rid)
        return None if blob is None else int(_map(blob)["seq"])

    async def load_rooms(self) -> list[tuple[dict[str, Any], list[StoredEvent]]]:
        """Every live room's checkpoint with its kept events, oldest event first."""
        out = []
        for rid in await self.room_ids():
            loaded = await self.load_room(rid)
            if loaded is None:
                await self.redis.srem(P + "rooms", rid)
                continue
            out.append(loaded)
        return out

    async def seat_of(self, sid: str) -> tuple[str, int] | None:
        """(room id, seat) where a session holds a seat, in any process's room."""
        blob = await self.redis.hget(P + "seats", sid)
        if blob is None:
            return None
        rid, seat = _unpack(blob)
        return str(rid), int(seat)

    async def invite_room(self, invite: str) -> str | None:
        """The room id of a private room's invite."""
        rid = await self.redis.hget(P + "invites", invite)
        return None if rid is None else _bytes(rid).decode()

    async def lobby_summaries(self) -> list[dict[str, Any]]:
        """Every public room's lobby summary (all processes)."""
        return [_map(b) for b in (await self.redis.hgetall(P + "lobby")).values()]

    async def enqueue(self, mode: str, entry: list[Any]) -> int:
        """Append a quick-match entry; returns the queue's length."""
        return int(await self.redis.rpush(P + "queue:" + mode, _pack(entry)))

    async def dequeue(self, mode: str, entry: list[Any]) -> bool:
        """Remove a quick-match entry; True if it was there."""
        key, value = P + "queue:" + mode, _pack(entry)
        return bool(await self.redis.lrem(key, 0, value))  # type: ignore[arg-type]  # stub: str

    async def queue_lengths(self, modes: list[str]) -> dict[str, int]:
        """How many wait in each quick-match queue."""
        pipe = self.redis.pipeline(transaction=False)
        for mode in modes:
            pipe.llen(P + "queue:" + mode)
        return dict(zip(modes, await pipe.execute(), strict=True))

    async def requeue(self, mode: str, entries: list[list[Any]]) -> None:
        """Put entries back at the head of a queue, in their order."""
        if entries:
            await self.redis.lpush(P + "queue:" + mode, *[_pack(e) for e in reversed(entries)])

    async def take(self, mode: str, n: int) -> list[list[Any]]:
        """The first n entries of a queue, removed atomically, or [] if fewer wait."""
        raw = await self.redis.eval(_TAKE, 1, P + "queue:" + mode, n)
        return [_unpack(b) for b in raw]

    async def claim(self, sid: str, place: str, ttl: float = CLAIM_TTL_S) -> bool:
        """Claim a seat's room for a session: True if the session had no claim or had this
        one; False if it sits (or is being seated) elsewhere, on any process."""
        ms = max(1, int(ttl * 1000))
        return bool(await self.redis.eval(_CLAIM, 1, claim_key(sid), place, ms))

    async def release(self, sid: str, place: str) -> None:
        """Let go of a session's claim on a place, if it still holds that one."""
        await self.redis.eval(_RELEASE, 1, claim_key(sid), place)

    async def save_session(self, token: str, session: dict[str, Any], ttl: float) -> None:
        """Remember a session under its token's hash for `ttl` seconds (see touch_sessions)."""
        await self.redis.set(token_key(token), _pack(session), px=max(1, int(ttl * 1000)))

    async def touch_sessions(self, tokens: list[str], ttl: float) -> None:
        """Keep these sessions `ttl` seconds more from now (the ones still connected), in
        pipelines of TOUCH_CHUNK: one of 6,000 held the loop 46 to 128 ms, 200 at most 5 ms."""
        ms = max(1, int(ttl * 1000))
        for start in range(0, len(tokens), TOUCH_CHUNK):
            async with self.redis.pipeline(transaction=False) as pipe:
                for token in tokens[start : start + TOUCH_CHUNK]:
                    pipe.pexpire(token_key(token), ms)
                await pipe.execute()

    async def memory(self) -> tuple[int, int]:
        """Redis's used memory and its `maxmemory` (0: no limit), in bytes."""
        info = await self.redis.info("memory")
        return int(info.get("used_memory", 0)), int(info.get("maxmemory", 0))

    async def load_session(self, token: str) -> dict[str, Any] | None:
        """The session a token resumes, or None."""
        blob = await self.redis.get(token_key(token))
        return None if blob is None else _map(blob)

    async def recent_matches(self, count: int) -> list[dict[str, Any]]:
        """The newest match records' headers, newest first: the live (and not yet archived)
        ones from Redis, the archived ones from the archive."""
        ids = await self.redis.zrevrange(P + "matches", 0, count - 1)
        live = [r for r in await match_headers(self.redis, [_bytes(i).decode() for i in ids]) if r]
        archived = await self.archive.recent(count) if self.archive is not None else []
        seen = {r["id"] for r in live}
        both = live + [r for r in archived if r["id"] not in seen]
        return sorted(both, key=lambda r: -float(r.get("started") or 0))[:count]

    async def match_headers(self, mids: list[str]) -> list[dict[str, Any] | None]:
        """The headers of these matches (None where one is missing): live ones from Redis,
        the others from the archive."""
        found = await match_headers(self.redis, mids)
        missing = [m for m, h in zip(mids, found, strict=True) if h is None]
        if missing and self.archive is not None:
            archived = await self.archive.headers(missing)
            found = [archived.get(m) if h is None else h for m, h in zip(mids, found, strict=True)]
        return found

    async def match_record(self, mid: str, live_only: bool = False) -> dict[str, Any] | None:
        """One match's header plus its whole log (an archived one's: what was struck), or
        None; `live_only`: only while it is in Redis. The header and the log are read in one
        transaction (one slot: the match's): the archivist deletes both once the archive is
        committed, and a header read before that with a log read after was a record with an
        empty log."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(match_key(mid))
            pipe.xrange(log_key(mid))
            blob, entries = await pipe.execute()
        if blob is None:
            if live_only or self.archive is None:
                return None
            return await self.archive.record(mid)
        record = _map(blob)
        record["log"] = [_map(f[b"m"]) for f in _entries(entries)]
        return record


async def match_headers(redis: aioredis.Redis, mids: list[str]) -> list[dict[str, Any] | None]:
    """The headers of these matches (None where one is missing): one GET each in a pipeline,
    not an MGET, as the keys live in different slots under Redis Cluster."""
    if not mids:
        return []
    async with redis.pipeline(transaction=False) as pipe:
        for mid in mids:
            pipe.get(match_key(mid))
        blobs = await pipe.execute()
    return [None if b is None else _map(b) for b in blobs]
