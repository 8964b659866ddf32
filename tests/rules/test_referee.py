"""Referee scenarios written from the seeds (004 §§ 20-28, 32; 000): a position, a
stroke, and the ruling a club referee gives. Real strokes through the physics where a
position is easy to reach; synthetic event logs where the exact timing is the point
(two contacts in the same instant, the order in which pucks leave the table)."""

from __future__ import annotations

import math
from dataclasses import replace

from server.games.novuss.rules import judge, judge_clock_expired
from server.games.novuss.rules.sets import match_over
from server.games.novuss.sim.types import DiscContact, Event, LeftTable, Pocketed, RailContact

from .helpers import (
    MID,
    L,
    R,
    T,
    arrange,
    assert_cites,
    assert_keeps_turn,
    assert_legal,
    assert_not_restored,
    assert_penalty,
    assert_penalty_puck_on_centre_line,
    assert_restored,
    assert_turn_passes,
    cut,
    doubles,
    fake,
    hit,
    play,
    shot_at,
    singles,
    up,
)

D = T.circle_radius - R  # a re-spot point on a diameter, touching the circle from inside


def test_touching_own_and_opponents_puck_at_the_same_time_is_a_penalty():
    """004 § 21 (1), § 24 (1) 2): a direct stroke that meets his own free puck and an
    opponent's puck in the same instant is penalised."""
    st = arrange(singles(), {1: (520, 600), 9: (560, 600), 2: (200, 800)})
    events = [DiscContact(0.3, 0, 1, 500.0), DiscContact(0.3, 0, 9, 500.0)]
    r = judge(st, 0, up(st), fake(st, events, {1: (500, 700), 9: (580, 700)}))
    assert set(r.first_touch) == {1, 9}
    assert_penalty(r, "§ 24 (1) 2)")
    assert_turn_passes(r, to=1)
    assert_penalty_puck_on_centre_line(r, 0, st)


def test_direct_stroke_driving_opponents_puck_into_his_edge_zone_is_restored():
    """004 § 21 (7): in singles an opponent's puck driven by a direct stroke into the
    edge zone of his own rail (opposite the striker) goes back; penalty § 24 (1) 2)."""
    st = arrange(singles(), {1: (200, 800), 9: (MID, 800), 10: (900, 500)})
    events = [DiscContact(0.3, 0, 9, 800.0)]
    r = judge(st, 0, up(st), fake(st, events, {9: (MID, L - 40)}))
    assert_penalty(r, "§ 24 (1) 2)")
    assert_restored(r, 9, st)
    assert_turn_passes(r, to=1)


def test_opponents_puck_moving_inside_the_circle_is_not_restored():
    """004 § 21 (6) note: an opponent's blind puck that stays blind is not put back."""
    st = arrange(singles(), {1: (200, 800), 9: (MID, MID - 60)})
    events = [DiscContact(0.3, 0, 9, 300.0)]
    r = judge(st, 0, up(st), fake(st, events, {9: (MID, MID + 60)}))
    assert_penalty(r, "§ 24 (1) 2)")
    assert_not_restored(r, 9)


def test_rebound_with_free_pucks_driving_opponents_puck_into_the_circle_is_restored():
    """004 § 21 (7), (8) 1), § 24 (1) 3): a rebound may drive an opponent's puck into a
    blind position only when he has no puck for a direct stroke; with one left, the
    stroke is penalised and the opponent's puck goes back."""
    st = arrange(singles(), {1: (200, 500), 9: (MID, 750)})
    events: list[Event] = [RailContact(0.2, 0, "N", 900.0), DiscContact(0.4, 0, 9, 600.0)]
    r = judge(st, 0, up(st), fake(st, events, {9: (MID, MID)}))
    assert r.kind == "rebound" and r.rebound_rail == "opposite"
    assert_penalty(r, "§ 24 (1) 3)")
    assert_restored(r, 9, st)


def test_side_rail_rebound_onto_opponent_when_all_blind_restores_his_puck():
    """004 § 21 (8) 1), § 24 (1) 6): all his pucks blind, a rebound from a side rail that
    first meets an opponent's puck is penalised and is not a permitted way to drive it
    into the circle: it goes back."""
    st = arrange(singles(), {1: (MID, MID), 9: (700, 700)})
    events: list[Event] = [RailContact(0.2, 0, "E", 900.0), DiscContact(0.4, 0, 9, 600.0)]
    r = judge(st, 0, up(st), fake(st, events, {9: (MID + 60, MID + 30)}))
    assert r.rebound_rail == "side"
    assert_penalty(r, "§ 24 (1) 6)")
    assert_restored(r, 9, st)


def test_direct_stroke_at_opponent_sending_another_of_his_pucks_over_the_rail():
    """004 § 21 (9), § 24 (1) 16): a direct stroke at an opponent's puck sends another of
    his pucks over the rail: that one goes back to its place; the one hit directly stays
    where it went, not having become blind."""
    st = arrange(singles(), {1: (200, 800), 9: (MID, 600), 10: (MID, 640)})
    events: list[Event] = [
        DiscContact(0.3, 0, 9, 800.0),
        DiscContact(0.35, 9, 10, 700.0),
        LeftTable(0.6, 10, "N"),
    ]
    r = judge(st, 0, up(st), fake(st, events, {9: (MID + 40, 700), 10: "off"}))
    assert_penalty(r, "§ 24 (1) 16)")
    assert_restored(r, 10, st)
    assert_not_restored(r, 9)
    assert (r.state.puck(9).x, r.state.puck(9).y) == (MID + 40, 700)


def test_legal_stroke_sending_opponents_puck_over_the_rail_respots_it():
    """004 § 24 (9), § 20 (14), § 25 (1) 3): after a legal first touch an opponent's puck
    going over the rail is put in the centre circle, no penalty, the turn passes."""
    st = arrange(singles(), {1: (MID, 720), 9: (MID, 760), 2: (200, 300)})
    events: list[Event] = [
        DiscContact(0.3, 0, 1, 800.0),
        DiscContact(0.35, 1, 9, 700.0),
        LeftTable(0.6, 9, "N"),
    ]
    r = judge(st, 0, up(st), fake(st, events, {1: (MID, 800), 9: "off"}))
    assert_legal(r)
    assert [s[0] for s in r.respotted] == [9]
    assert (r.state.puck(9).x, r.state.puck(9).y) == (MID, MID)
    assert_turn_passes(r, to=1)
    assert_cites(r, "§ 25 (1) 3)")


def test_several_pucks_over_the_rail_the_one_the_striker_touched_first_goes_to_the_centre():
    """004 § 20 (14): of several pucks over the rail, the one the striker touched first
    (not the one that left first) goes to the centre; the other on its diameter point."""
    st = arrange(singles(), {1: (MID, 720), 2: (MID + 40, 800), 3: (MID - 40, 800), 9: (900, 300)})
    events: list[Event] = [
        DiscContact(0.30, 0, 1, 900.0),
        DiscContact(0.40, 0, 2, 800.0),
        DiscContact(0.45, 0, 3, 800.0),
        LeftTable(0.60, 3, "W"),
        LeftTable(0.70, 2, "E"),
    ]
    r = judge(st, 0, up(st), fake(st, events, {1: (MID, 760), 2: "off", 3: "off"}))
    assert [s[0] for s in r.respotted] == [2, 3]
    assert (r.state.puck(2).x, r.state.puck(2).y) == (MID, MID)
    assert math.isclose(r.state.puck(3).x, MID - D) and math.isclose(r.state.puck(3).y, MID)


def test_puck_over_a_rail_with_the_centre_taken_goes_to_that_rails_diameter_point():
    """004 § 20 (14): centre taken: on the diameter line towards the rail it went over,
    its edge touching the circle from inside."""
    st = arrange(singles(), {1: (300, 600), 2: (MID, MID), 9: (900, 300)})
    events: list[Event] = [DiscContact(0.3, 0, 1, 900.0), LeftTable(0.6, 1, "W")]
    r = judge(st, 0, up(st), fake(st, events, {1: "off"}))
    p = r.state.puck(1)
    assert math.isclose(p.x, MID - D) and math.isclose(p.y, MID)


def test_debt_is_not_put_on_when_the_opponent_pockets_his_own_puck():
    """004 § 24 (5): the debt comes out at once only when the opponent pockets one of the
    debtor's pucks; the opponent pocketing his own changes nothing."""
    st = arrange(
        singles(),
        {**{i: (100 + 40 * i, 900) for i in range(1, 9)}, 9: (800, 600), 10: (300, 300)},
        turn=1,
        debt=(1, 0),
    )
    events: list[Event] = [DiscContact(0.3, 0, 9, 900.0), Pocketed(0.6, 9, "SE")]
    r = judge(st, 1, up(st, 1), fake(st, events, {9: "pocket"}))
    assert r.state.debt == (1, 0) and r.penalty_placed == ()
    assert_keeps_turn(r)


def test_debt_of_eight_on_the_table_waits_and_comes_out_when_he_loses_the_right():
    """004 § 24 (4), (6): a penalty with all 8 on the table is a debt; it comes out when
    he loses the strike right after pocketing some, on the middle line opposite him."""
    pucks = {i: (100 + 100 * (i - 1), 700) for i in range(1, 9)}
    st = arrange(singles(), {**pucks, 9: (900, 300)}, debt=(1, 0))
    ev1: list[Event] = [DiscContact(0.3, 0, 1, 900.0), Pocketed(0.6, 1, "NW")]
    r1 = judge(st, 0, up(st), fake(st, ev1, {1: "pocket"}))
    assert_keeps_turn(r1)
    assert r1.state.debt == (1, 0) and r1.penalty_placed == ()
    st2 = r1.state
    r2 = judge(st2, 0, up(st2), fake(st2, [DiscContact(0.3, 0, 2, 300.0)], {2: (200, 750)}))
    assert_legal(r2)
    assert_turn_passes(r2, to=1)
    assert r2.state.debt == (0, 0)
    assert_penalty_puck_on_centre_line(r2, 0, st2)


def test_stroke_clock_expiry_places_a_penalty_puck_and_passes_the_turn():
    """004 § 26 (4), § 24 (1) 18), § 25 (1) 7)."""
    st = arrange(singles(), {1: (300, 600), 9: (900, 300)})
    r = judge_clock_expired(st)
    assert_penalty(r, "§ 24 (1) 18)")
    assert_turn_passes(r, to=1)
    assert_penalty_puck_on_centre_line(r, 0, st)


def test_doubles_partners_debt_coming_out_on_the_last_puck_stops_the_series():
    """004 § 24 (6) "except in doubles": when the pair's last puck goes in and a debt of
    either partner comes out, the series does not go on."""
    st = arrange(doubles(), {1: (MID, 800), 17: (MID, 600), 9: (900, 300)}, debt=(0, 0, 1, 0))
    st = arrange(st, {1: (MID, 800), 9: (900, 300)}, debt=(0, 0, 1, 0))
    events: list[Event] = [DiscContact(0.3, 0, 1, 900.0), Pocketed(0.6, 1, "NE")]
    r = judge(st, 0, up(st), fake(st, events, {1: "pocket"}))
    assert r.set_result is None
    assert len(r.penalty_placed) == 1
    assert_turn_passes(r, to=1)


def test_doubles_debt_comes_out_once_another_player_moves_the_row_opposite_him():
    """004 § 28 (6), § 24 (6): seat 0's penalty waited as a debt while the row along N
    (opposite him) was untouched; when the next player's stroke moves that row, the debt
    is put on the table after that stroke, against the N rail."""
    st = doubles()
    pucks = {p.id: (p.x, p.y) for p in st.on_table() if p.id not in (17, 18)}
    st = arrange(st, pucks, turn=1, intact_rows=("N", "E", "S", "W"), debt=(1, 0, 0, 0))
    p1 = st.puck(1)
    # Seat 1 (W) plays his own puck #9 (along E, his partner's rail: free for him), which
    # runs on into the N row.
    events = [DiscContact(0.3, 0, 9, 500.0), DiscContact(0.6, 9, 1, 300.0)]
    r = judge(st, 1, up(st, 1), fake(st, events, {9: (900, 900), 1: (p1.x, p1.y - 60)}))
    assert_legal(r)
    assert r.state.debt == (0, 0, 0, 0)
    assert len(r.penalty_placed) == 1
    _, _, y = r.penalty_placed[0]
    assert abs(y - (L - R)) < 1e-6
    assert_cites(r, "§ 28 (5)")


def test_simultaneous_touch_through_the_physics_is_penalised_and_the_driven_puck_restored():
    """004 § 21 (1), (7), § 24 (1) 2): struck straight between his puck and an opponent's
    lying side by side, the striker meets both in the same instant: a penalty; the
    opponent's puck, driven into the zone of his own rail, goes back."""
    st = arrange(singles(), {1: (MID - 15, 700), 9: (MID + 15, 700), 2: (200, 900)})
    r = play(st, 0, shot_at(st, 0, MID, 60, (MID, 700), 800)).ruling
    assert set(r.first_touch) == {1, 9}
    assert_penalty(r, "§ 24 (1) 2)")
    assert_turn_passes(r, to=1)
    assert_restored(r, 9, st)


def test_several_owed_penalty_pucks_come_out_on_and_beside_the_middle_line():
    """004 § 24 (3), (7): several penalty pucks at once: the first on the middle line
    tight against the rail, the others as close to it as possible, one each side."""
    st = arrange(singles(), {1: (300, 600), 2: (800, 600), 9: (900, 300)}, debt=(2, 0))
    r = judge_clock_expired(st)
    assert len(r.penalty_placed) == 3 and r.state.debt == (0, 0)
    us = sorted(x for _, x, _ in r.penalty_placed)
    ys = {round(y, 6) for _, _, y in r.penalty_placed}
    assert ys == {round(L - R, 6)}
    assert math.isclose(us[1], MID) and math.isclose(MID - us[0], us[2] - MID, abs_tol=1e-5)
    assert math.isclose(us[2] - MID, 2 * R, abs_tol=1e-5)


def test_penalty_puck_tie_goes_where_the_penalised_player_has_fewer_pucks():
    """004 § 24 (3): the middle taken and both nearest places equally far: the side of
    the middle line where the penalised player has fewer pucks (here he has one in the
    N zone to the east, so it goes west)."""
    st = arrange(singles(), {1: (900, L - R), 9: (MID, L - R), 2: (300, 500)})
    r = judge_clock_expired(st)
    ((_, x, y),) = r.penalty_placed
    assert math.isclose(y, L - R) and math.isclose(x, MID - 2 * R, abs_tol=1e-5)


def test_six_set_match_ends_at_four_sets_and_can_be_drawn_three_all():
    """004 § 32 (1): more than half of six sets is four; 3:3 is a draw."""
    st = singles(sets=6)
    assert match_over(replace(st, sets_won=(3, 2), sets_played=5)) is None
    over = match_over(replace(st, sets_won=(4, 0), sets_played=4))
    assert over is not None and over["winner"] == 0
    draw = match_over(replace(st, sets_won=(3, 3), sets_played=6))
    assert draw is not None and draw["winner"] is None


def test_doubles_penalty_tie_counts_the_pairs_pucks():
    """004 § 24 (3), § 28 (5): in doubles the penalised player's pucks are his pair's (one
    colour, § 34 (1) 2)): with the middle taken, the puck goes to the side of the middle
    line where the pair has fewer, even if more pucks in all lie there."""
    st = arrange(
        doubles(),
        {1: (300, 500), 17: (900, L - 60), 9: (MID, L - R), 10: (200, L - 60), 11: (250, L - 60)},
    )
    r = judge_clock_expired(st)
    ((_, x, y),) = r.penalty_placed
    assert math.isclose(y, L - R) and math.isclose(x, MID - 2 * R, abs_tol=1e-5)


def test_doubles_penalty_with_all_sixteen_of_the_pair_on_the_table_is_a_debt():
    """004 § 28 (6), § 24 (4): the row opposite him has moved, but his pair still has all
    16 pucks on the table: the penalty puck is owed."""
    st = doubles()
    pucks = {p.id: (p.x, p.y) for p in st.on_table()}
    pucks[1] = (700.0, 700.0)  # his row along N has been moved
    pucks.pop(9)  # an opponent's puck is in a hole
    st = arrange(st, pucks, intact_rows=("E", "S", "W"))
    r = judge_clock_expired(st)
    assert_penalty(r, "§ 24 (1) 18)")
    assert r.penalty_placed == () and r.state.debt == (1, 0, 0, 0)
    assert_cites(r, "§ 28 (6)")
    assert_turn_passes(r, to=1)


def test_puck_whose_hole_lies_just_inside_the_circle_line_is_blind():
    """004 § 21 (1), (3), § 24 (1) 8): the circle line not visible through the hole (the
    hole just inside it): the puck is blind and may not be struck directly; knocked out,
    it goes back."""
    inside = 125 - 2.5 - 0.5
    st = arrange(singles(), {1: (MID, MID - inside), 9: (900, 900), 2: (200, 800)})
    r = play(st, 0, hit(st, 0, 1, 900)).ruling
    assert r.first_touch == (1,)
    assert_penalty(r, "§ 24 (1) 8)")
    assert_restored(r, 1, st)
    assert_turn_passes(r, to=1)


def test_puck_whose_hole_shows_the_own_zone_line_may_be_struck_directly():
    """004 § 21 (1): a puck straddling his own edge-zone line with the line visible through
    its hole is not blind: a direct stroke at it is legal."""
    st = arrange(singles(), {1: (300, 120 + 1.0), 9: (900, 900)})
    r = play(st, 0, hit(st, 0, 1, 300, v=40.0)).ruling
    assert r.first_touch == (1,)
    assert_legal(r)


def test_striker_may_come_back_over_own_line_with_a_blind_puck_in_the_circle():
    """004 § 20 (7), § 25 (1) 4): with even one blind puck in the centre circle the
    striker coming back over his own line does not end the series."""
    st = arrange(singles(), {1: (200, 900), 2: (MID, MID), 3: (800, 600), 9: (900, 300)})
    r = play(st, 0, cut(st, 0, 1, "NW", 500, 60, 3000)).ruling
    assert r.pocketed == (1,)
    assert not r.crossed_line
    assert_keeps_turn(r)
    # The same stroke without the blind puck: the series ends.
    st2 = arrange(singles(), {1: (200, 900), 3: (800, 600), 9: (900, 300)})
    r2 = play(st2, 0, cut(st2, 0, 1, "NW", 500, 60, 3000)).ruling
    assert r2.pocketed == (1,) and r2.crossed_line
    assert_turn_passes(r2, to=1)
    assert_cites(r2, "§ 25 (1) 4)")
