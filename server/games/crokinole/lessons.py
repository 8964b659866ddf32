"""Crokinole's lessons in "Learn to play": a set-up board with one task, the shot judged by
the real physics and the real referee of seed 002; the lessons capability (server/lessons)
serves them through the Game seam (`Lessons`, server/games/seam.py). Each try is one shot:
after it the turn passes to the other player (002 2 a).

Pure: no I/O. Coordinates on the wire are the protocol's (from the south-west corner of the
square around the board, server/games/crokinole/match.py); the rules' are from the centre.
A worked solution (`solution`, the protocol's coordinates) shows each task can be done;
tests/lessons holds every lesson to it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from server.games.core.lessons import LessonRefused, UnknownLesson
from server.games.core.paths import disc_view
from server.games.core.play import Shot
from server.games.crokinole.board import TOURNAMENT
from server.games.crokinole.judge import Ruling, aim, judge_shot
from server.games.crokinole.match import OFFSET, board_view, ruling_dict, track
from server.games.crokinole.rules import Disc, Options, ShotRefused, State, new_game

SEAT = 0  # the learner: seat 0, shooting from the south quadrant (002 1: singles sit opposite)
OPPONENT = 1

Goal = Callable[[Ruling], bool]


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its board, the task its ruling shows done, and a shot that does it."""

    id: str
    cite: str
    state: State
    goal: Goal
    solution: tuple[Shot, ...]
    strokes: int = 1


def _board(theirs: Sequence[tuple[float, float]] = ()) -> State:
    """Seat 0 to shoot the round's first disc of its own; the opponent's discs (the rules'
    coordinates) already shot and lying where given, so the opponent opened the round."""
    start = new_game(Options(), first=OPPONENT if theirs else SEAT)
    discs = tuple(Disc(OPPONENT * 10 + k, x, y) for k, (x, y) in enumerate(theirs))
    left = (start.shots_left[SEAT], start.shots_left[OPPONENT] - len(discs))
    return replace(start, turn=(SEAT,), discs=discs, shots_left=left)


def _valid(r: Ruling) -> bool:
    # 002 5, 3 b: a disc set on the shooting line (else the shot is refused) and, with no
    # opposing disc on the board, coming to rest in the 15 or the 20-hole: a valid shot
    return r.valid


def _twenty(r: Ruling) -> bool:
    # 002 2 b, 4 b: the shot disc itself came to rest in the 20-hole and is set aside
    return r.valid and r.disc in r.twenties


def _hit(r: Ruling) -> bool:
    # 002 3 a: with an opposing disc on the board, a valid shot is one whose disc (or a disc
    # of its colour it strikes) meets an opposing disc; a miss goes to the ditch (3 c)
    return r.valid and r.paragraph == "3 a"


def _shot(x: float, y: float, tx: float, ty: float, slide: float) -> Shot:
    """From (x, y) through (tx, ty) to rest `slide` mm beyond it (the rules' coordinates),
    as the protocol carries it."""
    angle, speed = aim(x, y, tx, ty, slide, TOURNAMENT.decel)
    return Shot(x + OFFSET, y + OFFSET, angle, speed)


# A start on the shooting line (002 5) between two pegs: the pegs stand every 45 degrees on
# the 15 line (board.py), so a disc sent from -67.5 degrees at the centre passes between them.
_GAP = math.radians(-67.5)
_R = TOURNAMENT.shooting_radius - 4.0  # touching the line from outside (5)
_FROM = (_R * math.cos(_GAP), _R * math.sin(_GAP))
_THEIRS = (60.0, -160.0)  # an opposing disc in the 10, in front of the learner

_EMPTY = _board()
_ONE_THEIRS = _board([_THEIRS])

LESSONS: tuple[Lesson, ...] = (
    Lesson("crokinole-line", "002 5, 3 b", _EMPTY, _valid, (_shot(*_FROM, 0.0, 0.0, -50.0),)),
    Lesson("crokinole-twenty", "002 2 b, 4 b", _EMPTY, _twenty, (_shot(*_FROM, 0.0, 0.0, 0.0),)),
    Lesson("crokinole-hit", "002 3 a, 3 c", _ONE_THEIRS, _hit, (_shot(0.0, -_R, *_THEIRS, 100.0),)),
)
_BY_ID = {x.id: x for x in LESSONS}


def lesson(lesson_id: str) -> Lesson:
    """The lesson of that id; UnknownLesson otherwise."""
    try:
        return _BY_ID[lesson_id]
    except KeyError:
        raise UnknownLesson(lesson_id) from None


def rest_discs(state: State) -> list[dict[str, Any]]:
    """The discs on the board as the protocol shows them (owner: the colour)."""
    side = state.options.side_of
    return [disc_view(d.id, side(d.seat), d.x + OFFSET, d.y + OFFSET) for d in state.discs]


def play_try(chosen: Lesson, shots: Sequence[Shot]) -> dict[str, Any]:
    """Play `shots` from the lesson's board: the last one's ruling, lines, motion, discs,
    done and over (docs/protocol.md, "Lessons"). Refused (LessonRefused) when there are none,
    more than the lesson takes, or the referee refuses one (002 5: the `bad_stroke` reasons)."""
    if not shots:
        raise LessonRefused("bad_field", "A try needs at least one shot.")
    if len(shots) > chosen.strokes:
        raise LessonRefused("bad_field", f"This lesson takes at most {chosen.strokes} shots.")
    state = chosen.state
    for shot in shots:
        if SEAT not in state.turn:
            raise LessonRefused("not_your_turn", "This try is over: start it again.")
        before = state
        try:
            state, ruling, result = judge_shot(
                before, SEAT, shot.x - OFFSET, shot.y - OFFSET, shot.angle, shot.speed
            )
        except ShotRefused as e:
            raise LessonRefused(e.code, f"Refused: {e.code}.", e.paragraph) from None
    done = chosen.goal(ruling)
    over = done or SEAT not in state.turn or len(shots) >= chosen.strokes
    return {
        "ruling": ruling_dict(ruling),
        "lines": [ln.to_dict() for ln in ruling.lines],
        "motion": track(result, before),
        "discs": rest_discs(state),
        "done": done,
        "over": over,
    }


@dataclass(frozen=True, slots=True)
class CrokinoleLessons:
    """The lessons as the Game seam offers them (server/games/seam.py `Lessons`)."""

    def listing(self) -> list[dict[str, Any]]:
        # board and quadrant: the client draws the board and snaps the disc to the
        # learner's part of the shooting line (002 5)
        return [
            {
                "id": x.id,
                "cite": x.cite,
                "strokes": x.strokes,
                "seat": SEAT,
                "quadrant": x.state.options.quadrant(SEAT),
                "discs": rest_discs(x.state),
                "board": board_view(),
            }
            for x in LESSONS
        ]

    def play(self, lesson_id: str, shots: Sequence[Shot]) -> dict[str, Any]:
        return play_try(lesson(lesson_id), shots)


CROKINOLE_LESSONS = CrokinoleLessons()
