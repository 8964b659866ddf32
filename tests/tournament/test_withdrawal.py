"""Withdrawal (004 § 32 (3)) and the no-show (004 § 22 (3))."""

from __future__ import annotations

import pytest

from server.competitions.table import (
    BOTH,
    AlreadyWithdrawn,
    BadSettings,
    Entrant,
    Finished,
    NotPaired,
    Result,
    ResultTwice,
    Settings,
    Tournament,
)

from .helpers import play_round, players, started


def _first_wins(p: object) -> tuple[int, int]:
    return (3, 1)


def _robin_after(rounds: int) -> Tournament:
    t = started(Settings(), players("ABCDE"), seed=3)
    for _ in range(rounds):
        t = play_round(t, _first_wins)
    return t


def _played(t: Tournament, entrant: str) -> int:
    return sum(r.involves(entrant) for r in t.results)


def test_round_robin_half_played_unplayed_are_minus_and_plus():
    # 004 § 32 (3) 1): at least half of his 4 encounters played: minuses for him, pluses for
    # the opponents, and all results count
    t = _robin_after(2)
    leaver = next(e.id for e in t.entrants if _played(t, e.id) == 2)
    t = t.withdraw(leaver)
    assert t.withdrawals[-1].kept
    while not t.finished:
        t = play_round(t, _first_wins)
        assert all(not p.involves(leaver) for p in t.pending())
    minuses = [r for r in t.results if r.forfeit == leaver]
    assert len(minuses) == 2
    ct = t.crosstable()
    row = dict(zip(ct.entrants, ct.cells[ct.entrants.index(leaver)], strict=True))
    assert sorted(row.values()).count("-") == 2
    lines = {s.entrant: s for s in t.standings()}
    assert leaver in lines and lines[leaver].played == 4
    for r in minuses:
        winner = r.b if r.a == leaver else r.a
        wrow = dict(zip(ct.entrants, ct.cells[ct.entrants.index(winner)], strict=True))
        assert wrow[leaver] == "+"
    # the pluses count as wins: 2 points each (004 § 32 (2) 1)), no sets
    assert sum(s.points for s in lines.values()) == 2 * 10


def test_round_robin_under_half_results_struck_out():
    # 004 § 32 (3) 1): fewer than half played: his encounters are not counted and he takes
    # no part in the allocation of places; his later opponents rest
    t = _robin_after(1)
    leaver = next(e.id for e in t.entrants if _played(t, e.id) == 1)
    beaten = next(r for r in t.results if r.involves(leaver))
    t = t.withdraw(leaver)
    assert not t.withdrawals[-1].kept
    while not t.finished:
        t = play_round(t, _first_wins)
        assert all(not p.involves(leaver) for p in t.rounds[-1])
    lines = {s.entrant: s for s in t.standings()}
    assert leaver not in lines and leaver not in t.crosstable().entrants
    # four left, six encounters among them, 2 points each
    assert sum(s.points for s in lines.values()) == 12
    other = beaten.b if beaten.a == leaver else beaten.a
    assert lines[other].played == 3


def test_withdrawing_with_an_encounter_open_scores_it_at_once():
    t = _robin_after(2).pair_next_round()
    p, leaver = next((p, x) for p in t.pending() for x in (p.a, p.b) if _played(t, str(x)) == 2)
    assert p.b is not None and leaver is not None
    t = t.withdraw(leaver)
    assert t.withdrawals[-1].kept and p not in t.pending()
    assert Result(p.round, p.a, p.b, 0, 0, forfeit=leaver) in t.results
    with pytest.raises(ResultTwice):
        t.record(Result(p.round, p.a, p.b, 3, 0))


def test_withdrawing_under_half_with_an_encounter_open_voids_it():
    t = _robin_after(1).pair_next_round()
    p, leaver = next((p, x) for p in t.pending() for x in (p.a, p.b) if _played(t, str(x)) == 1)
    assert p.b is not None and leaver is not None
    t = t.withdraw(leaver)
    assert not t.withdrawals[-1].kept and p not in t.pending()
    with pytest.raises(NotPaired):
        t.record(Result(p.round, p.a, p.b, 3, 0))


def _swiss_after(rounds: int) -> Tournament:
    t = started(Settings(system="swiss", rounds=4), players("ABCDEF", [6, 5, 4, 3, 2, 1]))
    for _ in range(rounds):
        t = play_round(t, _first_wins)
    return t


def test_swiss_half_played_results_stay_not_paired_again():
    # 004 § 32 (3) 2)
    t = _swiss_after(2).withdraw("A")
    assert t.withdrawals[-1].kept
    points = {s.entrant: s.points for s in t.standings()}["A"]
    while not t.finished:
        t = play_round(t, _first_wins)
        assert all(not p.involves("A") for p in t.rounds[-1])
    assert {s.entrant: s.points for s in t.standings()}["A"] == points == 4.0


def test_swiss_under_half_results_annulled():
    # 004 § 32 (3) 2): fewer than half of the rounds: annulled, no place
    t = _swiss_after(1)
    opponent = next(r.b for r in t.results if r.a == "A")
    t = t.withdraw("A")
    assert not t.withdrawals[-1].kept
    lines = {s.entrant: s for s in t.standings()}
    assert "A" not in lines and lines[opponent].played == 0 and lines[opponent].points == 0


def test_withdrawal_before_the_start_takes_him_off_the_list():
    t = Tournament.new(Settings(), players("ABC"), 1).withdraw("B")
    assert [e.id for e in t.entrants] == ["A", "C"]


def test_withdrawing_twice_is_refused():
    t = _robin_after(2).withdraw("A")
    with pytest.raises(AlreadyWithdrawn) as refused:
        t.withdraw("A")
    assert refused.value.code == "already_withdrawn"


def test_withdrawing_after_the_last_round_is_refused():
    t = _robin_after(5)
    assert t.finished
    with pytest.raises(Finished):
        t.withdraw("A")


def test_no_show_loses_the_encounter():
    # 004 § 22 (3): not at the table within 2 minutes of the call: the match is lost
    t = started(Settings(), players("AB")).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    t = t.record(Result(1, p.a, p.b, 0, 0, forfeit=p.b))
    lines = {s.entrant: s for s in t.standings()}
    assert (lines[p.a].points, lines[p.b].points) == (2.0, 0.0)
    assert (lines[p.a].sets_for, lines[p.a].wins, lines[p.b].losses) == (0, 1, 1)
    assert t.finished


def test_neither_came_both_lose():
    # 004 § 22 (3) for each of them: a loss for both, no points, no sets
    t = started(Settings(), players("AB")).pair_next_round()
    t = t.record(Result(1, "A", "B", 0, 0, forfeit=BOTH))
    lines = {s.entrant: s for s in t.standings()}
    assert [(s.points, s.losses, s.draws) for s in lines.values()] == [(0.0, 1, 0), (0.0, 1, 0)]
    assert t.crosstable().cells == (("x", "-"), ("-", "x"))
    assert t.finished
    with pytest.raises(BadSettings):
        Tournament.new(Settings(), [Entrant(BOTH, "sneaky")], 1)
