"""The players over HTTP: profiles, their matches (paged, newest first), and the
leaderboards (docs/accounts.md, "History"). Read-only: nothing here changes state.

A deleted account's name is never served again: wherever a match names it, it reads
"deleted player". A private match is not listed in anybody else's profile (its record is
served only with its room's invite or to its players, server/lobby/room.py `record_for`; the
archive indexes it apart); its players, logged in, see it on their own profile
(`?private=1`); it counts in the figures and the ratings all the same.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from server.accounts.policy import username_key
from server.accounts.store import AccountStore
from server.games.registry import of_record
from server.history.store import HistoryStore
from server.history.summary import counter_prefix, outcome
from server.ratings.model import MODES, Skill

PAGE = 20  # matches or leaderboard rows per page
PAGES_MAX = 10_000  # the furthest page served (a bound on the work one request can ask for)
HISTORY_POINTS = 200  # rating points per mode in a profile's chart


def _page(request: web.Request) -> int:
    raw = request.query.get("page", "0")
    if not raw.isdigit() or int(raw) > PAGES_MAX:
        raise _bad("bad_page", f"page is a whole number from 0 to {PAGES_MAX}.", 400)
    return int(raw)


def _cursor(request: web.Request) -> tuple[float, str] | None:
    """`?before=<ended>_<id>`, the `next` of the page before (None: the first page)."""
    raw = request.query.get("before")
    if raw is None:
        return None
    ended, _, mid = raw.partition("_")
    try:
        at = float(ended)
    except ValueError:
        at = float("nan")
    if not (0 <= at < float("inf")) or not 0 < len(mid) <= 64 or not mid.isascii():
        raise _bad("bad_page", "before is the next of a page: <ended>_<match id>.", 400)
    return at, mid


def _bad(code: str, message: str, status: int) -> web.HTTPException:
    cls = web.HTTPNotFound if status == 404 else web.HTTPBadRequest
    return cls(text=f'{{"error": "{code}", "message": "{message}"}}',
               content_type="application/json")  # fmt: skip


class Players:
    """The read-only player pages' data."""

    def __init__(
        self,
        accounts: AccountStore,
        history: HistoryStore,
        viewer: Callable[[web.Request], Awaitable[str | None]] | None = None,
    ):
        self.accounts = accounts
        self.history = history
        self.viewer = viewer  # the request's logged-in account's uid (the login cookie)

    async def _uid(self, request: web.Request) -> tuple[str, str]:
        name = request.match_info["name"]
        uid = None if len(name) > 64 else await self.accounts.uid_of(username_key(name))
        account = None if uid is None else await self.accounts.account(uid)
        if uid is None or account is None or account.get("deleted"):
            raise _bad("no_player", "No such player.", 404)
        return uid, account["name"]

    def routes(self) -> list[web.RouteDef]:
        """Profiles, a player's matches, the leaderboards (docs/accounts.md)."""
        return [
            web.get("/api/players/{name}", self.profile),
            web.get("/api/players/{name}/matches", self.matches),
            web.get("/api/leaderboard/{mode}", self.leaderboard),
        ]

    async def profile(self, request: web.Request) -> web.Response:
        """GET /api/players/{name}: ratings, rating history and figures by mode."""
        uid, name = await self._uid(request)
        account = await self.accounts.account(uid) or {}
        skills = {m: await self.history.skills([uid], m) for m in MODES}
        stats = await self.history.stats(uid)
        ratings = {m: Skill(*skills[m][uid]).view() if uid in skills[m] else None for m in MODES}
        figures = {}
        for mode in {k.split(":")[0] for k in stats}:
            c = {k.split(":")[1]: v for k, v in stats.items() if k.startswith(mode + ":")}
            strokes, matches = c.get("strokes", 0), c.get("matches", 0)
            figures[mode] = {
                **{k: c.get(k, 0) for k in ("matches", "win", "loss", "draw")},
                "strokes": strokes,
                "pucks_per_stroke": round(c.get("pocketed", 0) / strokes, 3) if strokes else None,
                "penalties_per_match": (
                    round(c.get("penalties", 0) / matches, 3) if matches else None
                ),
            }
        history = {
            m: [{"at": at, "rating": r, "match": mid}
                for at, r, mid in await self.history.rating_history(uid, m, HISTORY_POINTS)]
            for m in MODES
        }  # fmt: skip
        return web.json_response({
            "username": name,
            "joined": float(account.get("created", 0)),
            "ratings": ratings,
            "figures": figures,
            "history": history,
        })  # fmt: skip

    async def matches(self, request: web.Request) -> web.Response:
        """GET /api/players/{name}/matches: newest first, with the opponents and the result as
        this player's, a page at a time by key (`?before=` the page before's `next`: the same
        cost on any page) or by number (`?page=N`, counted); `private=1`: his private matches,
        to himself only (403 `not_yours` to anybody else)."""
        uid, _name = await self._uid(request)
        before = _cursor(request)
        page = _page(request)
        private = request.query.get("private") == "1"
        if private and (self.viewer is None or await self.viewer(request) != uid):
            raise web.HTTPForbidden(
                text='{"error": "not_yours", "message": "Only you see your private matches."}',
                content_type="application/json",
            )
        answer: dict[str, Any] = {"per_page": PAGE}
        if before is None:
            total, mids = await self.history.matches_of(uid, page * PAGE, PAGE, private)
            answer |= {"total": total, "page": page}
        else:
            mids = [mid for _, mid in await self.history.page_of(uid, PAGE, before, private)]
        mine = {uid} | await self.history.sessions_of(uid)
        records = [r for r in await self.history.headers(mids) if r is not None]
        await self.accounts.name_players(records)
        answer["matches"] = [self._row(r, mine) for r in records]
        last = records[-1] if len(mids) == PAGE and records else None
        answer["next"] = None if last is None else f"{float(last['ended'])!r}_{last['id']}"
        return web.json_response(answer)

    @staticmethod
    def _row(r: dict[str, Any], mine: set[str]) -> dict[str, Any]:
        players = r.get("players", [])
        me = next((p for p in players if {p.get("account"), p.get("sid")} & mine), None)
        team = None if me is None else me["team"]
        return {
            "id": r["id"],
            "game": of_record(r).name,
            "mode": r["mode"],
            "kind": counter_prefix(r),
            "started": r.get("started"),
            "ended": r.get("ended"),
            "rated": bool(r.get("rated")),
            "players": [
                {"name": p["name"], "team": p["team"], "registered": bool(p.get("account"))}
                for p in players
            ],
            "team": team,
            "result": None if team is None else outcome(r.get("result"), team),
            "score": r.get("score"),
            "reason": (r.get("result") or {}).get("reason"),
            "record": f"/?match={r['id']}",  # the record page
            # the replay viewer (server/replay/http.py): a game whose strokes it can recompute
            "replay": f"/m/{r['id']}" if of_record(r).replay is not None else None,
        }

    async def leaderboard(self, request: web.Request) -> web.Response:
        """GET /api/leaderboard/{mode}?page=N: rated players, best (mu - 3 sigma) first."""
        mode = request.match_info["mode"]
        if mode not in MODES:
            raise _bad("bad_mode", "The leaderboards are " + ", ".join(MODES) + ".", 404)
        page = _page(request)
        total, uids = await self.history.leaderboard(mode, page * PAGE, PAGE)
        names = await self.accounts.names(uids)
        skills = await self.history.skills(uids, mode)
        rows = [
            {"rank": page * PAGE + i + 1, "username": names[u], **Skill(*skills[u]).view()}
            for i, u in enumerate(uids)
            if names.get(u) and u in skills
        ]
        return web.json_response({"mode": mode, "total": total, "page": page,
                                  "per_page": PAGE, "players": rows})  # fmt: skip
