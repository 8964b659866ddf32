"""Accounts in Redis: the account records, the usernames, the logins and the login throttle.

Keys (prefix "nv:"; the braces are Redis Cluster hash tags, so one player's keys share a slot):
  acct:{uid}        hash: name (as registered), hash (argon2id), created; once deleted: only
                    created, deleted 1 and deleted_at (the record stays so that its matches
                    say "deleted player")
  uname:{key}       the uid of a username's lower case; kept after deletion, so a name is never
                    reused by somebody else
  sacct:{sid}       the uid of a session played under an account (refreshed while connected)
  login:{sha256}    the uid of a login by the hash of its cookie token (the token itself is
                    not stored); lives LOGIN_TTL after its last use
  logins:{uid}      set of the account's login hashes (log out everywhere)
  fail:<what>       failed logins in the current window: per account and address (acct:<key>:
                    <address>), per account (acct:<key>), per address (ip:<address>); and
                    accounts made per address (reg:<address>)
  trust:{uid}:<mark>  where the account logged in from lately (ip:<address>, dev:<sha256 of
                    the device cookie>): strangers' failures do not lock it out from there
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

import redis.asyncio as aioredis

DELETED = "deleted player"  # the name a deleted account's matches show

P = "nv:"
LOGIN_TTL_S = 30 * 24 * 3600.0  # a login unused this long ends

# One attempt counted, the window started by the first (Redis 6.2 has no PEXPIRE NX).
_COUNT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def login_hash(token: str) -> str:
    """A login's name where it is kept or talked about: its token's SHA-256, never the
    token."""
    return hashlib.sha256(token.encode()).hexdigest()


def login_key(token: str) -> str:
    """The key of a login: the hash of its token, never the token."""
    return P + "login:" + login_hash(token)


def acct_key(uid: str) -> str:
    """The key of an account's record."""
    return P + "acct:{" + uid + "}"


class AccountStore:
    """Async access to the accounts' keys (sharing the store's Redis client)."""

    def __init__(self, redis: aioredis.Redis):
        self.redis = redis

    async def create(self, uid: str, name: str, key: str, pw_hash: str) -> bool:
        """Write a new account and claim its username: False (and nothing kept) if the name
        is taken. The record first, then the name: a crash in between leaves a record no
        name points to, never a name without an account."""
        await self.redis.hset(
            acct_key(uid), mapping={"name": name, "hash": pw_hash, "created": time.time()}
        )
        if await self.redis.set(P + "uname:" + key, uid, nx=True):
            return True
        await self.redis.delete(acct_key(uid))
        return False

    async def uid_of(self, key: str) -> str | None:
        """The uid a username's key names, or None."""
        uid = await self.redis.get(P + "uname:" + key)
        return None if uid is None else _text(uid)

    async def account(self, uid: str) -> dict[str, str] | None:
        """An account's record, or None."""
        raw = await self.redis.hgetall(acct_key(uid))
        return {_text(k): _text(v) for k, v in raw.items()} or None

    async def name_players(self, records: list[dict[str, Any]]) -> None:
        """Show each registered player of match records under their account's current name
        ("deleted player" for a deleted account), in place."""
        uids = sorted(
            {p["account"] for r in records for p in r.get("players", []) if p.get("account")}
        )
        if not uids:
            return
        names = await self.names(uids)
        for r in records:
            for p in r.get("players", []):
                if p.get("account"):
                    p["name"] = names.get(p["account"]) or DELETED
                    p["registered"] = names.get(p["account"]) is not None

    async def names(self, uids: list[str]) -> dict[str, str | None]:
        """The current names of accounts (None for a deleted one)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for uid in uids:
                pipe.hmget(acct_key(uid), ["name", "deleted"])
            rows = await pipe.execute()
        return {
            uid: None if row[0] is None or row[1] else _text(row[0])
            for uid, row in zip(uids, rows, strict=True)
        }

    async def set_hash(self, uid: str, pw_hash: str) -> None:
        """Replace an account's password hash."""
        await self.redis.hset(acct_key(uid), "hash", pw_hash)

    async def mark_deleted(self, uid: str) -> None:
        """Forget an account's name and password; its record says it was deleted (the name's
        lower case stays in uname:, so that nobody else takes it)."""
        await self.redis.hset(acct_key(uid), mapping={"deleted": "1", "deleted_at": time.time()})
        await self.redis.hdel(acct_key(uid), "hash", "name")
        await self.end_logins(uid)

    # -- logins ---------------------------------------------------------------------
    async def add_login(self, token: str, uid: str) -> None:
        """Remember a login by its token's hash: listed first, then made (the two keys live in
        different slots, so no transaction: a crash between leaves a listed login that does
        not exist, never a login that "log out everywhere" cannot find)."""
        key = login_key(token)
        await self.redis.sadd(P + "logins:{" + uid + "}", key)
        await self.redis.set(key, uid, px=int(LOGIN_TTL_S * 1000))

    async def login(self, token: str) -> str | None:
        """The uid a login token belongs to (its life starts again), or None."""
        key = login_key(token)
        uid = await self.redis.getex(key, px=int(LOGIN_TTL_S * 1000))
        return None if uid is None else _text(uid)

    async def end_login(self, token: str) -> str | None:
        """Log one login out; the uid it belonged to (None: no such login)."""
        key = login_key(token)
        uid = await self.redis.get(key)
        await self.redis.delete(key)
        if uid is None:
            return None
        await self.redis.srem(P + "logins:{" + _text(uid) + "}", key)
        return _text(uid)

    async def end_logins(self, uid: str, keep: str | None = None) -> int:
        """Log out every login of an account (but the one of token `keep`); how many ended."""
        logins = P + "logins:{" + uid + "}"
        keys = [_text(k) for k in await self.redis.smembers(logins)]
        kept = None if keep is None else login_key(keep)
        ending = [k for k in keys if k != kept]
        if ending:
            async with self.redis.pipeline(transaction=False) as pipe:  # one key a command
                for k in ending:
                    pipe.delete(k)
                await pipe.execute()
            await self.redis.srem(logins, *ending)
        return len(ending)

    # -- sessions played under an account -------------------------------------------
    async def bind_session(self, sid: str, uid: str, ttl: float) -> None:
        """Say that session `sid` plays as account `uid` (for `ttl` seconds more)."""
        await self.redis.set(P + "sacct:" + sid, uid, px=max(1, int(ttl * 1000)))

    async def session_accounts(self, sids: list[str]) -> dict[str, str | None]:
        """The account each session plays as (None: a guest)."""
        if not sids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:  # one key a command
            for sid in sids:
                pipe.get(P + "sacct:" + sid)
            uids = await pipe.execute()
        return {s: None if u is None else _text(u) for s, u in zip(sids, uids, strict=True)}

    # -- throttle -------------------------------------------------------------------
    async def attempt(self, window: float, *what: str) -> list[int]:
        """Count one attempt against each key before it is judged, and return the counts
        with it: counted first, so concurrent attempts cannot all slip under the limit (the
        window starts at the first attempt)."""
        # one script per key: the keys live in different slots under Redis Cluster
        async with self.redis.pipeline(transaction=False) as pipe:
            for w in what:
                pipe.eval(_COUNT, 1, P + "fail:" + w, int(window * 1000))
            replies = await pipe.execute()
        return [int(c) for c in replies]

    async def forgive(self, *what: str) -> None:
        """Take back an attempt that succeeded (only failures count)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for w in what:
                pipe.decr(P + "fail:" + w)
            await pipe.execute()

    async def retry_after(self, what: str) -> float:
        """Seconds until a key's window ends."""
        ms = await self.redis.pttl(P + "fail:" + what)
        return max(0.0, ms / 1000)

    async def trust(self, uid: str, marks: list[str], ttl: float) -> None:
        """Remember for `ttl` s that the account logged in from these marks (its address,
        its device cookie)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for mark in marks:
                pipe.set(P + "trust:{" + uid + "}:" + mark, 1, px=int(ttl * 1000))
            await pipe.execute()

    async def trusted(self, uid: str, marks: list[str]) -> bool:
        """Has the account logged in from any of these marks lately?"""
        if not marks:
            return False
        return bool(await self.redis.exists(*(P + "trust:{" + uid + "}:" + m for m in marks)))
