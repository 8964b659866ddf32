"""Set-up positions, aimed strokes through the real physics, and assertions that read
like the rules."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from server.games.novuss.rules import (
    MatchConfig,
    MatchState,
    Ruling,
    check_stroke,
    judge,
    new_match,
    sim_discs,
)
from server.games.novuss.rules.aim import bank, cut, pot, shot_at
from server.games.novuss.rules.geometry import to_local, to_world
from server.games.novuss.rules.state import Puck, home_rail
from server.games.novuss.sim import COMPETITION, DiscRest, Shot, StrokeResult, simulate
from server.games.novuss.sim.engines import Engine
from server.games.novuss.sim.types import Event, Side

__all__ = ["bank", "cut", "pot", "shot_at"]

T = COMPETITION
L = T.size
MID = L / 2
DECEL = T.decel
R = T.puck_radius
RS = T.striker_radius


def singles(**kw: Any) -> MatchState:
    """A fresh singles match, seat 0 (S) to open."""
    return new_match(MatchConfig(**kw), 0)


def doubles(**kw: Any) -> MatchState:
    """A fresh doubles match, seat 0 (S) to open."""
    return new_match(MatchConfig(mode="doubles", **kw), 0)


def arrange(
    state: MatchState,
    pucks: Mapping[int, tuple[float, float]],
    *,
    turn: int | None = None,
    local: Side | None = None,
    **changes: Any,
) -> MatchState:
    """The state with only `pucks` on the table, at the given spots (in the local frame
    of side `local` if given), every other puck pocketed; mid-set unless told."""
    new = []
    for p in state.pucks:
        if p.id in pucks:
            x, y = pucks[p.id]
            if local is not None:
                x, y = to_world(local, x, y, L)
            new.append(Puck(p.id, p.owner, x, y, "table"))
        else:
            new.append(replace(p, where="pocket"))
    fields: dict[str, Any] = {"set_strokes": 5, "intact_rows": (), "struck": state.seats}
    fields.update(changes)
    return replace(
        state,
        pucks=tuple(new),
        turn_seat=state.turn_seat if turn is None else turn,
        **fields,
    )


def speed_for(distance: float, arrive: float) -> float:
    """The cue speed that arrives at `arrive` mm/s after sliding `distance` mm."""
    return math.sqrt(arrive * arrive + 2 * DECEL * distance)


def hit(state: MatchState, seat: int, pid: int, arrive: float, u: float | None = None,
        v: float = 60.0) -> Shot:  # fmt: skip
    """A full-on direct shot at puck `pid`, the striker placed at local (u, v) (u by
    default straight in front of the puck)."""
    p = state.puck(pid)
    pu, _ = to_local(state.side_of(seat), p.x, p.y, L)
    return shot_at(state, seat, pu if u is None else u, v, (p.x, p.y), arrive)


def to_strike(state: MatchState) -> int:
    """The seat holding the strike right: a test's failure once the match is over."""
    seat = state.turn_seat
    assert seat is not None, "the match is over: nobody is to strike"
    return seat


def up(state: MatchState, seat: int | None = None) -> Shot:
    """A legal stroke for `seat` (default: the strike-right holder) straight up the
    table from the middle of his striking field; for synthetic event logs."""
    seat = state.turn_seat if seat is None else seat
    assert seat is not None
    return shot_at(state, seat, MID, 60.0, to_world(state.side_of(seat), MID, MID, L), 500.0)


@dataclass
class Played:
    """A stroke played through the physics: the ruling and the physics result."""

    ruling: Ruling
    result: StrokeResult
    shot: Shot


def play(state: MatchState, seat: int | None, shot: Shot, engine: Engine = "cython") -> Played:
    """Check, simulate and judge one stroke."""
    seat = state.turn_seat if seat is None else seat
    assert seat is not None
    check_stroke(state, seat, shot)
    result = simulate(T, sim_discs(state), shot, engine=engine)
    return Played(judge(state, seat, shot, result), result, shot)


@dataclass
class FakeResult:
    """A synthetic physics result, for positions a real stroke cannot reach reliably."""

    events: tuple[Event, ...]
    final: tuple[DiscRest, ...]


Move = tuple[float, float] | Literal["pocket", "off"]


def fake(state: MatchState, events: Sequence[Event], moves: Mapping[int, Move]) -> FakeResult:
    """A physics result with `events`, every puck where it was except `moves`:
    pid -> (x, y) | "pocket" | "off"."""
    final = [DiscRest(0, MID, 300.0, "table", "striker")]
    for p in state.on_table():
        m = moves.get(p.id)
        if m is None:
            final.append(DiscRest(p.id, p.x, p.y, "table", "puck", p.owner))
        elif isinstance(m, str):  # "pocket" or "off"
            final.append(DiscRest(p.id, 0.0, 0.0, m, "puck", p.owner))
        else:
            final.append(DiscRest(p.id, m[0], m[1], "table", "puck", p.owner))
    return FakeResult(tuple(events), tuple(final))


# -- assertions that read like the rules -------------------------------------------------
def cites(r: Ruling, rule: str) -> bool:
    """Does any line of the ruling cite `rule` (e.g. "§ 24 (1) 2)")?"""
    return any(rule in ln.cite for ln in r.lines)


def assert_cites(r: Ruling, rule: str) -> None:
    assert cites(r, rule), f"no line cites {rule}:\n{r.text()}"


def assert_legal(r: Ruling) -> None:
    assert r.legal and not r.penalty, r.text()


def assert_penalty(r: Ruling, rule: str) -> None:
    assert r.penalty and not r.legal, r.text()
    assert any(rule in ln.cite for ln in r.lines if ln.code.startswith("penalty.")), r.text()


def assert_no_penalty_for(r: Ruling, rule: str) -> None:
    assert not any(rule in ln.cite for ln in r.lines if ln.code.startswith("penalty.")), r.text()


def assert_turn_passes(r: Ruling, to: int | None = None) -> None:
    assert not r.keeps_turn and r.next_seat != r.seat, r.text()
    if to is not None:
        assert r.next_seat == to, r.text()


def assert_keeps_turn(r: Ruling) -> None:
    assert r.keeps_turn and r.next_seat == r.seat, r.text()


def assert_restored(r: Ruling, pid: int, before: MatchState) -> None:
    p0 = before.puck(pid)
    p1 = r.state.puck(pid)
    assert pid in [s[0] for s in r.restored], r.text()
    assert p1.on_table and math.hypot(p1.x - p0.x, p1.y - p0.y) < 1e-6, (p0, p1)


def assert_not_restored(r: Ruling, pid: int) -> None:
    assert pid not in [s[0] for s in r.restored], r.text()


def assert_in_centre_circle(state: MatchState, pid: int) -> None:
    p = state.puck(pid)
    assert p.on_table and math.hypot(p.x - MID, p.y - MID) <= T.circle_radius - R + 1e-6, p


def assert_penalty_puck_on_centre_line(r: Ruling, seat: int, before: MatchState) -> None:
    """One penalty puck placed tight against the rail opposite `seat`, on the middle
    line of that edge zone (004 § 24 (3))."""
    assert len(r.penalty_placed) == 1, r.text()
    _, x, y = r.penalty_placed[0]
    u, v = to_local(home_rail(before, seat), x, y, L)
    assert abs(u - MID) < 1e-6 and abs(v - R) < 1e-6, (u, v)


def assert_set_result(r: Ruling, outcome: str, winner: int | None) -> None:
    assert r.set_result is not None, r.text()
    assert (r.set_result["outcome"], r.set_result["winner"]) == (outcome, winner), r.set_result


def assert_pucks_account(state: MatchState) -> None:
    """Pucks are never created or lost: each id once, on the table or pocketed; each
    player at most 8 on the table (16 per team in doubles); debts non-negative."""
    ids = [p.id for p in state.pucks]
    n = 8 * state.config.seats
    assert sorted(ids) == list(range(1, n + 1))
    for s in state.seats:
        assert sum(1 for p in state.pucks if p.owner == s) == 8
        assert state.debt[s] >= 0
    assert all(p.where in ("table", "pocket") for p in state.pucks)
