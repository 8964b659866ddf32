"""Bad input is refused with a specific error and a code, and changes nothing (issue 17)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from server.competitions.table import (
    Entrant,
    Result,
    Scale,
    Settings,
    Tournament,
    TournamentError,
)

from .helpers import players, started


def _code(call: object) -> str:
    assert callable(call)
    with pytest.raises(TournamentError) as refused:
        call()
    return refused.value.code


def _round_one() -> tuple[Tournament, str, str]:
    t = started(Settings(), players("ABCD")).pair_next_round()
    p = t.rounds[-1][0]
    assert p.b is not None
    return t, p.a, p.b


def test_results_twice_late_wrong_pair_unknown_and_bad_sets():
    t, a, b = _round_one()
    before = t.to_dict()
    other = next(x for x in "ABCD" if x not in (a, b))
    assert _code(lambda: t.record(Result(1, a, other, 3, 0))) == "not_paired"
    assert _code(lambda: t.record(Result(2, a, b, 3, 0))) == "not_paired"
    assert _code(lambda: t.record(Result(1, a, "Z", 3, 0))) == "unknown_entrant"
    # 004 § 32 (1): four sets stop at 3 won; 3:2 or 2:1 cannot end a four-set match
    assert _code(lambda: t.record(Result(1, a, b, 3, 2))) == "bad_score"
    assert _code(lambda: t.record(Result(1, a, b, 2, 1))) == "bad_score"
    assert _code(lambda: t.record(Result(1, a, b, -1, 3))) == "bad_score"
    assert _code(lambda: t.record(Result(1, a, b, 0, 0, forfeit="Z"))) == "bad_score"
    assert _code(lambda: t.record(Result(1, a, b, 3, 0, forfeit=a))) == "bad_score"
    assert _code(lambda: t.pair_next_round()) == "round_not_complete"
    assert t.to_dict() == before
    t = t.record(Result(1, a, b, 3, 1))
    assert _code(lambda: t.record(Result(1, b, a, 1, 3))) == "result_twice"
    for p in t.pending():
        assert p.b is not None
        t = t.record(Result(1, p.a, p.b, 2, 2))
    t = t.pair_next_round()
    assert _code(lambda: t.record(Result(1, a, b, 3, 1))) == "late_result"


def test_five_sets_stop_at_three():
    conf = Settings(sets=5)
    t = started(conf, players("AB")).pair_next_round()
    assert _code(lambda: t.record(Result(1, "A", "B", 2, 2))) == "bad_score"
    assert t.record(Result(1, "A", "B", 3, 2)).finished


def test_registration_and_start_refusals():
    t = Tournament.new(Settings(), players("AB"), 1)
    assert _code(lambda: t.register(Entrant("A", "again"))) == "duplicate_entrant"
    assert _code(lambda: t.pair_next_round()) == "not_started"
    assert _code(lambda: t.record(Result(1, "A", "B", 3, 0))) == "not_started"
    assert _code(lambda: Tournament.new(Settings(), players("A"), 1).start()) == "too_few_entrants"
    s = t.start()
    assert _code(lambda: s.start()) == "already_started"
    assert _code(lambda: s.register(Entrant("C", "late"))) == "already_started"
    assert _code(lambda: s.withdraw("Z")) == "unknown_entrant"
    assert _code(lambda: s.pairing_for("Z")) == "unknown_entrant"
    # four entrants have three rounds of opponents: a fourth Swiss round would be a rematch
    swiss = Tournament.new(Settings(system="swiss", rounds=4), players("ABCD"), 1)
    assert _code(lambda: swiss.start()) == "bad_settings"
    doubles = Tournament.new(Settings(kind="doubles"), [], 1)
    assert _code(lambda: doubles.register(Entrant("P", "alone", None, ("p1",)))) == "bad_settings"
    pair = doubles.register(Entrant("P", "pair", None, ("p1", "p2")))
    assert (
        _code(lambda: pair.register(Entrant("Q", "q", None, ("p2", "p3")))) == "duplicate_entrant"
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: Settings(system="swiss"),
        lambda: Settings(system="round_robin", rounds=3),
        lambda: Settings(tiebreaks=("coin_toss",)),
        lambda: Settings(sets=0),
        lambda: Settings(kind="triples"),  # type: ignore[arg-type]
        lambda: Scale(1.0, 2.0),
    ],
)
def test_bad_settings(make):
    assert _code(make) == "bad_settings"


def test_the_package_is_pure():
    # house rules: no I/O layer below the service; only server.games.novuss.rules may be imported
    root = Path(__file__).resolve().parents[2] / "server" / "competitions" / "table"
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                assert not name.startswith("server.") or name.startswith(
                    "server.games.novuss.rules"
                ), path
                assert name.split(".")[0] not in ("asyncio", "aiohttp", "redis", "socket"), path
