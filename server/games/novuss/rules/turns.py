"""Rulings without a stroke: a pass, a stroke clock that ran out, a player who did not
come back, a resignation."""

from __future__ import annotations

from typing import Literal

from server.games.novuss.rules.cautions import after_delay
from server.games.novuss.rules.check import require_turn
from server.games.novuss.rules.conclude import Outcome, conclude
from server.games.novuss.rules.lines import Line, line
from server.games.novuss.rules.ruling import Ruling, StrokeRefused
from server.games.novuss.rules.sets import forfeit
from server.games.novuss.rules.state import MatchState, team_of


def judge_pass(state: MatchState, seat: int) -> Ruling:
    """The player holding the strike right declines to strike: a penalty puck and the
    turn passes (004 § 24 (1) 7), § 25 (1) 7)); a caution if his side delayed before in
    this set (004 § 26 (4), server/games/novuss/rules/cautions.py)."""
    require_turn(state, seat)
    out = Outcome(
        kind="pass",
        pucks={p.id: p for p in state.pucks},
        reasons=[line("penalty.pass", "004 § 24 (1) 7)")],
    )
    return after_delay(state, conclude(state, seat, out))


def judge_clock_expired(state: MatchState) -> Ruling:
    """The stroke clock ran out for the player holding the strike right: he loses the
    strike right and a penalty puck is placed (004 § 26 (4), § 24 (1) 18)). Online the
    limit applies from the first stroke, without a caution first; a caution if his side
    delayed before in this set (server/games/novuss/rules/cautions.py)."""
    if state.turn_seat is None:
        raise StrokeRefused("match_over", "004 § 32 (1)", "The match is over.")
    out = Outcome(
        kind="clock",
        pucks={p.id: p for p in state.pucks},
        reasons=[
            line("penalty.clock", "004 § 24 (1) 18), § 26 (4)", seconds=state.config.stroke_clock)
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
        line("forfeit.absent", "004 § 22 (3)", seat=seat, seconds=state.config.absent_limit),
    )


def judge_resign(state: MatchState, seat: int) -> Ruling:
    """A player resigns: his side loses the match."""
    return _forfeit(state, seat, "resign", line("forfeit.resign", "", seat=seat))


def _forfeit(state: MatchState, seat: int, kind: Literal["absent", "resign"], why: Line) -> Ruling:
    if state.finished:
        raise StrokeRefused("match_over", "004 § 32 (1)", "The match is over.")
    if not 0 <= seat < state.config.seats:
        raise StrokeRefused("no_such_seat", "", f"There is no seat {seat}.")
    new = forfeit(state, team_of(seat), kind, why.cite)
    return Ruling(
        state=new,
        seat=seat,
        kind=kind,
        legal=True,
        lines=(why,),
        match_result=new.match_result,
    )
