"""Making the pairings of the next round for a Tournament (004 § 31, § 32 (3))."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

from .model import GameResult, Pairing, Result
from .roundrobin import berger_round
from .swiss import pair_swiss
from .teams import encounter_games

if TYPE_CHECKING:
    from .tournament import Tournament


def _lot(t: Tournament, round_no: int, table: int) -> random.Random:
    # the draw for one encounter, the same after a restart: a function of the seed alone
    return random.Random(f"{t.seed}/{round_no}/{table}")


def next_round(t: Tournament) -> tuple[Pairing, ...]:
    """The pairings of round t.round + 1."""
    round_no = t.round + 1
    swiss = t.settings.system == "swiss"
    pairs = _swiss_pairs(t) if swiss else _round_robin_pairs(t)
    # the tables that play first, the one who rests after them
    pairs.sort(key=lambda pair: pair[1] is None)
    out: list[Pairing] = []
    for table, (a, b) in enumerate(pairs, start=1):
        out.append(_pairing(t, round_no, table, a, b))
    return tuple(out)


def _pairing(t: Tournament, round_no: int, table: int, a: str, b: str | None) -> Pairing:
    if b is None:
        return Pairing(round_no, table, a, None, None)
    lot = _lot(t, round_no, table)
    if t.settings.teams:
        # 004 § 31 (2): drawn for board I, alternating over the other games
        games = encounter_games(t.settings, t.entrant(a), t.entrant(b), lot)
        return Pairing(round_no, table, a, b, games[0].opener, games)
    if t.settings.system == "round_robin":
        # 004 § 31 (1) 1): the one placed first in the table of rounds opens
        return Pairing(round_no, table, a, b, a)
    # 004 § 31 (1) 2): by lot in the Swiss system
    return Pairing(round_no, table, a, b, lot.choice((a, b)))


def _round_robin_pairs(t: Tournament) -> list[tuple[str, str | None]]:
    ids = [e.id for e in t.entrants]
    struck = t.struck
    pairs: list[tuple[str, str | None]] = []
    for i, j in berger_round(len(ids), t.round):
        a, b = ids[i], None if j is None else ids[j]
        if a in struck:
            a, b = (b, None) if b is not None else (a, None)
        elif b in struck:
            b = None
        # 004 § 32 (3) 1): struck out, he plays no more; his opponent of the round rests
        if a not in struck:
            pairs.append((a, b))
    return pairs


def _swiss_pairs(t: Tournament) -> list[tuple[str, str | None]]:
    withdrawn = t.withdrawn
    # 004 § 32 (3) 2): a withdrawn entrant is not taken into account in the draw
    lines = [s for s in t.standings() if s.entrant not in withdrawn]
    table = [s.entrant for s in lines]
    points = {s.entrant: s.points for s in lines}
    met = {frozenset((p.a, p.b)) for rnd in t.rounds for p in rnd if p.b is not None}
    had_bye = {p.a for rnd in t.rounds for p in rnd if p.b is None}
    return pair_swiss(table, points, met, had_bye)


def minuses(t: Tournament, pairings: tuple[Pairing, ...]) -> tuple[Result, ...]:
    """Forfeits for encounters a withdrawn entrant whose results stay leaves unplayed: a minus
    for him, a plus for his opponent (004 § 32 (3) 1))."""
    kept = [w.entrant for w in t.withdrawals if w.kept]
    done = {(r.round, r.a) for r in t.results}
    out: list[Result] = []
    for p in pairings:
        if p.b is None or (p.round, p.a) in done:
            continue
        leaving = [e for e in kept if p.involves(e)]
        if leaving:
            out.append(Result(p.round, p.a, p.b, 0, 0, forfeit=leaving[0]))
    return tuple(out)


def flip(result: Result) -> Result:
    """The same result seen from the other side."""
    games = tuple(GameResult(g.sets_b, g.sets_a, g.forfeit) for g in result.games)
    return replace(
        result, a=result.b, b=result.a, sets_a=result.sets_b, sets_b=result.sets_a, games=games
    )
