"""Room leases and process liveness in Redis.

A room lives in exactly one process: the one whose id is in `nv:lease:{rid}`, taken with
SET NX PX and renewed (compare-and-extend) while the process lives, released (compare-and-
delete) at a clean stop. A process is alive while it is subscribed to its bus channel: Redis
drops the subscription the moment the process's connection closes, so a killed process is
known dead at once and its rooms are taken from it (compare-and-set) without waiting for the
lease to run out; a process that hangs with its connection open stops renewing, and its leases
expire. Fencing is in the store: every commit checks the lease atomically
(server/store/redis_store.py), so a process that lost a room can write nothing more to it.
"""

from __future__ import annotations

from typing import Any

from server.store.redis_store import P, lease_key

# Extend every given lease still held by ARGV[1]; take back those that expired unclaimed (a
# long pause, a Redis restart); return the keys held by another process, and those taken back.
_RENEW = """
local lost, retaken = {}, {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    retaken[#retaken + 1] = key
  else
    lost[#lost + 1] = key
  end
end
return {lost, retaken}
"""

RENEW_CHUNK = 250
"""Leases renewed a script: Redis runs nothing else while a script runs, and one over 1,000
rooms held every commit behind it for 3 to 8 ms each second (docs/performance.md, "Seventh
round")."""

_TAKE_FROM = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def process_channel(pid: str) -> str:
    """The bus channel a process listens on (its subscription is its sign of life)."""
    return P + "c:p:" + pid


class Leases:
    """This process's leases on rooms."""

    def __init__(self, redis: Any, pid: str, ttl: float):
        self.redis = redis
        self.pid = pid
        self.ttl_ms = max(1, int(ttl * 1000))

    async def acquire(self, rid: str) -> bool:
        """Take a room's lease if nobody holds it (or this process already does)."""
        if await self.redis.set(lease_key(rid), self.pid, nx=True, px=self.ttl_ms):
            return True
        return await self.owner(rid) == self.pid

    async def take_from(self, rid: str, dead: str) -> bool:
        """Take a room's lease from a process known to be dead (only if it still holds it)."""
        return bool(
            await self.redis.eval(_TAKE_FROM, 1, lease_key(rid), dead, self.pid, self.ttl_ms)
        )

    async def owners(self, rids: list[str]) -> dict[str, str | None]:
        """The process holding each room's lease (None: nobody)."""
        if not rids:
            return {}
        raw = await self.redis.mget([lease_key(r) for r in rids])
        return {r: None if v is None else v.decode() for r, v in zip(rids, raw, strict=True)}

    async def owner(self, rid: str) -> str | None:
        """The process holding a room's lease, or None."""
        raw = await self.redis.get(lease_key(rid))
        return None if raw is None else raw.decode()

    async def renew(self, rids: list[str]) -> tuple[list[str], list[str]]:
        """Extend this process's leases. Returns the rooms another process holds now, and those
        whose lease had expired unclaimed and is held again (the caller checks that nobody
        wrote to them meanwhile)."""
        lost: list[str] = []
        retaken: list[str] = []
        prefix = len(lease_key(""))
        for start in range(0, len(rids), RENEW_CHUNK):
            keys = [lease_key(r) for r in rids[start : start + RENEW_CHUNK]]
            gone, back = await self.redis.eval(_RENEW, len(keys), *keys, self.pid, self.ttl_ms)
            lost += [k.decode()[prefix:] for k in gone]
            retaken += [k.decode()[prefix:] for k in back]
        return lost, retaken

    async def release(self, rid: str) -> None:
        """Give a room's lease up (only if still held by this process)."""
        await self.redis.eval(_RELEASE, 1, lease_key(rid), self.pid)

    async def stop(self, rids: list[str]) -> None:
        """A clean stop: every lease released, so others take the rooms over at once."""
        for rid in rids:
            await self.release(rid)

    async def alive(self, pids: list[str]) -> dict[str, bool]:
        """Which of these processes are alive (subscribed to their bus channel)."""
        if not pids:
            return {}
        counts = await self.redis.pubsub_numsub(*[process_channel(p) for p in pids])
        return {pid: n > 0 for pid, (_channel, n) in zip(pids, counts, strict=True)}
