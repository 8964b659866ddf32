"""The referee's ruling on a stroke: what the physics' event log means under the rules.

judge() reads the stroke (facts.py: direct or rebound, what the striker touched first),
decides penalties (004 § 24 (1)), restores, re-spots and places pucks (§ 20 (14), § 21,
§ 24 (3)-(7), § 28 (6)), then hands over to conclude() (conclude.py), the tail shared
with a pass or a clock that ran out (turns.py), which passes or keeps the strike right
(§ 25) and ends sets (§ 23, § 27, § 28 (7)).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from server.games.novuss.rules.check import check_stroke
from server.games.novuss.rules.conclude import Outcome, SetEnd, conclude
from server.games.novuss.rules.facts import MOVED, read_events
from server.games.novuss.rules.geometry import (
    OPPOSITE,
    blind_test,
    in_circle,
    in_zone,
)
from server.games.novuss.rules.lines import Line, line
from server.games.novuss.rules.placement import nearest_free, respot_spot, separate
from server.games.novuss.rules.ruling import Ruling, Spot
from server.games.novuss.rules.state import MatchState, Puck, team_of
from server.games.novuss.sim.result import RawEvent, StrokeResult, raw_event
from server.games.novuss.sim.types import Shot


# -- the stroke ----------------------------------------------------------------------
def judge(state: MatchState, seat: int, shot: Shot, result: Any) -> Ruling:
    """The ruling on a stroke played by `seat` with `shot`, given the physics' result
    of simulate(COMPETITION, sim_discs(state), shot) (its .events and .final). Raises
    StrokeRefused, like check_stroke, for a stroke that was not allowed."""
    check_stroke(state, seat, shot)
    return judge_checked(state, seat, result)


def judge_checked(state: MatchState, seat: int, result: Any) -> Ruling:
    """judge() of a stroke that check_stroke has just allowed: Match.strike checks a
    stroke before it simulates it, and the same check of the same numbers again was a
    twentieth of its time."""
    table = state.table
    side = state.side_of(seat)
    team = team_of(seat)
    is_blind = blind_test(table, side)  # blind_for(state, side, p) for a puck at (x, y)
    pucks: dict[int, Puck] = {}  # every puck, where the ruling puts it
    before: dict[int, Puck] = {}
    mine: set[int] = set()
    blind: set[int] = set()
    # Every puck rests where it was, but those the stroke moved (`ends`, below): most
    # pucks are not moved, and are left as they are.
    resting: dict[int, tuple[float, float]] = {}
    for p in state.pucks:
        pucks[p.id] = p
        if p.where == "table":
            before[p.id] = p
            resting[p.id] = (p.x, p.y)
            if p.owner % 2 == team:  # team_of, in the one loop over every puck
                mine.add(p.id)
                if is_blind(p.x, p.y):
                    blind.add(p.id)
    facts = read_events(*_log(result), side, before)
    # A puck reported on the table but off the surface is treated as over the rail.
    ends = _ends(result)
    free = mine - blind
    first = facts.first_touch
    first_opp = [pid for pid in first if pid not in mine]
    first_blind = [pid for pid in first if pid in blind]
    lines: list[Line] = []
    reasons: list[Line] = []

    # -- the kind of stroke and what was touched first, 004 § 21 -----------------------
    whose = _whose(first, mine)
    if facts.kind == "direct":
        lines.append(line("stroke.direct", "004 § 21", whose=whose, n=len(first)))
    else:
        rail = "opposite" if facts.rebound_rail == "opposite" else "side"
        lines.append(line("stroke.rebound", "004 § 21", rail=rail, whose=whose, n=len(first)))

    # -- penalties, 004 § 24 (1) ---------------------------------------------------------
    if facts.kind == "direct":
        if not first:
            if free:
                reasons.append(line("penalty.direct_touched_none", "004 § 24 (1) 1)"))
            else:
                reasons.append(line("penalty.all_blind_short", "004 § 24 (1) 6)"))
        else:
            if first_opp:
                code = (
                    "penalty.direct_first_both"
                    if len(first_opp) < len(first)
                    else "penalty.direct_first_opponent"
                )
                reasons.append(line(code, "004 § 24 (1) 2), § 21 (1)"))
            if first_blind:
                reasons.append(line("penalty.direct_own_blind", "004 § 24 (1) 8), § 21 (3)"))
            # 004 § 20 (2), § 24 (1) 11): any puck lying in his own edge zone, his or not.
            if any(in_zone(table, side, before[p].x, before[p].y) for p in first):
                reasons.append(line("penalty.first_in_own_zone", "004 § 24 (1) 11), § 20 (2)"))
    elif free:
        # 004 § 21 (5): with pucks he could strike directly, a rebound must first meet one
        # of his own pucks (blind or not, § 21 (2)).
        if not first:
            reasons.append(line("penalty.rebound_touched_none", "004 § 21 (5), § 24 (1) 1)"))
        elif first_opp:
            reasons.append(line("penalty.rebound_first_opponent", "004 § 24 (1) 3), § 21 (5)"))
    elif facts.rebound_rail == "side" and (first_opp or not first):
        # 004 § 24 (1) 6): all blind; an opposite-rail rebound is never a fault (note 1),
        # a side-rail one must meet his own puck first (note 2).
        reasons.append(line("penalty.side_rebound_all_blind", "004 § 24 (1) 6), § 21 (5)"))
    if facts.striker_pocketed:
        reasons.append(line("penalty.striker_pocketed", "004 § 24 (1) 4)"))
    if facts.striker_off:
        reasons.append(line("penalty.striker_off", "004 § 24 (1) 5)"))

    # -- where the pucks ended --------------------------------------------------------
    off_ids = {pid for pid, _ in facts.off}
    holed: list[int] = []  # the pucks that went into the holes
    size = table.size
    isfinite = math.isfinite
    for pid in off_ids:
        del resting[pid]
    for pid, (where, (x, y)) in ends.items():  # the moved discs, the striker too
        was = before.get(pid)
        if was is None or pid in off_ids:
            continue
        on_surface = isfinite(x) and isfinite(y) and 0.0 <= x <= size and 0.0 <= y <= size
        if where == "table" and on_surface:
            if x != was.x or y != was.y:
                pucks[pid] = was.at(x, y)
            resting[pid] = (x, y)
        else:
            del resting[pid]
            if where == "pocket":
                pucks[pid] = was.at(was.x, was.y, "pocket")
                holed.append(pid)
            else:
                off_ids.add(pid)
    # 004 § 20 (10): pucks at rest on top of each other are put side by side.
    settled = separate(table, resting, list(resting))
    for pid, (x, y) in settled.items():
        pucks[pid] = pucks[pid].at(x, y)
    if settled:
        lines.append(line("pucks.separated", "004 § 20 (10)", pucks=tuple(settled)))
    off_order: list[int] = []
    if off_ids:
        off_order = [pid for pid, _ in facts.off] + sorted(off_ids - {pid for pid, _ in facts.off})
    off_rail = dict(facts.off)

    def moved(pid: int) -> bool:
        a, b = before[pid], pucks[pid]
        return pid in off_ids or b.where != "table" or math.hypot(a.x - b.x, a.y - b.y) > MOVED

    restore: list[int] = []
    set_lost: SetEnd | None = None
    # 004 § 21 (8): an opponent's puck may be driven into a blind position only after a
    # legal first touch of an own puck (2)-4): a free one on a direct stroke, any on a
    # rebound) or by a rebound from the opposite rail when he has no free puck left (1).
    # Any other stroke that does it is forbidden and the puck goes back (§ 21 (7)): a
    # direct stroke first at an opponent's or own blind puck, and a rebound first at an
    # opponent's puck while he has free pucks (§ 24 (1) 3)) or from a side rail (§ 24 (1) 6)).
    if facts.kind == "direct":
        permitted = set(first) <= free
    else:
        permitted = set(first) <= mine or (facts.rebound_rail == "opposite" and not free)
    forbidden_drive = bool(first) and not permitted
    # 004 § 21 (3): in a direct stroke own blind pucks may be moved only after a legal first
    # touch of an own free puck (2)-4)); one that first touches an own blind puck or an
    # opponent's puck and knocks own blind pucks out is the § 21 (4) fault: they go back,
    # and two or more lose the set (§ 23 (1) 1)).
    illegal_direct = facts.kind == "direct" and bool(first_blind or first_opp)
    if state.config.edition == 1:  # the reading its matches were played under
        knock_back = facts.kind == "direct" and bool(first_blind)
        over_rail_back = facts.kind == "direct" and bool(first_opp)
    else:
        knock_back = over_rail_back = illegal_direct
    knocked: list[int] = []
    if knock_back:
        knocked = [
            pid
            for pid in sorted(blind)
            if pid in off_ids or not pucks[pid].on_table or not is_blind(pucks[pid].x, pucks[pid].y)
        ]
        restore.extend(knocked)
    if len(knocked) >= 2:
        set_lost = SetEnd(
            "set.lost.blind_knocked_out",
            "Two or more of his blind pucks were knocked out with a direct stroke",
            "004 § 23 (1) 1), § 21 (4)",
        )
    elif facts.kind == "direct" and first_blind:
        further = [pid for pid in before if pid not in first and moved(pid)]
        if len(further) >= state.config.blind_hit_moves:
            n = state.config.blind_hit_moves
            set_lost = SetEnd(
                "set.lost.blind_hit_moved",
                "His direct stroke at his own blind puck moved "
                + ("two or more other pucks" if n == 2 else "another puck"),
                "004 § 23 (1) 4), § 21 (4)" if n == 2 else "000 § 5",
                {"n": n},
            )
    if forbidden_drive:
        owners_blind: dict[int, Callable[[float, float], bool]] = {}  # blind_for_owner's
        for pid, p in before.items():
            if p.owner % 2 == team or pid in off_ids:
                continue
            now = pucks[pid]
            if now.where != "table":
                continue
            is_blind_there = owners_blind.get(p.owner)
            if is_blind_there is None:
                is_blind_there = owners_blind[p.owner] = blind_test(table, state.side_of(p.owner))
            if is_blind_there(p.x, p.y) or not is_blind_there(now.x, now.y):
                continue  # § 21 (6) note: blind to blind, or not into a blind position
            if in_circle(table, now.x, now.y) or state.config.mode == "singles":
                restore.append(pid)  # 004 § 21 (7), (8), doubles § 28 (4)
            else:
                lines.append(line("pucks.zone_stays", "004 § 28 (3)"))
    if over_rail_back:
        opp_off = [pid for pid in off_ids if team_of(before[pid].owner) != team]
        if opp_off:
            # 004 § 21 (9), § 24 (1) 16): the opponent's pucks a direct stroke sent over the
            # rail go back to their places, not to the circle, when the stroke was not legal
            # (at an opponent's puck, or at an own blind one: the offender gains nothing);
            # after a legal first touch they are re-spotted (§ 20 (14)).
            restore.extend(opp_off)
            reasons.append(line("penalty.opponent_over_rail", "004 § 24 (1) 16), § 21 (9)"))

    restored: list[Spot] = []
    for pid in sorted(set(restore)):
        others = [
            (q.x, q.y)
            for q in pucks.values()
            if q.where == "table" and q.id != pid and q.id not in off_ids
        ]
        # A puck may lie near a hole as long as its centre is not over it.
        x, y = nearest_free(table, before[pid].x, before[pid].y, others, table.pocket_radius)
        pucks[pid] = before[pid].at(x, y)
        off_ids.discard(pid)
        restored.append((pid, x, y))
    if restored:
        ids = tuple(r[0] for r in restored)
        lines.append(line("pucks.restored", "004 § 21 (4), (7)-(9)", pucks=ids))

    # 004 § 20 (14): pucks over the rail go to the centre circle, the one the striker
    # touched first before the others: among those the striker touched, by the order of
    # his touches (not the order they left the table); then the rest as they left.
    respotted: list[Spot] = []
    order: list[int] = []
    if off_ids:  # most strokes send nothing over the rail
        touch_rank = {pid: k for k, pid in enumerate(facts.touch_order)}
        order = sorted(
            (pid for pid in off_order if pid in off_ids),
            key=lambda pid: (touch_rank.get(pid, len(touch_rank)), off_order.index(pid)),
        )
    for pid in order:
        others = [(q.x, q.y) for q in pucks.values() if q.where == "table" and q.id not in off_ids]
        # The physics names the rail; failing that, the far rail is the likeliest.
        rail = off_rail.get(pid) or OPPOSITE[side]
        x, y = respot_spot(table, rail, others)
        pucks[pid] = before[pid].at(x, y)
        off_ids.discard(pid)
        respotted.append((pid, x, y))
    if respotted:
        lines.append(line("pucks.respotted", "004 § 20 (14)", pucks=tuple(r[0] for r in respotted)))

    # The pucks that went in and were not put back.
    pocketed = tuple([pid for pid in sorted(holed) if pucks[pid].where != "table"])
    if pocketed:
        lines.append(line("pucks.pocketed", "004 § 20 (8)", pucks=pocketed))
    # 004 § 20 (7), § 25 (1) 4): the striker may come back over his own line only if he
    # has a blind puck.
    crossed = facts.crossed_back and not blind
    out = Outcome(
        kind=facts.kind,
        pucks=pucks,
        reasons=reasons,
        lines=lines,
        pocketed=pocketed,
        off=bool(facts.off) or bool(respotted),
        crossed=crossed,
        touched_own=bool(facts.touched & mine),
        set_lost=set_lost,
        facts=facts,
        restored=tuple(restored),
        respotted=tuple(respotted),
    )
    return conclude(state, seat, out)


def _log(result: Any) -> tuple[Iterable[RawEvent], Sequence[int]]:
    """What read_events needs of a physics result: a StrokeResult's log as the core made
    it, with the ids of its discs (building every event object cost more than the rest
    of the ruling); any other result's events (a synthetic one in the tests) in that form,
    ids standing for themselves."""
    if isinstance(result, StrokeResult):
        return result.log()
    log = [raw_event(e) for e in result.events]
    return log, range(1 + max([max(a, b) for _, _, a, b, _ in log], default=0))


def _ends(result: Any) -> dict[int, tuple[str, tuple[float, float]]]:
    """(where, (x, y)) at rest by id: of the discs a StrokeResult moved (the others rest
    where they were), or of every disc in any other result's `final`."""
    if isinstance(result, StrokeResult):
        return cast(dict[int, tuple[str, tuple[float, float]]], result.moved_ends())
    return {d.id: (d.where, (d.x, d.y)) for d in result.final}


def _whose(first: tuple[int, ...], mine: set[int]) -> str:
    """Whose pucks the striker touched first: "none", "own" (his side's), "opponent" or
    "mixed" (his own and an opponent's at the same time)."""
    if not first:
        return "none"
    own = sum(1 for p in first if p in mine)
    return "own" if own == len(first) else "opponent" if own == 0 else "mixed"
