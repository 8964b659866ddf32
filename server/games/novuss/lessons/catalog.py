"""The lessons: each a set-up position (seat 0 striking from the S rail of a singles match),
one task the referee's ruling shows done, and the paragraph it teaches. A worked solution
(`solution`) shows that each task can be done; tests/lessons holds every lesson to it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from server.games.core.lessons import UnknownLesson
from server.games.novuss.rules import MatchConfig, MatchState, Ruling, new_match
from server.games.novuss.rules.aim import bank, pot, shot_at
from server.games.novuss.rules.state import Puck
from server.games.novuss.sim.types import Shot

SEAT = 0  # the learner: seat 0, on the S rail (local frame = world frame)
OPPONENT = 1

Goal = Callable[[Sequence[Ruling]], bool]


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson. strokes: the most strokes of one try (the try also ends when the strike
    right passes). goal: whether the rulings of a try so far do the task. striker: where the
    striker starts (None: the client's usual legal spot), e.g. a spot the learner must
    move it from."""

    id: str
    cite: str
    state: MatchState
    goal: Goal
    strokes: int
    solution: tuple[Shot, ...]
    striker: tuple[float, float] | None = None


def _position(
    own: Mapping[int, tuple[float, float]],
    theirs: Mapping[int, tuple[float, float]] | None = None,
    **changes: object,
) -> MatchState:
    """Seat 0 to strike, mid-set: only the pucks named on the table (all of the opponent's
    in their set-up row when `theirs` is None), every other puck in the holes."""
    start = new_match(MatchConfig(mode="singles", sets=4), 0)
    pucks = []
    for p in start.pucks:
        spots = own if p.owner == SEAT else theirs
        if spots is None:
            pucks.append(p)
        elif p.id in spots:
            pucks.append(Puck(p.id, p.owner, *spots[p.id]))
        else:
            pucks.append(p.at(p.x, p.y, "pocket"))
    fields: dict[str, object] = {"set_strokes": 6, "intact_rows": (), "struck": (0, 1)}
    fields.update(changes)
    return replace(start, pucks=tuple(pucks), turn_seat=SEAT, **fields)  # type: ignore[arg-type]


def _first(r: Ruling) -> str:
    """Whose puck the striker touched first: "own", "opponent", "mixed" or "none"."""
    owners = {r.state.puck(pid).owner for pid in r.first_touch}
    if not owners:
        return "none"
    return "own" if owners == {SEAT} else "opponent" if SEAT not in owners else "mixed"


def _legal_own_first(rulings: Sequence[Ruling]) -> bool:
    # 004 § 20 (1), (2): placed legally (else the stroke is refused) and a legal stroke
    return bool(rulings) and rulings[-1].legal and _first(rulings[-1]) == "own"


def _pocketed_directly(rulings: Sequence[Ruling]) -> bool:
    # 004 § 20 (8), § 21 (1): an own free puck in by a direct stroke; the series goes on
    r = rulings[-1]
    return r.legal and r.kind == "direct" and r.keeps_turn


def _free_puck_not_the_blind(rulings: Sequence[Ruling]) -> bool:
    # 004 § 21 (1), (3) 2)-4): the free own puck struck first, the blind one left alone
    r = rulings[-1]
    return r.legal and r.kind == "direct" and _first(r) == "own" and BLIND not in r.first_touch


def _rebound_onto_blind(rulings: Sequence[Ruling]) -> bool:
    # 004 § 21 (2), (3) 1): a rebound off the opposite rail touching the blind puck first
    r = rulings[-1]
    return r.legal and r.kind == "rebound" and BLIND in r.first_touch


def _penalty(rulings: Sequence[Ruling]) -> bool:
    # 004 § 24 (1) 2): what the lesson asks, a direct stroke touching the opponent's puck
    # first, is a penalty (a stroke touching no puck is one too, but not this lesson's);
    # § 24 (3): its penalty puck comes back to the table (each side keeps a second puck on
    # the table, so that a puck knocked in does not end the set before it can)
    r = rulings[-1]
    first = any(ln.code == "penalty.direct_first_opponent" for ln in r.lines)
    return r.penalty and first and _first(r) == "opponent"


def _series_ended(rulings: Sequence[Ruling]) -> bool:
    # 004 § 20 (8), § 25 (1): a series goes on while own pucks drop and ends when one
    # stroke pockets none (or fouls)
    kept = [r.keeps_turn for r in rulings]
    return len(kept) >= 2 and kept[0] and not kept[-1]


def _answer(rulings: Sequence[Ruling]) -> bool:
    # 004 § 27 (5): the opener clears the table before the other side has struck: it answers
    return any(ln.code == "series.answer" for ln in rulings[-1].lines)


BLIND = 1  # the own puck in the centre circle in the blind-puck lessons

_PLACE = _position({1: (540.0, 760.0)}, {9: (450.0, 60.0), 10: (630.0, 60.0)})
_DIRECT = _position({1: (880.0, 860.0), 2: (200.0, 700.0)}, {9: (300.0, 900.0)})
_BLIND = _position({BLIND: (540.0, 540.0), 2: (300.0, 760.0)}, {9: (800.0, 700.0)})
_REBOUND = _position({BLIND: (540.0, 560.0)}, {9: (800.0, 300.0)})
_PENALTY = _position(
    {1: (540.0, 860.0), 2: (880.0, 900.0)}, {9: (540.0, 420.0), 10: (180.0, 760.0)}
)
_SERIES = _position({1: (880.0, 860.0), 2: (300.0, 640.0)}, {9: (700.0, 300.0)})
_OPENING = _position({1: (880.0, 860.0)}, None, set_strokes=7, struck=(0,))

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "place",
        "004 § 20 (1), (2)",
        _PLACE,
        _legal_own_first,
        1,
        (shot_at(_PLACE, SEAT, 540.0, 60.0, (540.0, 760.0), 300.0),),
        (480.0, 60.0),  # 004 § 20 (2): touching the opponent's puck at 450: move it first
    ),
    Lesson(
        "direct",
        "004 § 21 (1), § 20 (8)",
        _DIRECT,
        _pocketed_directly,
        1,
        (pot(_DIRECT, SEAT, 1, "NE"),),
    ),
    Lesson(
        "blind",
        "004 § 21 (1), (3)",
        _BLIND,
        _free_puck_not_the_blind,
        1,
        (shot_at(_BLIND, SEAT, 300.0, 60.0, (300.0, 760.0), 200.0),),
    ),
    Lesson(
        "rebound",
        "004 § 21 (2), (3)",
        _REBOUND,
        _rebound_onto_blind,
        1,
        (bank(_REBOUND, SEAT, 300.0, 60.0, (540.0, 560.0), "opposite", 300.0),),
    ),
    Lesson(
        "penalty",
        "004 § 24 (1) 2), (3)",
        _PENALTY,
        _penalty,
        1,
        (shot_at(_PENALTY, SEAT, 540.0, 60.0, (540.0, 420.0), 300.0),),
    ),
    Lesson(
        "series",
        "004 § 20 (8), § 25 (1)",
        _SERIES,
        _series_ended,
        4,
        (pot(_SERIES, SEAT, 1, "NE"), shot_at(_SERIES, SEAT, 300.0, 60.0, (300.0, 640.0), 150.0)),
    ),
    Lesson(
        "opening",
        "004 § 27 (5)",
        _OPENING,
        _answer,
        1,
        (pot(_OPENING, SEAT, 1, "NE"),),
    ),
)

_BY_ID = {x.id: x for x in LESSONS}


def lesson(lesson_id: str) -> Lesson:
    """The lesson of that id; UnknownLesson otherwise."""
    try:
        return _BY_ID[lesson_id]
    except KeyError:
        raise UnknownLesson(lesson_id) from None
