"""The match history in Redis: finished matches handed to the archivist, each player's matches,
figures and ratings, and the leaderboards (docs/accounts.md, "History").

Keys (prefix "nv:"; braces are Redis Cluster hash tags: one match's keys share a slot, and so
do one player's, whose tag is the account's uid or a guest's session id):
  match:{mid}, log:{mid}  the match itself: header and every entry (server/store/redis_store.py)
  finished            stream of finished match ids (field m), written in the same commit as the
                      match's end, read by the archivists' consumer group
  arc:{mid}           hash: `plan` (what archiving the match gives each player, computed once
                      and reused by a retry) until applied, then `done` 1
  pm:{pid}            sorted set of a player's match ids by end time (newest first by ZREVRANGE);
                      a guest's lasts GUEST_DAYS after its last match, unless they register
  pmp:{pid}           the same for private matches (served to their invite only, so never
                      listed in a profile; kept apart so that the profile's pages count right)
  stats:{uid}         hash of a player's counters: "<kind>:<win|loss|draw|matches|strokes|
                      pocketed|penalties>"
  rating:{uid}        hash mode -> msgpack [mu, sigma, matches]; a mode is a rating's
                      (server/ratings/model.py MODES: "singles", "crokinole-doubles", ...)
  rh:{uid}:<mode>     list of msgpack [time, shown rating, match id], oldest first (the chart)
  sids:{uid}          set of guest session ids whose matches the account took over
  lb:<mode>           sorted set uid -> mu - 3 sigma (the leaderboard's order)

Archiving writes one slot at a time (no transaction spans two slots, as Redis Cluster
requires): each player's keys by one script that does nothing if the player's index already
holds the match, so a retry after a crash half-way applies the rest exactly once.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgpack
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError, ResponseError

from server.store.redis_store import P, _bytes, _pack, match_headers, match_key

GROUP = "archivist"
# A finished match read by a consumer that has not acknowledged it for this long is claimed by
# another: its process died or hangs. Short, as archiving twice is harmless (the done mark is
# checked under the archive lock, and each player's part is idempotent).
CLAIM_IDLE_MS = 10_000
GUEST_DAYS = 7  # a guest's list of matches lasts this long (a guest who registers keeps it)

# One player's part of one match's archive, atomic within the player's slot. KEYS: pm (or pmp),
# stats, rating, rh. ARGV: mid, ended, guest ttl (0: registered), n, n pairs (counter, increment),
# mode, rating blob or "", rating-history entry or "".
_APPLY = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
local n = tonumber(ARGV[4])
for i = 0, n - 1 do redis.call('HINCRBY', KEYS[2], ARGV[5 + 2 * i], ARGV[6 + 2 * i]) end
local j = 5 + 2 * n
if ARGV[j + 1] ~= '' then redis.call('HSET', KEYS[3], ARGV[j], ARGV[j + 1]) end
if ARGV[j + 2] ~= '' then redis.call('RPUSH', KEYS[4], ARGV[j + 2]) end
return 1
"""
_APPLY_SHA = hashlib.sha1(_APPLY.encode()).hexdigest()


def pm_key(pid: str) -> str:
    """A player's list of matches."""
    return P + "pm:{" + pid + "}"


def arc_key(mid: str) -> str:
    """A match's archiving state (in the match's slot)."""
    return P + "arc:{" + mid + "}"


def rating_key(uid: str) -> str:
    """A player's ratings by mode."""
    return P + "rating:{" + uid + "}"


def rh_key(uid: str, mode: str) -> str:
    """A player's rating history in a mode."""
    return P + "rh:{" + uid + "}:" + mode


@dataclass(frozen=True)
class Archived:
    """What archiving one match writes (computed by server/history, written player by player).
    Ratings are (mu, sigma, matches, ordinal) in the rating's `mode` (server/ratings/model.py
    `rating_mode`: "singles", "crokinole-7d", ...)."""

    mid: str
    ended: float
    mode: str
    players: dict[str, bool]  # pid -> registered (a guest's index expires)
    counters: dict[str, dict[str, int]]  # uid -> counter -> increment
    ratings: dict[str, tuple[float, float, int, float]]  # uid -> skill after, in `mode`
    shown: dict[str, int]  # uid -> shown rating after this match, in `mode`
    private: bool = False  # indexed apart: a profile does not list it

    def pack(self) -> bytes:
        """The plan as stored (msgpack)."""
        ratings = {u: list(r) for u, r in self.ratings.items()}
        fields = [self.mid, self.ended, self.mode, self.players, self.counters, ratings]
        return bytes(msgpack.packb([*fields, self.shown, self.private]))

    @classmethod
    def unpack(cls, blob: bytes) -> Archived:
        """Inverse of pack."""
        mid, ended, mode, players, counters, ratings, shown, private = msgpack.unpackb(blob)
        return cls(
            mid, float(ended), mode, players, counters,
            {u: (float(r[0]), float(r[1]), int(r[2]), float(r[3])) for u, r in ratings.items()},
            shown, bool(private),
        )  # fmt: skip


class HistoryStore:
    """Async access to the history's keys (sharing the store's Redis client)."""

    def __init__(self, redis: aioredis.Redis):
        self.redis = redis

    # -- the archivist's queue ------------------------------------------------------
    async def ensure_group(self) -> None:
        """Create the archivist's consumer group (from the stream's start) if there is none."""
        try:
            await self.redis.xgroup_create(P + "finished", GROUP, id="0", mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    async def next_finished(self, consumer: str, block_ms: int) -> list[tuple[str, str]]:
        """Finished matches for this consumer: first any another consumer left pending for
        CLAIM_IDLE_MS (it died), then new ones; [(stream entry id, match id)]."""
        claimed: Any = await self.redis.xautoclaim(
            P + "finished", GROUP, consumer, min_idle_time=CLAIM_IDLE_MS, count=20
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
        """The entry is archived (or cannot be): the group forgets it and the stream drops it."""
        await self.redis.xack(P + "finished", GROUP, entry)
        await self.redis.xdel(P + "finished", entry)

    # -- writing one match's archive -----------------------------------------------
    async def archived(self, mid: str) -> bool:
        """Has this match been archived already?"""
        return bool(await self.redis.hexists(arc_key(mid), "done"))

    async def plan(self, mid: str) -> Archived | None:
        """The plan computed by an earlier try that did not finish, if any."""
        blob = await self.redis.hget(arc_key(mid), "plan")
        return None if blob is None else Archived.unpack(_bytes(blob))

    async def skills(self, uids: list[str], mode: str) -> dict[str, tuple[float, float, int]]:
        """The (mu, sigma, matches) of these accounts in a mode (absent: never rated)."""
        if not uids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for uid in uids:
                pipe.hget(rating_key(uid), mode)
            rows = await pipe.execute()
        out = {}
        for uid, row in zip(uids, rows, strict=True):
            if row is not None:
                mu, sigma, n = msgpack.unpackb(row)
                out[uid] = (float(mu), float(sigma), int(n))
        return out

    async def write(self, a: Archived) -> None:
        """Write one match's archive: the plan first (so a retry applies the same numbers),
        then each player's part, the leaderboard, and the mark that it is done."""
        await self.redis.hset(arc_key(a.mid), "plan", a.pack())
        for pid, registered in a.players.items():
            await self._apply(a, pid, registered)
        for uid, (_mu, _sigma, _n, order) in a.ratings.items():
            await self.redis.zadd(P + "lb:" + a.mode, {uid: order})
        async with self.redis.pipeline(transaction=True) as pipe:  # one slot: the match's
            pipe.hset(arc_key(a.mid), "done", 1)
            pipe.hdel(arc_key(a.mid), "plan")
            await pipe.execute()

    @staticmethod
    def _point(a: Archived, pid: str) -> list[Any]:
        """A rating history's point: [time, shown rating, match id]. A private match's names
        no match and says only its day (the history is public: issue 37 found private
        matches' ids and times in it)."""
        if a.private:
            return [a.ended - a.ended % 86400, a.shown[pid], None]
        return [a.ended, a.shown[pid], a.mid]

    async def _apply(self, a: Archived, pid: str, registered: bool) -> None:
        counters = a.counters.get(pid, {})
        rating = a.ratings.get(pid)
        args: list[str | bytes | int | float] = [
            a.mid, a.ended, 0 if registered else GUEST_DAYS * 86400, len(counters),
        ]  # fmt: skip
        for name, inc in counters.items():
            args += [name, inc]
        args += [
            a.mode,
            b"" if rating is None else bytes(msgpack.packb(list(rating[:3]))),
            b"" if pid not in a.shown else bytes(msgpack.packb(self._point(a, pid))),
        ]
        index = P + "pmp:{" + pid + "}" if a.private else pm_key(pid)
        keys = [index, P + "stats:{" + pid + "}", rating_key(pid), rh_key(pid, a.mode)]
        try:
            await self.redis.evalsha(_APPLY_SHA, len(keys), *keys, *args)
        except NoScriptError:
            await self.redis.eval(_APPLY, len(keys), *keys, *args)

    # -- reading --------------------------------------------------------------------
    async def matches_of(
        self, pid: str, start: int, count: int, private: bool = False
    ) -> tuple[int, list[str]]:
        """How many matches a player has, and a page of their ids, newest first (`private`:
        of their private matches, which only they are shown)."""
        key = P + "pmp:{" + pid + "}" if private else pm_key(pid)
        async with self.redis.pipeline(transaction=False) as pipe:  # one slot: the player's
            pipe.zcard(key)
            pipe.zrevrange(key, start, start + count - 1)
            total, ids = await pipe.execute()
        return int(total), [_bytes(i).decode() for i in ids]

    async def headers(self, mids: list[str]) -> list[dict[str, Any] | None]:
        """The match headers of these ids (None where one is missing)."""
        return await match_headers(self.redis, mids)

    async def stats(self, uid: str) -> dict[str, int]:
        """A player's counters."""
        raw = await self.redis.hgetall(P + "stats:{" + uid + "}")
        return {_bytes(k).decode(): int(v) for k, v in raw.items()}

    async def rating_history(self, uid: str, mode: str, last: int) -> list[list[Any]]:
        """The last `last` points of a player's rating in a mode, oldest first."""
        rows = await self.redis.lrange(rh_key(uid, mode), -last, -1)
        return [list(msgpack.unpackb(r)) for r in rows]

    async def leaderboard(self, mode: str, start: int, count: int) -> tuple[int, list[str]]:
        """How many players are rated in a mode, and a page of them, best first."""
        total = await self.redis.zcard(P + "lb:" + mode)
        uids = await self.redis.zrevrange(P + "lb:" + mode, start, start + count - 1)
        return int(total), [_bytes(u).decode() for u in uids]

    async def merge_guest(self, sid: str, uid: str) -> None:
        """A guest who registers or logs in keeps the matches of their session (and the
        profile knows which seat was theirs by the session's id). Read, then written: the
        two indexes live in different slots."""
        await self.redis.sadd(P + "sids:{" + uid + "}", sid)
        for index in ("pm:", "pmp:"):
            rows: Any = await self.redis.zrange(P + index + "{" + sid + "}", 0, -1, withscores=True)
            if rows:
                mine = {_bytes(m).decode(): s for m, s in rows}
                await self.redis.zadd(P + index + "{" + uid + "}", mine)
            await self.redis.delete(P + index + "{" + sid + "}")

    async def sessions_of(self, uid: str) -> set[str]:
        """The guest sessions whose matches an account took over."""
        return {_bytes(s).decode() for s in await self.redis.smembers(P + "sids:{" + uid + "}")}

    async def forget_player(self, uid: str, shown_as: str) -> None:
        """A deleted account leaves the leaderboards, and its archived matches name it
        `shown_as` instead of its name (the matches stay, their other players' too)."""
        # every leaderboard the player is on: the modes of their ratings
        for mode in await self.redis.hkeys(rating_key(uid)):
            await self.redis.zrem(P + "lb:" + _bytes(mode).decode(), uid)
        for index in ("pm:", "pmp:"):
            listed = await self.redis.zrange(P + index + "{" + uid + "}", 0, -1)
            mids = [_bytes(m).decode() for m in listed]
            for start in range(0, len(mids), 100):
                batch = mids[start : start + 100]
                headers = await self.headers(batch)
                async with self.redis.pipeline(transaction=False) as pipe:
                    for mid, header in zip(batch, headers, strict=True):
                        if header is None:
                            continue
                        for p in header.get("players", []):
                            if p.get("account") == uid:
                                p["name"] = shown_as
                        pipe.set(match_key(mid), _pack(header))
                    await pipe.execute()
