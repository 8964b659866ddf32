"""Sets and the match: winning, losing, annulled and replayed sets, the 8 + 8 opening,
the three-miss rule, sides changing, the result (004 § 23, § 27, § 32; 000 § 8, § 10)."""

from __future__ import annotations

from dataclasses import replace

from server.games.novuss.rules import MatchState, Ruling, judge
from server.games.novuss.sim.types import DiscContact, Event, LeftTable, Pocketed, StrikerZone

from .helpers import (
    MID,
    L,
    arrange,
    assert_cites,
    assert_set_result,
    assert_turn_passes,
    fake,
    play,
    pot,
    shot_at,
    singles,
    to_strike,
    up,
)


def pot_fake(state: MatchState, seat: int, *pids: int, crossed: bool = False) -> Ruling:
    """A synthetic stroke: the striker touches pids[0] first and every pid goes in."""
    events: list[Event] = [
        StrikerZone(0.01, state.side_of(seat), False),
        DiscContact(0.5, 0, pids[0], 500.0),
        *(Pocketed(1.0 + k, pid, "NE") for k, pid in enumerate(pids)),
    ]
    if crossed:
        events.append(StrikerZone(3.0, state.side_of(seat), True))
    return judge(state, seat, up(state, seat), fake(state, events, dict.fromkeys(pids, "pocket")))


def test_pocketing_the_last_puck_wins_the_set_and_players_change_sides():
    """004 § 27 (2), (3): the first to pocket all his pucks wins; sides change, the first
    strike stays with the S side."""
    st = arrange(singles(), {1: (800, 750), 9: (500, 900)})
    r = play(st, 0, pot(st, 0, 1, "NE")).ruling
    assert_set_result(r, "won", 0)
    assert r.state.sets_won == (1, 0) and r.state.sets_played == 1
    assert r.state.side_of(0) == "N" and r.state.side_of(1) == "S"
    assert r.state.turn_seat == 1 and r.state.first_side == "S"
    assert len(r.state.on_table()) == 16


def test_last_puck_with_striker_crossing_back_loses_the_set():
    """004 § 27 (4), (6), 000 § 8: the last puck pocketed, but the striker came back over
    his own line: the set is lost."""
    st = arrange(singles(), {1: (200, 900), 9: (900, 300)})
    r = pot_fake(st, 0, 1, crossed=True)
    assert_set_result(r, "lost", 1)


def test_own_and_opponents_last_pucks_together_annul_the_set():
    """004 § 27 (4): his last puck and the opponent's last puck in one legal stroke."""
    st = arrange(singles(), {1: (800, 750), 9: (850, 800)})
    r = pot_fake(st, 0, 1, 9)
    assert_set_result(r, "annulled", None)
    assert r.state.sets_played == 0 and r.state.sets_won == (0, 0)
    assert r.state.side_of(0) == "S" and r.state.turn_seat == 0


def test_own_and_opponents_last_pucks_with_a_penalty_lose_the_set():
    """004 § 27 (4): if that stroke is penalised, the set is lost for the striker."""
    st = arrange(singles(), {1: (800, 750), 9: (850, 800)})
    events: list[Event] = [
        DiscContact(0.5, 0, 9, 500.0),
        Pocketed(1.0, 1, "NE"),
        Pocketed(1.1, 9, "NE"),
    ]
    r = judge(st, 0, up(st, 0), fake(st, events, {1: "pocket", 9: "pocket"}))
    assert_set_result(r, "lost", 1)


def test_pocketing_the_opponents_last_puck_gives_him_the_set():
    """004 § 27 (3) (read with § 27 (4)): the opponent's last puck in: his pucks are all in."""
    st = arrange(singles(), {1: (800, 750), 2: (200, 600), 9: (850, 800)})
    r = pot_fake(st, 0, 1, 9)
    assert_set_result(r, "won", 1)


def test_eight_plus_eight_opening_gives_the_opponent_an_answer_and_replays():
    """004 § 27 (5), (6): the opener clears the table in his first series; the series
    stops, the opponent answers; if he clears too, the set is replayed with sides and
    opening stroke changed; the next set's opening stays as drawn."""
    st = arrange(singles(), {1: (800, 750), 9: (500, 900)}, set_strokes=7, struck=(0,))
    r = play(st, 0, pot(st, 0, 1, "NE")).ruling
    assert r.set_result is None and r.state.answering == 0
    assert_turn_passes(r, to=1)
    assert_cites(r, "§ 27 (5)")
    # The opponent's first series: he clears his last puck too.
    ans = arrange(r.state, {9: (250, 400)}, set_strokes=8, struck=(0, 1), answering=0)
    r2 = play(ans, 1, pot(ans, 1, 9, "SW")).ruling
    assert_set_result(r2, "replayed", None)
    s = r2.state
    assert s.sets_played == 0 and s.side_of(1) == "S" and s.turn_seat == 1
    # Set 1 replayed and won by seat 1: set 2 opens with whoever the draw says (side S).
    s2 = arrange(s, {9: (800, 750), 1: (300, 300)}, turn=1)
    r3 = play(s2, 1, pot(s2, 1, 9, "NE")).ruling
    assert_set_result(r3, "won", 1)
    assert r3.state.side_of(1) == "S" and r3.state.turn_seat == 1


def test_eight_plus_eight_answer_that_fails_loses_the_set():
    """004 § 27 (5): the answering player does not clear his pucks in his first series."""
    st = arrange(singles(), {9: (300, 600), 10: (700, 700)}, turn=1, struck=(0, 1), answering=0)
    r = play(st, 1, shot_at(st, 1, 540, 60, (540, 300), 0.0)).ruling
    assert_set_result(r, "won", 0)


def test_eight_plus_eight_answer_with_striker_crossing_loses_the_set():
    """004 § 27 (6): both cleared in their first series but the answerer lost the strike
    right with his last stroke (striker back over his line): the set is his loss."""
    st = arrange(singles(), {9: (300, 600)}, turn=1, struck=(0, 1), answering=0)
    r = pot_fake(st, 1, 9, crossed=True)
    assert_set_result(r, "lost", 0)


def test_eight_plus_eight_opener_whose_last_stroke_pocketed_an_opponents_puck_loses_the_set():
    """004 § 27 (6) with § 25 (1) 2): the opener's clearing stroke also pocketed an
    opponent's puck, so it lost the strike right as well as stopping the series: the
    opponent still answers, and if he clears too, the set is the opener's loss, not a
    replay."""
    st = arrange(singles(), {1: (800, 750), 9: (850, 800), 10: (300, 600)}, set_strokes=7,
                 struck=(0,))  # fmt: skip
    r = pot_fake(st, 0, 1, 9)
    assert r.set_result is None and r.state.answering == 0 and r.state.answer_forfeit
    assert_turn_passes(r, to=1)
    r2 = pot_fake(r.state, 1, 10)
    assert_set_result(r2, "lost", 1)
    assert_cites(r2, "§ 27 (6)")
    assert any(ln.code == "set.lost.eight_eight_right_lost" for ln in r2.lines)


def test_eight_plus_eight_opener_whose_last_stroke_sent_a_puck_over_the_rail_loses_the_set():
    """004 § 27 (6) with § 25 (1) 3): a puck over the rail from the clearing stroke loses the
    strike right; the answer that clears wins the set for the answerer."""
    st = arrange(singles(), {1: (800, 750), 9: (850, 800)}, set_strokes=7, struck=(0,))
    events: list[Event] = [
        StrikerZone(0.01, "S", False),
        DiscContact(0.5, 0, 1, 500.0),
        LeftTable(0.8, 9, "N"),
        Pocketed(1.0, 1, "NE"),
    ]
    r = judge(st, 0, up(st, 0), fake(st, events, {1: "pocket", 9: "off"}))
    assert r.set_result is None and r.state.answering == 0 and r.state.answer_forfeit
    left = [p.id for p in r.state.on_table() if p.owner == 1]
    assert left == [9], "re-spotted in the centre circle (§ 20 (14))"
    answer = arrange(r.state, {9: (250, 400)})  # where a rebound would have left it
    r2 = pot_fake(answer, 1, 9)
    assert_set_result(r2, "lost", 1)


def test_eight_plus_eight_opener_who_kept_the_strike_right_still_gets_a_replay():
    """004 § 27 (5), (6): stopping the series is not losing the strike right."""
    st = arrange(singles(), {1: (800, 750), 9: (500, 900)}, set_strokes=7, struck=(0,))
    r = pot_fake(st, 0, 1)
    assert r.state.answering == 0 and not r.state.answer_forfeit
    assert_set_result(pot_fake(r.state, 1, 9), "replayed", None)


def test_three_missed_turns_each_at_centre_circle_pucks_annul_the_set():
    """004 § 27 (6): both players have pucks only in the centre circle and neither
    touches his in three consecutive turns each: annulled, same sides and opening."""
    st = arrange(singles(), {1: (MID - 40, MID), 9: (MID + 40, MID)}, turn=0)
    r = None
    for k in range(6):
        seat = st.turn_seat
        assert seat == k % 2
        shot = shot_at(st, seat, 200, 60, _far_rail(st, seat), 900)
        r = play(st, seat, shot).ruling
        assert not r.penalty, r.text()
        if k < 5:
            assert r.set_result is None and r.state.misses == k + 1
        st = r.state
    assert r is not None
    assert_set_result(r, "annulled", None)
    assert_cites(r, "§ 27 (6)")
    assert r.state.side_of(0) == "S" and r.state.turn_seat == 0


def test_three_miss_rule_with_000_option_counts_blind_edge_zone_pucks():
    """000 § 8 (option three_miss="blind"): pucks left only in blind zones count too."""
    st = arrange(singles(three_miss="blind"), {1: (MID, 60), 9: (MID, L - 60)}, turn=0)
    for _ in range(6):
        seat = to_strike(st)
        r = play(st, seat, shot_at(st, seat, 200, 60, _far_rail(st, seat), 900)).ruling
        st = r.state
    assert_set_result(r, "annulled", None)
    assert_cites(r, "000 § 8")


def _far_rail(state: MatchState, seat: int) -> tuple[float, float]:
    from server.games.novuss.rules.geometry import to_world

    return to_world(state.side_of(seat), 200, L - 24, L)


def test_match_is_over_when_someone_has_more_than_half_the_sets():
    """004 § 32 (1): more than half of the scheduled sets wins; no more sets are played."""
    st = singles(sets=4)
    for k in range(3):
        assert not st.finished and st.sets_won == (k, 0)
        st = arrange(st, {1: (800, 750), 9: (500, 900)}, turn=0)
        r = pot_fake(st, 0, 1)
        st = r.state
    assert r.match_result is not None and r.match_result["winner"] == 0
    assert st.finished and st.turn_seat is None and st.sets_won == (3, 0)


def test_even_number_of_sets_can_end_in_a_draw():
    """004 § 32 (1), 000 § 10: in a match of an even number of sets a draw is possible."""
    st = singles(sets=2)
    st = pot_fake(arrange(st, {1: (800, 750), 9: (500, 900)}, turn=0), 0, 1).state
    st = pot_fake(arrange(st, {9: (800, 750), 1: (500, 900)}, turn=1), 1, 9).state
    assert st.finished and st.match_result is not None and st.match_result["winner"] is None
    assert st.match_result["sets_won"] == [1, 1]


def test_finished_set_stays_finished():
    """A set that ended is never reopened: the next state is a fresh set."""
    st = arrange(singles(), {1: (800, 750), 9: (500, 900)})
    r = pot_fake(st, 0, 1)
    assert r.state.set_results[-1]["set"] == 1 and r.state.set_no == 2
    assert replace(r.state).set_results == r.state.set_results
