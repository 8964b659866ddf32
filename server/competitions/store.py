"""Competitions in Redis: each tournament's document, written with a version, and the indexes
the service reads (docs/competitions.md, "Storage").

Keys (prefix "nv:"; braces are Redis Cluster hash tags: one tournament's keys share a slot):
  tour:{tid}        hash: `doc` (msgpack: the organiser, settings, registrations, the pure
                    table's `to_dict()`, the rooms of its rounds) and `v` (its version, 1 up)
  tours             sorted set of tournament ids by creation time (the list page)
  tours:live        set of the ids of tournaments being played (the service's loop visits them)
  tour:rooms        hash room id -> tournament id (a finished match finds its tournament)
  tour:came:{rid}   set of the accounts that took their seats at a competition's table (kept
                    apart from the room, which closes once everybody has left it); a day
  lock:tour:{tid}   the lock the service holds while it changes one tournament

A write names the version it read; if another process wrote since, nothing is written and the
writer reads again (optimistic: `VersionConflict`). Every change is one document write, so a
process killed at any moment leaves the tournament as it was before or after the change.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack
import redis.asyncio as aioredis
from redis.asyncio.lock import Lock
from redis.exceptions import NoScriptError

from server.store.postgres import Database
from server.store.redis_store import P, _bytes

LOCK_S = 30.0  # a holder that dies frees the tournament after this long
CAME_TTL_S = 86400

# Write the document if its version is still ARGV[1]; returns the new version, or -1.
# KEYS: tour:{tid}. ARGV: expected version (0: new), document.
_WRITE = """
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'doc', ARGV[2])
return v + 1
"""
_WRITE_SHA = hashlib.sha1(_WRITE.encode()).hexdigest()


class VersionConflict(Exception):
    """Another writer changed the tournament since it was read: read again."""


async def mark_came(redis: aioredis.Redis, rid: str, uid: str) -> None:
    """A paired player took his seat at a competition's table (the lobby service says so)."""
    async with redis.pipeline(transaction=True) as pipe:
        pipe.sadd(P + "tour:came:{" + rid + "}", uid)
        pipe.expire(P + "tour:came:{" + rid + "}", int(CAME_TTL_S))
        await pipe.execute()


def tour_key(tid: str) -> str:
    """A tournament's hash (document and version)."""
    return P + "tour:{" + tid + "}"


class TournamentStore:
    """Async access to the tournaments' keys (sharing the store's Redis client)."""

    def __init__(self, redis: aioredis.Redis, db: Database):
        self.redis = redis
        self.db = db  # the archive: a closed table's match is found in its players' lists

    def lock(self, tid: str) -> Lock:
        """The lock of one tournament's changes (every process's service takes it)."""
        return self.redis.lock(
            P + "lock:tour:{" + tid + "}", timeout=LOCK_S, blocking_timeout=LOCK_S
        )

    async def read(self, tid: str) -> tuple[int, dict[str, Any]] | None:
        """(version, document) of a tournament, or None."""
        v, doc = await self.redis.hmget(tour_key(tid), ["v", "doc"])
        if v is None or doc is None:
            return None
        data = msgpack.unpackb(_bytes(doc), raw=False, strict_map_key=False)
        assert isinstance(data, dict)  # written by write() only
        return int(v), data

    async def write(self, tid: str, version: int, doc: dict[str, Any]) -> int:
        """Write the document read at `version` (0: a new one); the new version, or
        VersionConflict when somebody wrote in between."""
        blob = msgpack.packb(doc, use_bin_type=True)
        args = (1, tour_key(tid), version, blob)
        try:
            got = await self.redis.evalsha(_WRITE_SHA, *args)
        except NoScriptError:
            got = await self.redis.eval(_WRITE, *args)
        if int(got) < 0:
            raise VersionConflict(tid)
        return int(got)

    async def created(self, tid: str, at: float) -> None:
        """List a new tournament."""
        await self.redis.zadd(P + "tours", {tid: at})

    async def ids(self, count: int) -> list[str]:
        """The newest tournaments' ids, newest first."""
        return [_bytes(t).decode() for t in await self.redis.zrevrange(P + "tours", 0, count - 1)]

    async def set_live(self, tid: str, live: bool) -> None:
        """Mark a tournament as being played (visited by the service's loop) or not."""
        if live:
            await self.redis.sadd(P + "tours:live", tid)
        else:
            await self.redis.srem(P + "tours:live", tid)

    async def live(self) -> list[str]:
        """The tournaments being played."""
        return sorted(_bytes(t).decode() for t in await self.redis.smembers(P + "tours:live"))

    async def bind_room(self, rid: str, tid: str) -> None:
        """Remember that a room is a table of a tournament."""
        await self.redis.hset(P + "tour:rooms", rid, tid)

    async def room_tournament(self, rid: str) -> str | None:
        """The tournament whose table a room is, or None."""
        tid = await self.redis.hget(P + "tour:rooms", rid)
        return None if tid is None else _bytes(tid).decode()

    async def came(self, rid: str) -> set[str]:
        """The accounts that took their seats at a table (mark_came)."""
        members = await self.redis.smembers(P + "tour:came:{" + rid + "}")
        return {_bytes(m).decode() for m in members}

    async def recent_matches(self, pid: str, count: int) -> list[str]:
        """A player's newest archived match ids, public or private (a finished table whose
        room has closed is found there; the archive is PostgreSQL's: server/history/store.py)."""
        rows = await self.db.pool.fetch(
            "SELECT mid FROM player_matches WHERE pid = $1 ORDER BY ended DESC, mid DESC"
            " LIMIT $2",
            pid, count,
        )  # fmt: skip
        return [str(r["mid"]) for r in rows]
