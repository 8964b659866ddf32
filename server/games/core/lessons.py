"""What a game's lessons share with the lessons capability (server/lessons, "Learn to
play"): the refusals of a try. Each game's lessons (Game.lessons, server/games/seam.py) raise
them; the capability answers them over HTTP with their code and paragraph."""

from __future__ import annotations


class LessonRefused(ValueError):
    """A try the lesson does not take: too many strokes, a stroke after the try is over, or a
    stroke the game's referee refuses (code and paragraph as the match's `bad_stroke`)."""

    def __init__(self, code: str, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule


class UnknownLesson(KeyError):
    """No lesson of that id in the game."""
