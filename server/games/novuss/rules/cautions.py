"""Cautions for deliberate delay, and the match they end (004 § 26 (2), (4), § 22 (5)).

Online there is no referee to judge a player's intent, so what counts as deliberate delay is
fixed (docs/rules.md, "Cautions"): a side's second and every later pass or stroke clock run
out in one set. Each earns that side a caution (004 § 26 (4): "with separately standing
pucks he spends over 30 seconds on a stroke"; declining the turn again and again is the same
delay). The first of a set is only the penalty puck it always costs (§ 24 (1) 7), 18)): a
pass can be a choice, and a clock can run out once by mistake.

The third caution of a side in a match (§ 26 (2), "also to a pair of competitors": in doubles
the cautions of the two partners count together) loses it the set in progress and every set
still to play (§ 22 (5)): the match ends there.

The bound this gives: a set of passes and clocks alone ends no set, so without cautions two
players could pass for ever (1,497 debts each in one run). With them, each side gets one
delay free per set and its third cautioned one ends the match, so a match of S sets sees at
most 2 S + 5 passes and clock expiries in all (tests/rules/test_cautions.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from server.games.novuss.rules.lines import TURN_CODES, Line, line
from server.games.novuss.rules.ruling import Ruling
from server.games.novuss.rules.sets import set_result
from server.games.novuss.rules.state import MatchState, team_of

CAUTIONS_LOSE = 3  # 004 § 26 (2), § 22 (5): the third caution in a match
DELAY_RULE = "004 § 26 (4)"
LOSS_RULE = "004 § 26 (2), § 22 (5)"


def after_delay(before: MatchState, ruling: Ruling) -> Ruling:
    """A pass or clock-out already judged (its penalty puck, the turn passed): count the
    delay for the side that made it, and caution it if it was not its first of the set."""
    team = team_of(ruling.seat)
    state = ruling.state
    if state.finished or state.sets_played != before.sets_played:
        return ruling  # the delay ended the set or the match by itself: nothing to count
    delays = _bump(before.delays, team)
    if delays[team] == 1:
        return replace(ruling, state=replace(state, delays=delays))
    cautions = _bump(before.cautions, team)
    lines: list[Line] = [
        line(
            "caution.delay",
            DELAY_RULE,
            caution=cautions[team],
            limit=CAUTIONS_LOSE,
            delay=delays[team],
        )
    ]
    state = replace(state, delays=delays, cautions=cautions)
    if cautions[team] < CAUTIONS_LOSE:
        return replace(ruling, state=state, lines=(*ruling.lines, *lines))
    state, result = _lose_the_rest(state, team)
    lines.append(line("caution.match_lost", LOSS_RULE))
    # The turn the pass or clock handed on is void: nobody strikes again in this match.
    kept = tuple(ln for ln in ruling.lines if ln.code not in TURN_CODES)
    return replace(
        ruling,
        state=state,
        lines=(*kept, *lines),
        set_result=result,
        match_result=state.match_result,
    )


def _lose_the_rest(state: MatchState, loser: int) -> tuple[MatchState, dict[str, Any]]:
    """The set in progress and every set still to play go to the other side (§ 22 (5))."""
    winner = 1 - loser
    result = set_result(state, "lost", winner, "Third caution in the match", LOSS_RULE)
    remaining = state.config.sets - state.sets_played
    won = list(state.sets_won)
    won[winner] += remaining
    over = {
        "winner": winner,
        "sets_won": won,
        "reason": "cautions",
        "rule": LOSS_RULE,
    }
    new = replace(
        state,
        sets_won=(won[0], won[1]),  # sets_played stays: the lost ones were not played
        set_results=(*state.set_results, result),
        match_result=over,
        turn_seat=None,
    )
    return new, result


def _bump(pair: tuple[int, int], team: int) -> tuple[int, int]:
    return (pair[0] + 1, pair[1]) if team == 0 else (pair[0], pair[1] + 1)
