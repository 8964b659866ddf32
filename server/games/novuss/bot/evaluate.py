"""What a stroke is worth: the referee's own ruling on its simulated result, read from
the striker's side, plus a look at the position it leaves.

The ruling is the real one (server.games.novuss.rules.judge on the core's result), so every rule
counts as at the table: own pucks pocketed (004 § 20 (8)), keeping the strike right or
losing it (§ 25 (1)), penalty pucks (§ 24), pucks driven back or re-spotted (§ 20 (14),
§ 21 (4), (7)-(9)), the set won or lost (§ 23, § 27).
"""

from __future__ import annotations

import math

from server.games.novuss.bot.candidates import path_clear
from server.games.novuss.rules.check import sim_discs
from server.games.novuss.rules.facts import blind_for
from server.games.novuss.rules.geometry import striking_field, to_local, to_world
from server.games.novuss.rules.judge import judge
from server.games.novuss.rules.ruling import Ruling
from server.games.novuss.rules.state import MatchState, team_of
from server.games.novuss.sim import simulate
from server.games.novuss.sim.types import Shot

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
TRAPPED = 15.0
"""A puck in a corner behind its pocket: no striker reaches it without its centre
passing over the hole (the hole's edge is 20 mm from the rails, the striker's centre
never nearer a rail than 24 mm), so its owner can only concede penalties for it."""


def trapped(state: MatchState, team: int) -> int:
    """How many of `team`'s pucks lie in a corner behind a pocket."""
    inset = state.table.pocket_inset
    far = state.table.size - inset
    return sum(
        1
        for p in state.on_table()
        if team_of(p.owner) == team and (p.x < inset or p.x > far) and (p.y < inset or p.y > far)
    )


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
    pucks = state.on_table()
    holes = [to_local(side, x, y, table.size) for _, x, y in table.pocket_centres()]
    found = 0
    for p in pucks:
        if team_of(p.owner) != team or blind_for(state, side, p):
            continue
        pu, pv = to_local(side, p.x, p.y, table.size)
        for cu, cv in holes:
            du, dv = pu - cu, pv - cv
            if dv <= 1e-6:
                continue  # the puck must travel away from the striker's rail
            n = math.hypot(du, dv)
            gu, gv = pu + du / n * reach, pv + dv / n * reach
            u = gu + du / dv * (v1 - gv)  # where the line crosses the zone's depth
            if not u0 <= u <= u1:
                continue
            c = to_world(side, cu, cv, table.size)
            if path_clear(pucks, (p.x, p.y), c, 2 * table.puck_radius, frozenset({p.id})):
                found += 1
                break
        if found >= 3:
            break
    return found


def remaining(state: MatchState) -> tuple[int, int]:
    """Pucks each team still has to pocket: on the table plus penalty pucks owed."""
    left = [0, 0]
    for p in state.pucks:
        if p.where == "table":
            left[p.owner % 2] += 1  # the owner's team (team_of)
    for s, d in enumerate(state.debt):
        left[team_of(s)] += d
    return left[0], left[1]


class Scorer:
    """The worth of strokes played by `seat` from `state` (the before is read once)."""

    def __init__(self, state: MatchState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.team = team_of(seat)
        self.before = remaining(state)
        self.sims = 0

    def worth(self, shot: Shot) -> float:
        """The worth of the referee's ruling on `shot` (one simulation)."""
        self.sims += 1
        return self.value(outcome(self.state, self.seat, shot))

    def value(self, ruling: Ruling) -> float:
        """The ruling's worth to the striker's side: pucks and debts gained, the set or
        match decided, the strike right kept or handed over with what it can pocket."""
        team = self.team
        if ruling.set_result is not None:
            w = ruling.set_result["winner"]
            score = 0.0 if w is None else SET if w == team else -SET
            if ruling.match_result is not None:
                # a drawn match is still a set lost or won (004 § 32 (1))
                m = ruling.match_result["winner"]
                score += 0.0 if m is None else MATCH if m == team else -MATCH
            return score
        after = ruling.state
        left = remaining(after)
        mine = self.before[team] - left[team]
        theirs = self.before[1 - team] - left[1 - team]
        score = PUCK * (mine - theirs) - (PENALTY if ruling.penalty else 0.0)
        score -= TRAPPED * (trapped(after, team) - trapped(after, 1 - team))
        nxt = after.turn_seat
        if nxt is None:
            return score
        threat = TURN + OPEN_POT * open_pots(after, nxt)
        if team_of(nxt) == team:
            return score + threat
        side = after.side_of(nxt)
        blind = sum(
            1 for p in after.on_table() if team_of(p.owner) != team and blind_for(after, side, p)
        )
        return score - threat + BLIND * blind
