"""Doubles (004 § 28, 000 § 9): four seats, partners opposite, clockwise order, partner's
pucks, blind zones, penalties against the strike-right holder, the 16-puck debt rule,
seats moving clockwise after each set.

Set 1: seat 0 at S, 1 at W, 2 at N, 3 at E; team 0 = seats 0 & 2 (pucks 1-8 set up along
N, 17-24 along S), team 1 = seats 1 & 3 (pucks 9-16 along E, 25-32 along W).
"""

from __future__ import annotations

from server.games.novuss.rules import judge, judge_pass
from server.games.novuss.sim.types import DiscContact, Event, Pocketed, Shot

from .helpers import (
    MID,
    arrange,
    assert_keeps_turn,
    assert_legal,
    assert_penalty,
    assert_restored,
    assert_set_result,
    assert_turn_passes,
    doubles,
    fake,
    hit,
    play,
    pot,
)


def test_partners_sit_opposite_and_the_order_is_clockwise():
    """004 § 28 (1), 000 § 9: S, W, N, E; partners 0 & 2 and 1 & 3."""
    st = doubles()
    assert [st.side_of(s) for s in range(4)] == ["S", "W", "N", "E"]
    assert [st.next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert st.teammates(0) == (0, 2) and st.teammates(1) == (1, 3)
    assert len(st.on_table()) == 32


def test_after_each_set_players_move_one_place_clockwise_and_s_keeps_the_first_strike():
    """004 § 28 (1): the first strike stays with one side; players move clockwise."""
    st = arrange(doubles(), {1: (800, 750), 9: (500, 900)})
    r = play(st, 0, pot(st, 0, 1, "NE")).ruling
    assert_set_result(r, "won", 0)
    s = r.state
    assert [s.side_of(k) for k in range(4)] == ["W", "N", "E", "S"]
    assert s.first_side == "S" and s.turn_seat == 3


def test_pocketing_the_partners_puck_goes_on():
    """004 § 28 (2), 000 § 9: a player may pocket his partner's pucks too."""
    st = arrange(doubles(), {17: (800, 750), 2: (200, 600), 9: (500, 900)})
    r = play(st, 0, pot(st, 0, 17, "NE")).ruling
    assert_legal(r)
    assert_keeps_turn(r)


def test_partners_puck_in_partners_rail_zone_may_be_struck_directly():
    """004 § 28 (3): from the zone of his partner's rail he may strike his own and his
    partner's pucks directly."""
    st = arrange(doubles(), {17: (MID, 1000), 2: (200, 600), 9: (500, 700)})
    r = play(st, 0, hit(st, 0, 17, 300)).ruling
    assert_legal(r)


def test_partners_puck_in_own_rail_zone_is_blind():
    """004 § 28 (3): pucks in the zone of his own rail only with a rebound."""
    st = arrange(doubles(), {17: (800, 100), 2: (200, 600), 9: (500, 700)})
    from .helpers import shot_at

    r = play(st, 0, shot_at(st, 0, 600, 40, (800, 100), 200)).ruling
    assert_penalty(r, "§ 24 (1) 8)")


def test_doubles_opponents_puck_driven_into_centre_circle_is_restored():
    """004 § 28 (4): an opponent's puck sent into the centre circle with a direct stroke
    goes back."""
    st = arrange(doubles(), {1: (200, 800), 9: (MID, 300)})
    r = play(st, 0, hit(st, 0, 9, 430)).ruling
    assert_penalty(r, "§ 24 (1) 2)")
    assert_restored(r, 9, st)


def test_doubles_opponents_puck_driven_into_an_edge_zone_stays_with_a_penalty():
    """004 § 28 (3), 000 § 9: into a rail-side zone: not restored, but a penalty puck."""
    st = arrange(doubles(), {1: (200, 800), 9: (300, 850)})
    r = play(st, 0, hit(st, 0, 9, 400)).ruling
    assert_penalty(r, "§ 24 (1) 2)")
    assert 9 not in [s[0] for s in r.restored]
    assert r.state.puck(9).y > 960 - 2.5


def test_turn_passes_clockwise():
    """004 § 28 (1): the order of strokes moves clockwise."""
    st = arrange(doubles(), {1: (540, 750), 9: (300, 900)})
    r = play(st, 0, hit(st, 0, 1, 300)).ruling
    assert_turn_passes(r, to=1)


def test_penalty_puck_goes_opposite_the_striker_and_waits_while_that_row_is_untouched():
    """004 § 28 (5), (6): the penalty puck goes in the zone opposite the player at the
    stroke, only once the row there has been moved and the pair has under 16 pucks on
    the table; otherwise it is a debt."""
    st = doubles()
    # Seat 0's partner pocketed some of the pair's pucks, but seat 0's own row (along N)
    # is untouched.
    pucks = {p.id: (p.x, p.y) for p in st.on_table() if p.id not in (17, 18)}
    st = arrange(st, pucks, intact_rows=("N",))
    r = judge_pass(st, 0)
    assert r.penalty_placed == () and r.state.debt == (1, 0, 0, 0)
    # Once the N row has been moved, the debt is placed when seat 0 loses the strike right.
    moved = dict(pucks)
    moved[1] = (700.0, 700.0)
    st2 = arrange(st, moved, intact_rows=(), debt=(1, 0, 0, 0))
    r2 = judge_pass(st2, 0)
    assert len(r2.penalty_placed) == 2 and r2.state.debt == (0, 0, 0, 0)
    assert all(abs(y - (1080 - 14)) < 1e-6 for _, _, y in r2.penalty_placed)


def test_sixteen_cleared_in_the_first_series_gives_the_next_opponent_an_answer():
    """004 § 28 (7): the opener pockets all 16 of his pair's pucks in his first series: the
    next player of the other pair answers; if he does not clear his pair's 16, they lose."""
    st = arrange(doubles(), {1: (800, 750), 9: (300, 300), 25: (700, 300)}, struck=(0,))
    r = play(st, 0, pot(st, 0, 1, "NE")).ruling
    assert r.set_result is None and r.state.answering == 0
    assert_turn_passes(r, to=1)
    r2 = judge_pass(r.state, 1)
    assert_set_result(r2, "won", 0)


def test_sixteen_and_sixteen_replays_the_set():
    """004 § 28 (7): if the answering player clears his pair's pucks too, the set is
    replayed."""
    st = arrange(doubles(), {9: (700, 800)}, turn=1, struck=(0, 1), answering=0)
    events: list[Event] = [DiscContact(0.5, 0, 9, 500.0), Pocketed(1.0, 9, "NE")]
    r = judge(st, 1, Shot(60, MID, 0.0, 1000.0), fake(st, events, {9: "pocket"}))
    assert_set_result(r, "replayed", None)


def test_doubles_opening_stroke_into_the_full_set_up():
    """004 § 19, § 28 (1): the opening stroke of a doubles set, 32 pucks and the striker
    through the physics; seat 0 strikes at his own row along N."""
    st = doubles()
    r = play(st, 0, hit(st, 0, 4, 3000)).ruling
    assert r.first_touch == (4,)
    assert_legal(r)
    for p in r.state.on_table():
        assert 14 - 1e-6 <= p.x <= 1066 + 1e-6 and 14 - 1e-6 <= p.y <= 1066 + 1e-6, p
    assert not r.respotted, r.text()
