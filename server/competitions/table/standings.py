"""Standings, tie-breaks and the cross-table (004 § 32 (2), (3); docs/tournaments.md).

Tie-breaks, applied in the order the organiser lists them to entrants still level:
- sets_difference: sets won minus sets lost over all counted encounters;
- head_to_head: points scored in the encounters among the entrants still level (a mini table);
- buchholz: the sum of the points of every opponent met (forfeits count, a bye does not);
- sonneborn_berger: the sum over encounters of the opponent's points times the share of the
  encounter's points won (all for a win, half for a draw).
Entrants level on points and every tie-break share a rank and keep their table order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .model import BOTH, Pairing, Result, Settings, Standing
from .scoring import bye_points, outcomes, player_points, result_points, win_points


@dataclass
class _Line:
    points: float = 0.0
    sets_for: int = 0
    sets_against: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    # (opponent, points won, points the encounter gave in all)
    meetings: list[tuple[str, float, float]] = field(default_factory=list)


def _lines(
    settings: Settings, table: Sequence[str], results: Sequence[Result], byes: Sequence[str]
) -> dict[str, _Line]:
    lines = {e: _Line() for e in table}
    for result in results:
        pa, pb = result_points(settings, result)
        oa, ob = outcomes(settings, result)
        total = win_points(settings)
        for me, other, mine, outcome, sets_mine, sets_theirs in (
            (result.a, result.b, pa, oa, result.sets_a, result.sets_b),
            (result.b, result.a, pb, ob, result.sets_b, result.sets_a),
        ):
            line = lines[me]
            line.points += mine
            line.sets_for += sets_mine
            line.sets_against += sets_theirs
            line.played += 1
            line.wins += outcome > 0
            line.draws += outcome == 0
            line.losses += outcome < 0
            line.meetings.append((other, mine, total))
    for entrant in byes:
        lines[entrant].points += bye_points(settings)
    return lines


def _value(name: str, me: str, group: set[str], lines: dict[str, _Line]) -> float:
    line = lines[me]
    if name == "sets_difference":
        return float(line.sets_for - line.sets_against)
    if name == "head_to_head":
        return sum(won for other, won, _ in line.meetings if other in group)
    if name == "buchholz":
        return sum(lines[other].points for other, _, _ in line.meetings)
    # sonneborn_berger
    return sum(lines[other].points * won / total for other, won, total in line.meetings)


def standings(
    settings: Settings, table: Sequence[str], results: Sequence[Result], byes: Sequence[str]
) -> list[Standing]:
    """The standings of the entrants of `table` (those who take part in the allocation of
    places) from the counted `results` and the entrants given a bye, once for each."""
    lines = _lines(settings, table, results, byes)
    values: dict[str, list[float]] = {e: [] for e in table}
    groups: list[list[str]] = _split(
        sorted(table, key=lambda e: -lines[e].points), lambda e: lines[e].points
    )
    for name in settings.tiebreaks:
        next_groups: list[list[str]] = []
        for group in groups:
            members = set(group)
            for entrant in group:
                values[entrant].append(_value(name, entrant, members, lines))
            ordered = sorted(group, key=lambda e: -values[e][-1])
            next_groups.extend(_split(ordered, lambda e: values[e][-1]))
        groups = next_groups
    out: list[Standing] = []
    order = {e: i for i, e in enumerate(table)}
    for group in groups:
        rank = len(out) + 1
        for entrant in sorted(group, key=order.__getitem__):
            line = lines[entrant]
            out.append(
                Standing(
                    rank=rank,
                    entrant=entrant,
                    points=line.points,
                    sets_for=line.sets_for,
                    sets_against=line.sets_against,
                    tiebreaks=tuple(values[entrant]),
                    played=line.played,
                    wins=line.wins,
                    draws=line.draws,
                    losses=line.losses,
                )
            )
    return out


def _split(ordered: list[str], key: Callable[[str], float]) -> list[list[str]]:
    groups: list[list[str]] = []
    last: float | None = None
    for entrant in ordered:
        value = key(entrant)
        if groups and value == last:
            groups[-1].append(entrant)
        else:
            groups.append([entrant])
        last = value
    return groups


@dataclass(frozen=True)
class Crosstable:
    """The tournament table: `cells[i][j]` is row entrant i's result against entrant j, as sets
    "3:1" from the row's side, "+" / "-" for an encounter won / lost by forfeit (a plus and
    a minus, 004 § 32 (3) 1)), "" not played, "x" on the diagonal."""

    entrants: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    points: tuple[float, ...]


def crosstable(
    settings: Settings, table: Sequence[str], results: Sequence[Result], byes: Sequence[str]
) -> Crosstable:
    """The cross-table of `table` (in table order) from the counted results."""
    index = {e: i for i, e in enumerate(table)}
    cells = [["x" if i == j else "" for j in range(len(table))] for i in range(len(table))]
    for r in results:
        for me, other, mine, theirs in (
            (r.a, r.b, r.sets_a, r.sets_b),
            (r.b, r.a, r.sets_b, r.sets_a),
        ):
            if r.forfeit is not None:
                text = "-" if r.forfeit in (me, BOTH) else "+"
            else:
                text = f"{mine}:{theirs}"
            cell = cells[index[me]][index[other]]
            cells[index[me]][index[other]] = f"{cell} {text}".strip()
    lines = _lines(settings, table, results, byes)
    return Crosstable(
        entrants=tuple(table),
        cells=tuple(tuple(row) for row in cells),
        points=tuple(lines[e].points for e in table),
    )


@dataclass(frozen=True)
class PlayerStanding:
    """A player's line in an individual-team competition (004 § 6 (4))."""

    rank: int
    player: str
    team: str
    points: float
    games: int


def player_standings(
    settings: Settings, teams: dict[str, tuple[str, ...]], games: Sequence[tuple[Pairing, Result]]
) -> list[PlayerStanding]:
    """The individual ranking of an individual-team competition: each player's points from the
    games he played (004 § 6 (4)), ranked by points, then fewer games, then team board order."""
    points: dict[str, float] = {}
    count: dict[str, int] = {}
    for pairing, result in games:
        for player, won in player_points(settings, pairing, result).items():
            points[player] = points.get(player, 0.0) + won
            count[player] = count.get(player, 0) + 1
    seat = {p: (team, board) for team, members in teams.items() for board, p in enumerate(members)}
    ranked = sorted(
        seat, key=lambda p: (-points.get(p, 0.0), count.get(p, 0), seat[p][1], seat[p][0])
    )
    out: list[PlayerStanding] = []
    for player in ranked:
        key = (points.get(player, 0.0), count.get(player, 0))
        same = out and (out[-1].points, out[-1].games) == key
        rank = out[-1].rank if same else len(out) + 1
        out.append(PlayerStanding(rank, player, seat[player][0], key[0], key[1]))
    return out
