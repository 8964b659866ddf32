"""Competitions over HTTP: the API of the organiser's and the players' pages, the CSV exports,
and the pages themselves (docs/competitions.md).

Every POST is JSON from this server's own pages (server/edge/origin.py), by a logged-in account
(the login cookie, server/accounts/http.py); what only the organiser may do answers anybody
else 403 `not_organiser` and changes nothing. Refusals are JSON `{error, message}`: the
service's codes (server/competitions/errors.py) and the pure table's (server/competitions/table/
errors.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from server.accounts.http import Accounts
from server.accounts.policy import username_key
from server.competitions.document import Who
from server.competitions.errors import CompetitionError
from server.competitions.service import TournamentService
from server.competitions.table import TournamentError
from server.competitions.views import crosstable_csv, standings_csv, summary, view
from server.edge.body import BodyRefused, json_object
from server.edge.origin import refuse_foreign

BODY_MAX = 16 * 1024
CREATE_PER_HOUR = 20  # tournaments an account may create in an hour
LISTED = 50
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def answered(handler: Handler) -> Handler:
    """A handler whose refusals become JSON answers with their code."""

    async def wrapped(request: web.Request) -> web.StreamResponse:
        try:
            return await handler(request)
        except CompetitionError as e:
            return web.json_response(e.body(), status=e.status)
        except TournamentError as e:
            return web.json_response({"error": e.code, "message": str(e)}, status=409)

    return wrapped


class TournamentRoutes:
    """The handlers, given the service and the accounts (who is asking)."""

    def __init__(self, service: TournamentService, accounts: Accounts):
        self.service = service
        self.accounts = accounts

    async def _who(self, request: web.Request) -> Who | None:
        me = await self.accounts.logged_in(request)
        return None if me is None else Who(me.uid, me.name)

    async def _acting(self, request: web.Request) -> tuple[Who, dict[str, Any]]:
        """The logged-in account and the JSON body of a POST from our own pages."""
        refuse_foreign(request, self.accounts.origins)
        try:
            body = await json_object(request, BODY_MAX)
        except BodyRefused as e:
            raise CompetitionError("bad_request", e.message, e.status) from None
        who = await self._who(request)
        if who is None:
            raise CompetitionError("not_logged_in", "Log in first.", 401)
        return who, body

    async def _answer(self, request: web.Request, doc: dict[str, Any]) -> web.Response:
        who = await self._who(request)
        return web.json_response(view(doc, None if who is None else who.uid))

    # -- reading ----------------------------------------------------------------------
    def routes(self) -> list[web.RouteDef]:
        """The competitions' API (docs/competitions.md); refusals answered as JSON."""
        return [
            web.get("/api/tournaments", answered(self.listing)),
            web.post("/api/tournaments", answered(self.create)),
            web.get("/api/tournaments/{tid}/{what}.csv", answered(self.export)),
            web.get("/api/tournaments/{tid}", answered(self.one)),
            web.post("/api/tournaments/{tid}/{action}", answered(self.act)),
        ]

    async def listing(self, request: web.Request) -> web.Response:
        """GET /api/tournaments: the newest tournaments."""
        docs = []
        for tid in await self.service.tours.ids(LISTED):
            got = await self.service.tours.read(tid)
            if got is not None:
                docs.append(summary(got[1]))
        return web.json_response({"tournaments": docs})

    async def one(self, request: web.Request) -> web.Response:
        """GET /api/tournaments/{tid}: the tournament as its page shows it to the asker."""
        return await self._answer(request, await self.service.read(request.match_info["tid"]))

    async def export(self, request: web.Request) -> web.Response:
        """GET /api/tournaments/{tid}/{what}.csv: standings or crosstable."""
        doc = await self.service.read(request.match_info["tid"])
        what = request.match_info["what"]
        if what not in ("standings", "crosstable"):
            raise web.HTTPNotFound()
        text = standings_csv(doc) if what == "standings" else crosstable_csv(doc)
        disposition = f'attachment; filename="{doc["id"]}-{what}.csv"'
        return web.Response(
            text=text, content_type="text/csv", headers={"Content-Disposition": disposition}
        )

    # -- acting -----------------------------------------------------------------------
    async def create(self, request: web.Request) -> web.Response:
        """POST /api/tournaments: a new tournament, the asker its organiser; at most
        CREATE_PER_HOUR per account (each is kept in Redis)."""
        who, body = await self._acting(request)
        key = "tour:" + who.uid
        (made,) = await self.accounts.store.attempt(3600.0, key)
        if made > CREATE_PER_HOUR:
            retry = round(await self.accounts.store.retry_after(key))
            raise CompetitionError(
                "throttled", f"At most {CREATE_PER_HOUR} an hour; try again in {retry} s.", 429
            )
        return await self._answer(request, await self.service.create(who, body))

    async def act(self, request: web.Request) -> web.Response:
        """POST /api/tournaments/{tid}/{action}."""
        who, body = await self._acting(request)
        tid, action = request.match_info["tid"], request.match_info["action"]
        s = self.service
        if action == "open":
            doc = await s.open_registration(tid, who)
        elif action == "start":
            doc = await s.start(tid, who)
        elif action == "next":
            doc = await s.next_round(tid, who)
        elif action in ("pause", "resume"):
            doc = await s.pause(tid, who, action == "pause")
        elif action == "join":
            doc = await s.join(tid, who)
        elif action == "leave":
            doc = await s.leave(tid, who)
        elif action == "entry":
            doc = await s.add_entry(tid, who, body.get("name"), body.get("members"))
        elif action == "enter":
            doc = await s.enter_own(tid, who, body.get("name"), body.get("members"))
        elif action == "confirm":
            doc = await s.confirm(tid, who, body.get("entrant"))
        elif action == "result":
            doc = await s.enter_result(tid, who, body)
        elif action in ("approve", "refuse", "remove"):
            doc = await s.registration(tid, who, action, body.get("entrant"), body.get("reason"))
        elif action == "withdraw":
            doc = await s.withdraw(tid, who, body.get("entrant"))
        else:
            raise CompetitionError("bad_request", f"No action {action!r}.", 404)
        return await self._answer(request, doc)


def uid_of(accounts: Accounts) -> Callable[[str], Awaitable[str | None]]:
    """username -> uid (None: no such account)."""

    async def lookup(name: str) -> str | None:
        if len(name) > 64:
            return None
        return await accounts.store.uid_of(username_key(name))

    return lookup
