"""Competitions in PostgreSQL, the system of record (server/store/migrations/004_tournaments.sql):
each tournament's document, written with a version, and the indexes the service reads
(docs/competitions.md, "Storage").

  tournaments       tid -> created, organiser, version (1 up), live (being played: the
                    service's loop visits it), doc (msgpack: the organiser, settings,
                    registrations, the pure table's `to_dict()`, the rooms of its rounds)
  tournament_rooms  room id -> tournament id (a finished match finds its tournament)

What is live stays in Redis (prefix "nv:"; braces are Redis Cluster hash tags):
  tour:came:{rid}   set of the accounts that took their seats at a competition's table (kept
                    apart from the room, which closes once everybody has left it); a day
  lock:tour:{tid}   the lock the service holds while it changes one tournament

A write names the version it read; if another process wrote since, nothing is written and the
writer reads again (optimistic: `VersionConflict`). Every change is one row's update, so a
process killed at any moment leaves the tournament as it was before or after the change.
"""

from __future__ import annotations

from typing import Any

import msgpack
import redis.asyncio as aioredis
from redis.asyncio.lock import Lock

from server.store.postgres import Database
from server.store.redis_store import P, _bytes

LOCK_S = 30.0  # a holder that dies frees the tournament after this long
CAME_TTL_S = 86400


class VersionConflict(Exception):
    """Another writer changed the tournament since it was read: read again."""


async def mark_came(redis: aioredis.Redis, rid: str, uid: str) -> None:
    """A paired player took his seat at a competition's table (the lobby service says so)."""
    async with redis.pipeline(transaction=True) as pipe:
        pipe.sadd(P + "tour:came:{" + rid + "}", uid)
        pipe.expire(P + "tour:came:{" + rid + "}", int(CAME_TTL_S))
        await pipe.execute()


class TournamentStore:
    """Async access to the tournaments' rows (PostgreSQL) and their live keys (Redis)."""

    def __init__(self, redis: aioredis.Redis, db: Database):
        self.redis = redis
        self.db = db

    def lock(self, tid: str) -> Lock:
        """The lock of one tournament's changes (every process's service takes it)."""
        return self.redis.lock(
            P + "lock:tour:{" + tid + "}", timeout=LOCK_S, blocking_timeout=LOCK_S
        )

    async def read(self, tid: str) -> tuple[int, dict[str, Any]] | None:
        """(version, document) of a tournament, or None."""
        row = await self.db.pool.fetchrow(
            "SELECT version, doc FROM tournaments WHERE tid = $1", tid
        )
        if row is None:
            return None
        data = msgpack.unpackb(row["doc"], raw=False, strict_map_key=False)
        assert isinstance(data, dict)  # written by write() only
        return int(row["version"]), data

    async def write(self, tid: str, version: int, doc: dict[str, Any]) -> int:
        """Write the document read at `version` (0: a new one, listed at its `created`);
        the new version, or VersionConflict when somebody wrote in between."""
        blob = msgpack.packb(doc, use_bin_type=True)
        if version == 0:
            got = await self.db.pool.fetchval(
                "INSERT INTO tournaments (tid, created, organiser, version, doc)"
                " VALUES ($1, $2, $3, 1, $4) ON CONFLICT (tid) DO NOTHING RETURNING version",
                tid, float(doc["created"]), str(doc["organiser"]), blob,
            )  # fmt: skip
        else:
            got = await self.db.pool.fetchval(
                "UPDATE tournaments SET version = version + 1, doc = $3"
                " WHERE tid = $1 AND version = $2 RETURNING version",
                tid, version, blob,
            )  # fmt: skip
        if got is None:
            raise VersionConflict(tid)
        return int(got)

    async def ids(self, count: int) -> list[str]:
        """The newest tournaments' ids, newest first."""
        rows = await self.db.pool.fetch(
            "SELECT tid FROM tournaments ORDER BY created DESC, tid LIMIT $1", count
        )
        return [str(r["tid"]) for r in rows]

    async def set_live(self, tid: str, live: bool) -> None:
        """Mark a tournament as being played (visited by the service's loop) or not."""
        await self.db.pool.execute("UPDATE tournaments SET live = $2 WHERE tid = $1", tid, live)

    async def live(self) -> list[str]:
        """The tournaments being played."""
        rows = await self.db.pool.fetch("SELECT tid FROM tournaments WHERE live ORDER BY tid")
        return [str(r["tid"]) for r in rows]

    async def bind_room(self, rid: str, tid: str) -> None:
        """Remember that a room is a table of a tournament."""
        await self.db.pool.execute(
            "INSERT INTO tournament_rooms (rid, tid) VALUES ($1, $2)"
            " ON CONFLICT (rid) DO UPDATE SET tid = excluded.tid",
            rid, tid,
        )  # fmt: skip

    async def room_tournament(self, rid: str) -> str | None:
        """The tournament whose table a room is, or None."""
        tid = await self.db.pool.fetchval("SELECT tid FROM tournament_rooms WHERE rid = $1", rid)
        return None if tid is None else str(tid)

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
