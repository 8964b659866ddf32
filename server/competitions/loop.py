"""The competitions' loop (docs/competitions.md, "The loop"): in every process, about once a
second and at once when a match is archived, it records what the open tables of each
tournament being played have come to, under the tournament's lock, through the service
(server/competitions/service.py); a table another process recorded meanwhile is skipped."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import Any

from server.competitions.document import Doc, record_table
from server.competitions.service import TournamentService
from server.competitions.table import TournamentError
from server.store.postgres import AWAY

log = logging.getLogger("novuss.tournaments")

TICK_S = 1.0


class TournamentLoop:
    """Visits the tournaments being played."""

    def __init__(self, service: TournamentService):
        self.service = service

    async def run(self) -> None:
        """Visit the tournaments being played, about once a second, until cancelled."""
        away = False
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.service.wake.wait(), TICK_S)
            self.service.wake.clear()
            try:
                await self.tick()
                away = False
            except asyncio.CancelledError:
                raise
            except AWAY as e:  # said once, not every second: the tables wait for it
                if not away:
                    log.warning("tournaments wait for PostgreSQL: %s", e)
                away = True
            except Exception:  # the loop must outlive a Redis hiccup
                log.exception("tournament tick failed")

    def match_archived(self, mid: str) -> None:
        """A match was archived (server/history/archivist.py): look at the open tables now
        rather than at the next second."""
        self.service.wake.set()

    async def tick(self) -> None:
        """Record what the open tables of every tournament being played have come to."""
        now = time.time()
        for tid in await self.service.tours.live():
            doc = await self.service.read(tid)
            if await self._end_decided(tid, doc, now):
                doc = await self.service.read(tid)
            if doc["status"] == "finished":
                if not any(t.get("ending") for t in doc["tables"].values()):
                    await self.service.tours.set_live(tid, False)
                continue
            found = {}
            for t in doc["tables"].values():
                if t["outcome"] is None and t["round"] == doc["round"] and t["room"]:
                    out = await self.service.tables.outcome(t, now)
                    if out is not None:
                        found[t["key"]] = out
            if found:
                await self.service.change(tid, functools.partial(self._decided, found=found))
                await self._after(tid)

    async def _end_decided(self, tid: str, doc: Doc, now: float) -> bool:
        """End the rooms of this process whose tables were decided outside them; True when
        one was (and the document changed)."""
        done = [t["key"] for t in doc["tables"].values()
                if t.get("ending") and await self.service.tables.end_decided(t, now)]  # fmt: skip
        if not done:
            return False

        def work(d: Doc) -> None:
            for key in done:
                d["tables"][key]["ending"] = False

        await self.service.change(tid, work)
        return True

    async def _decided(self, doc: Doc, found: dict[str, Any]) -> None:
        for key, out in found.items():
            t = doc["tables"][key]
            if t["outcome"] is not None:  # another process recorded it meanwhile
                continue
            t["outcome"] = out
            try:
                record_table(doc, t)
            except TournamentError as e:  # e.g. a withdrawn entrant's late match
                log.warning("tournament %s: table %s not recorded: %s", doc["id"], key, e.code)
        await self.service.advance(doc)

    async def _after(self, tid: str) -> None:
        doc = await self.service.read(tid)
        if doc["status"] == "finished" and not any(t.get("ending") for t in doc["tables"].values()):
            await self.service.tours.set_live(tid, False)
