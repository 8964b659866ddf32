"""Swiss pairings by a maximum-weight matching over score groups (004 § 29 (5), § 32 (2) note 3).

Every pair of active entrants who have not met is an edge of a graph, and so is every entrant
who may take the bye joined to a "bye" node when their number is odd. networkx's
max_weight_matching (Edmonds' blossom algorithm) with maxcardinality=True picks, among the
matchings that pair everyone, the one of greatest total weight. The weights put, in order:

1. the bye on the entrant lowest in the table who has not had one (the last in the table,
   004 § 32 (2) note 3; never twice to the same entrant while someone else can take it):
   a bye edge weighs M * (place from the top), and M exceeds the spread of everything below;
   an entrant who has had the bye is joined to it by the lightest edge of all, so he gets a
   second one only if no pairing of the round gives it to anyone else;
2. equal points together: a pair loses K * (difference of their points, in quarter points)²,
   so the matching minimises the sum of squared differences, which keeps score groups whole
   and, where one must float, floats it into the nearest group;
3. within a score group, the top half against the bottom half (1-4, 2-5, 3-6 in a group of
   six, as the Dutch system does): a pair loses (4 * places apart - sizes of the two groups)²,
   zero for places half a group apart; K exceeds the sum of these over a round, so this term
   only chooses among pairings equally good by points.

No edge joins two entrants who have met, so a rematch is impossible; if no matching pairs
everyone, the round cannot be paired (NoPairing) rather than pair anyone twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING

from .errors import NoPairing

if TYPE_CHECKING:
    import networkx as nx

_BYE = "\x00bye"


def _quarters(points: float) -> int:
    return round(points * 4)


def sure_rounds(entrants: int) -> int:
    """The most rounds a Swiss of `entrants` is sure to pair without a rematch, whatever the
    results: ceil(n / 2). Before round r every entrant has met at most r - 1 others, so in the
    graph of pairs not yet met (with the bye's node, joined to all, when n is odd) each node
    keeps at least half the others; by Dirac's theorem that graph has a Hamiltonian cycle,
    hence a perfect matching, while r <= ceil(n / 2). Past it a round may have none (then the
    competition ends early: Tournament.pair_next_round)."""
    return (entrants + 1) // 2


def pair_swiss(
    table: Sequence[str],
    points: Mapping[str, float],
    met: Set[frozenset[str]],
    had_bye: Set[str],
) -> list[tuple[str, str | None]]:
    """Pair the entrants of `table` (in table order, first at the top) for the next round.

    Returns the pairs, the higher-placed first, by table from the top, and the bye (partner
    None) last. Raises NoPairing when no pairing without a rematch exists."""
    if len(set(table)) != len(table):
        raise ValueError("an entrant is twice in the table")
    if len(table) < 2:
        raise NoPairing("fewer than two entrants are left to pair")
    place = {entrant: i for i, entrant in enumerate(table)}
    scores = [_quarters(points.get(e, 0.0)) for e in table]
    group = {q: scores.count(q) for q in scores}
    n = len(table)
    within = 36 * n * n  # the most (4 * places apart - sizes)² can be
    k = within * (n // 2 + 1) + 1
    base = k * (max(scores) - min(scores)) ** 2 + within + 1
    # imported here: networkx is 70 ms of every server's start, and only a Swiss round needs it
    import networkx as nx

    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(table)
    for i, a in enumerate(table):
        for j in range(i + 1, n):
            if frozenset((a, table[j])) not in met:
                apart = (4 * (j - i) - group[scores[i]] - group[scores[j]]) ** 2
                weight = base - k * (scores[i] - scores[j]) ** 2 - apart
                graph.add_edge(a, table[j], weight=weight)
    if len(table) % 2:
        # the pair weights of a matching differ by at most len/2 * base in total
        step = base * (len(table) // 2 + 1) + 1
        for entrant in table:
            # a second bye weighs least of all: only when no one else can take it
            weight = 1 if entrant in had_bye else step * (place[entrant] + 1)
            graph.add_edge(entrant, _BYE, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < graph.number_of_nodes():
        raise NoPairing("no pairing of this round avoids a rematch")
    pairs: list[tuple[str, str | None]] = []
    bye: list[tuple[str, str | None]] = []
    for u, v in matching:
        if _BYE in (u, v):
            bye.append((v if u == _BYE else u, None))
        else:
            first, second = sorted((u, v), key=place.__getitem__)
            pairs.append((first, second))
    pairs.sort(key=lambda pair: place[pair[0]])
    return pairs + bye
