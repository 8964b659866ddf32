"""Round robin: the order of chess (Berger) tables and the opening stroke (004 § 31 (1) 1)),
points 2/1/0 (004 § 32 (2) 1)), tie-breaks, and the standings of a small table by hand."""

from __future__ import annotations

import pytest

from server.competitions.table import Settings, Tournament
from server.competitions.table.roundrobin import berger_round, round_count

from .helpers import by_names, play_round, players, started

# FIDE's Berger table for six players (Handbook C.05, Annex 1)
FIDE_SIX = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]


def test_berger_table_for_six_is_fides():
    for index, row in enumerate(FIDE_SIX):
        got = " ".join(f"{a + 1}-{b + 1}" for a, b in berger_round(6, index) if b is not None)
        assert got == row


def test_berger_table_for_five_rests_the_one_paired_with_the_dummy():
    # five players use the table of six; who would meet number 6 rests
    assert berger_round(5, 0) == [(1, 4), (2, 3), (0, None)]
    assert berger_round(5, 1) == [(4, 2), (0, 1), (3, None)]


@pytest.mark.parametrize("n", range(2, 17))
def test_everyone_meets_everyone_once(n):
    seen: set[frozenset[int]] = set()
    for index in range(round_count(n)):
        pairs = berger_round(n, index)
        playing = [x for a, b in pairs for x in (a, b) if x is not None]
        assert sorted(playing) == list(range(n))
        for a, b in pairs:
            if b is not None:
                assert frozenset((a, b)) not in seen
                seen.add(frozenset((a, b)))
    assert len(seen) == n * (n - 1) // 2


def test_opener_is_the_one_placed_first_in_the_table_of_rounds():
    # 004 § 31 (1) 1): the first of each pair in the Berger table opens
    t = started(Settings(), players("ABCDEF"), seed=5)
    t = t.pair_next_round()
    order = [e.id for e in t.entrants]
    assert t.pairing_for(order[0]) == t.rounds[-1][0]
    for (i, j), p in zip(berger_round(6, 0), t.rounds[-1], strict=True):
        assert j is not None
        assert (p.a, p.b) == (order[i], order[j])
        assert p.opener == order[i]


def test_the_table_order_is_drawn_by_lot_from_the_seed():
    # 004 § 31 (1) 1): the participants are drawn into the tournament table
    ids = [
        [e.id for e in started(Settings(), players("ABCDEFGH"), seed=s).entrants] for s in range(6)
    ]
    assert all(sorted(order) == list("ABCDEFGH") for order in ids)
    assert len({tuple(order) for order in ids}) > 1
    assert ids[0] == [e.id for e in started(Settings(), players("ABCDEFGH"), seed=0).entrants]


# A beats everyone 3:0; B beats C 3:0 and D 3:1; C and D draw 2:2.
SMALL = {
    frozenset("AB"): ("A", 3, 0),
    frozenset("AC"): ("A", 3, 0),
    frozenset("AD"): ("A", 3, 0),
    frozenset("BC"): ("B", 3, 0),
    frozenset("BD"): ("B", 3, 1),
    frozenset("CD"): ("C", 2, 2),
}


def test_small_round_robin_standings_by_hand():
    t = started(Settings(tiebreaks=("sets_difference",)), players("ABCD"))
    for _ in range(3):
        t = play_round(t, by_names(SMALL))
    assert t.finished
    got = [
        (s.rank, s.entrant, s.points, s.sets_for, s.sets_against, s.tiebreaks)
        for s in t.standings()
    ]
    # 004 § 32 (2) 1): 2 for a win, 1 for a draw. C: 0:3 0:3 2:2 = 2:8; D: 0:3 1:3 2:2 = 3:8
    assert got == [
        (1, "A", 6.0, 9, 0, (9.0,)),
        (2, "B", 4.0, 6, 4, (2.0,)),
        (3, "D", 1.0, 3, 8, (-5.0,)),
        (4, "C", 1.0, 2, 8, (-6.0,)),
    ]
    with pytest.raises(Exception) as refused:
        t.pair_next_round()
    assert getattr(refused.value, "code", None) == "finished"


# B beats A, A beats C and D, C beats B, D beats C: A and B on 4, C and D on 2.
LOOP = {
    frozenset("AB"): ("B", 3, 0),
    frozenset("AC"): ("A", 3, 0),
    frozenset("AD"): ("A", 3, 0),
    frozenset("BC"): ("C", 3, 0),
    frozenset("BD"): ("B", 3, 1),
    frozenset("CD"): ("D", 3, 1),
}


def _loop(tiebreaks: tuple[str, ...]) -> Tournament:
    t = started(Settings(tiebreaks=tiebreaks), players("ABCD"))
    for _ in range(3):
        t = play_round(t, by_names(LOOP))
    return t


def test_sets_difference_puts_a_ahead_of_b():
    # A 6:3, B 6:4, C 4:6, D 4:7
    assert [s.entrant for s in _loop(("sets_difference",)).standings()] == list("ABCD")


def test_head_to_head_puts_b_ahead_of_a_and_d_ahead_of_c():
    lines = _loop(("head_to_head",)).standings()
    assert [(s.rank, s.entrant, s.tiebreaks) for s in lines] == [
        (1, "B", (2.0,)),
        (2, "A", (0.0,)),
        (3, "D", (2.0,)),
        (4, "C", (0.0,)),
    ]


def test_buchholz_and_sonneborn_berger_values_by_hand():
    lines = {s.entrant: s for s in _loop(("buchholz", "sonneborn_berger")).standings()}
    # Buchholz: the opponents' points. Everyone met everyone: 12 - own points.
    assert {e: s.tiebreaks[0] for e, s in lines.items()} == {
        "A": 8.0,
        "B": 8.0,
        "C": 10.0,
        "D": 10.0,
    }
    # Sonneborn-Berger: A beat C (2) and D (2); B beat A (4) and D (2); C beat B (4); D beat C (2)
    assert {e: s.tiebreaks[1] for e, s in lines.items()} == {"A": 4.0, "B": 6.0, "C": 4.0, "D": 2.0}
    assert [s.entrant for s in lines.values()] == ["B", "A", "C", "D"]


def test_level_on_everything_share_a_rank():
    table = {k: ("A" if "A" in k else min(k), 2, 2) for k in LOOP}
    t = started(Settings(tiebreaks=("sets_difference",)), players("ABCD"))
    for _ in range(3):
        t = play_round(t, by_names(table))
    assert [s.rank for s in t.standings()] == [1, 1, 1, 1]
    assert all(s.points == 3.0 and s.draws == 3 for s in t.standings())


def test_crosstable_shows_each_result_from_the_rows_side():
    t = started(Settings(), players("ABCD"))
    for _ in range(3):
        t = play_round(t, by_names(SMALL))
    ct = t.crosstable()
    row = {
        e: dict(zip(ct.entrants, cells, strict=True))
        for e, cells in zip(ct.entrants, ct.cells, strict=True)
    }
    assert row["A"]["B"] == "3:0" and row["B"]["A"] == "0:3"
    assert row["C"]["D"] == "2:2" and row["D"]["B"] == "1:3"
    assert row["A"]["A"] == "x"
    assert dict(zip(ct.entrants, ct.points, strict=True)) == {
        "A": 6.0,
        "B": 4.0,
        "C": 1.0,
        "D": 1.0,
    }


def test_doubles_scores_four_two_nothing():
    # 004 § 32 (2) 2)
    from server.competitions.table import Entrant, Result

    pairs = [Entrant(x, x, None, (x + "1", x + "2")) for x in "PQ"]
    t = started(Settings(kind="doubles"), pairs).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    t = t.record(Result(1, p.a, p.b, 2, 2))
    assert [s.points for s in t.standings()] == [2.0, 2.0]
    t2 = (
        started(Settings(kind="doubles"), pairs).pair_next_round().record(Result(1, "P", "Q", 3, 1))
    )
    assert {s.entrant: s.points for s in t2.standings()} == {"P": 4.0, "Q": 0.0}
