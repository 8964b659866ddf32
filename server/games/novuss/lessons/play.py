"""A try at a lesson: its strokes played from the lesson's position through the real
physics and judged by the real referee, the last one with its motion for the client."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.games.core.lessons import LessonRefused
from server.games.core.paths import disc_view
from server.games.novuss.lessons.catalog import SEAT, Lesson
from server.games.novuss.rules import (
    MatchState,
    Ruling,
    StrokeRefused,
    check_stroke,
    judge,
    sim_discs,
)
from server.games.novuss.sim import Shot, SimInputError, StrokeResult, simulate


@dataclass(frozen=True, slots=True)
class TryResult:
    """The last stroke of a try: its ruling, its motion (exact paths, as a live `stroke`
    carries them: server/games/core/paths.py), the discs at rest after
    it, whether the task is done and whether the try is over (done, the strike right
    passed, or no strokes left)."""

    ruling: Ruling
    motion: dict[str, Any]
    discs: list[dict[str, Any]]
    done: bool
    over: bool

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the client (docs/protocol.md, "Lessons")."""
        return {
            "ruling": self.ruling.to_dict(),
            "lines": [ln.to_dict() for ln in self.ruling.lines],
            "motion": self.motion,
            "discs": self.discs,
            "done": self.done,
            "over": self.over,
        }


def rest_discs(state: MatchState) -> list[dict[str, Any]]:
    """The pucks on the table as the protocol shows them."""
    return [disc_view(p.id, p.owner, p.x, p.y) for p in state.on_table()]


def play_try(lesson: Lesson, shots: Sequence[Shot]) -> TryResult:
    """Play `shots` from the lesson's position; the last one's motion and ruling. Refused
    (LessonRefused) when there are none, more than the lesson allows, a stroke comes after
    the try is over, or the referee refuses one (004 § 20 (1), (2), (5))."""
    if not shots:
        raise LessonRefused("bad_field", "A try needs at least one stroke.")
    if len(shots) > lesson.strokes:
        raise LessonRefused("bad_field", f"This lesson takes at most {lesson.strokes} strokes.")
    state = lesson.state
    rulings: list[Ruling] = []
    result: StrokeResult | None = None
    for k, shot in enumerate(shots):
        if k and (state.turn_seat != SEAT or lesson.goal(rulings)):
            raise LessonRefused("not_your_turn", "This try is over: start it again.")
        try:
            check_stroke(state, SEAT, shot)
            result = simulate(state.table, sim_discs(state), shot)
        except StrokeRefused as e:
            raise LessonRefused(e.code, e.message, e.rule) from None
        except SimInputError as e:
            raise LessonRefused("bad_stroke", str(e)) from None
        ruling = judge(state, SEAT, shot, result)
        rulings.append(ruling)
        state = ruling.state
    assert result is not None
    done = lesson.goal(rulings)
    over = done or state.turn_seat != SEAT or len(shots) >= lesson.strokes or state.finished
    motion = result.trajectory.track(SEAT)
    return TryResult(rulings[-1], motion, rest_discs(state), done, over)
