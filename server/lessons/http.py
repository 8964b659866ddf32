"""The lessons over HTTP (docs/protocol.md, "Lessons"): GET /api/lessons lists every game's
lessons with their positions; POST /api/lessons/{id} (the body's `game` naming a game other
than the default) plays a try's strokes and answers the last one's motion and ruling.
Stateless: a try is replayed from the lesson's position on each request (server/lessons), so
no room, seat or store is involved."""

from __future__ import annotations

import json
import math
from typing import Any

from aiohttp import web

from server.edge.body import BodyRefused, json_object
from server.edge.proxy import Network
from server.edge.reads import AddressBudget
from server.games.core.play import Shot
from server.lessons.catalog import UnknownLesson, game_of, listing
from server.lessons.pool import Busy, TryPool

SHOT_FIELDS = ("x", "y", "angle", "speed")
# a try is simulated and judged in a worker process (server/lessons/pool.py: up to 8 strokes,
# a few ms), within a global bound of tries in flight; and per client address, as a learner
# strikes (a stroke every few seconds), not as a flood would
BODY_MAX = 8 * 1024  # a try's body: 8 strokes of four numbers, with room to spare
TRY_RATE = 2.0  # a second, sustained
TRY_BURST = 10.0
TRY_WORKERS = 1  # processes (the host's other core serves the matches)
TRIES_AT_ONCE = 8  # in flight over every address together; past it, 503 busy
BUSY = json.dumps({"code": "busy", "message": "Many are learning just now: try again."}).encode()


def _refuse(code: str, message: str, rule: str = "") -> web.HTTPBadRequest:
    return web.HTTPBadRequest(
        text=web.json_response({"code": code, "message": message, "rule": rule}).text,
        content_type="application/json",
    )


def _shots(body: Any) -> list[Shot]:
    """The body's `shots`: a list of {x, y, angle, speed}, finite numbers; else refused."""
    shots = body.get("shots") if isinstance(body, dict) else None
    if not isinstance(shots, list) or not 1 <= len(shots) <= 8:
        raise _refuse("bad_field", "shots must be a list of 1 to 8 strokes.")
    out = []
    for s in shots:
        if not isinstance(s, dict):
            raise _refuse("bad_field", "Each stroke is {x, y, angle, speed}.")
        values = [s.get(k) for k in SHOT_FIELDS]
        if not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in values
        ):
            raise _refuse("bad_field", "x, y, angle and speed must be finite numbers.")
        out.append(Shot(*(float(v) for v in values)))  # type: ignore[arg-type]
    return out


def _game(body: Any) -> str | None:
    """The body's `game`: a name, or absent (the default game); else refused."""
    name = body.get("game") if isinstance(body, dict) else None
    if name is not None and not isinstance(name, str):
        raise _refuse("bad_field", "game must be a game's name.")
    return name


async def list_lessons(request: web.Request) -> web.Response:
    """Every game's lessons: game, id, paragraph, most strokes a try, the learner's seat,
    the discs of its position and what the game's client draws (Game.lessons.listing)."""
    return web.json_response({"lessons": list(listing())})


class Lessons:
    """The lessons' routes: the list, and a try played (limited per client address, and in
    all by the workers' slots)."""

    def __init__(self, trusted: tuple[Network, ...], pool: TryPool | None = None):
        # the lesson tries each client address may ask for (docs/reliability.md, "The limits")
        self.tries = AddressBudget(TRY_RATE, TRY_BURST, trusted, "tries")
        self.pool = pool or TryPool(TRY_WORKERS, TRIES_AT_ONCE)

    def routes(self) -> list[web.RouteDef]:
        """GET /api/lessons and POST /api/lessons/{lesson} (docs/client.md, "Learn to play")."""
        return [web.get("/api/lessons", list_lessons), web.post("/api/lessons/{lesson}", self.play)]

    async def play(self, request: web.Request) -> web.Response:
        """One try's strokes played; the last one's ruling, motion, discs, done and over."""
        refused = self.tries.admit(request)
        if refused is not None:
            return refused
        try:
            body = await json_object(request, BODY_MAX)
        except BodyRefused as e:  # not JSON 400, too large 413, too slow 408
            refusal = {"code": "bad_field", "message": e.message, "rule": ""}
            return web.json_response(refusal, status=e.status)
        lesson_id = request.match_info["lesson"]
        try:
            game = game_of(_game(body), lesson_id)
        except UnknownLesson:
            raise web.HTTPNotFound(
                text=web.json_response({"code": "no_lesson", "message": "No such lesson."}).text,
                content_type="application/json",
            ) from None
        shots = _shots(body)
        try:
            status, answer = await self.pool.play(game, lesson_id, shots)
        except Busy as e:  # answered, not raised: a flood's refusals cost the loop little
            return web.Response(
                body=BUSY, status=503, content_type="application/json",
                headers={"Retry-After": str(e.retry_after)},
            )  # fmt: skip
        return web.Response(body=answer, status=status, content_type="application/json")
