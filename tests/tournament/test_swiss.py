"""Swiss system: score groups, no rematch, the bye to the last in the table as a draw
(004 § 29 (5), § 32 (2) note 3), the opening stroke by lot (004 § 31 (1) 2)), and a small
Swiss worked by hand."""

from __future__ import annotations

import pytest

from server.competitions.table import Finished, NoPairing, Settings, Tournament
from server.competitions.table.swiss import pair_swiss, sure_rounds

from .helpers import by_names, play_round, players, started

SWISS = Settings(system="swiss", rounds=3, tiebreaks=("sets_difference", "buchholz"))


def _pairs(t: Tournament) -> list[tuple[int, str, str | None]]:
    return [(p.table, p.a, p.b) for p in t.rounds[-1]]


def test_small_swiss_by_hand():
    t = started(SWISS, players("ABCDE", [1500, 1400, 1300, 1200, 1100]))
    # the table starts by rating; the last (E) has the bye; in the group of four the top half
    # meets the bottom half: A-C, B-D
    assert [e.id for e in t.entrants] == list("ABCDE")
    t = play_round(t, by_names({frozenset("AC"): ("A", 3, 1), frozenset("BD"): ("D", 3, 0)}))
    assert _pairs(t) == [(1, "A", "C"), (2, "B", "D"), (3, "E", None)]
    # after round 1: D 2 (+3), A 2 (+2), E 1 (the bye, a draw), C 0 (-2), B 0 (-3).
    # B is last and has had no bye; D-A is the only pair on equal points; E-C the rest
    t = play_round(t, by_names({frozenset("AD"): ("D", 2, 2), frozenset("CE"): ("C", 3, 0)}))
    assert _pairs(t) == [(1, "D", "A"), (2, "E", "C"), (3, "B", None)]
    # after round 2: D 3 (+3), A 3 (+2), C 2 (+1), B 1 (-3), E 1 (-3).
    # B and E have had the bye, so it goes to C, the lowest who has not; D has met A and B,
    # so D-E and A-B
    t = play_round(t, by_names({frozenset("DE"): ("D", 3, 1), frozenset("AB"): ("B", 3, 0)}))
    assert _pairs(t) == [(1, "D", "E"), (2, "A", "B"), (3, "C", None)]
    assert t.finished
    got = [
        (s.rank, s.entrant, s.points, s.sets_for, s.sets_against, s.tiebreaks)
        for s in t.standings()
    ]
    # Buchholz, byes not counted: D: B 3 + A 3 + E 1; C: A 3 + E 1; B: D 5 + A 3;
    # A: C 3 + D 5 + B 3; E: D 5 + C 3
    assert got == [
        (1, "D", 5.0, 8, 3, (5.0, 7.0)),
        (2, "C", 3.0, 4, 3, (1.0, 4.0)),
        (3, "B", 3.0, 3, 3, (0.0, 8.0)),
        (4, "A", 3.0, 5, 6, (-1.0, 11.0)),
        (5, "E", 1.0, 1, 6, (-5.0, 8.0)),
    ]


def test_bye_scores_a_draw_in_singles_doubles_and_scales():
    # 004 § 32 (2) note 3: the one left without an opponent gets a drawn result's points
    t = started(SWISS, players("ABC", [3, 2, 1])).pair_next_round()
    bye = [p.a for p in t.rounds[-1] if p.b is None]
    assert bye == ["C"]
    assert {s.entrant: s.points for s in t.standings()}["C"] == 1.0
    from server.competitions.table import Entrant, Scale

    pairs = [Entrant(x, x, 10.0 - i, (x + "1", x + "2")) for i, x in enumerate("PQR")]
    t = started(Settings(kind="doubles", system="swiss", rounds=2), pairs).pair_next_round()
    assert {s.entrant: s.points for s in t.standings()}["R"] == 2.0
    friendly = Settings(system="swiss", rounds=2, points=Scale(2.0, 1.5, 0.5))
    t = started(friendly, players("ABC", [3, 2, 1])).pair_next_round()
    assert {s.entrant: s.points for s in t.standings()}["C"] == 1.5


def test_opener_is_drawn_by_lot_and_the_same_for_the_same_seed():
    # 004 § 31 (1) 2)
    t = started(
        Settings(system="swiss", rounds=1), players([f"p{i:02}" for i in range(40)]), seed=9
    )
    t = t.pair_next_round()
    openers = [p.opener for p in t.rounds[-1]]
    assert all(p.opener in (p.a, p.b) for p in t.rounds[-1])
    assert {o == p.a for o, p in zip(openers, t.rounds[-1], strict=True)} == {True, False}
    again = started(
        Settings(system="swiss", rounds=1), players([f"p{i:02}" for i in range(40)]), seed=9
    )
    assert [p.opener for p in again.pair_next_round().rounds[-1]] == openers


def test_no_pairing_without_a_rematch_is_refused_not_forced():
    # four who have all met: no round can be paired
    met = {frozenset(p) for p in ("AB", "AC", "AD", "BC", "BD", "CD")}
    with pytest.raises(NoPairing) as refused:
        pair_swiss(list("ABCD"), {}, met, set())
    assert refused.value.code == "no_pairing"


def test_a_swiss_whose_next_round_cannot_be_paired_ends_with_its_standings():
    """Issue 36: five entrants, four rounds, one withdraws after the first (his results struck
    out): the four left have met each other by round 3, so round 4 cannot be paired. It stalled
    for ever (NoPairing, never finished); now the competition ends there, its standings final,
    and says so (`unpaired`)."""
    t = started(Settings(system="swiss", rounds=4, sets=1), players("ABCDE", [5, 4, 3, 2, 1]))
    t = play_round(t, lambda p: (1, 0)).withdraw("E")
    for _ in range(2):
        t = play_round(t, lambda p: (1, 0))
    assert t.round == 3 and not t.finished
    standings = t.standings()
    ended = t.pair_next_round()
    assert ended.finished and ended.unpaired and ended.round == 3
    assert ended.standings() == standings
    assert Tournament.from_dict(ended.to_dict()) == ended
    for change in (ended.pair_next_round, lambda: ended.withdraw("A")):
        with pytest.raises(Finished):
            change()


@pytest.mark.parametrize("n", range(2, 13))
def test_the_rounds_sure_to_be_paired_are_paired_whatever_the_results(n):
    """sure_rounds(n) rounds pair, in the worst case met so far: every seed of random results
    and every rematch-free history the pairings made (the bound is Dirac's, swiss.py)."""
    import random

    from server.competitions.table import Result

    rounds = sure_rounds(n)
    assert rounds == (n + 1) // 2
    for seed in range(20):
        rng = random.Random(seed)
        t = started(Settings(system="swiss", rounds=rounds, sets=1), players(
            [f"p{i:02}" for i in range(n)]), seed=seed)  # fmt: skip
        while not t.finished:
            t = t.pair_next_round()
            assert not t.unpaired
            for p in t.pending():
                assert p.b is not None
                t = t.record(Result(p.round, p.a, p.b, *rng.choice(((1, 0), (0, 1)))))
        assert t.round == rounds


def test_a_floater_goes_to_the_nearest_score_group():
    # A and B on 4, C alone on 2, D, E, F on 0: A-B keeps the top group whole and C meets one
    # of the bottom group (one difference of 2 points); C meeting A or B would split both.
    points = {"A": 4.0, "B": 4.0, "C": 2.0, "D": 0.0, "E": 0.0, "F": 0.0}
    pairs = pair_swiss(list("ABCDEF"), points, set(), set())
    assert ("A", "B") in pairs
    assert next(p for p in pairs if p[0] == "C")[1] in ("D", "E", "F")


def test_bye_goes_to_the_last_who_has_not_had_one():
    # 004 § 32 (2) note 3: the last in the table, never twice to the same entrant
    points = {"A": 2.0, "B": 1.0, "C": 0.0}
    assert pair_swiss(list("ABC"), points, set(), set())[-1] == ("C", None)
    assert pair_swiss(list("ABC"), points, set(), {"C"})[-1] == ("B", None)
    # if the last's only possible opponents are taken, the bye rises rather than a rematch
    met = {frozenset("AB")}
    assert pair_swiss(list("ABC"), points, met, set()) == [("A", "C"), ("B", None)]
