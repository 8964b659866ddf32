"""The referee's lines agree with its decisions (issue 38): every line of every ruling
states a fact the ruling's data states too, checked by code and arguments
(tests/rules/agree.py) over random strokes, random positions and whole random matches,
singles and doubles; and one example per contradiction the referee used to write."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.novuss.rules import (
    MatchConfig,
    MatchState,
    Ruling,
    judge,
    judge_absent,
    judge_clock_expired,
    judge_pass,
    judge_resign,
    new_match,
    sim_discs,
)
from server.games.novuss.sim import COMPETITION, simulate
from server.games.novuss.sim.types import DiscContact, Event, Pocketed
from tools.novuss_play import scripted_shot

from .agree import assert_lines_agree
from .helpers import arrange, doubles, fake, play, pot, singles, to_strike, up
from .test_properties import random_legal_shot, random_position


def fast(n: int) -> settings:
    return settings(
        max_examples=n,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        derandomize=True,
    )


def _codes(r: Ruling) -> list[str]:
    return [ln.code for ln in r.lines]


def _step(state: MatchState, rng: random.Random, skill: float, delay: float = 0.035) -> Ruling:
    """One random ruling: mostly aimed strokes, sometimes a wild one, a pass or a clock
    (each with chance `delay`)."""
    seat = to_strike(state)
    roll = rng.random()
    if roll < delay:
        return judge_pass(state, seat)
    if roll < 2 * delay:
        return judge_clock_expired(state)
    if roll < 0.8:
        shot = scripted_shot(state, seat, rng, skill=skill)
    else:
        shot = random_legal_shot(state, seat, rng)
    return judge(state, seat, shot, simulate(COMPETITION, sim_discs(state), shot))


@fast(30)
@given(seed=st.integers(0, 2**32 - 1), is_doubles=st.booleans())
def test_whole_random_matches_say_what_they_decide(seed: int, is_doubles: bool) -> None:
    """Whole matches, first stroke to result: the sets end by every road the players
    find (cleared tables, 8 + 8 answers, faults on the last puck, cautions)."""
    rng = random.Random(seed)
    config = MatchConfig(mode="doubles" if is_doubles else "singles", sets=rng.choice([1, 2, 3]))
    state = new_match(config, rng.randrange(2))
    skill = rng.uniform(0.0, 0.02)
    for _ in range(3000):
        if state.finished:
            break
        # Rare delays: with many, cautions end most matches before the sets do.
        ruling = _step(state, rng, skill, delay=0.004)
        assert_lines_agree(state, ruling)
        state = ruling.state
    assert state.finished, "a match of at most 3 sets did not end in 3000 rulings"


@fast(300)
@given(seed=st.integers(0, 2**32 - 1), is_doubles=st.booleans())
def test_random_positions_with_debts_say_what_they_decide(seed: int, is_doubles: bool) -> None:
    """Mid-set positions with few pucks left, penalty pucks owed and, now and then, the
    striker's side still in its first series: where the rare decisions live (§ 24 (6),
    § 27 (5), § 28 (7))."""
    rng = random.Random(seed)
    config = MatchConfig(mode="doubles" if is_doubles else "singles", sets=rng.choice([1, 3]))
    state = random_position(rng, config)
    debt = tuple(rng.choice([0, 0, 1, 2]) for _ in state.seats)
    first_series = rng.random() < 0.3
    seat = to_strike(state)
    if rng.random() < 0.4:
        # One puck left for the striker's side: its last puck is what ends a series or a set.
        mine = [p for p in state.on_table() if p.owner % 2 == seat % 2]
        last = rng.choice(mine).id
        pucks = tuple(
            replace(p, where="pocket") if p.owner % 2 == seat % 2 and p.id != last else p
            for p in state.pucks
        )
        state = replace(state, pucks=pucks)
    state = replace(state, debt=debt, struck=(seat,) if first_series else state.seats)
    for _ in range(12):
        if state.finished:
            break
        ruling = _step(state, rng, rng.uniform(0.0, 0.03))
        assert_lines_agree(state, ruling)
        state = ruling.state


@fast(40)
@given(seed=st.integers(0, 2**32 - 1), is_doubles=st.booleans(), resign=st.booleans())
def test_forfeits_say_what_they_decide(seed: int, is_doubles: bool, resign: bool) -> None:
    """004 § 22 (3): an absence or a resignation ends the match, at any point of it."""
    rng = random.Random(seed)
    state = new_match(MatchConfig(mode="doubles" if is_doubles else "singles", sets=3), 0)
    for _ in range(rng.randrange(8)):
        state = _step(state, rng, 0.01).state
        if state.finished:
            return
    seat = rng.randrange(state.config.seats)
    ruling = judge_resign(state, seat) if resign else judge_absent(state, seat)
    assert_lines_agree(state, ruling)


# -- the contradictions found in issue 38, each failing on the referee before it -------
def _pot_fake(state: MatchState, seat: int, pid: int) -> Ruling:
    """The striker touches `pid` first and it goes in; nothing else moves."""
    events: list[Event] = [DiscContact(0.5, 0, pid, 500.0), Pocketed(1.0, pid, "NE")]
    return judge(state, seat, up(state, seat), fake(state, events, {pid: "pocket"}))


def test_last_puck_in_wins_the_set_without_striking_again():
    """004 § 27 (3): the set is won; nobody 'strikes again' in it."""
    st0 = arrange(singles(sets=3), {1: (800, 750), 9: (500, 900)})
    r = play(st0, 0, pot(st0, 0, 1, "NE")).ruling
    assert "set.won.cleared" in _codes(r)
    assert "turn.again" not in _codes(r), r.text()
    assert_lines_agree(st0, r)


def test_last_puck_of_the_match_says_the_match_is_over_not_strike_again():
    """004 § 32 (1): the last set's last puck ends the match."""
    st0 = arrange(singles(sets=1), {1: (800, 750), 9: (500, 900)})
    r = play(st0, 0, pot(st0, 0, 1, "NE")).ruling
    assert r.match_result is not None and "match.won" in _codes(r)
    assert "turn.again" not in _codes(r), r.text()
    assert_lines_agree(st0, r)


def test_cleared_first_series_hands_the_strike_to_the_answer():
    """004 § 27 (5): the opener cleared all eight in the first series: the series stops
    and the opponent answers; the words say so, and only so."""
    st0 = arrange(singles(), {1: (800, 750), 9: (500, 900)}, set_strokes=7, struck=(0,))
    r = play(st0, 0, pot(st0, 0, 1, "NE")).ruling
    assert not r.keeps_turn and r.next_seat == 1
    assert [c for c in _codes(r) if c.startswith(("turn.", "series."))] == ["series.answer"]
    assert_lines_agree(st0, r)


def test_doubles_pair_owing_a_penalty_puck_pockets_its_last_and_the_turn_passes():
    """004 § 24 (6): all pucks in, the owed penalty puck comes out and the series goes on,
    'except in doubles': the next player strikes, and the words say that."""
    st0 = arrange(doubles(), {1: (800, 750), 9: (500, 900), 25: (300, 300)}, debt=(1, 0, 0, 0))
    r = _pot_fake(st0, 0, 1)
    assert not r.keeps_turn and r.next_seat == 1 and len(r.penalty_placed) == 1
    assert "turn.again" not in _codes(r), r.text()
    assert "turn.debt_placed" in _codes(r)
    assert_lines_agree(st0, r)


def test_singles_debt_placed_after_the_last_puck_still_strikes_again():
    """004 § 24 (6): in singles the series goes on after the owed pucks come out."""
    st0 = arrange(singles(), {1: (800, 750), 9: (500, 900)}, debt=(1, 0))
    r = _pot_fake(st0, 0, 1)
    assert r.keeps_turn and "turn.again" in _codes(r)
    assert_lines_agree(st0, r)


def test_third_caution_ends_the_match_without_passing_the_turn():
    """004 § 26 (2), § 22 (5): a pass that earns the third caution loses the match; the
    turn it would have passed is not announced."""
    st0 = replace(singles(sets=3), cautions=(2, 0), delays=(1, 0))
    r = judge_pass(st0, 0)
    assert r.match_result is not None and "caution.match_lost" in _codes(r)
    assert not any(c.startswith("turn.") for c in _codes(r)), r.text()
    assert_lines_agree(st0, r)
