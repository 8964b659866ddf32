"""Rulings without a stroke and the state's plain data: pass (004 § 24 (1) 7)), stroke
clock (§ 26 (4), § 24 (1) 18)), absence (§ 22 (3)), resignation, first strike by lot
(§ 31), set-up (§ 19)."""

from __future__ import annotations

import itertools

import msgpack
import pytest

from server.games.novuss.rules import (
    MatchConfig,
    MatchState,
    StrokeRefused,
    judge_absent,
    judge_clock_expired,
    judge_pass,
    judge_resign,
    new_match,
)
from server.games.novuss.rules.geometry import in_zone

from .helpers import T, arrange, assert_penalty, assert_turn_passes, doubles, singles


def test_pucks_are_set_up_along_the_rail_opposite_their_owner():
    """004 § 19 (1), (2), 000 § 1: eight pucks touching each other and the rail, four each
    side of the middle line, at the far side from the player who strikes at them."""
    st = singles()
    own = sorted((p.x, p.y) for p in st.pucks if p.owner == 0)
    assert all(y == 1080 - 14 for _, y in own)
    xs = [x for x, _ in own]
    assert all(abs(b - a - 28) < 1e-9 for a, b in itertools.pairwise(xs))
    assert sum(x < 540 for x in xs) == 4 and sum(x > 540 for x in xs) == 4
    assert all(in_zone(T, "N", p.x, p.y) for p in st.pucks if p.owner == 0)


def test_first_strike_by_lot_is_passed_in():
    """004 § 31 (1) 2), (3): the caller draws who opens; in doubles the pair chooses."""
    assert new_match(MatchConfig(), 1).turn_seat == 1
    st = new_match(MatchConfig(), 1)
    assert st.side_of(1) == "N" and st.first_side == "N"
    d = new_match(MatchConfig(mode="doubles"), 1, first_seat=3)
    assert d.turn_seat == 3 and d.first_side == "E"
    with pytest.raises(ValueError):
        new_match(MatchConfig(mode="doubles"), 0, first_seat=1)


def test_declining_to_strike_is_a_penalty_and_the_turn_passes():
    """004 § 24 (1) 7), 000 § 6."""
    r = judge_pass(arrange(singles(), {1: (540, 750), 9: (300, 900)}), 0)
    assert_penalty(r, "§ 24 (1) 7)")
    assert_turn_passes(r, to=1)
    assert r.kind == "pass"


def test_stroke_clock_running_out_is_a_penalty_and_the_turn_passes():
    """004 § 26 (4), § 24 (1) 18), 000 § 7: no stroke within the time limit."""
    r = judge_clock_expired(arrange(singles(), {1: (540, 750), 9: (300, 900)}))
    assert_penalty(r, "§ 24 (1) 18)")
    assert_turn_passes(r, to=1)
    assert r.kind == "clock"


def test_doubles_clock_applies_to_the_player_at_the_stroke():
    """004 § 28 (10), § 28 (5): the limit applies to both partners; the penalty is his."""
    r = judge_clock_expired(doubles())
    assert r.seat == 0 and r.state.debt == (1, 0, 0, 0) and r.state.turn_seat == 1


def test_player_not_back_in_time_loses_the_match():
    """004 § 22 (3), § 9 (3), 000 § 4."""
    r = judge_absent(singles(), 1)
    assert r.match_result is not None and r.match_result["winner"] == 0 and r.state.finished
    assert r.state.turn_seat is None


def test_resignation_loses_the_match_for_his_side():
    r = judge_resign(doubles(), 2)
    assert r.match_result is not None and r.match_result["winner"] == 1 and r.state.finished


def test_nothing_is_judged_after_the_match():
    st = judge_resign(singles(), 0).state
    with pytest.raises(StrokeRefused):
        judge_pass(st, 1)
    with pytest.raises(StrokeRefused):
        judge_clock_expired(st)


def test_pass_out_of_turn_is_refused():
    with pytest.raises(StrokeRefused) as e:
        judge_pass(singles(), 1)
    assert e.value.code == "not_your_turn"


def test_state_and_ruling_round_trip_through_msgpack():
    """MatchState.to_dict() is plain data and comes back equal."""
    st = judge_pass(arrange(singles(), {1: (540.123456789, 750.1), 9: (300, 900)}), 0).state
    back = MatchState.from_dict(msgpack.unpackb(msgpack.packb(st.to_dict())))
    assert back == st
    r = judge_pass(doubles(), 0)
    assert msgpack.unpackb(msgpack.packb(r.to_dict()))["kind"] == "pass"
    assert MatchState.from_dict(msgpack.unpackb(msgpack.packb(r.state.to_dict()))) == r.state


def test_config_is_checked():
    with pytest.raises(ValueError):
        MatchConfig(sets=0)
    with pytest.raises(ValueError):
        MatchConfig(mode="triples")  # type: ignore[arg-type]  # the bad mode under test
