"""The replay viewer's HTTP side (docs/notation.md, "The replay viewer"): the page `/m/{id}`,
a match's steps recomputed (`GET /api/matches/{id}/replay`) and a stroke's motion simulated
again (`GET /api/matches/{id}/replay/{n}`), by the record's game's `Replay`
(server/games/seam.py; the table or board drawn is its game's `table_view`).

Whoever may read a match's record may replay it: a private match only with its room's invite
(`?invite=`), answered 404 otherwise, as for no match at all. Recomputing a match is work
(a long match: a few hundred strokes simulated and judged), so it runs in a worker process
(server/workers.py: the core holds the GIL, a thread stalled the loop), at most AT_ONCE in
flight over every client, past which the answer is 503 `busy` with `Retry-After`; the record
is read only once a slot is taken (issue 37: each request loaded it before waiting). One
recomputation per match at a time: who asks for it meanwhile waits for that one. The worker
encodes the steps too, and the body is gzipped once (in a thread) for everyone: the last
CACHED matches recomputed are kept so, each under the length of its log in Redis (a live
match's replay is recomputed when its log has grown; an archived one's, once). A stroke's
motion is simulated on the loop (under a millisecond) and the last MOTIONS are kept encoded.
Issue 37: the replay flood from 64 addresses stalled the loop 388 ms, most of it encoding the
same steps to JSON again for every request.

What the computer would have struck at a step (`GET /api/matches/{id}/replay/step/{i}/
suggestion`, server/replay/suggest.py) is a top-level search, so it runs in the same workers
under the same bound (503 `busy` past it); the last SUGGESTED answers are kept by (match,
step): a step's position never changes once recomputed.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import gzip
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from server.accounts.store import AccountStore
from server.edge.proxy import Network
from server.edge.reads import AddressBudget
from server.games.registry import of_record
from server.games.seam import NoSuchStroke, Replay, Replayed, ReplayError, UnacceptedShot
from server.lobby.room_views import record_for
from server.replay.steps import SERVED, recompute_encoded
from server.replay.suggest import NoSuggestion, Suggestion, at_step, suggest
from server.store.redis_store import Store, log_key
from server.workers import Busy, Workers

CACHED = 64  # matches kept recomputed
AT_ONCE = 4  # recomputations in flight (one worker: the host's other core serves the matches)
STROKE_MAX = 100_000  # the largest stroke number read from a path
MOTIONS = 1024  # strokes' motions kept encoded, by (match, stroke)
SUGGESTED = 512  # suggestions kept, by (match, step)
SUGGEST_BUDGET = 4.0  # s a suggestion's search may take (the top level, docs/bot.md: ~1 s)
SUGGEST_RATE = 0.1  # new suggestions a second per client address, sustained (kept ones: free)
SUGGEST_BURST = 5.0  # ... at once: a reader stepping through a match asks a few


def _busy(e: Busy) -> web.HTTPException:
    return web.HTTPServiceUnavailable(
        text=json.dumps({"error": "busy", "message": "Many replays are being computed just"
                         " now: try again."}),
        content_type="application/json", headers={"Retry-After": str(e.retry_after)},
    )  # fmt: skip


def _refuse(
    cls: type[web.HTTPException], code: str, message: str, reason: str | None = None
) -> web.HTTPException:
    body = {"error": code, "message": message, **({"reason": reason} if reason else {})}
    return cls(text=json.dumps(body), content_type="application/json")


Handler = Callable[["Replays", web.Request], Awaitable[web.Response]]


def answered(handler: Handler) -> Handler:
    """A handler whose refusals (404, 422, 503 `busy`) are answered as responses rather than
    raised on to aiohttp: a raised HTTPException is kept by the aiohttp frame that caught it
    and holds that frame through its traceback, a cycle with the request in it for the
    collector to free (issue 37: under a flood of refusals, most of what its pass of each
    second walked)."""

    @functools.wraps(handler)
    async def wrapped(self: Replays, request: web.Request) -> web.Response:
        try:
            return await handler(self, request)
        except web.HTTPException as e:
            return web.Response(status=e.status, body=e.body, headers=e.headers)

    return wrapped


class _Gone(Exception):
    """The match's record is gone (or may not be read) since its header was."""


@dataclass(eq=False)
class _Kept:
    """A match recomputed, as kept: its log's length in Redis then, its header, the recomputation,
    the rest of the viewer's data encoded (steps.SERVED, a JSON object), and the whole body
    gzipped with the last header it was named with (computed once, shared by whoever asks
    meanwhile)."""

    length: int
    head: dict[str, Any]
    replayed: Replayed
    data: bytes
    gzipped: tuple[bytes, asyncio.Future[bytes]] | None = None


class Replays:
    """The replay endpoints, with their cache of recomputed matches."""

    def __init__(
        self,
        store: Store,
        accounts: AccountStore,
        page: Path,
        viewer: Callable[[web.Request], Awaitable[str | None]] | None = None,
        trusted: tuple[Network, ...] = (),
    ):
        self.store = store
        self.accounts = accounts
        self.page = page
        self.viewer = viewer  # the request's logged-in account's uid: a private match's player
        self.cache: OrderedDict[str, _Kept] = OrderedDict()
        # the recomputation under way of each match: who asks meanwhile waits for it, without
        # a slot of their own (issue 37: a live match's replay asked from 64 addresses ran the
        # same recomputation AT_ONCE times, and refused the others)
        self.flights: dict[str, asyncio.Future[_Kept]] = {}
        # strokes' motions encoded, by (match, its kept length, stroke)
        self.motions: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
        self.workers = Workers(1, AT_ONCE)
        self.suggested: OrderedDict[tuple[str, int], Suggestion] = OrderedDict()
        # a suggestion is a search of up to SUGGEST_BUDGET in the replays' one worker: one at
        # a time in all, and a few per address (one address asking a few a second held every
        # slot, and everybody's replays were refused `busy`)
        self.suggesting = False
        self.suggestions = AddressBudget(SUGGEST_RATE, SUGGEST_BURST, trusted, "suggestions")

    async def _header(self, request: web.Request) -> dict[str, Any] | None:
        """The match's header if this request may read it (its invite, for a private one)."""
        mid = request.match_info["mid"]
        header = (await self.store.match_headers([mid]))[0] if len(mid) <= 64 else None
        if header is None:
            return None
        return record_for(header, request.query.get("invite"), await self._viewer(request))

    async def _viewer(self, request: web.Request) -> str | None:
        return None if self.viewer is None else await self.viewer(request)

    async def _replayed(self, request: web.Request) -> tuple[_Kept, Replay]:
        """The match recomputed as its log is now: kept under the length of its log in
        Redis (0 once archived: a finished match's record no longer changes, so its replay
        is computed once for as long as it is kept; issue 37: the archived ones were
        recomputed on every request)."""
        header = await self._header(request)
        if header is None:
            raise _refuse(web.HTTPNotFound, "no_match", "No such match.")
        played = of_record(header)
        if played.replay is None:
            raise _refuse(web.HTTPUnprocessableEntity, "not_replayable",
                          f"{played.title} matches cannot be replayed. Their record lists every"
                          " shot and ruling.", played.name)  # fmt: skip
        mid = header["id"]
        length = int(await self.store.redis.xlen(log_key(mid)))
        hit = self.cache.get(mid)
        if hit is not None and hit.length == length:
            self.cache.move_to_end(mid)
            return hit, played.replay
        invite, viewer = request.query.get("invite"), await self._viewer(request)
        flight = self.flights.get(mid)
        try:
            if flight is not None:
                return await self._joined(flight), played.replay
            async with self.workers.slot():  # Busy past AT_ONCE; taken before the record is read
                flight = asyncio.ensure_future(self._recompute(mid, length, invite, viewer))
                self.flights[mid] = flight
                flight.add_done_callback(lambda done: self._landed(mid, done))
                return await self._joined(flight), played.replay
        except Busy as e:
            raise _busy(e) from None

    def _landed(self, mid: str, flight: asyncio.Future[_Kept]) -> None:
        if self.flights.get(mid) is flight:
            del self.flights[mid]
        if not flight.cancelled():
            flight.exception()  # retrieved: each waiter answered its own refusal

    async def _joined(self, flight: asyncio.Future[_Kept]) -> _Kept:
        """The flight's recomputation, or this request's own refusal for its failure."""
        try:
            return await asyncio.shield(flight)
        except _Gone:
            raise _refuse(web.HTTPNotFound, "no_match", "No such match.") from None
        except (ReplayError, KeyError, TypeError, ValueError) as e:
            raise _refuse(web.HTTPUnprocessableEntity, "not_replayable",
                          f"This record cannot be replayed: {e}") from None  # fmt: skip

    async def _recompute(
        self, mid: str, length: int, invite: str | None, viewer: str | None
    ) -> _Kept:
        """Read the record (within the slot), recompute and encode it in a worker, keep it
        under `length` (its log's in Redis as seen before: one grown since is recomputed at
        the next request)."""
        record = await self.store.match_record(mid)
        record = None if record is None else record_for(record, invite, viewer)
        if record is None:
            raise _Gone(mid)
        replayed, data = await self.workers.submit(recompute_encoded, record)
        head = {k: v for k, v in record.items() if k != "log"}
        kept = _Kept(length, head, replayed, data)
        self.cache[mid] = kept
        self.cache.move_to_end(mid)
        while len(self.cache) > CACHED:
            self.cache.popitem(last=False)
        return kept

    def routes(self) -> list[web.RouteDef]:
        """The replay viewer's page and data."""
        return [
            web.get("/api/matches/{mid}/replay", self.steps),
            web.get("/api/matches/{mid}/replay/{n}", self.stroke),
            web.get("/api/matches/{mid}/replay/step/{i}/suggestion", self.suggestion),
            web.get("/m/{mid}", self.page_of),
        ]

    @answered
    async def steps(self, request: web.Request) -> web.Response:
        """GET /api/matches/{mid}/replay: the header, the table at the start and after every
        entry, each entry's stored ruling and whether the recomputation agrees with it, and
        the match's turning points (server/replay/turning.py). The header is named on each
        request (an account deleted since reads "deleted player"); the rest was encoded in
        the worker, and the body gzipped once for as long as the names stay the same."""
        kept, _replay = await self._replayed(request)
        head = copy.deepcopy(kept.head)
        await self.accounts.name_players([head])
        named = json.dumps(
            {k: v for k, v in head.items() if k not in SERVED}, separators=(",", ":")
        ).encode()
        body = named[:-1] + (b"," if len(named) > 2 else b"") + kept.data[1:]
        headers = {"Vary": "Accept-Encoding"}
        if "gzip" not in request.headers.get("Accept-Encoding", ""):
            return web.Response(body=body, content_type="application/json", headers=headers)
        if kept.gzipped is None or kept.gzipped[0] != named:
            # a long match's steps: ~20 times smaller gzipped; zlib lets go of the GIL
            packing = asyncio.ensure_future(asyncio.to_thread(gzip.compress, body, 6, mtime=0))
            kept.gzipped = (named, packing)
        gzipped = await asyncio.shield(kept.gzipped[1])
        headers["Content-Encoding"] = "gzip"
        return web.Response(body=gzipped, content_type="application/json", headers=headers)

    @answered
    async def stroke(self, request: web.Request) -> web.Response:
        """GET /api/matches/{mid}/replay/{n}: stroke n's motion, simulated again once (on
        the loop: a fraction of a millisecond) and kept encoded."""
        raw = request.match_info["n"]
        if not raw.isdigit() or int(raw) > STROKE_MAX:
            raise _refuse(web.HTTPNotFound, "no_stroke", "A stroke is a whole number from 1.")
        n = int(raw)
        kept, replay = await self._replayed(request)
        key = (kept.head["id"], kept.length, n)
        body = self.motions.get(key)
        if body is None:
            try:
                body = json.dumps(replay.stroke(kept.replayed, n)).encode()
            except NoSuchStroke as e:
                raise _refuse(web.HTTPNotFound, "no_stroke", str(e)) from None
            self.motions[key] = body
            while len(self.motions) > MOTIONS:
                self.motions.popitem(last=False)
        self.motions.move_to_end(key)
        return web.Response(body=body, content_type="application/json")

    @answered
    async def suggestion(self, request: web.Request) -> web.Response:
        """GET /api/matches/{mid}/replay/step/{i}/suggestion: what the computer's top level
        would have struck at step i (0: the start), and the referee's ruling on it."""
        raw = request.match_info["i"]
        if not raw.isdigit() or int(raw) > STROKE_MAX:
            raise _refuse(web.HTTPNotFound, "no_step", "A step is a whole number from 0.")
        index = int(raw)
        kept, _replay = await self._replayed(request)  # the reader's right checked
        replayed = kept.replayed
        key = (request.match_info["mid"], index)
        if key not in self.suggested:
            try:
                position, seat = at_step(replayed, index)
            except NoSuggestion as e:
                raise _refuse(web.HTTPNotFound, "no_suggestion", str(e)) from None
            if self.suggesting:
                self.workers.refused += 1  # /healthz `replays.refused`: a job refused
                raise _busy(Busy(round(SUGGEST_BUDGET)))
            refused = self.suggestions.admit(request)
            if refused is not None:
                return refused
            self.suggesting = True
            try:
                async with self.workers.slot():
                    # the step's index as the search's seed: the same answer for everyone
                    found = await self.workers.submit(
                        suggest, replayed.game, position, seat, index, SUGGEST_BUDGET
                    )
            except NoSuggestion as e:
                raise _refuse(web.HTTPNotFound, "no_suggestion", str(e)) from None
            except UnacceptedShot as e:  # the computer meant a stroke its referee refuses
                raise _refuse(web.HTTPUnprocessableEntity, "no_suggestion", str(e)) from None
            except Busy as e:
                raise _busy(e) from None
            finally:
                self.suggesting = False
            self.suggested[key] = found
            while len(self.suggested) > SUGGESTED:
                self.suggested.popitem(last=False)
        self.suggested.move_to_end(key)
        return web.json_response(self.suggested[key])

    async def page_of(self, request: web.Request) -> web.StreamResponse:
        """GET /m/{mid}: the viewer's page; 404 (the same page, saying so) for a match that
        does not exist or that this request may not read."""
        found = await self._header(request) is not None
        response = web.FileResponse(self.page, status=200 if found else 404)
        return response
