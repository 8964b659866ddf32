"""The organiser's regulations where 004 is silent (issue 38; docs/tournaments.md, "The
organiser's regulations"): tie-breaks (none by default, places shared, 004 § 32 (2)), and
whether a bye counts toward "half the rounds" (004 § 32 (3) 2)), each stored with the table."""

from __future__ import annotations

import pytest

from server.competitions.table import BadSettings, Settings, Tournament

from .helpers import by_names, play_round, players, started

# A beats B 2:0, B beats C 2:1, C beats A 2:1: a cycle, all three level on points, with
# different sets differences (A +1, C 0, B -1).
CYCLE = by_names(
    {
        frozenset("AB"): ("A", 2, 0),
        frozenset("BC"): ("B", 2, 1),
        frozenset("AC"): ("C", 2, 1),
    }
)


def _round_robin(tiebreaks: tuple[str, ...]) -> Tournament:
    t = started(Settings(sets=3, tiebreaks=tiebreaks), players("ABC"))
    while not t.finished:
        t = play_round(t, CYCLE)
    return t


def test_by_default_entrants_level_on_points_share_the_place():
    """004 § 32 (2): places by points; the rule book has no tie-break."""
    assert Settings().tiebreaks == ()
    table = _round_robin(())
    assert [s.rank for s in table.standings()] == [1, 1, 1]
    assert all(s.tiebreaks == () for s in table.standings())


def test_the_organisers_tie_breaks_apply_in_their_order():
    """Regulations (§ 3): sets difference first separates the cycle: A, C, B."""
    table = _round_robin(("sets_difference", "head_to_head"))
    ranked = table.standings()
    assert [s.rank for s in ranked] == [1, 2, 3]
    assert [s.entrant for s in ranked] == ["A", "C", "B"]
    assert [s.tiebreaks[0] for s in ranked] == [1.0, 0.0, -1.0]


@pytest.mark.parametrize("bad", [("coin_toss",), ("buchholz", "buchholz")])
def test_unknown_or_repeated_tie_breaks_are_refused(bad: tuple[str, ...]):
    with pytest.raises(BadSettings):
        Settings(tiebreaks=bad)


@pytest.mark.parametrize("byes_count, kept", [(False, False), (True, True)])
def test_whether_a_bye_counts_toward_half_the_rounds(byes_count: bool, kept: bool):
    """004 § 32 (3) 2): a Swiss of 3 entrants and 2 rounds; the entrant who had the bye in
    round 1 withdraws in round 2 with no encounter played. Only the regulations say whether
    his bye is half the rounds (his results stay) or nothing (they are struck out)."""
    t = started(Settings(system="swiss", rounds=2, sets=2, byes_count=byes_count), players("ABC"))
    t = play_round(t, lambda p: (2, 0))
    rested = next(p.a for p in t.rounds[0] if p.b is None)
    t = t.pair_next_round()
    t = t.withdraw(rested)
    assert t.withdrawals[-1].kept is kept
    assert (rested in t.table()) is kept


def test_tables_stored_before_the_regulations_load_with_the_defaults():
    """A table stored without `byes_count` (or `tiebreaks`) loads: bye not counted, no tie-break."""
    t = started(Settings(sets=2), players("ABC"))
    data = t.to_dict()
    data["settings"].pop("byes_count")
    data["settings"].pop("tiebreaks")
    back = Tournament.from_dict(data)
    assert back.settings.byes_count is False and back.settings.tiebreaks == ()
    assert Tournament.from_dict(t.to_dict()) == t
