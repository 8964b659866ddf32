"""The match history in Redis: finished matches handed to the archivist, each player's matches,
figures and ratings, and the leaderboards.

Keys (prefix "nv:"; braces are Redis Cluster hash tags: a player's keys share a slot):
  finished            stream of finished match ids (field m), written in the same commit as the
                      match's end (server/store/redis_store.py), read by the archivist's group
  done:{mid}          set once a finished match is archived (the archivist's idempotence)
  pm:{pid}            sorted set of a player's match ids by end time; pid is an account's uid,
                      or a guest's session id (kept GUEST_DAYS, then merged if they register)
  stats:{uid}         hash of a player's counters: "<mode>:<win|loss|draw>", "<mode>:strokes",
                      "<mode>:pocketed", "<mode>:penalties", "<mode>:matches"
  rating:{uid}        hash mode -> msgpack [mu, sigma, matches]
  sids:{uid}          set of guest session ids whose matches the account took over
  rh:{uid}:<mode>     list of [time, shown rating, match id], oldest first (the chart)
  lb:<mode>           sorted set uid -> the leaderboard's order (mu - 3 sigma)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from server.store.redis_store import P, _bytes, _map

GROUP = "archivist"
GUEST_DAYS = 7  # a guest's list of matches lasts this long (a guest who registers keeps it)


def pm_key(pid: str) -> str:
    """A player's list of matches."""
    return P + "pm:{" + pid + "}"


@dataclass(frozen=True)
class Archived:
    """What archiving one match writes (computed by server/history, written in one go)."""

    mid: str
    ended: float
    players: dict[str, bool]  # pid -> registered (a guest's index expires)
    counters: dict[str, dict[str, int]]  # uid -> counter -> increment
    ratings: dict[str, dict[str, tuple[float, float, int, float]]]  # uid -> mode -> skill+ord
    shown: dict[str, tuple[str, int]]  # uid -> (mode, shown rating) after this match


class HistoryStore:
    """Async access to the history's keys (sharing the store's Redis client)."""

    def __init__(self, redis: aioredis.Redis):
        self.redis = redis

    async def ensure_group(self) -> None:
        """Create the archivist's consumer group (from the stream's start) if there is none."""
        try:
            await self.redis.xgroup_create(P + "finished", GROUP, id="0", mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    async def next_finished(self, consumer: str, block_ms: int) -> list[tuple[str, str]]:
        """Finished matches for this consumer: first any another consumer left pending for a
        minute (it died), then new ones; [(stream entry id, match id)]."""
        claimed: Any = await self.redis.xautoclaim(
            P + "finished", GROUP, consumer, min_idle_time=60_000, count=20
        )
        entries: Any = claimed[1] if claimed else []
        if not entries:
            reply: Any = await self.redis.xreadgroup(
                GROUP, consumer, {P + "finished": ">"}, count=20, block=block_ms
            )
            entries = reply[0][1] if reply else []
        # an entry deleted meanwhile comes back with no fields: nothing to archive
        return [(_bytes(i).decode(), _bytes(f[b"m"]).decode()) for i, f in entries if f]

    async def ack(self, entry: str) -> None:
        """The entry is archived (or cannot be): the group forgets it."""
        await self.redis.xack(P + "finished", GROUP, entry)

    async def archived(self, mid: str) -> bool:
        """Has this match been archived already?"""
        return bool(await self.redis.exists(P + "done:" + mid))

    async def skills(self, uids: list[str], mode: str) -> dict[str, tuple[float, float, int]]:
        """The (mu, sigma, matches) of these accounts in a mode (absent: never rated)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for uid in uids:
                pipe.hget(P + "rating:{" + uid + "}", mode)
            rows = await pipe.execute()
        out = {}
        for uid, row in zip(uids, rows, strict=True):
            if row is not None:
                mu, sigma, n = msgpack.unpackb(row)
                out[uid] = (float(mu), float(sigma), int(n))
        return out

    async def write(self, a: Archived) -> None:
        """Write one match's archive in one transaction, marked done (a crash before leaves
        nothing of it; the entry stays pending and is archived again)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            for pid, registered in a.players.items():
                pipe.zadd(pm_key(pid), {a.mid: a.ended})
                if not registered:
                    pipe.expire(pm_key(pid), GUEST_DAYS * 86400)
            for uid, counters in a.counters.items():
                for name, inc in counters.items():
                    pipe.hincrby(P + "stats:{" + uid + "}", name, inc)
            for uid, modes in a.ratings.items():
                for mode, (mu, sigma, n, order) in modes.items():
                    pipe.hset(P + "rating:{" + uid + "}", mode, msgpack.packb([mu, sigma, n]))
                    pipe.zadd(P + "lb:" + mode, {uid: order})
            for uid, (mode, shown) in a.shown.items():
                history = P + "rh:{" + uid + "}:" + mode
                pipe.rpush(history, msgpack.packb([a.ended, shown, a.mid]))
            pipe.set(P + "done:" + a.mid, "1")
            await pipe.execute()

    # -- reading --------------------------------------------------------------------
    async def matches_of(self, pid: str, start: int, count: int) -> tuple[int, list[str]]:
        """How many matches a player has, and a page of their ids, newest first."""
        total = await self.redis.zcard(pm_key(pid))
        ids = await self.redis.zrevrange(pm_key(pid), start, start + count - 1)
        return int(total), [_bytes(i).decode() for i in ids]

    async def headers(self, mids: list[str]) -> list[dict[str, Any] | None]:
        """The match headers of these ids (None where one is missing)."""
        if not mids:
            return []
        blobs = await self.redis.mget([P + "match:" + m for m in mids])
        return [None if b is None else _map(b) for b in blobs]

    async def stats(self, uid: str) -> dict[str, int]:
        """A player's counters."""
        raw = await self.redis.hgetall(P + "stats:{" + uid + "}")
        return {_bytes(k).decode(): int(v) for k, v in raw.items()}

    async def rating_history(self, uid: str, mode: str, last: int) -> list[list[Any]]:
        """The last `last` points of a player's rating in a mode, oldest first."""
        rows = await self.redis.lrange(P + "rh:{" + uid + "}:" + mode, -last, -1)
        return [list(msgpack.unpackb(r)) for r in rows]

    async def leaderboard(self, mode: str, start: int, count: int) -> tuple[int, list[str]]:
        """How many players are rated in a mode, and a page of them, best first."""
        total = await self.redis.zcard(P + "lb:" + mode)
        uids = await self.redis.zrevrange(P + "lb:" + mode, start, start + count - 1)
        return int(total), [_bytes(u).decode() for u in uids]

    async def merge_guest(self, sid: str, uid: str) -> None:
        """A guest who registers or logs in keeps the matches of their session (and the
        profile knows which seat was theirs by the session's id)."""
        await self.redis.zunionstore(pm_key(uid), [pm_key(uid), pm_key(sid)], aggregate="MAX")
        await self.redis.delete(pm_key(sid))
        await self.redis.sadd(P + "sids:{" + uid + "}", sid)

    async def sessions_of(self, uid: str) -> set[str]:
        """The guest sessions whose matches an account took over."""
        return {_bytes(s).decode() for s in await self.redis.smembers(P + "sids:{" + uid + "}")}

    async def forget_player(self, uid: str) -> None:
        """A deleted account leaves the leaderboards."""
        for mode in ("singles", "doubles"):
            await self.redis.zrem(P + "lb:" + mode, uid)
