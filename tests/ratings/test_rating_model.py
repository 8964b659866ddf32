"""The rating model (server/ratings/model.py): OpenSkill Thurstone-Mosteller, shown as one
number with a provisional mark; a draw (004 § 32 (1)) is a draw."""

from __future__ import annotations

from typing import Any

from server.history.summary import is_rated, summarise
from server.ratings.model import Skill, rate


def test_the_winner_gains_what_the_loser_loses_and_both_grow_surer():
    (w,), (loser,) = rate([[Skill()], [Skill()]], winner=0)
    assert w.shown > 1500 > loser.shown
    assert abs((w.mu - 25) + (loser.mu - 25)) < 1e-9  # equal newcomers: symmetric
    assert w.sigma < Skill().sigma and loser.sigma < Skill().sigma
    assert w.matches == loser.matches == 1


def test_a_draw_between_equals_moves_no_mean_but_lowers_the_uncertainty():
    (a,), (b,) = rate([[Skill()], [Skill()]], winner=None)  # 004 § 32 (1): 2:2 in sets
    assert abs(a.mu - 25) < 1e-9 and abs(b.mu - 25) < 1e-9 and a.sigma < Skill().sigma


def test_a_newcomer_is_provisional_and_the_leaderboard_orders_conservatively():
    assert Skill().shown == 1500 and Skill().provisional
    settled = Skill(mu=26.0, sigma=2.0, matches=40)
    lucky = Skill(mu=30.0, sigma=6.0, matches=3)
    assert not settled.provisional and lucky.shown > settled.shown
    assert settled.ordinal > lucky.ordinal


def test_doubles_partners_move_together_against_the_other_team():
    strong, weak = Skill(mu=30.0, sigma=3.0), Skill(mu=20.0, sigma=3.0)
    after = rate([[strong, weak], [Skill(), Skill()]], winner=1)
    assert all(s.mu < b.mu for s, b in zip(after[0], (strong, weak), strict=True))
    assert all(s.mu > 25 for s in after[1])


def _record(
    rated: bool,
    winner: int | None,
    accounts: tuple[str | None, str | None],
    struck: tuple[int, ...] = (0, 1),
) -> dict[str, Any]:
    """A finished singles match's record, its log the strokes of the seats `struck`."""
    players = [
        {"seat": i, "team": i, "name": f"p{i}", "sid": f"s{i}", "account": acc}
        for i, acc in enumerate(accounts)
    ]
    return {
        "id": "m1", "mode": "singles", "game": "novuss", "rated": rated, "players": players,
        "ended": 100.0, "result": {"winner": winner, "cause": "absent"},
        "log": [{"kind": "stroke", "seat": s, "ruling": {}} for s in struck],
    }  # fmt: skip


def test_an_abandoned_rated_match_is_a_loss_and_a_guest_match_is_never_rated():
    # 004 § 22 (3): the absent side loses the match, and the rating says so
    plan = summarise(_record(True, 1, ("u0", "u1")), {})
    assert plan.shown["u1"] > 1500 > plan.shown["u0"]
    assert plan.counters["u0"]["singles:loss"] == 1
    assert not is_rated(_record(True, 1, ("u0", None)))
    assert not is_rated(_record(False, 1, ("u0", "u1")))
    assert summarise(_record(False, 1, ("u0", "u1")), {}).ratings == {}


def test_a_match_one_side_never_struck_is_a_result_but_moves_no_rating():
    # issue 37: resigning (or staying away) before one's first stroke rates nobody, as
    # lichess voids a game aborted before both sides moved; the loss still counts
    for struck in ((), (0,), (1,)):
        record = _record(True, 1, ("u0", "u1"), struck)
        assert not is_rated(record), struck
        plan = summarise(record, {})
        assert plan.ratings == {} and plan.shown == {}
        assert plan.counters["u0"]["singles:loss"] == 1
    assert is_rated(_record(True, 1, ("u0", "u1"), (1, 0)))
