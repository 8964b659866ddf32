"""Novuss's lessons in "Learn to play": short lessons on a real table, each a set-up position
with one task, the strokes judged by the real physics and the real referee (docs/client.md,
"Learn to play"); the lessons capability (server/lessons) serves them through the Game seam
(`Lessons`, server/games/seam.py).

Pure: no I/O. A try is the lesson's position and the strokes played so far, replayed from the
start on every stroke (the physics is deterministic), so nothing is kept between two tries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.games.core.lessons import LessonRefused, UnknownLesson
from server.games.core.play import Shot
from server.games.novuss.lessons.catalog import LESSONS, SEAT, Lesson, lesson
from server.games.novuss.lessons.play import TryResult, play_try, rest_discs

__all__ = [
    "LESSONS", "NOVUSS_LESSONS", "Lesson", "LessonRefused", "NovussLessons", "TryResult",
    "UnknownLesson", "lesson", "play_try",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class NovussLessons:
    """The lessons as the Game seam offers them (server/games/seam.py `Lessons`)."""

    def listing(self) -> list[dict[str, Any]]:
        # side and striker: the client's striker starts on the learner's rail, at `striker`
        # when the lesson puts it somewhere (lesson 1: on a spot it must be moved from)
        return [
            {
                "id": x.id,
                "cite": x.cite,
                "strokes": x.strokes,
                "seat": SEAT,
                "side": x.state.side_of(SEAT),
                "discs": rest_discs(x.state),
                "striker": x.striker,
            }
            for x in LESSONS
        ]

    def play(self, lesson_id: str, shots: Sequence[Shot]) -> dict[str, Any]:
        return play_try(lesson(lesson_id), shots).to_dict()


NOVUSS_LESSONS = NovussLessons()
