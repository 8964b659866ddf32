"""The archivist: reads the finished matches (a Redis stream written in the same commit as
each match's end) and archives each once (server/history/summary.py).

Every process runs one, in one consumer group, so each finished match goes to one of them; a
process that dies holding some leaves them pending, and another (or the same one restarted)
claims them after 10 s (server/history/store.py, CLAIM_IDLE_MS).
One match is archived at a time across the cluster (a Redis lock): its ratings are read,
moved and written back, and two matches of the same player must not interleave. A match
archived already (its `done:` mark) is skipped, so one delivered twice counts once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from server.accounts.store import AccountStore
from server.history.store import HistoryStore, pm_key
from server.history.summary import REPEAT_WINDOW, is_rated, rating_mode_of, same_table, summarise
from server.store.redis_store import P, Store, _bytes

log = logging.getLogger("novuss.history")

LOCK = "nv:lock:archive"
LOCK_S = 10.0
SCAN_REPEATS = 200  # a player's matches in the repeat window looked at (the newest)


class Archivist:
    """One process's reader of finished matches."""

    def __init__(self, store: Store, history: HistoryStore, accounts: AccountStore, consumer: str):
        self.store = store
        self.accounts = accounts
        self.history = history
        self.consumer = consumer
        self.archived = 0
        self.failed = 0
        self.on_archived: list[Callable[[str], None]] = []  # told each match id archived

    async def run(self, block_ms: int = 1000) -> None:
        """Archive finished matches until cancelled; a Redis failure waits and tries again."""
        while True:
            try:
                await self.history.ensure_group()
                while True:
                    await self.step(block_ms)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as e:
                log.warning("archivist: %s; again in 1 s", e)
                await asyncio.sleep(1.0)

    async def step(self, block_ms: int) -> int:
        """Archive what is waiting (blocking up to `block_ms` for it); how many were read."""
        entries = await self.history.next_finished(self.consumer, block_ms)
        for entry, mid in entries:
            await self.archive(mid)
            await self.history.ack(entry)
        return len(entries)

    async def archive(self, mid: str) -> None:
        """Archive one finished match, unless it is already; a try cut off half-way is
        finished with the numbers it computed (its plan), not new ones."""
        async with self.store.redis.lock(LOCK, timeout=LOCK_S, blocking_timeout=LOCK_S * 3):
            if await self.history.archived(mid):
                return
            plan = await self.history.plan(mid)
            if plan is None:
                record = await self.store.match_record(mid)
                if record is None or record.get("ended") is None:
                    log.error("finished match %s has no ended record: not archived", mid)
                    self.failed += 1
                    return
                skills = {}
                repeats = 0
                if is_rated(record):
                    uids = [p["account"] for p in record["players"]]
                    skills = await self.history.skills(uids, rating_mode_of(record))
                    repeats = await self.repeats(record, uids[0])
                guests = [p["sid"] for p in record["players"] if not p.get("account")]
                claimed = await self.accounts.session_accounts(guests)
                owned = {sid: uid for sid, uid in claimed.items() if uid is not None}
                plan = summarise(record, skills, owned, repeats)
            await self.history.write(plan)
            self.archived += 1
        for tell in self.on_archived:  # e.g. the competitions service: a table may be decided
            tell(mid)

    async def repeats(self, record: dict[str, Any], uid: str) -> int:
        """How many rated matches between the record's very accounts ended within the window
        before it (server/history/summary.py), public or private: read from one player's
        indexes by end time."""
        ended = float(record.get("ended") or 0.0)
        mids: list[str] = []
        for index in (pm_key(uid), P + "pmp:{" + uid + "}"):
            found = await self.history.redis.zrevrangebyscore(
                index, ended, ended - REPEAT_WINDOW, start=0, num=SCAN_REPEATS
            )
            mids += [_bytes(m).decode() for m in found]
        headers = await self.history.headers(mids)
        return sum(h is not None and same_table(record, h) for h in headers)
