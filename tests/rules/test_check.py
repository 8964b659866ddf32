"""Whether a stroke may be played: strike right, placement, cue angle, speed
(004 § 20 (1), (2), (5), § 23 (1) 8), § 24 (1) 10); 000 § 2)."""

from __future__ import annotations

import math

import pytest

from server.games.novuss.rules import MatchState, StrokeRefused, check_stroke, sim_discs
from server.games.novuss.sim import COMPETITION, Shot

from .helpers import arrange, doubles, singles

UP = math.pi / 2


def refused(state: MatchState, seat: int, shot: Shot) -> StrokeRefused:
    with pytest.raises(StrokeRefused) as e:
        check_stroke(state, seat, shot)
    return e.value


def accepted(state: MatchState, seat: int, shot: Shot) -> bool:
    """The stroke passes the check (check_stroke raises StrokeRefused otherwise)."""
    check_stroke(state, seat, shot)
    return True


def test_striker_placed_in_own_edge_zone_between_side_zone_lines_is_accepted():
    """004 § 20 (1), 000 § 2: the striking field."""
    st = singles()
    assert accepted(st, 0, Shot(540, 60, UP, 2000))
    assert accepted(st, 0, Shot(120 + 4.5, 120 - 4.5, UP, 2000))


def test_striker_whose_hole_shows_a_zone_line_is_refused():
    """004 § 20 (1): neither the zone line nor the side zones' lines visible through the
    striker's hole."""
    st = singles()
    for x, y in ((540, 120 - 4.5 + 0.01), (120 + 4.5 - 0.01, 60), (960 - 4.5 + 0.01, 60)):
        e = refused(st, 0, Shot(x, y, UP, 2000))
        assert (e.code, e.rule) == ("placement_zone", "004 § 20 (1)")


def test_striker_from_the_opponents_side_is_refused():
    """004 § 20 (1): only from one's own edge zone."""
    e = refused(singles(), 0, Shot(540, 1020, -UP, 2000))
    assert e.code == "placement_zone"


def test_striker_placed_touching_a_puck_is_refused():
    """004 § 20 (2), § 24 (1) 10): the striker may not touch a puck when placed."""
    st = arrange(singles(), {1: (540, 100), 9: (900, 900)})
    e = refused(st, 0, Shot(540 - 38, 100, UP, 2000))
    assert e.code == "placement_touch" and "§ 24 (1) 10)" in e.rule


def test_cue_must_come_from_within_own_rails_corners():
    """004 § 20 (5), 000 § 2: the line back along the cue crosses the own rail between
    its corners; a stroke towards the own rail or along it is refused."""
    st = singles()
    x, y = 200.0, 60.0
    lo = math.atan2(y, x)  # the cue through the SW corner
    hi = math.atan2(y, x - 1080)  # through the SE corner
    assert accepted(st, 0, Shot(x, y, lo + 1e-6, 2000))
    assert accepted(st, 0, Shot(x, y, hi - 1e-6, 2000))
    for a in (lo - 1e-3, hi + 1e-3, -UP, 0.0):
        assert refused(st, 0, Shot(x, y, a, 2000)).code == "cue_angle"


def test_cue_limits_hold_for_every_side():
    """004 § 20 (5) for a player at N, W or E (doubles)."""
    st = doubles()
    # seat 1 plays from W: straight east is allowed, straight west is not.
    assert accepted(replace_turn(st, 1), 1, Shot(60, 540, 0.0, 2000))
    assert refused(replace_turn(st, 1), 1, Shot(60, 540, math.pi, 2000)).code == "cue_angle"
    assert accepted(replace_turn(st, 3), 3, Shot(1020, 540, math.pi, 2000))
    assert accepted(replace_turn(st, 2), 2, Shot(540, 1020, -UP, 2000))


def replace_turn(state: MatchState, seat: int) -> MatchState:
    from dataclasses import replace

    return replace(state, turn_seat=seat)


def test_speed_above_the_tables_limit_is_refused():
    """The table preset's fastest stroke (a break, DESIGN.md); zero speed is no stroke."""
    st = singles()
    assert refused(st, 0, Shot(540, 60, UP, COMPETITION.max_speed + 1)).code == "speed"
    assert refused(st, 0, Shot(540, 60, UP, 0.0)).code == "speed"
    assert refused(st, 0, Shot(540, 60, UP, math.nan)).code == "bad_shot"


def test_only_the_strike_right_holder_may_strike():
    """004 § 23 (1) 6), 8), 000 § 5: online a stroke out of turn is refused."""
    e = refused(singles(), 1, Shot(540, 1020, -UP, 2000))
    assert e.code == "not_your_turn"


def test_sim_discs_are_the_pucks_on_the_table_with_owners():
    st = arrange(singles(), {1: (540, 700), 9: (300, 900)})
    discs = sim_discs(st)
    assert [(d.id, d.owner, d.x, d.y) for d in discs] == [(1, 0, 540, 700), (9, 1, 300, 900)]
