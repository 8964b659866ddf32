"""Every game's lessons, by the registry (server/games/registry.py): the list the learn page
shows, and a try handed to the game that owns the lesson. No game is named here."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from server.games.core.lessons import LessonRefused, UnknownLesson
from server.games.core.play import Shot
from server.games.registry import NAMES, UnknownGame, game
from server.games.seam import Lessons

__all__ = ["LessonRefused", "UnknownLesson", "game_of", "listing", "play"]


@cache
def listing() -> tuple[dict[str, Any], ...]:
    """Every game's lessons in the registry's order, each with its game's name (`game`):
    the positions are fixed, so the list is made once."""
    return tuple(
        {"game": name, **entry}
        for name in NAMES
        for entry in (_lessons(name).listing() if game(name).lessons else [])
    )


def game_of(name: str | None, lesson_id: str) -> str:
    """The game (by name; None: the registry's default) of a lesson asked for; UnknownLesson
    when that game has no lesson of the id (or no lessons, or is no game)."""
    try:
        chosen = game(name).name
    except UnknownGame:
        raise UnknownLesson(lesson_id) from None
    if not any(x["game"] == chosen and x["id"] == lesson_id for x in listing()):
        raise UnknownLesson(lesson_id)
    return chosen


def play(name: str, lesson_id: str, shots: Sequence[Shot]) -> dict[str, Any]:
    """A try of game `name`'s lesson: its answer as plain data. Raises UnknownLesson and
    LessonRefused (the game's own)."""
    return _lessons(name).play(lesson_id, shots)


def _lessons(name: str) -> Lessons:
    offered = game(name).lessons
    if offered is None:
        raise UnknownLesson(name)
    return offered
