"""A practice hint, followed exactly, does what it says: in a set-up position the puck
it names goes into the pocket it names, as the real physics and referee have it."""

from __future__ import annotations

import pytest

from server.games.novuss.bot import hint, pocket_name
from server.games.novuss.rules.check import check_stroke, sim_discs
from server.games.novuss.rules.judge import judge
from server.games.novuss.sim import Pocketed, simulate
from tests.rules.helpers import arrange, singles


@pytest.mark.parametrize(
    "spot",
    [
        (330.0, 760.0),  # toward NW
        (760.0, 700.0),  # toward NE
        (540.0, 900.0),  # between the far pockets
    ],
)
def test_a_hint_followed_pockets_the_puck_it_names(spot):
    # seat 0 strikes from S; his puck #3 is free (outside the circle and his zone,
    # 004 § 21 (1)); the opponent's pucks lie out of the way near the south rail.
    state = arrange(singles(), {3: spot, 9: (200.0, 300.0), 12: (880.0, 300.0)}, turn=0)
    tip = hint(state, 0, seed=1)
    assert tip.target == 3
    assert tip.pocket is not None and pocket_name(tip) is not None
    check_stroke(state, 0, tip.shot)
    result = simulate(state.table, sim_discs(state), tip.shot)
    ruling = judge(state, 0, tip.shot, result)
    assert 3 in ruling.pocketed and not ruling.penalty, ruling.text()
    # 004 § 27 (3): his last puck in, the set is his
    assert ruling.set_result is not None and ruling.set_result["winner"] == 0
    fell = [e.pocket for e in result.events if isinstance(e, Pocketed) and e.disc == 3]
    assert fell == [pocket_name(tip)]


def test_a_hint_with_pucks_to_spare_keeps_the_strike_right():
    # 004 § 20 (8), § 25 (1): an own puck pocketed, no fault: he strikes again.
    state = arrange(
        singles(),
        {2: (300.0, 700.0), 5: (800.0, 820.0), 10: (540.0, 300.0), 14: (150.0, 450.0)},
        turn=0,
    )
    tip = hint(state, 0, seed=2)
    assert tip.target in (2, 5)
    ruling = judge(state, 0, tip.shot, simulate(state.table, sim_discs(state), tip.shot))
    assert tip.target in ruling.pocketed and ruling.keeps_turn, ruling.text()
