"""A Crokinole match record made without a server: scripted players (tools/crokinole_play.py)
through the room's own match runner (server/games/crokinole/match.py), its log kept as the
server keeps it, so that the replay's tests need no server to have a record to replay."""

from __future__ import annotations

import random
from typing import Any

from server.games.core.play import MatchRefused, Settings, Shot
from server.games.crokinole.match import OFFSET, CrokinoleMatch
from tools.crokinole_play import choose_shot

STARTED = 1_795_600_000.25


def crokinole_record(
    seed: int = 1,
    shots: int | None = None,
    players: int = 2,
    options: dict[str, Any] | None = None,
    resign: bool = False,
) -> dict[str, Any]:
    """A match of scripted shots: to its end, or `shots` shots (then the seat to shoot
    resigns when `resign`); its record as GET /api/matches/{id} serves one."""
    rng = random.Random(seed)
    opts = dict(options or {})
    if players > 2:
        opts.setdefault("players", players)
    match, step = CrokinoleMatch.new(
        "cscripted1", players, rng.randrange(2), STARTED, Settings(), opts
    )
    log: list[dict[str, Any]] = list(step.log)
    now = STARTED
    while not match.game.over and (shots is None or match.strokes < shots):
        seat = match.game.turn[0]
        x, y, angle, speed = choose_shot(match.game, seat, rng)
        now += 1.0
        try:
            step = match.strike(seat, Shot(x + OFFSET, y + OFFSET, angle, speed), now)
        except MatchRefused:  # the scripted player picked a spot taken: it tries again
            continue
        log.extend(step.log)
        match.finish_motion(now)
    if resign and not match.game.over:
        log.extend(match.resign(match.game.turn[0], now + 1.0).log)
    return {
        "id": "cscripted1",
        "game": "crokinole",
        "mode": "singles" if players == 2 else "doubles",
        "rated": False,
        "started": STARTED,
        "ended": match.ended,
        "players": [{"seat": s, "team": s % 2, "name": f"P{s}"} for s in range(players)],
        "result": match.result() if match.game.over else None,
        "log": log,
    }
