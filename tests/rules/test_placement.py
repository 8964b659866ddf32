"""Where the referee puts pucks: penalty pucks (004 § 24 (3), 000 § 6), pucks from over
the rail (004 § 20 (14), 000 § 2), pucks on top of each other (004 § 20 (10))."""

from __future__ import annotations

import math

from server.games.novuss.rules import judge
from server.games.novuss.rules.placement import penalty_spot, respot_spot, separate
from server.games.novuss.sim import COMPETITION as T
from server.games.novuss.sim.types import DiscContact, Event, LeftTable, Shot

from .helpers import MID, L, arrange, fake, singles

R = T.puck_radius
TOP = L - R  # a puck tight against the N rail


def test_penalty_puck_goes_on_the_middle_line_against_the_rail():
    """004 § 24 (3): tightly against the rail and exactly on the middle line."""
    assert penalty_spot(T, "N", [], []) == (MID, TOP)
    assert penalty_spot(T, "S", [], []) == (MID, R)
    assert penalty_spot(T, "W", [], []) == (R, MID)


def test_penalty_puck_goes_as_near_the_middle_line_as_the_pucks_allow():
    """004 § 24 (3): if pucks are in the way, as close to the middle line as possible
    without moving them."""
    blocker = (MID + 10, TOP)
    x, y = penalty_spot(T, "N", [], [blocker])
    assert y == TOP and math.isclose(abs(x - blocker[0]), 2 * R, abs_tol=1e-5)
    assert x < MID  # the left gap (10 + 28 from the middle) is nearer than the right one


def test_penalty_puck_tie_goes_to_the_side_where_the_player_has_fewer_pucks():
    """004 § 24 (3): equal distances both ways: the side where the penalised player has
    fewer pucks; then the side with fewer pucks in all."""
    middle = (MID, TOP)
    mine_east = [(800, TOP - 40)]  # in the N edge zone, east of the middle line
    x, _ = penalty_spot(T, "N", mine_east, [middle, *mine_east])
    assert x < MID  # world west = fewer of his pucks
    others_west = [(300, TOP - 40), (250, TOP - 40)]
    x2, _ = penalty_spot(T, "N", [], [middle, *others_west])
    assert x2 > MID


def test_several_penalty_pucks_first_on_the_middle_line_then_beside_it():
    """004 § 24 (3), (7), 000 § 6: the first on the middle line, the rest as close as
    possible to it."""
    first = penalty_spot(T, "N", [], [])
    second = penalty_spot(T, "N", [], [first])
    assert first == (MID, TOP)
    assert second[1] == TOP and math.isclose(abs(second[0] - MID), 2 * R, abs_tol=1e-5)


def test_puck_over_the_rail_goes_to_the_centre_of_the_circle():
    """004 § 20 (14): at the centre of the centre circle."""
    assert respot_spot(T, "E", []) == (MID, MID)


def test_centre_taken_puck_goes_on_the_diameter_towards_the_rail_it_went_over():
    """004 § 20 (14): then on the diameter line on the side it went over, its edge touching
    the circle from inside; then the other such points, nearest that side first."""
    d = T.circle_radius - R
    x, y = respot_spot(T, "E", [(MID, MID)])
    assert math.isclose(x, MID + d) and math.isclose(y, MID)
    x2, y2 = respot_spot(T, "E", [(MID, MID), (MID + d, MID)])
    assert math.isclose(x2, MID) and math.isclose(abs(y2 - MID), d)  # a side point first
    taken = [(MID, MID), (MID + d, MID), (MID, MID + d), (MID, MID - d)]
    x3, y3 = respot_spot(T, "E", taken)
    assert math.isclose(x3, MID - d) and math.isclose(y3, MID)


def test_all_five_points_taken_puck_goes_between_them_on_its_side():
    """004 § 20 (14): on a diameter line between the other pucks, with equal gaps, first
    on the side it went over."""
    d = T.circle_radius - R
    taken = [(MID, MID), (MID + d, MID), (MID, MID + d), (MID, MID - d), (MID - d, MID)]
    x, y = respot_spot(T, "E", taken)
    assert math.isclose(y, MID) and math.isclose(x, MID + d / 2)


def test_several_pucks_over_the_rail_first_touched_goes_to_the_centre():
    """004 § 20 (14), 000 § 2: several pucks at once: the one the striker touched first
    goes to the centre, the others as above."""
    st = arrange(singles(), {1: (540, 900), 2: (560, 950), 9: (200, 300)})
    events: list[Event] = [
        DiscContact(0.3, 0, 1, 3000.0),
        DiscContact(0.31, 1, 2, 2000.0),
        LeftTable(0.4, 2, "N"),
        LeftTable(0.41, 1, "N"),
    ]
    r = judge(st, 0, Shot(540, 60, math.pi / 2, 5000), fake(st, events, {1: "off", 2: "off"}))
    assert [s[0] for s in r.respotted] == [1, 2]
    assert r.state.puck(1).x == MID and r.state.puck(1).y == MID
    assert math.isclose(r.state.puck(2).y, MID + T.circle_radius - R)


def test_pucks_at_rest_on_top_of_each_other_are_put_side_by_side():
    """004 § 20 (10): put side by side without moving other pucks."""
    moved = separate(T, {1: (500.0, 500.0), 2: (510.0, 500.0), 3: (700.0, 700.0)}, [1, 2, 3])
    assert set(moved) == {2}
    x, y = moved[2]
    assert math.isclose(math.hypot(x - 500, y - 500), 2 * R, abs_tol=1e-5) and x > 500
