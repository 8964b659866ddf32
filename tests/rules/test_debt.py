"""Penalty pucks owed (004 § 24 (4)-(7), 000 § 6): when there is no puck to place, when
a debt comes out, several at once."""

from __future__ import annotations

from server.games.novuss.rules import MatchState, Ruling, judge, judge_pass
from server.games.novuss.sim.types import DiscContact, Event, Pocketed

from .helpers import (
    arrange,
    assert_keeps_turn,
    assert_pucks_account,
    fake,
    play,
    pot,
    singles,
    up,
)


def stroke(state: MatchState, seat: int, first: int, pocketed: list[int]) -> Ruling:
    events: list[Event] = [DiscContact(0.5, 0, first, 500.0)]
    events += [Pocketed(1.0 + k, pid, "NE") for k, pid in enumerate(pocketed)]
    return judge(
        state, seat, up(state, seat), fake(state, events, dict.fromkeys(pocketed, "pocket"))
    )


def test_penalty_with_all_eight_pucks_on_the_table_is_a_debt():
    """004 § 24 (4), 000 § 6: all 8 pucks on the table: the penalty puck is owed."""
    r = judge_pass(singles(), 0)
    assert r.penalty and r.penalty_placed == () and r.state.debt == (1, 0)
    assert_pucks_account(r.state)


def test_debt_comes_out_at_once_when_the_opponent_pockets_one_of_his_pucks():
    """004 § 24 (5): the opponent knocks one of the debtor's pucks into a hole."""
    st = singles()
    pucks = {p.id: (p.x, p.y) for p in st.on_table()}
    pucks[9] = (300.0, 700.0)
    pucks[1] = (600.0, 650.0)
    st = arrange(st, pucks, debt=(0, 1))
    r = stroke(st, 0, 1, [9])
    assert r.state.debt == (0, 0)
    assert [r.state.puck(pid).owner for pid, _, _ in r.penalty_placed] == [1]
    assert_pucks_account(r.state)


def test_debt_waits_while_the_debtor_keeps_the_strike_right():
    """004 § 24 (6): the penalty puck is placed only after he loses the strike right."""
    st = arrange(singles(), {1: (800, 750), 2: (200, 600), 9: (500, 900)}, debt=(1, 0))
    r = play(st, 0, pot(st, 0, 1, "NE")).ruling
    assert_keeps_turn(r)
    assert r.penalty_placed == () and r.state.debt == (1, 0)
    r2 = judge_pass(r.state, 0)
    assert len(r2.penalty_placed) == 2 and r2.state.debt == (0, 0)


def test_debt_comes_out_when_his_last_puck_goes_in_and_the_series_goes_on():
    """004 § 24 (6): all his pucks pocketed without losing the strike right: the owed
    penalty pucks are placed at once and he goes on (singles)."""
    st = arrange(singles(), {1: (800, 750), 9: (500, 900)}, debt=(2, 0))
    r = play(st, 0, pot(st, 0, 1, "NE")).ruling
    assert r.set_result is None
    assert len(r.penalty_placed) == 2 and r.state.debt == (0, 0)
    assert_keeps_turn(r)


def test_several_debts_come_out_together_up_to_the_pucks_available():
    """004 § 24 (7): all at once, never more than the set-up number; the rest stays owed."""
    st = singles()
    pucks = {p.id: (p.x, p.y) for p in st.on_table() if p.id not in (1, 2)}
    st = arrange(st, pucks, debt=(3, 0), intact_rows=())
    r = judge_pass(st, 0)
    assert len(r.penalty_placed) == 2 and r.state.debt == (2, 0)
    assert sum(1 for p in r.state.on_table() if p.owner == 0) == 8
    assert_pucks_account(r.state)
