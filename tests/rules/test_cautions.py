"""Cautions for deliberate delay (004 § 26 (4)), the third one losing the rest of the match
(§ 26 (2), § 22 (5)), and the bound they put on a match of passes and clocks run out."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from server.games.novuss.rules import MatchState, Ruling, judge_clock_expired, judge_pass
from server.games.novuss.rules.cautions import CAUTIONS_LOSE
from server.games.novuss.rules.sets import finish_set, set_result
from server.games.novuss.rules.state import team_of

from .helpers import doubles, singles, to_strike


def delay(state: MatchState, clock: bool) -> Ruling:
    """The player holding the strike right passes, or lets the clock run out."""
    assert state.turn_seat is not None
    return judge_clock_expired(state) if clock else judge_pass(state, state.turn_seat)


def cautions_in(ruling: Ruling) -> list[str]:
    return [ln.text for ln in ruling.lines if ln.cite == "004 § 26 (4)"]


def assert_cautioned(ruling: Ruling, team: int, count: int) -> None:
    assert cautions_in(ruling), f"no caution in {ruling.lines}"
    assert ruling.state.cautions[team] == count


def assert_not_cautioned(ruling: Ruling) -> None:
    assert cautions_in(ruling) == [], ruling.lines


def test_a_sides_first_pass_in_a_set_is_only_its_penalty_puck():
    """004 § 24 (1) 7): declining to strike costs a penalty puck; once is no delay."""
    first = delay(singles(), clock=False)
    assert first.penalty and first.state.debt[0] + len(first.penalty_placed) >= 1
    assert_not_cautioned(first)
    answer = delay(first.state, clock=False)  # the other side's first: free too
    assert_not_cautioned(answer)


def test_a_sides_second_pass_or_clock_in_a_set_is_a_caution_for_deliberate_delay():
    """004 § 26 (4): delaying the course of play deliberately earns a caution; passes and
    clocks run out count together."""
    state = singles()
    for clock in (False, False):  # seat 0 passes, seat 1 passes
        state = delay(state, clock).state
    second = delay(state, clock=True)  # seat 0 again: its clock runs out
    assert_cautioned(second, team=0, count=1)
    assert second.state.cautions[1] == 0
    assert second.state.turn_seat == 1, "the turn passes as for any clock run out"


def test_in_doubles_the_partners_delays_and_cautions_count_together():
    """004 § 26 (2): "also to a pair of competitors"; seats 0 and 2 are one side."""
    state = doubles()
    rulings = []
    for _ in range(4):  # seats 0, 1, 2, 3 pass in turn
        r = delay(state, clock=False)
        rulings.append(r)
        state = r.state
    assert [bool(cautions_in(r)) for r in rulings] == [False, False, True, True]
    assert state.cautions == (1, 1)


def test_the_third_caution_loses_the_set_in_progress_and_every_set_still_to_play():
    """004 § 26 (2), § 22 (5)."""
    state = singles(sets=4)
    last = None
    while state.turn_seat is not None:
        last = delay(state, clock=state.strokes % 2 == 0)
        state = last.state
    assert last is not None and last.seat == 0, "seat 0 delayed first, so it is cautioned first"
    assert state.cautions == (CAUTIONS_LOSE, 2)
    assert last.match_result == state.match_result
    assert state.match_result == {
        "winner": 1,
        "sets_won": [0, 4],
        "reason": "cautions",
        "rule": "004 § 26 (2), § 22 (5)",
    }
    assert last.set_result is not None and last.set_result["outcome"] == "lost"
    assert any(ln.cite == "004 § 26 (2), § 22 (5)" for ln in last.lines)


def test_a_new_set_starts_with_no_delay_counted_but_cautions_stay():
    """The first pass of each set is free again; cautions are counted over the match."""
    state = singles(sets=4)
    for _ in range(3):
        state = delay(state, clock=False).state
    assert state.cautions == (1, 0) and state.delays == (2, 1)
    won = set_result(state, "won", 1, "all pucks in", "004 § 27 (3)")
    state = finish_set(state, won)
    assert state.delays == (0, 0) and state.cautions == (1, 0)
    assert_not_cautioned(delay(state, clock=False))


def test_cautions_survive_the_states_plain_data_and_old_data_has_none():
    state = singles()
    for _ in range(3):
        state = delay(state, clock=False).state
    assert MatchState.from_dict(state.to_dict()) == state
    old = state.to_dict()
    del old["cautions"], old["delays"]
    assert MatchState.from_dict(old).cautions == (0, 0)


def delays_bound(sets: int) -> int:
    """Passes and clocks run out a match of `sets` sets can see (cautions.py): each side
    has one free per set and two cautioned ones; the next ends the match."""
    return 2 * sets + 5


@settings(max_examples=200, deadline=None)
@given(
    mode=st.sampled_from(["singles", "doubles"]),
    sets=st.integers(1, 8),
    seed=st.integers(0, 2**32 - 1),
)
def test_any_sequence_of_passes_and_clocks_ends_the_match_within_the_bound(mode, sets, seed):
    """Termination: from a fresh set or after random whole sets, passes and clock expiries
    in any order end the match within 2 S + 5 of them."""
    rng = random.Random(seed)
    state = (doubles if mode == "doubles" else singles)(sets=sets)
    delays = 0
    while state.turn_seat is not None:
        assert delays <= delays_bound(sets), "the match outlived its bound"
        if rng.random() < 0.1 and state.sets_played + 1 < sets:
            # a set ends by play now and then: who won it is the dice's
            winner = rng.randrange(2)
            state = finish_set(state, set_result(state, "won", winner, "play", "004 § 27 (3)"))
            continue
        team = team_of(to_strike(state))
        before = state.cautions[team]
        state = delay(state, clock=rng.random() < 0.5).state
        assert state.cautions[team] in (before, before + 1)
        delays += 1
    assert state.match_result is not None
