"""Round-robin rounds in the order of chess (Berger) tables (004 § 31 (1) 1))."""

from __future__ import annotations


def round_count(entrants: int) -> int:
    """Rounds of a single round robin: n - 1, or n with an odd number (one rests each round)."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def berger_round(entrants: int, index: int) -> list[tuple[int, int | None]]:
    """The pairs of round `index` (from 0) of the Berger table for `entrants` players numbered
    0 .. n-1 in the order of the tournament table. The first of each pair is the one placed first
    in the table of the order of rounds, who gets the opening stroke (004 § 31 (1) 1)); with an
    odd number the partner None means the player rests that round.

    FIDE's Berger tables, e.g. for six: 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 /
    3-6 4-2 5-1: the other players keep their cyclic order and it advances by n/2 each round,
    while the last player alternates between second and first at the top board."""
    size = entrants + entrants % 2
    if not 0 <= index < size - 1:
        raise ValueError(f"a round robin of {entrants} has no round {index + 1}")
    last = size - 1
    start = index * (size // 2) % last
    seq = [(start + j) % last for j in range(last)]
    top: tuple[int, int] = (seq[0], last) if index % 2 == 0 else (last, seq[0])
    pairs = [top] + [(seq[i], seq[last - i]) for i in range(1, size // 2)]
    out: list[tuple[int, int | None]] = []
    for first, second in pairs:
        if entrants % 2 and last in (first, second):
            out.append((second if first == last else first, None))
        else:
            out.append((first, second))
    # the one who rests goes after the tables that play
    out.sort(key=lambda pair: pair[1] is None)
    return out
