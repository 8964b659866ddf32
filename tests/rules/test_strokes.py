"""Real strokes through the physics from set-up positions: direct and rebound strokes,
blind pucks, penalties, restoring and re-spotting (004 §§ 20, 21, 24, 25; 000 §§ 2, 3, 6, 7).

Singles: seat 0 strikes from S, his pucks (1..8) were set up along N; seat 1 strikes
from N. Local frames: (u, v) as the striker sees the table from his own rail.
"""

from __future__ import annotations

from server.games.novuss.rules.geometry import to_world

from .helpers import (
    MID,
    L,
    arrange,
    assert_cites,
    assert_in_centre_circle,
    assert_keeps_turn,
    assert_legal,
    assert_not_restored,
    assert_penalty,
    assert_penalty_puck_on_centre_line,
    assert_restored,
    assert_set_result,
    assert_turn_passes,
    bank,
    cut,
    hit,
    play,
    pot,
    shot_at,
    singles,
)


def test_direct_stroke_pockets_own_puck_and_series_goes_on():
    """004 § 20 (8), § 21 (1): a direct stroke at an own free puck that pockets it."""
    st = arrange(singles(), {1: (800, 750), 2: (300, 600), 9: (500, 900)})
    r = play(st, 0, pot(st, 0, 1, "NE")).ruling
    assert r.kind == "direct" and r.first_touch == (1,)
    assert_legal(r)
    assert r.pocketed == (1,)
    assert_keeps_turn(r)


def test_legal_stroke_that_pockets_nothing_passes_the_turn():
    """004 § 25 (1) 1): a legal stroke that pockets none of his pucks ends the series."""
    st = arrange(singles(), {1: (540, 750), 9: (300, 900)})
    r = play(st, 0, hit(st, 0, 1, 300)).ruling
    assert_legal(r)
    assert_turn_passes(r, to=1)
    assert_cites(r, "§ 25 (1) 1)")


def test_direct_stroke_touching_nothing_is_a_penalty():
    """004 § 24 (1) 1): own free pucks on the table, the striker touches none."""
    st = arrange(singles(), {1: (540, 700), 9: (300, 900)})
    shot = shot_at(st, 0, 540, 60, (540, 300), 0.0)  # stops well short of the puck
    r = play(st, 0, shot).ruling
    assert r.kind == "direct" and r.first_touch == ()
    assert_penalty(r, "§ 24 (1) 1)")
    assert_turn_passes(r, to=1)
    assert_penalty_puck_on_centre_line(r, 0, st)


def test_direct_stroke_first_touching_opponents_puck_is_a_penalty():
    """004 § 24 (1) 2): on a direct stroke the striker first touches an opponent's puck."""
    st = arrange(singles(), {1: (300, 700), 9: (540, 600)})
    r = play(st, 0, hit(st, 0, 9, 300)).ruling
    assert r.first_touch == (9,)
    assert_penalty(r, "§ 24 (1) 2)")
    assert_turn_passes(r, to=1)


def test_direct_stroke_at_own_blind_puck_in_centre_circle_is_penalised_and_restored():
    """004 § 21 (3), (4), § 24 (1) 8): a puck in the centre circle struck directly."""
    st = arrange(singles(), {1: (MID, MID), 2: (200, 800), 9: (900, 900)})
    r = play(st, 0, hit(st, 0, 1, 900)).ruling
    assert r.first_touch == (1,)
    assert_penalty(r, "§ 24 (1) 8)")
    assert_restored(r, 1, st)
    assert_turn_passes(r)


def test_puck_whose_hole_shows_the_circle_line_may_be_struck_directly():
    """004 § 21 (1): a puck is blind only if the line cannot be seen through its hole."""
    edge = 125 - 2.5 + 0.5  # the circle line just visible through the hole
    st = arrange(singles(), {1: (MID, MID - edge), 9: (900, 900)})
    r = play(st, 0, hit(st, 0, 1, 250)).ruling
    assert_legal(r)


def test_rebound_from_opposite_rail_onto_blind_puck_is_legal():
    """004 § 21 (2), (3) 1): a blind puck in the centre circle played off the opposite rail."""
    st = arrange(singles(), {1: (MID, 600), 9: (150, 300)})
    shot = bank(st, 0, 300, 60, (MID, 600 + 38), "opposite", 500)
    r = play(st, 0, shot).ruling
    assert r.kind == "rebound" and r.rebound_rail == "opposite" and r.rails == ("N",)
    assert r.first_touch == (1,)
    assert_legal(r)


def test_rebound_from_opposite_rail_onto_blind_puck_in_own_edge_zone_is_legal():
    """004 § 21 (3) 1): a puck in his own edge zone is blind; off the opposite rail it may
    be played."""
    st = arrange(singles(), {1: (800, 60), 9: (150, 900)})
    shot = bank(st, 0, 300, 60, (800, 60 + 38), "opposite", 300)
    r = play(st, 0, shot).ruling
    assert r.kind == "rebound" and r.rebound_rail == "opposite" and r.first_touch == (1,)
    assert_legal(r)


def test_rebound_first_touching_opponent_while_free_pucks_exist_is_a_penalty():
    """004 § 24 (1) 3), § 21 (5): a rebound that first meets an opponent's puck while he
    has pucks he could strike directly."""
    st = arrange(singles(), {1: (200, 500), 9: (700, 700)})
    shot = bank(st, 0, 500, 60, (700, 700 + 38), "opposite", 300)
    r = play(st, 0, shot).ruling
    assert r.kind == "rebound" and r.first_touch == (9,)
    assert_penalty(r, "§ 24 (1) 3)")


def test_rebound_onto_opponent_allowed_when_all_own_pucks_are_blind():
    """004 § 21 (8) 1): with no own pucks for a direct stroke, a rebound from the opposite
    rail may drive an opponent's puck into the centre circle; it stays there."""
    st = arrange(singles(), {1: (MID, MID), 9: (MID, 720)})
    shot = bank(st, 0, 400, 60, (MID, 720 + 38), "opposite", 700)
    r = play(st, 0, shot).ruling
    assert r.first_touch == (9,)
    assert_legal(r)
    assert_not_restored(r, 9)


def test_all_blind_rebound_from_opposite_rail_touching_nothing_is_no_penalty():
    """004 § 24 (1) 6) note 1, § 21 (5): all pucks blind, off the opposite rail, no puck."""
    st = arrange(singles(), {1: (MID, MID), 9: (900, 900)})
    shot = shot_at(st, 0, 200, 60, to_world("S", 200, L - 24, L), 900)
    r = play(st, 0, shot).ruling
    assert r.kind == "rebound" and r.rebound_rail == "opposite" and r.first_touch == ()
    assert_legal(r)
    assert_turn_passes(r)


def test_all_blind_side_rail_rebound_missing_own_puck_is_a_penalty():
    """004 § 24 (1) 6): all pucks blind; after a side rail the striker must first touch an
    own puck or the opposite rail."""
    st = arrange(singles(), {1: (MID, MID), 9: (900, 900)})
    shot = bank(st, 0, 300, 60, (300, 500), "left", 0.0)
    r = play(st, 0, shot).ruling
    assert r.kind == "rebound" and r.rebound_rail == "side"
    assert_penalty(r, "§ 24 (1) 6)")


def test_side_rail_rebound_onto_blind_puck_in_centre_circle_is_legal():
    """004 § 21 (3) 5), § 24 (1) 6) note 2: off a side rail, first his blind puck."""
    st = arrange(singles(), {1: (MID, MID), 9: (900, 900)})
    shot = bank(st, 0, 700, 60, (MID - 38, MID), "left", 400)
    r = play(st, 0, shot).ruling
    assert r.kind == "rebound" and r.rebound_rail == "side" and r.first_touch == (1,)
    assert_legal(r)


def test_direct_stroke_driving_opponents_puck_into_centre_circle_is_restored():
    """004 § 21 (7), § 24 (1) 2): an opponent's puck driven into the centre circle by a
    direct stroke goes back, and a penalty puck is placed."""
    st = arrange(singles(), {1: (200, 800), 9: (MID, 300)})
    r = play(st, 0, hit(st, 0, 9, 430)).ruling
    assert r.first_touch == (9,)
    assert_penalty(r, "§ 24 (1) 2)")
    assert_restored(r, 9, st)


def test_own_puck_driving_opponents_puck_into_centre_circle_is_not_restored():
    """004 § 21 (8) 3): with his own free puck he may drive the opponent's into the circle."""
    st = arrange(singles(), {1: (MID, 300), 2: (200, 800), 9: (MID, 360)})
    r = play(st, 0, hit(st, 0, 1, 900)).ruling
    assert r.first_touch == (1,)
    assert_legal(r)
    assert_not_restored(r, 9)


def test_striker_in_a_hole_is_a_penalty():
    """004 § 24 (1) 4): the striker falls into a hole."""
    st = arrange(singles(), {1: (200, 800), 9: (900, 300)})
    cx, cy = 1020.0, 1020.0
    shot = shot_at(st, 0, 700, 60, (cx, cy), 600)
    r = play(st, 0, shot).ruling
    assert_penalty(r, "§ 24 (1) 4)")
    assert_turn_passes(r)


def test_striker_over_the_rail_is_a_penalty():
    """004 § 24 (1) 5): the striker goes over the rail."""
    st = arrange(singles(), {1: (200, 800), 9: (900, 300)})
    shot = shot_at(st, 0, 540, 60, (540, L - 24), 7500)
    r = play(st, 0, shot).ruling
    assert_penalty(r, "§ 24 (1) 5)")


def test_one_penalty_puck_for_several_faults():
    """004 § 24 (2): touching none of his pucks and going over the rail: one puck."""
    st = arrange(singles(), {1: (200, 800), 2: (250, 800), 9: (900, 300)})
    shot = shot_at(st, 0, 540, 60, (540, L - 24), 7500)
    r = play(st, 0, shot).ruling
    assert_penalty(r, "§ 24 (1) 5)")
    assert_cites(r, "§ 24 (2)")
    assert len(r.penalty_placed) == 1


def test_puck_over_the_rail_goes_to_the_centre_and_ends_the_turn():
    """004 § 20 (14), § 24 (9), § 25 (1) 3): a legal stroke sends his puck over the rail."""
    st = arrange(singles(), {1: (MID, 900), 2: (200, 500), 9: (900, 300)})
    r = play(st, 0, hit(st, 0, 1, 3500)).ruling
    assert [s[0] for s in r.respotted] == [1]
    assert_in_centre_circle(r.state, 1)
    assert abs(r.state.puck(1).x - MID) < 1e-9 and abs(r.state.puck(1).y - MID) < 1e-9
    assert_legal(r)
    assert_turn_passes(r)
    assert_cites(r, "§ 25 (1) 3)")


def test_direct_stroke_knocking_opponents_puck_over_the_rail_restores_it():
    """004 § 21 (9), § 24 (1) 16): a direct stroke at an opponent's puck sends it over the
    rail: it goes back to its place and a penalty puck is placed."""
    st = arrange(singles(), {1: (200, 500), 9: (MID, 900)})
    r = play(st, 0, hit(st, 0, 9, 7000)).ruling
    assert_penalty(r, "§ 24 (1) 16)")
    assert_restored(r, 9, st)


def test_striker_coming_back_over_own_line_ends_the_series():
    """004 § 20 (7), § 25 (1) 4): a legal pot, but the striker rebounds back into his zone."""
    st = arrange(singles(), {1: (200, 900), 2: (800, 600), 9: (900, 300)})
    r = play(st, 0, cut(st, 0, 1, "NW", 500, 60, 3000)).ruling
    assert r.pocketed == (1,)
    assert r.crossed_line
    assert_turn_passes(r)
    assert_cites(r, "§ 25 (1) 4)")


def test_penalty_puck_placed_on_middle_line_opposite_the_player():
    """004 § 24 (3): tight against the rail, on the middle line of the edge zone opposite
    the penalised player."""
    st = arrange(singles(), {1: (540, 700), 9: (300, 900)})
    r = play(st, 0, shot_at(st, 0, 540, 60, (540, 300), 0.0)).ruling
    assert_penalty_puck_on_centre_line(r, 0, st)
    pid, x, y = r.penalty_placed[0]
    assert r.state.puck(pid).owner == 0 and (x, y) == (MID, L - 14)


def test_two_own_blind_pucks_knocked_out_directly_lose_the_set():
    """004 § 23 (1) 1), § 21 (4): two own blind pucks knocked out with a direct stroke."""
    st = arrange(singles(), {1: (MID, 500), 2: (MID, 529), 3: (200, 800), 9: (900, 300)})
    r = play(st, 0, hit(st, 0, 1, 3000)).ruling
    assert_set_result(r, "lost", 1)
    assert_cites(r, "§ 23 (1) 1)")


def test_direct_stroke_at_own_blind_puck_moving_two_more_pucks_loses_the_set():
    """004 § 23 (1) 4): a direct stroke at his own blind puck moves two or more others."""
    st = arrange(singles(), {1: (MID, 450), 9: (MID - 15, 480), 10: (MID + 15, 480), 2: (200, 900)})
    r = play(st, 0, hit(st, 0, 1, 900)).ruling
    assert_set_result(r, "lost", 1)
    assert_cites(r, "§ 23 (1) 4)")


def test_first_touch_in_own_edge_zone_is_a_penalty():
    """004 § 24 (1) 11), § 20 (2): the striker first touches a puck in his own edge zone."""
    st = arrange(singles(), {1: (300, 400), 9: (800, 100)})
    r = play(st, 0, shot_at(st, 0, 600, 40, (800, 100), 200)).ruling
    assert r.first_touch == (9,)
    assert_penalty(r, "§ 24 (1) 11)")


def test_000_option_direct_stroke_at_own_blind_puck_moving_one_more_puck_loses_the_set():
    """000 § 5 (option blind_hit_moves=1): '...and then one or more pucks moved'."""
    st = arrange(singles(blind_hit_moves=1), {1: (MID, 450), 9: (MID, 480 + 20), 2: (200, 900)})
    r = play(st, 0, hit(st, 0, 1, 900)).ruling
    assert_set_result(r, "lost", 1)
    assert_cites(r, "000 § 5")


def test_striker_may_come_back_over_own_line_when_he_has_a_blind_puck():
    """004 § 20 (7): the rule does not apply while he has even one blind puck."""
    st = arrange(singles(), {1: (200, 900), 2: (900, 60), 3: (800, 600), 9: (900, 300)})
    r = play(st, 0, cut(st, 0, 1, "NW", 500, 60, 3000)).ruling
    assert r.pocketed == (1,)
    assert not r.crossed_line
    assert_keeps_turn(r)


def test_opponents_puck_pocketed_with_own_ends_the_series():
    """004 § 25 (1) 2), 000 § 7: an opponent's puck in together with his own."""
    from server.games.novuss.rules import judge
    from server.games.novuss.sim.types import DiscContact, Event, Pocketed, Shot

    from .helpers import fake

    st = arrange(singles(), {1: (800, 750), 2: (200, 600), 9: (850, 800), 10: (300, 300)})
    events: list[Event] = [
        DiscContact(0.5, 0, 1, 500.0),
        Pocketed(1.0, 1, "NE"),
        Pocketed(1.2, 9, "NE"),
    ]
    shot = Shot(MID, 60.0, 1.2, 1500.0)
    r = judge(st, 0, shot, fake(st, events, {1: "pocket", 9: "pocket"}))
    assert_legal(r)
    assert_turn_passes(r, to=1)
    assert_cites(r, "§ 25 (1) 2)")


def test_opponents_blind_puck_knocked_out_directly_stays_but_is_penalised():
    """004 § 21 (6): an opponent's blind puck knocked out of the centre circle with a
    direct stroke is left where it went; the striker is penalised."""
    st = arrange(singles(), {1: (200, 900), 9: (MID, 600)})
    r = play(st, 0, hit(st, 0, 9, 900)).ruling
    assert_penalty(r, "§ 24 (1) 2)")
    assert_not_restored(r, 9)


def test_both_physics_engines_get_the_same_ruling():
    """The referee reads the Cython core and its pure-Python twin alike."""
    st = arrange(singles(), {1: (200, 900), 2: (800, 600), 9: (900, 300)})
    shot = cut(st, 0, 1, "NW", 500, 60, 3000)
    a = play(st, 0, shot, engine="cython").ruling
    b = play(st, 0, shot, engine="python").ruling
    assert a.to_dict() == b.to_dict()
    assert a.state == b.state
