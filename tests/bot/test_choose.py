"""The computer's stroke: always one the referee accepts, within its level's budget,
the same for the same seed, refused for a level or a seat that does not exist."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.novuss.bot import LEVELS, BotError, Choice, choose, hint
from server.games.novuss.bot.levels import LEVEL_TABLE
from server.games.novuss.rules.check import check_stroke
from server.games.novuss.rules.state import MatchConfig, new_match
from tests.bot.positions import random_state
from tests.rules.helpers import arrange, singles


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    position=st.integers(0, 2**31),
    seed=st.integers(0, 2**31),
    level=st.sampled_from([1, 2]),
    doubles=st.booleans(),
)
def test_every_stroke_chosen_is_accepted_by_check_stroke(position, seed, level, doubles):
    # 004 § 20 (1), (2), (5): placed in the own striking field, touching no puck, the cue
    # from within the own rail's corners; and the speed limit.
    state = random_state(position, doubles)
    seat = state.turn_seat
    assert seat is not None
    choice = choose(state, seat, level, seed)
    check_stroke(state, seat, choice.shot)
    check_stroke(state, seat, choice.intended)


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_simulates_no_more_strokes_than_its_budget(level):
    state = random_state(11)
    seat = state.turn_seat
    assert seat is not None
    choice = choose(state, seat, level, seed=3)
    assert 1 <= choice.candidates <= LEVEL_TABLE[level].budget
    check_stroke(state, seat, choice.shot)


def test_a_stronger_level_looks_at_more_strokes():
    state = random_state(5)
    seat = state.turn_seat
    assert seat is not None
    counts = [choose(state, seat, lv, seed=1).candidates for lv in (1, 3, 5)]
    assert counts == sorted(counts) and counts[0] < counts[-1], counts


def test_the_same_seed_gives_the_same_choice_and_another_seed_strays_otherwise():
    state = new_match(MatchConfig(), first_team=0)
    a = choose(state, 0, 2, seed=7)
    assert choose(state, 0, 2, seed=7) == a
    others = {choose(state, 0, 2, seed=s).shot for s in range(8, 12)}
    assert a.shot not in others


def test_the_played_stroke_strays_from_the_meant_one_but_a_hint_does_not():
    state = arrange(singles(), {2: (300.0, 700.0), 5: (800.0, 820.0), 10: (540.0, 300.0)}, turn=0)
    played = choose(state, 0, 1, seed=4)
    assert played.shot != played.intended
    assert (played.shot.x, played.shot.y) == (played.intended.x, played.intended.y)
    tip = hint(state, 0, seed=4)
    assert tip.shot == tip.intended


def test_a_choice_crosses_a_process_boundary():
    state = new_match(MatchConfig(), first_team=1)
    choice = choose(state, 1, 1, seed=2)
    back = pickle.loads(pickle.dumps(choice))
    assert isinstance(back, Choice) and back == choice
    assert pickle.loads(pickle.dumps(state)) == state


@pytest.mark.parametrize("level", [0, 6, -1, "3", 2.0, True, None])
def test_a_level_that_does_not_exist_is_refused(level):
    state = new_match(MatchConfig(), first_team=0)
    with pytest.raises(BotError, match="no computer level"):
        choose(state, 0, level, seed=1)


def test_a_seat_without_the_strike_right_is_refused():
    # 004 § 23 (1) 8): only the player holding the strike right strikes.
    state = new_match(MatchConfig(), first_team=0)
    with pytest.raises(BotError, match="may not strike"):
        choose(state, 1, 3, seed=1)
    with pytest.raises(BotError, match="may not strike"):
        hint(state, 1, seed=1)


def test_a_finished_match_is_refused():
    state = new_match(MatchConfig(), first_team=0)
    over = replace(state, match_result={"winner": 0}, turn_seat=None)
    with pytest.raises(BotError):
        choose(over, 0, 1, seed=1)


def test_a_time_budget_must_be_positive():
    state = new_match(MatchConfig(), first_team=0)
    with pytest.raises(BotError, match="time budget"):
        choose(state, 0, 1, seed=1, budget_s=0.0)
