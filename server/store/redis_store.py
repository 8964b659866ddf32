"""The Redis store. One MULTI/EXEC per commit, so a room's checkpoint, its new events and its
match-log entries land together or not at all.

Keys (prefix "nv:"):
  rooms            set of live room ids (reloaded at start)
  room:{rid}       the room's checkpoint (msgpack: seats, match state, pending ruling, seq)
  ev:{rid}         stream of the room's last events (field m: the message, a: audience)
  log:{mid}        the match log stream: start, every stroke with its ruling, end (append-only)
  match:{mid}      the match record's header (players, config, result), msgpack
  matches          sorted set of match ids by start time (recent matches)
  lobby            hash room id -> lobby summary (for other processes, see issue 8)
  sess:{sha256}    a session by the hash of its resume token (the token itself is not stored)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgpack
import redis.asyncio as aioredis

P = "nv:"
SESSION_TTL = 7 * 24 * 3600


def _pack(data: Any) -> bytes:
    return msgpack.packb(data, use_bin_type=True)


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def token_key(token: str) -> str:
    """The Redis key of a session: a hash of its token, so a dump of Redis reveals no token."""
    return P + "sess:" + hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One room event as kept for resume: its seq, who may see it (None: all, or a team)."""

    seq: int
    audience: int | None
    message: dict[str, Any]


@dataclass(slots=True)
class Commit:
    """What one room change writes: the checkpoint plus what was appended since the last one."""

    rid: str
    checkpoint: dict[str, Any] | None  # None: the room closed
    events: list[StoredEvent]
    log: list[tuple[str, dict[str, Any]]]  # (match id, entry)
    records: list[dict[str, Any]]  # match headers to (re)write, each with "id" and "started"
    summary: dict[str, Any] | None  # lobby summary, None if the room is private or closed


class Store:
    """Async access to Redis for everything the server keeps."""

    def __init__(self, url: str, event_buffer: int = 256):
        self.url = url
        self.event_buffer = event_buffer
        self.redis = aioredis.Redis.from_url(url, decode_responses=False)

    async def ping(self) -> bool:
        """True when Redis answers."""
        return bool(await self.redis.ping())

    async def close(self) -> None:
        """Drop the connection pool."""
        await self.redis.aclose()

    async def commit(self, c: Commit) -> None:
        """Write one room change atomically (MULTI/EXEC)."""
        pipe = self.redis.pipeline(transaction=True)
        for mid, entry in c.log:
            pipe.xadd(P + "log:" + mid, {"m": _pack(entry)})
        for rec in c.records:
            pipe.set(P + "match:" + rec["id"], _pack(rec))
            pipe.zadd(P + "matches", {rec["id"]: rec["started"]})
        for ev in c.events:
            fields = {
                "m": _pack(ev.message),
                "a": b"" if ev.audience is None else b"%d" % ev.audience,
            }
            pipe.xadd(P + "ev:" + c.rid, fields, maxlen=self.event_buffer, approximate=False)
        if c.checkpoint is None:
            pipe.srem(P + "rooms", c.rid)
            pipe.delete(P + "room:" + c.rid, P + "ev:" + c.rid)
            pipe.hdel(P + "lobby", c.rid)
        else:
            pipe.set(P + "room:" + c.rid, _pack(c.checkpoint))
            pipe.sadd(P + "rooms", c.rid)
            if c.summary is None:
                pipe.hdel(P + "lobby", c.rid)
            else:
                pipe.hset(P + "lobby", c.rid, _pack(c.summary))
        await pipe.execute()

    async def load_rooms(self) -> list[tuple[dict[str, Any], list[StoredEvent]]]:
        """Every live room's checkpoint with its kept events, oldest event first."""
        out = []
        for rid in sorted(await self.redis.smembers(P + "rooms")):
            rid = rid.decode()
            blob = await self.redis.get(P + "room:" + rid)
            if blob is None:
                await self.redis.srem(P + "rooms", rid)
                continue
            events = []
            for _id, fields in await self.redis.xrange(P + "ev:" + rid):
                msg = _unpack(fields[b"m"])
                aud = fields.get(b"a", b"")
                events.append(StoredEvent(msg["seq"], int(aud) if aud else None, msg))
            out.append((_unpack(blob), events))
        return out

    async def save_session(self, token: str, session: dict[str, Any]) -> None:
        """Remember a session under its token's hash (expires after a week unused)."""
        await self.redis.set(token_key(token), _pack(session), ex=SESSION_TTL)

    async def load_session(self, token: str) -> dict[str, Any] | None:
        """The session a token resumes, or None."""
        blob = await self.redis.get(token_key(token))
        return None if blob is None else _unpack(blob)

    async def recent_matches(self, count: int) -> list[dict[str, Any]]:
        """The newest match records' headers, newest first."""
        ids = await self.redis.zrevrange(P + "matches", 0, count - 1)
        if not ids:
            return []
        blobs = await self.redis.mget([P + "match:" + i.decode() for i in ids])
        return [_unpack(b) for b in blobs if b is not None]

    async def match_record(self, mid: str) -> dict[str, Any] | None:
        """One match's header plus its whole log, or None."""
        blob = await self.redis.get(P + "match:" + mid)
        if blob is None:
            return None
        record = _unpack(blob)
        record["log"] = [_unpack(f[b"m"]) for _id, f in await self.redis.xrange(P + "log:" + mid)]
        return record

    async def match_log(self, mid: str) -> list[dict[str, Any]]:
        """A match's log entries in order."""
        return [_unpack(f[b"m"]) for _id, f in await self.redis.xrange(P + "log:" + mid)]
