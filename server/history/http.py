"""The match records' API: the recent matches, one match's record with its whole log, and
its notation (docs/notation.md). A private room's match is served only with its invite, or
to a logged-in player of it.

An archived match keeps only what was struck (server/store/archive.py): its rulings are
recomputed by its game's replay when it is served (`with_rulings`), the last few kept. The
recomputation (some 80 ms for a long match, on the loop) is made only for a reader who may
read the record, and a few a second per address: one address cycling through archived
matches at the API's read rate held every live match's strokes."""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from server.accounts.store import AccountStore
from server.edge.proxy import Network
from server.edge.reads import AddressBudget
from server.games.registry import NAMES, game, of_record
from server.games.seam import ReplayError
from server.lobby.room_views import record_for
from server.store.redis_store import Store

RECOMPUTED = 64  # archived records kept with their recomputed rulings
RECOMPUTE_RATE = 1.0  # archived records recomputed a second per client address, sustained
RECOMPUTE_BURST = 20.0  # ... at once (a kept one is not counted)


def _archived(record: dict[str, Any]) -> bool:
    """Does the record keep only digests of its rulings (an archived one, to recompute)?"""
    log = record.get("log") or []
    return any("ruling_digest" in e for e in log) and of_record(record).replay is not None


def with_rulings(record: dict[str, Any]) -> dict[str, Any]:
    """The record with each entry's ruling (and a stroke's duration, Novuss's `own`),
    recomputed by its game's replay where the stored entry has none (an archived record), as
    the live record had them, and each stroke's whole state hash where it keeps the start of
    it; as it is if it has them, or cannot be replayed. An entry whose recomputed ruling
    disagrees with its stored digest keeps the digest alone (and a stroke whose state does
    not agree, the start of its hash)."""
    if not _archived(record):  # live, nothing was ruled, or no replay for its game
        return record
    replay = of_record(record).replay
    assert replay is not None  # _archived says so
    entries = [dict(e) for e in record["log"]]
    try:
        for check in replay.checks({**record, "log": entries}):
            if check.index >= len(entries) or check.ruling_ok is False:
                continue  # what disagrees with the stored digest is not served as stored
            entry = entries[check.index]
            for key, value in (check.restored or {}).items():
                if key == "hash" and check.hash_ok:  # the whole of the start that is kept
                    entry[key] = value
                else:
                    entry.setdefault(key, value)
            if check.ruling is not None and "ruling" not in entry:
                entry["ruling"] = check.ruling
                entry.pop("ruling_digest", None)  # the ruling it is the digest of is there
    except ReplayError:
        return record
    return {**record, "log": entries}


class Records:
    """GET /api/matches, /api/matches/{mid} and /api/matches/{mid}.txt."""

    def __init__(
        self,
        store: Store,
        accounts: AccountStore,
        recent: int,
        viewer: Callable[[web.Request], Awaitable[str | None]] | None = None,
        trusted: tuple[Network, ...] = (),
    ):
        self.store = store
        self.recomputing = AddressBudget(
            RECOMPUTE_RATE, RECOMPUTE_BURST, trusted, "match records recomputed"
        )
        self.accounts = accounts
        self.recent = recent  # records listed by GET /api/matches
        self.viewer = viewer  # the request's logged-in account's uid (the login cookie)
        self._recomputed: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def routes(self) -> list[web.RouteDef]:
        """The notation's route first: {mid} alone would take "<id>.txt" as an id."""
        return [
            web.get("/api/matches", self.matches),
            web.get("/api/matches/{mid:[^{}/.]+}.txt", self.notation),
            web.get("/api/matches/{mid}", self.record),
        ]

    async def matches(self, request: web.Request) -> web.Response:
        """The most recent matches (live and finished), newest first."""
        records = await self.store.recent_matches(self.recent)
        await self.accounts.name_players(records)
        return web.json_response({"matches": records})

    async def _served(self, request: web.Request) -> dict[str, Any] | web.Response:
        """The match record of the path's `mid`, with its players named; a private room's
        match only with the room's invite (`?invite=`): 404 otherwise, as for no match; the
        429 to answer past the address's recomputations."""
        record = await self.store.match_record(request.match_info["mid"])
        if record is not None:
            viewer = None if self.viewer is None else await self.viewer(request)
            invite = request.query.get("invite")
            if record_for(record, invite, viewer) is None:  # nothing computed for a refusal
                raise web.HTTPNotFound(text="No such match.")
            complete = self._complete(record, request)
            if isinstance(complete, web.Response):
                return complete
            record = record_for(complete, invite, viewer)
        if record is None:
            raise web.HTTPNotFound(text="No such match.")
        await self.accounts.name_players([record])
        return record

    def _complete(
        self, record: dict[str, Any], request: web.Request
    ) -> dict[str, Any] | web.Response:
        """An archived record with its rulings (recomputed once, kept for the next few), or
        the 429 past the asking address's recomputations."""
        if not _archived(record):
            return record
        mid = str(record.get("id"))
        if mid not in self._recomputed:
            refused = self.recomputing.admit(request)
            if refused is not None:
                return refused
            self._recomputed[mid] = with_rulings(record)
            while len(self._recomputed) > RECOMPUTED:
                self._recomputed.popitem(last=False)
        self._recomputed.move_to_end(mid)
        return copy.deepcopy(self._recomputed[mid])

    async def record(self, request: web.Request) -> web.Response:
        """One match: players, settings, result and its whole log (every stroke, ruling)."""
        record = await self._served(request)
        return record if isinstance(record, web.Response) else web.json_response(record)

    async def notation(self, request: web.Request) -> web.Response:
        """One match as its game's notation, to whoever may read its record; 422 for a game
        with no notation (Crokinole's, as yet) or a record it cannot carry."""
        record = await self._served(request)
        if isinstance(record, web.Response):
            return record
        notation = of_record(record).notation
        if notation is None:
            carried = " and ".join(g.title for g in map(game, NAMES) if g.notation is not None)
            title = of_record(record).title
            raise web.HTTPUnprocessableEntity(
                text=f"{title} matches have no notation: the notation carries {carried} only."
            )
        try:
            text = notation.write(record)
        except ReplayError as e:  # NotationError: a record the notation cannot carry
            raise web.HTTPUnprocessableEntity(text=str(e)) from None
        disposition = f'inline; filename="{request.match_info["mid"]}.txt"'
        return web.Response(text=text, headers={"Content-Disposition": disposition})
