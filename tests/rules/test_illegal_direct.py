"""004 § 21 (3), (4), (9), § 23 (1) 1): a direct stroke whose first touch was not a legal one
(an opponent's puck, or an own blind puck) that knocks own blind pucks out, or sends an
opponent's puck over the rail: they go back to their places, and two own blind pucks
knocked out lose the set. The referee's first edition (MatchConfig.edition 1, the matches
played before it) ruled so only after a first touch of an own blind puck (§ 21 (4)) or of an
opponent's puck (§ 21 (9)): its matches replay as they were played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from server.games.novuss.rules import MatchState, Ruling, judge
from server.games.novuss.sim.types import DiscContact, Event, LeftTable, StrikerZone

from .helpers import (
    MID,
    Move,
    arrange,
    assert_cites,
    assert_not_restored,
    assert_penalty,
    assert_restored,
    assert_set_result,
    fake,
    hit,
    play,
    singles,
    up,
)


def struck(state: MatchState, events: Sequence[Event], moves: Mapping[int, Move]) -> Ruling:
    """Seat 0's direct stroke with this event log (the striker leaving its zone first)."""
    log = [StrikerZone(0.01, state.side_of(0), False), *events]
    return judge(state, 0, up(state, 0), fake(state, log, moves))


def two_blind_knocked_out_through_an_opponents_puck(edition: int) -> tuple[MatchState, Ruling]:
    """Seat 0's pucks 1 and 3 blind in the centre circle; his direct stroke first at the
    opponent's puck 9, which knocks both out of the circle."""
    st = arrange(
        singles(edition=edition),
        {1: (MID - 20, MID + 10), 3: (MID + 20, MID + 40), 2: (200, 800), 9: (MID, 380)},
    )
    events = [DiscContact(0.3, 0, 9, 800.0), DiscContact(0.4, 9, 1, 600.0),
              DiscContact(0.45, 9, 3, 600.0)]  # fmt: skip
    return st, struck(st, events, {9: (MID, 440), 1: (MID - 60, 750), 3: (MID + 60, 760)})


def test_own_blind_pucks_knocked_out_through_an_opponents_puck_go_back_and_lose_the_set():
    """004 § 21 (3) 4): through other pucks only after a legal first touch of an own puck;
    § 21 (4), § 23 (1) 1): two or more own blind pucks knocked out with a direct stroke."""
    st, r = two_blind_knocked_out_through_an_opponents_puck(edition=2)
    assert_penalty(r, "§ 24 (1) 2)")
    # put back (the set then ends: the next set's table is the state's)
    back = [(p.id, p.x, p.y) for p in (st.puck(1), st.puck(3))]
    assert set(back) <= set(r.restored), "9 also: it went into the circle (§ 21 (7))"
    assert_set_result(r, "lost", 1)
    assert_cites(r, "§ 23 (1) 1)")


def test_one_own_blind_puck_knocked_out_through_an_opponents_puck_goes_back():
    """004 § 21 (4): one knocked out is put back in its former place; the stroke's one
    penalty puck (§ 24 (2)), the set goes on."""
    st = arrange(singles(), {1: (MID - 20, MID + 10), 2: (200, 800), 9: (MID, 380)})
    r = struck(st, [DiscContact(0.3, 0, 9, 800.0), DiscContact(0.4, 9, 1, 600.0)],
               {9: (MID, 440), 1: (MID - 60, 750)})  # fmt: skip
    assert_penalty(r, "§ 24 (1) 2)")
    assert_restored(r, 1, st)
    assert r.set_result is None


def test_the_same_stroke_by_real_physics_puts_back_the_pucks_it_knocked_into_a_hole():
    """As above with the core's own motion: one of the two blind pucks goes into a hole; it
    is put back too, not pocketed (nor taken as the penalty puck)."""
    st = arrange(singles(), {1: (MID - 16, MID - 80), 3: (MID + 16, MID - 80), 9: (MID, 370),
                             2: (150, 850), 10: (950, 950)})  # fmt: skip
    r = play(st, 0, hit(st, 0, 9, 3500.0)).ruling
    assert r.first_touch == (9,)
    assert {1, 3} <= {pid for pid, _, _ in r.restored}
    assert 1 not in r.pocketed and 3 not in r.pocketed
    assert_set_result(r, "lost", 1)


def events_over_the_rail() -> list[Event]:
    """The striker first at own puck 1 (blind at the centre), which sends the opponent's
    puck 9 over the far rail."""
    return [DiscContact(0.3, 0, 1, 800.0), DiscContact(0.35, 1, 9, 700.0), LeftTable(0.6, 9, "N")]


def test_an_opponents_puck_over_the_rail_from_a_stroke_at_an_own_blind_puck_goes_back():
    """004 § 21 (9), § 24 (1) 16): a direct stroke sends the opponent's puck over the rail:
    back to its place, not to the centre circle (where it would lie blind for its owner)."""
    st = arrange(singles(), {1: (MID, MID), 9: (MID, 700), 2: (200, 300), 10: (900, 900)})
    r = struck(st, events_over_the_rail(), {1: (MID, 640), 9: "off"})
    assert_penalty(r, "§ 24 (1) 8)")
    assert_penalty(r, "§ 24 (1) 16)")
    assert_restored(r, 9, st)
    assert r.respotted == ()


def test_the_first_edition_rules_as_its_matches_were_played():
    st, r = two_blind_knocked_out_through_an_opponents_puck(edition=1)
    assert_not_restored(r, 1)
    assert_not_restored(r, 3)
    assert r.set_result is None
    st = arrange(singles(edition=1), {1: (MID, MID), 9: (MID, 700), 2: (200, 300)})
    r = struck(st, events_over_the_rail(), {1: (MID, 640), 9: "off"})
    assert [pid for pid, _, _ in r.respotted] == [9], "re-spotted (§ 20 (14)), as it was"
