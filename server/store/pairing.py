"""The quick-match queue read whole and taken from anywhere, for pairing by rating
(server/lobby/pairing.py): the queue's key and entries are those of server/store/redis_store.py
(`queue:{mode}`, msgpack entries)."""

from __future__ import annotations

from typing import Any

import msgpack
import redis.asyncio as aioredis

from server.store.redis_store import P

SCAN = 200  # queue entries looked at for a table (the first to come): bounds each pairing's work

# Take exactly these entries out of a queue, all or none (another process may have taken some
# for its own table meanwhile).
_TAKE_THESE = """
local there = {}
for _, v in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do there[v] = (there[v] or 0) + 1 end
for _, v in ipairs(ARGV) do
  if (there[v] or 0) == 0 then return 0 end
  there[v] = there[v] - 1
end
for _, v in ipairs(ARGV) do redis.call('LREM', KEYS[1], 1, v) end
return 1
"""


class QueueView:
    """A quick-match queue as the pairing reads and takes it."""

    def __init__(self, redis: aioredis.Redis):
        self.redis = redis

    async def waiting(self, queue: str) -> list[tuple[bytes, list[Any]]]:
        """The first SCAN entries of a queue, in order: each as stored and decoded."""
        raw = await self.redis.lrange(P + "queue:" + queue, 0, SCAN - 1)
        out = []
        for b in raw:
            assert isinstance(b, bytes)  # this client never decodes replies (redis_store.py)
            out.append((b, msgpack.unpackb(b, raw=False)))
        return out

    async def take_these(self, queue: str, entries: list[bytes]) -> bool:
        """Remove these entries (as stored) from a queue if every one is still there; False,
        and nothing removed, if any is gone."""
        key = P + "queue:" + queue
        return bool(await self.redis.eval(_TAKE_THESE, 1, key, *entries))
