"""Building and playing tournaments in tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from server.competitions.table import Entrant, Pairing, Result, Settings, Tournament

Score = Callable[[Pairing], tuple[int, int]]


def players(
    names: str | Sequence[str], ratings: Sequence[float | None] | None = None
) -> list[Entrant]:
    """Singles entrants named by the letters (or strings) given, with optional ratings."""
    out = []
    for i, name in enumerate(names):
        rating = None if ratings is None else ratings[i]
        out.append(Entrant(name, f"Player {name}", rating))
    return out


def play_round(t: Tournament, score: Score) -> Tournament:
    """Pair the next round and enter a result for each of its encounters."""
    t = t.pair_next_round()
    for p in t.pending():
        assert p.b is not None
        sets_a, sets_b = score(p)
        t = t.record(Result(p.round, p.a, p.b, sets_a, sets_b))
    return t


def by_names(table: dict[frozenset[str], tuple[str, int, int]]) -> Score:
    """A score function from {pair: (first, sets of first, sets of other)}."""

    def score(p: Pairing) -> tuple[int, int]:
        assert p.b is not None
        first, x, y = table[frozenset((p.a, p.b))]
        return (x, y) if first == p.a else (y, x)

    return score


def started(settings: Settings, entrants: Sequence[Entrant], seed: int = 1) -> Tournament:
    """A started tournament."""
    return Tournament.new(settings, entrants, seed).start()
