"""The aiohttp application: the web client's files and pages, the websocket, /healthz, and
the HTTP routes of the parts the composition root (server/hub.py) built."""

from __future__ import annotations

import asyncio
import logging
import mimetypes
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from aiohttp import web

from server.config import Config
from server.edge.client_build import IMMUTABLE, a_client_file, is_hashed, served_root
from server.edge.headers import security_headers
from server.edge.health import Health
from server.edge.proxy import parse_networks
from server.edge.reads import Handler, read_limits
from server.games.core.play import Settings
from server.hub import Hub
from server.net.door import RESERVED_FDS, Door, open_file_limit
from server.store.archive import ArchiveReader
from server.store.embedded import start_embedded, stop_embedded
from server.store.postgres import AWAY, Database, start_embedded_postgres
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
HEALTH = web.AppKey("health", Health)


# text the client loads: sent compressed (gzip or deflate, as the browser accepts), a third of
# the bytes of a first load (docs/client.md, "First load"); images and the rest as they are
COMPRESSED = frozenset({".html", ".js", ".mjs", ".css", ".json", ".svg", ".map", ".txt"})


# A conditional or ranged request may be answered 304 or 206, and aiohttp's compression of a
# FileResponse then still ends its deflate stream after the bodiless 304: eight stray bytes at
# the head of the connection's next response, which the browser rejects
# (ERR_INVALID_HTTP_RESPONSE: a reload lost some of the client's modules). Such a request is
# answered uncompressed; a first load, which asks unconditionally, is compressed.
UNCOMPRESSED_ASKS = ("If-Modified-Since", "If-None-Match", "If-Range", "Range")


def _file(path: Path, request: web.Request, cache: str | None = None) -> web.FileResponse:
    """A file of the client, its text compressed (when the answer surely has a body)."""
    response = web.FileResponse(path, headers=None if cache is None else {"Cache-Control": cache})
    if path.suffix in COMPRESSED and not any(h in request.headers for h in UNCOMPRESSED_ASKS):
        response.enable_compression()
    return response


def _static(*dirs: Path) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """GET of any file under the first of `dirs` that has it (the build, then web/ with
    node_modules); anything else gets index.html, so invite links (/r/<invite>) and deep links
    open the client. The build's hashed bundles are cached for good."""
    roots = [d.resolve() for d in dict.fromkeys(dirs)]
    sources = roots[-1]  # web/ itself: its tooling is not the client's (a_client_file)

    async def handler(request: web.Request) -> web.StreamResponse:
        rel = request.match_info.get("path", "")
        if "\x00" in rel or any(len(part) > NAME_MAX for part in rel.split("/")):
            raise web.HTTPBadRequest(text="Not a path this server has.")
        for root in roots:
            try:
                target = (root / rel).resolve()
                inside = target.is_relative_to(root)
                if inside and root == sources:  # judged as resolved: "js/../build.mjs" too
                    inside = a_client_file(target.relative_to(root).as_posix())
                if inside and target.is_file():
                    return _file(target, request, IMMUTABLE if is_hashed(root, target) else None)
                if inside and target.is_dir() and (target / "index.html").is_file():
                    return _file(target / "index.html", request)
            except (OSError, ValueError):  # a name the file system refuses: not ours to serve
                raise web.HTTPBadRequest(text="Not a path this server has.") from None
        if Path(rel).suffix and not rel.startswith("r/"):
            raise web.HTTPNotFound()
        index = roots[0] / "index.html"
        if not index.is_file():
            raise web.HTTPNotFound(text="The web client (web/index.html) is not there.")
        return _file(index, request)

    return handler


AWAY_RETRY_S = 5  # what a page is told to wait while PostgreSQL is away


@web.middleware
async def database_away(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A request that needs PostgreSQL while it is away: 503 `busy` with Retry-After (live
    play goes on over the websocket; finished matches wait in Redis)."""
    try:
        return await handler(request)
    except AWAY as e:
        log.warning("%s %s: PostgreSQL is away (%s)", request.method, request.path, e)
        body = {"error": "busy", "message": "The records are out of reach just now; try again"
                " in a moment.", "params": {"retry_after": AWAY_RETRY_S}}  # fmt: skip
        return web.json_response(body, status=503, headers={"Retry-After": str(AWAY_RETRY_S)})


async def healthz(request: web.Request) -> web.Response:
    """200 with the server's state; 503 when Redis does not answer. The figures go to the
    operator's addresses only (server/edge/health.py)."""
    health = request.app[HEALTH]
    if not health.operator(request.remote or "", request.headers):
        ok = await health.alive()
        return web.json_response({"ok": ok}, status=200 if ok else 503)
    hub = request.app[HUB]
    try:
        since = float(request.query["strokes_since"]) if "strokes_since" in request.query else None
    except ValueError:
        raise web.HTTPBadRequest(text="strokes_since: a time in seconds since the epoch") from None
    state = {
        "ok": True, **hub.health(since), "tcp": request.app[DOOR].view(),
        "ws": {**hub.gateway.holders.view(), "paced": hub.gateway.pace.waited},
    }  # fmt: skip
    try:
        await request.app[STORE].ping()
        state["redis"] = "ok"
    except Exception as e:  # any Redis failure is reported, not raised
        state.update(ok=False, redis=f"error: {e}")
    return web.json_response(state, status=200 if state["ok"] else 503)


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
        return _file(path, request)

    return handler


def make_app(config: Config) -> web.Application:
    """The application: Redis (embedded unless config.redis_url) is started and every part
    built here (server/hub.py), before the routes are fixed; the hub's loops start with the
    application and stop with it."""
    trusted = parse_networks(config.trusted_proxy)
    app = web.Application(
        client_max_size=CLIENT_MAX_SIZE,
        middlewares=[read_limits(config.read_rate, config.read_burst, trusted), database_away],
    )
    app.on_response_prepare.append(security_headers(config.web_dir))
    app[CONFIG] = config
    total = config.max_connections or max(64, open_file_limit() - RESERVED_FDS)
    reserve = config.tcp_reserve or None
    app[DOOR] = Door(total, config.tcp_per_address, trusted, reserve, config.waiting_per_address)
    url = config.redis_url or start_embedded(
        config.data_dir, config.appendfsync, config.redis_maxmemory
    )
    # PostgreSQL, the system of record: embedded unless config.database_url (started here, in
    # the main thread: it ends when this process does, server/store/postgres.py)
    embedded = None if config.database_url else start_embedded_postgres(config.data_dir)
    db = Database(embedded.url if embedded is not None else config.database_url)
    store = Store(url, config.event_buffer, config.redis_password)
    store.archive = ArchiveReader(db)
    settings = Settings(speed_factor=config.speed_factor, aim_rate=config.aim_rate)
    served = served_root(config.web_dir)  # the build, unless it is stale or missing
    hub = Hub(config, store, db, settings, served)
    app[STORE], app[HUB] = store, hub
    app[HEALTH] = Health(parse_networks(config.health_networks), trusted, store.ping)
    hub.gateway.holders.attach(app[DOOR])  # the door's reserve kept for seated players too

    async def lifecycle(app: web.Application) -> AsyncIterator[None]:
        try:
            await db.open()  # PostgresError: said in one line by server/__main__.py
            await store.ping()
            await hub.start()
            log.info("redis at %s; postgresql at %s", url, "embedded" if embedded else "given")
            yield
            await hub.stop()
            if not config.redis_url:
                await stop_embedded(store.redis)
            await store.close()
        finally:
            await db.close()
            if embedded is not None:
                await asyncio.to_thread(embedded.stop)

    async def close_sockets(app: web.Application) -> None:
        # before aiohttp waits for handlers to finish: open websockets would hold it up
        await app[HUB].close_connections()

    app.cleanup_ctx.append(lifecycle)
    app.on_shutdown.append(close_sockets)
    app.add_routes([web.get("/ws", websocket), web.get("/healthz", healthz), *hub.http])
    app.add_routes(web.get(path, _page(served / page)) for path, page in PAGES.items())
    app.add_routes([web.get("/{path:.*}", _static(served, config.web_dir))])
    return app
