"""What a stroke is worth: the referee's own ruling on its simulated result, read from
the striker's side, plus a look at the position it leaves.

The ruling is the real one (server.rules.judge on the core's result), so every rule
counts as at the table: own pucks pocketed (004 § 20 (8)), keeping the strike right or
losing it (§ 25 (1)), penalty pucks (§ 24), pucks driven back or re-spotted (§ 20 (14),
§ 21 (4), (7)-(9)), the set won or lost (§ 23, § 27).
"""

from __future__ import annotations

import math

from server.bot.candidates import path_clear, pocket_at
from server.rules.check import sim_discs
from server.rules.geometry import striking_field, to_local
from server.rules.judge import blind_for, judge
from server.rules.ruling import Ruling
from server.rules.state import MatchState, team_of
from server.sim import simulate
from server.sim.types import POCKETS, Shot

PUCK = 10.0
"""One puck nearer the end of the set (pocketed, or one penalty puck fewer owed)."""
SET = 400.0
"""A set won (lost: minus)."""
MATCH = 2000.0
"""The match won (lost: minus)."""
TURN = 4.0
"""Holding the strike right, before counting what it can pocket."""
OPEN_POT = 4.0
"""Each clear pot the side to strike has (up to three are counted)."""
PENALTY = 3.0
"""A penalty beyond the puck it costs: the strike right lost is counted apart."""
BLIND = 1.0
"""Each of the opponent's pucks left blind (in the centre circle or his own zone)."""


def outcome(state: MatchState, seat: int, shot: Shot) -> Ruling:
    """The referee's ruling on `shot` played exactly (the core is deterministic)."""
    result = simulate(state.table, sim_discs(state), shot)
    return judge(state, seat, shot, result)


def open_pots(state: MatchState, seat: int) -> int:
    """How many of `seat`'s free pucks have a clear straight pot with a full-ball line
    that comes back into his striking field (at most three are counted)."""
    table = state.table
    side = state.side_of(seat)
    team = team_of(seat)
    u0, u1, _, v1 = striking_field(table)
    reach = table.puck_radius + table.striker_radius
    found = 0
    for p in state.on_table():
        if team_of(p.owner) != team or blind_for(state, side, p):
            continue
        pu, pv = to_local(side, p.x, p.y, table.size)
        for pocket in POCKETS:
            c = pocket_at(state, pocket)
            cu, cv = to_local(side, c[0], c[1], table.size)
            du, dv = pu - cu, pv - cv
            if dv <= 1e-6:
                continue  # the puck must travel away from the striker's rail
            n = math.hypot(du, dv)
            gu, gv = pu + du / n * reach, pv + dv / n * reach
            u = gu + du / dv * (v1 - gv)  # where the line crosses the zone's depth
            if not u0 <= u <= u1:
                continue
            skip = frozenset({p.id})
            if path_clear(state, (p.x, p.y), c, 2 * table.puck_radius, skip):
                found += 1
                break
        if found >= 3:
            break
    return found


def value(before: MatchState, seat: int, ruling: Ruling) -> float:
    """The ruling's worth to `seat`'s side: pucks and debts gained, the set or match
    decided, the strike right kept or handed over with what it can pocket."""
    team = team_of(seat)
    if ruling.match_result is not None:
        w = ruling.match_result["winner"]
        return 0.0 if w is None else MATCH if w == team else -MATCH
    if ruling.set_result is not None:
        w = ruling.set_result["winner"]
        return 0.0 if w is None else SET if w == team else -SET
    after = ruling.state

    def left(s: MatchState, t: int) -> int:
        return sum(1 for p in s.on_table() if team_of(p.owner) == t) + s.team_debt(t)

    gained = (left(before, team) - left(after, team)) - (
        left(before, 1 - team) - left(after, 1 - team)
    )
    score = PUCK * gained
    if ruling.penalty:
        score -= PENALTY
    nxt = after.turn_seat
    if nxt is None:
        return score
    threat = TURN + OPEN_POT * open_pots(after, nxt)
    if team_of(nxt) == team:
        return score + threat
    blind = sum(
        1
        for p in after.on_table()
        if team_of(p.owner) == team_of(nxt) and blind_for(after, after.side_of(nxt), p)
    )
    return score - threat + BLIND * blind
