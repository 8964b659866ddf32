"""Set scores a match can end with (004 § 32 (1)) and points scales (004 § 32 (2))."""

from __future__ import annotations

import pytest

from server.competitions.table import BadScore, BadSettings, Scale
from server.competitions.table.scoring import check_match_score


def _endings(sets: int) -> set[tuple[int, int]]:
    """Every final score by playing set after set, stopping once a side has won more than half
    of the scheduled sets (004 § 32 (1))."""
    out = set()
    frontier = {(0, 0)}
    while frontier:
        nxt = set()
        for a, b in frontier:
            if 2 * a > sets or 2 * b > sets or a + b == sets:
                out.add((a, b))
            else:
                nxt |= {(a + 1, b), (a, b + 1)}
        frontier = nxt
    return out


@pytest.mark.parametrize("sets", range(1, 9))
def test_exactly_the_scores_a_match_can_end_with_are_accepted(sets):
    endings = _endings(sets)
    for a in range(sets + 2):
        for b in range(sets + 2):
            if (a, b) in endings:
                check_match_score(sets, a, b)
            else:
                with pytest.raises(BadScore):
                    check_match_score(sets, a, b)


def test_four_sets_as_the_rule_book_lists():
    # 004 § 32 (1) (with the translator's note: the listed 2:2, 3:1, 3:0 fit four sets)
    assert _endings(4) == {(2, 2), (3, 1), (3, 0), (1, 3), (0, 3)}


def test_scales():
    # 004 § 32 (2) note 2: friendly ratios such as 1.5:0.5 are allowed
    assert Scale(1.5, 1.0, 0.5).draw == 1.0
    for bad in ((1.0, 1.0, 1.0), (1.0, 2.0, 0.0), (2.0, 1.0, -1.0)):
        with pytest.raises(BadSettings):
            Scale(*bad)
