"""Rulings without a stroke: a pass, a stroke clock that ran out, a player who did not
come back, a resignation."""

from __future__ import annotations

from typing import Literal

from server.rules.cautions import after_delay
from server.rules.check import require_turn
from server.rules.judge import Outcome, conclude, who
from server.rules.ruling import Ruling, StrokeRefused
from server.rules.sets import forfeit
from server.rules.state import MatchState, team_of


def judge_pass(state: MatchState, seat: int) -> Ruling:
    """The player holding the strike right declines to strike: a penalty puck and the
    turn passes (004 § 24 (1) 7), § 25 (1) 7)); a caution if his side delayed before in
    this set (004 § 26 (4), server/rules/cautions.py)."""
    require_turn(state, seat)
    out = Outcome(
        kind="pass",
        pucks={p.id: p for p in state.pucks},
        reasons=[("Penalty puck: he declined to strike", "004 § 24 (1) 7)")],
    )
    return after_delay(state, conclude(state, seat, out))


def judge_clock_expired(state: MatchState) -> Ruling:
    """The stroke clock ran out for the player holding the strike right: he loses the
    strike right and a penalty puck is placed (004 § 26 (4), § 24 (1) 18)). Online the
    limit applies from the first stroke, without a caution first; a caution if his side
    delayed before in this set (server/rules/cautions.py)."""
    if state.turn_seat is None:
        raise StrokeRefused("match_over", "004 § 32 (1)", "The match is over.")
    out = Outcome(
        kind="clock",
        pucks={p.id: p for p in state.pucks},
        reasons=[
            (
                f"Penalty puck: no stroke within {state.config.stroke_clock:g} seconds",
                "004 § 24 (1) 18), § 26 (4)",
            )
        ],
    )
    return after_delay(state, conclude(state, state.turn_seat, out))


def judge_absent(state: MatchState, seat: int) -> Ruling:
    """A player did not come back to the table in time: his side loses the match
    (004 § 22 (3), § 9 (3); 000 § 4)."""
    return _forfeit(
        state,
        seat,
        "absent",
        f"{who(state, seat)} did not return within {state.config.absent_limit:g} seconds: "
        "his side loses the match",
        "004 § 22 (3)",
    )


def judge_resign(state: MatchState, seat: int) -> Ruling:
    """A player resigns: his side loses the match."""
    return _forfeit(
        state, seat, "resign", f"{who(state, seat)} resigns: his side loses the match", ""
    )


def _forfeit(
    state: MatchState, seat: int, kind: Literal["absent", "resign"], text: str, rule: str
) -> Ruling:
    if state.finished:
        raise StrokeRefused("match_over", "004 § 32 (1)", "The match is over.")
    if not 0 <= seat < state.config.seats:
        raise StrokeRefused("no_such_seat", "", f"There is no seat {seat}.")
    new = forfeit(state, team_of(seat), kind, rule)
    return Ruling(
        state=new,
        seat=seat,
        kind=kind,
        legal=True,
        lines=((text, rule),),
        match_result=new.match_result,
    )
