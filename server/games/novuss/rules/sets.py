"""The end of a set and of the match: sets won, annulled and replayed sets, the next
set's set-up with the players moved on, and the result of the match."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from server.games.novuss.rules.state import MatchState, set_up


def set_result(
    state: MatchState, outcome: str, winner: int | None, reason: str, rule: str
) -> dict[str, Any]:
    """A set's result as plain data. outcome: "won" (the winner pocketed all his
    pucks), "lost" (the other side lost it), "annulled" (replayed from the same sides)
    or "replayed" (an 8 + 8 opening: replayed with sides and opening stroke changed)."""
    return {
        "set": state.set_no,
        "outcome": outcome,
        "winner": winner,
        "reason": reason,
        "rule": rule,
    }


def match_over(state: MatchState) -> dict[str, Any] | None:
    """The match result once someone has won more than half of the scheduled sets or
    every set has been played (a draw is possible with an even number, 004 § 32 (1),
    000 § 10 'Result of the game'); else None."""
    n = state.config.sets
    a, b = state.sets_won
    if 2 * a > n or 2 * b > n or state.sets_played >= n:
        winner = 0 if a > b else 1 if b > a else None
        return {
            "winner": winner,
            "sets_won": [a, b],
            "reason": "sets",
            "rule": "004 § 32 (1)",
        }
    return None


def finish_set(state: MatchState, result: dict[str, Any]) -> MatchState:
    """The state after a set ended with `result`: the next set set up (sides moved on,
    004 § 27 (2), § 28 (1)), the same set replayed, or the match over."""
    results = (*state.set_results, result)
    outcome = result["outcome"]
    if outcome in ("annulled", "replayed"):
        # 004 § 27 (4), (6): replayed from the same sides; § 27 (5) note: after 8 + 8 the
        # sides and the opening stroke change for the replay only, so the extra move is
        # undone when the next set is set up from sets_played.
        rotation = state.rotation + (1 if outcome == "replayed" else 0)
        return set_up(replace(state, rotation=rotation, set_results=results))
    won = list(state.sets_won)
    won[result["winner"]] += 1
    after = replace(
        state,
        sets_won=(won[0], won[1]),
        sets_played=state.sets_played + 1,
        set_results=results,
    )
    over = match_over(after)
    if over is not None:
        return replace(after, match_result=over, turn_seat=None)
    return set_up(replace(after, rotation=after.sets_played))


def forfeit(state: MatchState, loser_team: int, reason: str, rule: str) -> MatchState:
    """The match ends at once, lost by `loser_team` (absence, 004 § 22 (3); resignation)."""
    over = {
        "winner": 1 - loser_team,
        "sets_won": list(state.sets_won),
        "reason": reason,
        "rule": rule,
    }
    return replace(state, match_result=over, turn_seat=None)
