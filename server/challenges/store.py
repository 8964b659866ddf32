"""What Redis keeps of challenges, shared by every process:

  nv:chal:{id}          a challenge waiting (msgpack, book.Challenge.pack), expiring a little
                        after its answer time
  nv:chal:to:{uid}      sorted set: the challenges waiting for an account (score: expiry)
  nv:chal:from:{sid}    sorted set: "{target uid} {id}" of a session's (score: expiry)
  nv:online:{uid}       hash: connection id -> process id, an account's open connections

A process killed with connections open leaves their entries in nv:online behind: the
service reads the processes' liveness before it trusts one (as the quick-match queues do).
"""

from __future__ import annotations

import redis.asyncio as aioredis

from server.challenges.book import Challenge
from server.store.redis_store import P, _bytes

KEPT_AFTER = 10.0  # seconds a challenge outlives its expiry in Redis, for its expiry to be told
ONLINE_TTL = 24 * 3600  # an account's online hash, renewed by every connection of it


def _key(chid: str) -> str:
    return P + "chal:" + chid


class ChallengeStore:
    """The challenges waiting, and where each account is online."""

    def __init__(self, redis: aioredis.Redis):
        self.redis = redis

    # -- presence ----------------------------------------------------------------------
    async def here(self, uid: str, pid: str, cid: str) -> None:
        """A connection of account `uid` opened on process `pid`."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(P + "online:" + uid, cid, pid)
        pipe.expire(P + "online:" + uid, ONLINE_TTL)
        await pipe.execute()

    async def gone(self, uid: str, cid: str) -> None:
        """That connection closed."""
        await self.redis.hdel(P + "online:" + uid, cid)

    async def where(self, uid: str) -> dict[str, str]:
        """An account's connections (id -> process), of live processes or not."""
        raw = await self.redis.hgetall(P + "online:" + uid)
        return {_bytes(k).decode(): _bytes(v).decode() for k, v in raw.items()}

    # -- challenges --------------------------------------------------------------------
    async def put(self, ch: Challenge) -> None:
        """Keep a new challenge and index it by its target and its sender."""
        # every challenge waits as long: the newest's time covers the older ones indexed
        at = int((ch.expires + KEPT_AFTER) * 1000)
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(_key(ch.id), ch.pack(), pxat=at)
        pipe.zadd(P + "chal:to:" + ch.target, {ch.id: ch.expires})
        pipe.pexpireat(P + "chal:to:" + ch.target, at)
        pipe.zadd(P + "chal:from:" + ch.sender, {f"{ch.target} {ch.id}": ch.expires})
        pipe.pexpireat(P + "chal:from:" + ch.sender, at)
        await pipe.execute()

    async def get(self, chid: str) -> Challenge | None:
        """A challenge still waiting, or None."""
        data = await self.redis.get(_key(chid))
        return None if data is None else Challenge.unpack(_bytes(data))

    async def take(self, ch: Challenge) -> bool:
        """End a challenge: True for the one caller that ended it (of an accept, a decline, a
        cancel and the expiry racing on several processes, exactly one wins)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(_key(ch.id))
        pipe.zrem(P + "chal:to:" + ch.target, ch.id)
        pipe.zrem(P + "chal:from:" + ch.sender, f"{ch.target} {ch.id}")
        deleted, *_ = await pipe.execute()
        return bool(deleted)

    async def waiting_for(self, uid: str, now: float) -> list[str]:
        """The ids of the challenges waiting for an account."""
        return await self._live(P + "chal:to:" + uid, now)

    async def sent_by(self, sid: str, now: float) -> list[str]:
        """The targets (uids) of a session's waiting challenges."""
        return [m.split(" ")[0] for m in await self._live(P + "chal:from:" + sid, now)]

    async def _live(self, key: str, now: float) -> list[str]:
        pipe = self.redis.pipeline(transaction=True)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zrange(key, 0, -1)
        _, members = await pipe.execute()
        return [_bytes(m).decode() for m in members]
