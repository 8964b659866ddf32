"""Learn to play: short lessons on a real table, each a set-up position with one task, the
strokes judged by the real physics and the real referee (docs/client.md, "Learn to play").

Pure: no I/O. The network layer serves them (server/lessons/http.py): a try is the lesson's
position and the strokes played so far, replayed from the start on every stroke (the physics
is deterministic), so the server keeps nothing between two requests.
"""

from server.lessons.catalog import LESSONS, Lesson, lesson
from server.lessons.play import LessonRefused, TryResult, play_try

__all__ = ["LESSONS", "Lesson", "LessonRefused", "TryResult", "lesson", "play_try"]
