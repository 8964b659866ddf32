"""The aiohttp application: the web client, the websocket, health and match-record endpoints."""

from __future__ import annotations

import asyncio
import logging
import mimetypes
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from server.accounts.players import name_players
from server.competitions.http import TournamentRoutes, plug
from server.competitions.http import add_routes as add_tournament_routes
from server.config import Config
from server.games.core.play import Settings
from server.games.novuss.notation import NotationError, to_notation
from server.lessons.http import add_routes as add_lesson_routes
from server.lobby.room import record_for
from server.net.door import RESERVED_FDS, Door, open_file_limit
from server.net.hub import Hub
from server.net.proxy import parse_networks
from server.net.reads import read_limits
from server.replay.http import Replays
from server.store.embedded import start_embedded, stop_embedded
from server.store.redis_store import Store

log = logging.getLogger("novuss.app")

# Browsers refuse ES modules served with a non-JavaScript type; .mjs is unknown to some systems.
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")

CLIENT_MAX_SIZE = 64 * 1024  # the largest request body read (aiohttp's default: 1 MiB)
NAME_MAX = 255  # the longest file name a file system allows: longer segments are refused

HUB = web.AppKey("hub", Hub)
STORE = web.AppKey("store", Store)
CONFIG = web.AppKey("config", Config)
DOOR = web.AppKey("door", Door)
REPLAYS = web.AppKey("replays", Replays)
TOURS = web.AppKey("tournaments", TournamentRoutes)


# text the client loads: sent compressed (gzip or deflate, as the browser accepts), a third of
# the bytes of a first load (docs/client.md, "First load"); images and the rest as they are
COMPRESSED = frozenset({".html", ".js", ".mjs", ".css", ".json", ".svg", ".map", ".txt"})


def _file(path: Path) -> web.FileResponse:
    """A file of the client, its text compressed."""
    response = web.FileResponse(path)
    if path.suffix in COMPRESSED:
        response.enable_compression()
    return response


def _static(web_dir: Path) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """GET of any file under web/ (node_modules included); anything else gets index.html, so
    invite links (/r/<invite>) and deep links open the client."""
    root = web_dir.resolve()

    async def handler(request: web.Request) -> web.StreamResponse:
        rel = request.match_info.get("path", "")
        if "\x00" in rel or any(len(part) > NAME_MAX for part in rel.split("/")):
            raise web.HTTPBadRequest(text="Not a path this server has.")
        try:
            target = (root / rel).resolve()
            inside = target.is_relative_to(root)
            if inside and target.is_file():
                return _file(target)
            if inside and target.is_dir() and (target / "index.html").is_file():
                return _file(target / "index.html")
        except (OSError, ValueError):  # a name the file system refuses: not ours to serve
            raise web.HTTPBadRequest(text="Not a path this server has.") from None
        if Path(rel).suffix and not rel.startswith("r/"):
            raise web.HTTPNotFound()
        index = root / "index.html"
        if not index.is_file():
            raise web.HTTPNotFound(text="The web client (web/index.html) is not there.")
        return _file(index)

    return handler


async def healthz(request: web.Request) -> web.Response:
    """200 with the server's state; 503 when Redis does not answer."""
    hub = request.app[HUB]
    state = {"ok": True, **hub.health(), "tcp": request.app[DOOR].view()}
    try:
        await request.app[STORE].ping()
        state["redis"] = "ok"
    except Exception as e:  # any Redis failure is reported, not raised
        state.update(ok=False, redis=f"error: {e}")
    return web.json_response(state, status=200 if state["ok"] else 503)


async def matches(request: web.Request) -> web.Response:
    """The most recent matches (live and finished), newest first."""
    store = request.app[STORE]
    records = await store.recent_matches(request.app[CONFIG].recent_matches)
    await name_players(request.app[HUB].players.accounts, records)
    return web.json_response({"matches": records})


async def _served_record(request: web.Request) -> dict[str, Any]:
    """The match record of the path's `mid`, with its players named; a private room's match
    only with the room's invite (`?invite=`): 404 otherwise, as for no match at all."""
    record = await request.app[STORE].match_record(request.match_info["mid"])
    if record is not None:
        record = record_for(record, request.query.get("invite"))
    if record is None:
        raise web.HTTPNotFound(text="No such match.")
    await name_players(request.app[HUB].players.accounts, [record])
    return record


async def match_record(request: web.Request) -> web.Response:
    """One match: players, settings, result and its whole log (every stroke and ruling)."""
    return web.json_response(await _served_record(request))


async def match_notation(request: web.Request) -> web.Response:
    """One match as its notation (docs/notation.md), to whoever may read its record; 422
    for a record the notation cannot carry (a Crokinole match's)."""
    record = await _served_record(request)
    try:
        text = to_notation(record)
    except NotationError as e:
        raise web.HTTPUnprocessableEntity(text=str(e)) from None
    disposition = f'inline; filename="{request.match_info["mid"]}.txt"'
    return web.Response(text=text, headers={"Content-Disposition": disposition})


async def websocket(request: web.Request) -> web.StreamResponse:
    """The game's websocket (docs/protocol.md)."""
    return await request.app[HUB].serve(request)


# pages of their own (the table's client, index.html, serves every other path)
PAGES = {
    "/account": "account.html",
    "/u/{name}": "profile.html",
    "/leaderboard": "leaderboard.html",
    "/learn": "learn.html",
    "/tournaments": "tournaments.html",
    "/tournaments/{tid}": "tournament.html",
    "/tournaments/{tid}/print": "tournament-print.html",
}


def _page(path: Path) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def handler(request: web.Request) -> web.StreamResponse:
        return _file(path)

    return handler


def _account_routes(app: web.Application) -> None:
    """The accounts' and players' routes, answered by the hub's handlers (made at start-up,
    when Redis is known; the routes must exist before)."""

    def via(part: str, name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handler(request: web.Request) -> web.StreamResponse:
            answer: web.StreamResponse = await getattr(getattr(request.app[HUB], part), name)(
                request
            )
            return answer

        return handler

    for path, name in (
        ("/api/account/register", "register"),
        ("/api/account/login", "login"),
        ("/api/account/logout", "logout"),
        ("/api/account/logout-all", "logout_all"),
        ("/api/account/password", "change_password"),
        ("/api/account/delete", "delete"),
    ):
        app.router.add_post(path, via("accounts", name))
    app.router.add_get("/api/account", via("accounts", "me"))
    app.router.add_get("/api/players/{name}", via("players", "profile"))
    app.router.add_get("/api/players/{name}/matches", via("players", "matches"))
    app.router.add_get("/api/leaderboard/{mode}", via("players", "leaderboard"))


def _replay_routes(app: web.Application) -> None:
    """The replay viewer's page and data (server/replay/http.py, made at start-up)."""

    def via(name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handler(request: web.Request) -> web.StreamResponse:
            answer: web.StreamResponse = await getattr(request.app[REPLAYS], name)(request)
            return answer

        return handler

    app.router.add_get("/api/matches/{mid}/replay", via("steps"))
    app.router.add_get("/api/matches/{mid}/replay/{n}", via("stroke"))
    app.router.add_get("/m/{mid}", via("page_of"))


def make_app(config: Config) -> web.Application:
    """The application; Redis (embedded unless config.redis_url) is reached at start-up."""
    trusted = parse_networks(config.trusted_proxy)
    app = web.Application(
        client_max_size=CLIENT_MAX_SIZE,
        middlewares=[read_limits(config.read_rate, config.read_burst, trusted)],
    )
    app[CONFIG] = config
    total = config.max_connections or max(64, open_file_limit() - RESERVED_FDS)
    app[DOOR] = Door(total, config.tcp_per_address, trusted)

    async def lifecycle(app: web.Application) -> AsyncIterator[None]:
        url = config.redis_url or start_embedded(
            config.data_dir, config.appendfsync, config.redis_maxmemory
        )
        store = Store(url, config.event_buffer, config.redis_password)
        await store.ping()
        settings = Settings(
            frame_rate=config.frame_rate, speed_factor=config.speed_factor, aim_rate=config.aim_rate
        )
        hub = Hub(config, store, settings)
        app[STORE], app[HUB] = store, hub
        app[REPLAYS] = Replays(store, hub.players.accounts, config.web_dir / "replay.html")
        app[TOURS] = plug(hub)
        await hub.start()
        competitions = asyncio.create_task(app[TOURS].service.run())
        log.info("redis at %s", url)
        yield
        competitions.cancel()
        await asyncio.wait([competitions])
        await hub.stop()
        if not config.redis_url:
            await stop_embedded(store.redis)
        await store.close()

    async def close_sockets(app: web.Application) -> None:
        # before aiohttp waits for handlers to finish: open websockets would hold it up
        await app[HUB].close_connections()

    app.cleanup_ctx.append(lifecycle)
    app.on_shutdown.append(close_sockets)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/api/matches", matches)
    # the notation's route first: {mid} alone would take "<id>.txt" as an id
    app.router.add_get("/api/matches/{mid:[^{}/.]+}.txt", match_notation)
    app.router.add_get("/api/matches/{mid}", match_record)
    _replay_routes(app)
    _account_routes(app)
    add_lesson_routes(app, trusted)
    add_tournament_routes(app, lambda request: request.app[TOURS])
    for path, page in PAGES.items():
        app.router.add_get(path, _page(config.web_dir / page))
    app.router.add_get("/{path:.*}", _static(config.web_dir))
    return app
