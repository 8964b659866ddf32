"""Lesson tries played off the event loop (issue 37: 249 addresses at the allowed 2 tries a
second made honest rulings 5 s late, every try simulated and judged on the loop): in worker
processes of their own (server/workers.py), at most TRIES_AT_ONCE in flight over every
address; the answer is encoded as JSON in the worker, so the loop only hands bytes on."""

from __future__ import annotations

import json

from server.games.core.play import Shot
from server.lessons.catalog import LessonRefused
from server.lessons.catalog import play as play_lesson
from server.workers import Busy, Workers

__all__ = ["Busy", "TryPool", "play"]


def play(
    game: str, lesson_id: str, shots: list[tuple[float, float, float, float]]
) -> tuple[int, bytes]:
    """In a worker: the try played, as (HTTP status, JSON body): 200 with the result, or 400
    with the refusal (server/lessons/http.py answers the same shapes)."""
    try:
        result = play_lesson(game, lesson_id, [Shot(*s) for s in shots])
    except LessonRefused as e:
        return 400, json.dumps({"code": e.code, "message": str(e), "rule": e.rule}).encode()
    return 200, json.dumps(result).encode()


class TryPool(Workers):
    """The workers of lesson tries."""

    async def play(self, game: str, lesson_id: str, shots: list[Shot]) -> tuple[int, bytes]:
        """The try played in a worker: (status, JSON body); Busy when every slot is taken."""
        shots_ = [(s.x, s.y, s.angle, s.speed) for s in shots]
        return await self.run(play, game, lesson_id, shots_)
