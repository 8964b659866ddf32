"""The archivist: reads the finished matches (a Redis stream written in the same commit as
each match's end) and archives each once into PostgreSQL (server/history/summary.py says what
a match gives its players; server/history/store.py writes it in one transaction).

Every process runs one, in one consumer group, so each finished match goes to one of them; a
process that dies holding some leaves them pending, and another (or the same one restarted)
claims them after 10 s (server/history/store.py, CLAIM_IDLE_MS). A match archived already is
one row: archiving it again writes nothing. While PostgreSQL is away nothing is acknowledged:
the finished matches wait in the stream (play goes on) and are archived when it returns. Once
a match's archive is committed its live keys in Redis are deleted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import asyncpg
from redis.exceptions import RedisError

from server.accounts.store import AccountStore
from server.history.store import HistoryStore
from server.history.summary import REPEAT_WINDOW, is_rated, rating_mode_of, same_table, summarise
from server.store.postgres import UNAVAILABLE
from server.store.redis_store import Store

log = logging.getLogger("novuss.history")

RETRY_S = 1.0  # a failed try (Redis or PostgreSQL away) again after this


class Archivist:
    """One process's reader of finished matches."""

    def __init__(self, store: Store, history: HistoryStore, accounts: AccountStore, consumer: str):
        self.store = store
        self.accounts = accounts
        self.history = history
        self.consumer = consumer
        self.archived = 0
        self.failed = 0
        self.waiting = False  # PostgreSQL (or Redis) away: finished matches wait
        self.on_archived: list[Callable[[str], None]] = []  # told each match id archived

    async def run(self, block_ms: int = 1000) -> None:
        """Archive finished matches until cancelled; a Redis or PostgreSQL failure waits and
        tries again (what was not archived stays pending, and is claimed again)."""
        while True:
            try:
                await self.history.ensure_group()
                while True:
                    await self.step(block_ms)
            except asyncio.CancelledError:
                raise
            except (RedisError, asyncpg.PostgresError, *UNAVAILABLE) as e:
                if not self.waiting:
                    log.warning("archivist: %s; finished matches wait in Redis", e)
                self.waiting = True
                await asyncio.sleep(RETRY_S)

    async def step(self, block_ms: int) -> int:
        """Archive what is waiting (blocking up to `block_ms` for it); how many were read.
        An entry is acknowledged only once its match is archived."""
        entries = await self.history.next_finished(self.consumer, block_ms)
        for entry, mid in entries:
            await self.archive(mid)
            await self.history.ack(entry)
        if entries and self.waiting:
            log.info("archivist: PostgreSQL is back; archiving again")
            self.waiting = False
        return len(entries)

    async def archive(self, mid: str) -> None:
        """Archive one finished match in one transaction, unless it is already; then delete
        its live keys."""
        record = await self.store.match_record(mid, live_only=True)
        if record is None:
            if not await self.history.archived(mid):
                log.error("finished match %s has no record: not archived", mid)
                self.failed += 1
            return
        if record.get("ended") is None:
            log.error("finished match %s has no end: not archived", mid)
            self.failed += 1
            return
        guests = [p["sid"] for p in record["players"] if not p.get("account")]
        claimed = await self.accounts.session_accounts(guests)
        owned = {sid: uid for sid, uid in claimed.items() if uid is not None}
        rated = [p["account"] for p in record["players"]] if is_rated(record) else []
        try:
            done = await self.history.archive(
                record, rated, rating_mode_of(record),
                lambda skills, earlier: summarise(record, skills, owned, repeats(record, earlier)),
                REPEAT_WINDOW,
            )  # fmt: skip
        except (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError) as e:
            # a record the schema refuses: said, counted and left in Redis, not retried for ever
            log.error("finished match %s refused by the database: %s", mid, e)
            self.failed += 1
            return
        await self.history.drop_live(mid)
        if done is None:
            return  # archived before (delivered twice): nothing new to tell
        self.archived += 1
        for tell in self.on_archived:  # e.g. the competitions service: a table may be decided
            tell(mid)


def repeats(record: dict[str, Any], earlier: list[dict[str, Any]]) -> int:
    """How many of a player's earlier matches (public or private) were rated matches between
    the record's very accounts within the window (server/history/summary.py)."""
    return sum(same_table(record, h) for h in earlier)
