"""Accounts: the account records, the usernames and the logins in PostgreSQL (the system of
record: server/store/migrations/001_accounts.sql); the sessions played under an account and the
login throttle, which are live and short, in Redis.

PostgreSQL (tables):
  accounts          uid, name (as registered), name_key (its lower case: unique, kept after
                    deletion, so a name is never reused by somebody else), hash (argon2id),
                    created; once deleted: name and hash gone, deleted_at set (the row stays so
                    that its matches say "deleted player")
  logins            a login by the SHA-256 of its cookie token (the token itself is not
                    stored), its account and when it ends: LOGIN_TTL after its last use

Redis (prefix "nv:"):
  sacct:{sid}       the uid of a session played under an account (refreshed while connected)
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

from server.store.postgres import Database

DELETED = "deleted player"  # the name a deleted account's matches show

P = "nv:"
LOGIN_TTL_S = 30 * 24 * 3600.0  # a login unused this long ends
LOGINS_MAX = 20  # logins an account keeps (devices, browsers): the last used
TRUST_MAX = 32  # addresses and devices an account is trusted from: the newest

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


def login_key(token: str) -> bytes:
    """The key of a login: the hash of its token, never the token."""
    return hashlib.sha256(token.encode()).digest()


class AccountStore:
    """Async access to the accounts (PostgreSQL) and to the live keys beside them (Redis)."""

    def __init__(self, redis: aioredis.Redis, db: Database):
        self.redis = redis
        self.db = db

    async def create(self, uid: str, name: str, key: str, pw_hash: str) -> bool:
        """Write a new account with its username: False (and nothing kept) if the name is
        taken, now or ever (the unique name_key refuses it, also to two at once)."""
        row = await self.db.pool.fetchval(
            "INSERT INTO accounts (uid, name_key, name, hash, created) VALUES ($1, $2, $3, $4,"
            " $5) ON CONFLICT (name_key) DO NOTHING RETURNING 1",
            uid, key, name, pw_hash, time.time(),
        )  # fmt: skip
        return row is not None

    async def uid_of(self, key: str) -> str | None:
        """The uid a username's key names, or None."""
        uid = await self.db.pool.fetchval("SELECT uid FROM accounts WHERE name_key = $1", key)
        return None if uid is None else str(uid)

    async def account(self, uid: str) -> dict[str, str] | None:
        """An account's record, or None (a deleted one: created, deleted 1 and deleted_at)."""
        row = await self.db.pool.fetchrow(
            "SELECT name, hash, created, deleted_at FROM accounts WHERE uid = $1", uid
        )
        if row is None:
            return None
        if row["deleted_at"] is not None:
            return {"created": str(row["created"]), "deleted": "1",
                    "deleted_at": str(row["deleted_at"])}  # fmt: skip
        return {"name": row["name"], "hash": row["hash"], "created": str(row["created"])}

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
        rows = await self.db.pool.fetch(
            "SELECT uid, name FROM accounts WHERE uid = ANY($1::text[])", uids
        )
        found: dict[str, str | None] = {r["uid"]: r["name"] for r in rows}
        return {uid: found.get(uid) for uid in uids}

    async def set_hash(self, uid: str, pw_hash: str) -> None:
        """Replace an account's password hash."""
        await self.db.pool.execute(
            "UPDATE accounts SET hash = $2 WHERE uid = $1 AND deleted_at IS NULL", uid, pw_hash
        )

    async def mark_deleted(self, uid: str) -> None:
        """Forget an account's name and password and end its logins, in one transaction; its
        row says it was deleted (name_key stays, so that nobody else takes the name)."""
        async with self.db.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "UPDATE accounts SET name = NULL, hash = NULL, deleted_at = $2 WHERE uid = $1",
                uid, time.time(),
            )  # fmt: skip
            await conn.execute("DELETE FROM logins WHERE uid = $1", uid)

    # -- logins ---------------------------------------------------------------------
    async def add_login(self, token: str, uid: str) -> None:
        """Remember a login by its token's hash, and forget the account's lapsed ones and
        all but its LOGINS_MAX last used (a login is used again by every visit: the oldest
        is one left on a device nobody opens)."""
        now = time.time()
        async with self.db.pool.acquire() as conn, conn.transaction():
            await conn.execute("DELETE FROM logins WHERE uid = $1 AND expires < $2", uid, now)
            await conn.execute(
                "INSERT INTO logins (hash, uid, expires) VALUES ($1, $2, $3)",
                login_key(token), uid, now + LOGIN_TTL_S,
            )  # fmt: skip
            await conn.execute(
                "DELETE FROM logins WHERE hash IN (SELECT hash FROM logins WHERE uid = $1"
                " ORDER BY expires DESC OFFSET $2)",
                uid, LOGINS_MAX,
            )  # fmt: skip

    async def login(self, token: str) -> str | None:
        """The uid a login token belongs to (its life starts again), or None."""
        now = time.time()
        uid = await self.db.pool.fetchval(
            "UPDATE logins SET expires = $2 WHERE hash = $1 AND expires > $3 RETURNING uid",
            login_key(token), now + LOGIN_TTL_S, now,
        )  # fmt: skip
        return None if uid is None else str(uid)

    async def end_login(self, token: str) -> str | None:
        """Log one login out; the uid it belonged to (None: no such login)."""
        uid = await self.db.pool.fetchval(
            "DELETE FROM logins WHERE hash = $1 RETURNING uid", login_key(token)
        )
        return None if uid is None else str(uid)

    async def end_logins(self, uid: str, keep: str | None = None) -> int:
        """Log out every login of an account (but the one of token `keep`); how many ended."""
        kept = b"" if keep is None else login_key(keep)
        rows = await self.db.pool.fetch(
            "DELETE FROM logins WHERE uid = $1 AND hash <> $2 RETURNING 1", uid, kept
        )
        return len(rows)

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
        its device cookie): one sorted set an account, each mark scored by when it lapses,
        the newest TRUST_MAX kept (every login without a device cookie is a new device: a
        key each would let logging in, again and again, fill Redis)."""
        key = P + "trust:{" + uid + "}"
        now_ms = int(time.time() * 1000)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(key, dict.fromkeys(marks, now_ms + int(ttl * 1000)))
            pipe.zremrangebyscore(key, "-inf", now_ms)
            pipe.zremrangebyrank(key, 0, -TRUST_MAX - 1)
            pipe.pexpire(key, int(ttl * 1000))
            await pipe.execute()

    async def trusted(self, uid: str, marks: list[str]) -> bool:
        """Has the account logged in from any of these marks lately?"""
        if not marks:
            return False
        lapses = await self.redis.zmscore(P + "trust:{" + uid + "}", marks)
        now_ms = time.time() * 1000
        return any(at is not None and at > now_ms for at in lapses)
