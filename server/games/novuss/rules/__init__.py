"""The Novuss (koroona) referee: pure rules over plain data, no I/O.

    state = new_match(MatchConfig(mode="singles", sets=4), first_team)
    check_stroke(state, seat, shot)                     # raises StrokeRefused
    result = simulate(COMPETITION, sim_discs(state), shot)
    ruling = judge(state, seat, shot, result)           # ruling.state is the next state

See docs/rules.md for every paragraph of the seeds and where it is implemented.
"""

from server.games.novuss.rules.check import check_stroke, max_speed, sim_discs
from server.games.novuss.rules.judge import judge, judge_checked
from server.games.novuss.rules.ruling import Ruling, StrokeRefused
from server.games.novuss.rules.state import MatchConfig, MatchState, Puck, new_match, team_of
from server.games.novuss.rules.turns import (
    judge_absent,
    judge_clock_expired,
    judge_pass,
    judge_resign,
)

__all__ = [
    "MatchConfig",
    "MatchState",
    "Puck",
    "Ruling",
    "StrokeRefused",
    "check_stroke",
    "judge",
    "judge_absent",
    "judge_checked",
    "judge_clock_expired",
    "judge_pass",
    "judge_resign",
    "max_speed",
    "new_match",
    "sim_discs",
    "team_of",
]
