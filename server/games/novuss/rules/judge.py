"""The referee's ruling on a stroke: what the physics' event log means under the rules.

judge() reads the stroke (direct or rebound, what the striker touched first), decides
penalties (004 § 24 (1)), restores, re-spots and places pucks (§ 20 (14), § 21,
§ 24 (3)-(7), § 28 (6)), passes or keeps the strike right (§ 25), and ends sets (§ 23,
§ 27, § 28 (7)). conclude() is the shared tail also used for a pass or a clock that ran
out (turns.py).
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

from server.games.novuss.rules.check import check_stroke
from server.games.novuss.rules.geometry import (
    OPPOSITE,
    blind_test,
    home_spots,
    in_circle,
    in_zone,
)
from server.games.novuss.rules.lines import Line, line
from server.games.novuss.rules.placement import nearest_free, penalty_spot, respot_spot, separate
from server.games.novuss.rules.ruling import Kind, Ruling, Spot
from server.games.novuss.rules.sets import finish_set, set_result
from server.games.novuss.rules.state import MatchState, Puck, home_rail, team_of
from server.games.novuss.sim.result import LogEntry, StrokeResult, plain_event
from server.games.novuss.sim.types import STRIKER_ID, Shot, Side

SAME_INSTANT = 1e-12
"""Contacts closer in time than this (s) are simultaneous (004 § 24 (1) 2): 'at the same time')."""
MOVED = 1e-6
"""A puck displaced by more than this (mm) has moved (004 § 23 (1) 4))."""


# -- what happened ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Facts:
    """The striker's story and the pucks' fates, read from the event log."""

    kind: Literal["direct", "rebound"]
    rebound_rail: str | None  # "opposite" | "side" for a rebound
    rails: tuple[Side, ...]  # the rails the striker touched before its first puck
    first_touch: tuple[int, ...]
    touched: frozenset[int]  # every puck the striker touched
    touch_order: tuple[int, ...]  # the pucks the striker touched, in the order of first touch
    striker_pocketed: bool
    striker_off: bool
    crossed_back: bool  # the striker's hole came back inside its own edge zone
    off: tuple[tuple[int, Side], ...]  # pucks over the rail, in order


def read_events(events: Iterable[LogEntry], own: Side, puck_ids: Container[int]) -> Facts:
    """The facts of a stroke from the physics' ordered event log, as plain tuples
    (server.games.novuss.sim.result.plain_event; robust to any legal log: nothing touched,
    several pucks leaving at once, the striker gone)."""
    seq: list[tuple[float, str, Any]] = []  # the striker's contacts: ("puck", id) / ("rail", side)
    touched: set[int] = set()
    striker_pocketed = striker_off = left_zone = crossed = False
    off: list[tuple[int, Side]] = []
    for what, t, a, b in events:
        if what == "disc":
            if STRIKER_ID in (a, b):
                other = b if a == STRIKER_ID else a
                if other in puck_ids:
                    seq.append((t, "puck", other))
                    touched.add(other)
        elif what == "rail":
            if a == STRIKER_ID:
                seq.append((t, "rail", b))
        elif what == "pocket":
            if a == STRIKER_ID:
                striker_pocketed = True
        elif what == "off":
            if a == STRIKER_ID:
                striker_off = True
            elif a in puck_ids and all(a != d for d, _ in off):
                off.append((a, b))
        elif what == "zone" and a == own:
            # 004 § 20 (7), § 25 (1) 4): the striker leaves its zone on the way out; its
            # hole coming back entirely inside means the line was crossed going back.
            if not b:
                left_zone = True
            elif left_zone:
                crossed = True
    first_t = next((t for t, what, _ in seq if what == "puck"), None)
    if first_t is None:
        first: tuple[int, ...] = ()
        rails = [x for _, what, x in seq if what == "rail"]
    else:
        # A puck touched several times in the same instant (a row pressed together)
        # counts once.
        first = tuple(
            dict.fromkeys(
                x for t, what, x in seq if what == "puck" and abs(t - first_t) <= SAME_INSTANT
            )
        )
        rails = [x for t, what, x in seq if what == "rail" and t < first_t - SAME_INSTANT]
    # 004 § 21 (2): a rebound stroke touches at least one rail before any puck.
    kind: Literal["direct", "rebound"] = "rebound" if rails else "direct"
    rebound_rail = None
    if rails:
        rebound_rail = "opposite" if OPPOSITE[own] in rails else "side"
    return Facts(
        kind=kind,
        rebound_rail=rebound_rail,
        rails=tuple(rails),
        first_touch=first,
        touched=frozenset(touched),
        touch_order=tuple(dict.fromkeys(x for _, what, x in seq if what == "puck")),
        striker_pocketed=striker_pocketed,
        striker_off=striker_off,
        crossed_back=crossed,
        off=tuple(off),
    )


def blind_for(state: MatchState, side: Side, p: Puck) -> bool:
    """Is puck p blind for a striker at `side`: in the centre circle or in his own edge
    zone, judged by its hole (004 § 21 (1), (3), 000 § 3; doubles § 28 (3): the
    partner's rail zone is not blind)."""
    return in_circle(state.table, p.x, p.y) or in_zone(state.table, side, p.x, p.y)


def blind_for_owner(state: MatchState, p: Puck) -> bool:
    """Is puck p in a blind position for its owner (004 § 21 (6), (7))."""
    return blind_for(state, state.side_of(p.owner), p)


@dataclass(frozen=True, slots=True)
class SetEnd:
    """Why a set ended: the line's code and extra arguments, the reason for the set's
    result (English, kept in the state) and the paragraph."""

    code: str
    reason: str
    rule: str
    args: dict[str, int] = field(default_factory=dict)


# -- the shared tail -----------------------------------------------------------------
@dataclass
class Outcome:
    """What the tail needs from a stroke (or a pass / clock): mutable while judging."""

    kind: Kind
    pucks: dict[int, Puck]  # every puck, after restoring and re-spotting
    reasons: list[Line] = field(default_factory=list)  # penalty reasons
    lines: list[Line] = field(default_factory=list)  # what happened, for the player
    pocketed: tuple[int, ...] = ()
    off: bool = False
    crossed: bool = False
    touched_own: bool = False
    set_lost: SetEnd | None = None
    facts: Facts | None = None
    restored: tuple[Spot, ...] = ()
    respotted: tuple[Spot, ...] = ()


def _stalled(state: MatchState, pucks: Sequence[Puck]) -> bool:
    """Are both sides' pucks (`pucks`, before or after a stroke of this set) left only in
    the centre circle (004 § 27 (6)), or only in blind positions with the 000 § 8 option?"""
    on_table = [p for p in pucks if p.on_table]
    teams = {team_of(p.owner) for p in on_table}
    if teams != {0, 1}:
        return False
    for p in on_table:
        if state.config.three_miss == "circle":
            if not in_circle(state.table, p.x, p.y):
                return False
        elif not blind_for_owner(state, p):
            return False
    return True


def _intact_rows(state: MatchState, pucks: dict[int, Puck]) -> tuple[Side, ...]:
    """The rails whose set-up row is still untouched (004 § 28 (6))."""
    if not state.intact_rows:
        return ()  # moved once, a row stays moved: most strokes of a set end here
    keep = []
    for rail in state.intact_rows:
        owner = next(s for s in state.seats if home_rail(state, s) == rail)
        spots = home_spots(state.table, rail)
        row = [p for p in pucks.values() if p.owner == owner]
        if all(
            p.where == "table"
            and (
                (p.x == spots[k][0] and p.y == spots[k][1])  # untouched: no need to measure
                or math.hypot(p.x - spots[k][0], p.y - spots[k][1]) <= MOVED
            )
            for k, p in enumerate(sorted(row, key=lambda q: q.id))
        ):
            keep.append(rail)
    return tuple(keep)


def _place_debt(
    state: MatchState, seat: int, owed: int, pucks: dict[int, Puck], rows: tuple[Side, ...]
) -> tuple[int, list[Spot]]:
    """Put as many of `seat`'s owed penalty pucks on the table as the rules allow; return
    what is still owed and the placements (004 § 24 (3), (4), (7); doubles § 28 (5),
    (6)). The pucks come from the pocketed pucks of the penalised player (in doubles
    then of his partner): pucks are never created."""
    rail = home_rail(state, seat)  # the edge zone opposite the penalised player
    team = team_of(seat)
    if state.config.mode == "doubles" and rail in rows:
        return owed, []  # 004 § 28 (6): the row opposite him has not been moved yet
    placed: list[Spot] = []
    mates = state.teammates(seat)
    while owed > 0:
        pool = sorted(
            (p for p in pucks.values() if p.where != "table" and team_of(p.owner) == team),
            key=lambda p: (mates.index(p.owner), p.id),
        )
        if not pool:
            break  # 004 § 24 (4), (7), § 28 (6): all his pucks are on the table
        puck = pool[0]
        on_table = [p for p in pucks.values() if p.where == "table"]
        others = [(p.x, p.y) for p in on_table]
        # 004 § 24 (3) "the penalised player's pucks": in doubles his pair's, which are of
        # one colour (§ 34 (1) 2)) and cannot be told apart on the table.
        own = [(p.x, p.y) for p in on_table if team_of(p.owner) == team]
        x, y = penalty_spot(state.table, rail, own, others)
        pucks[puck.id] = puck.at(x, y)
        placed.append((puck.id, x, y))
        owed -= 1
    return owed, placed


def conclude(state: MatchState, seat: int, out: Outcome) -> Ruling:
    """Everything after the pucks came to rest: the strike right (004 § 25), the end of
    a set (§ 23, § 27, § 28 (7)), penalty pucks and debts (§ 24 (2)-(7), § 28 (5), (6)),
    the three-miss rule (§ 27 (6)), and the next state."""
    team = team_of(seat)
    lines = list(out.lines)
    penalty = bool(out.reasons)
    if penalty:
        lines.extend(out.reasons)
        if len(out.reasons) > 1:
            lines.append(line("faults.one_penalty", "004 § 24 (2)"))
    own_in = [pid for pid in out.pocketed if team_of(out.pucks[pid].owner) == team]
    opp_in = [pid for pid in out.pocketed if team_of(out.pucks[pid].owner) != team]

    # -- the strike right, 004 § 25 (1) -------------------------------------------
    # Decided here, worded only once the set is known to go on (see _turn_lines): a
    # stroke that ends the set, or hands the series to the answering side, keeps nothing.
    stroke = out.kind in ("direct", "rebound")
    keeps = stroke and not penalty and bool(own_in) and not opp_in and not out.off
    keeps = keeps and not out.crossed

    after_pucks = out.pucks
    on_table = [0, 0]  # pucks on the table by team
    for p in after_pucks.values():
        if p.where == "table":
            on_table[team_of(p.owner)] += 1
    debt = list(state.debt)
    cleared_t = on_table[team] == 0 and bool(own_in) and state.team_debt(team) == 0
    cleared_o = on_table[1 - team] == 0 and bool(opp_in) and state.team_debt(1 - team) == 0

    # 004 § 27 (5), § 28 (7): who answers a side that cleared the table before a player
    # of the other side had held the strike right (singles: the 8 + 8 opening).
    answer = None
    if cleared_t and state.answering is None and not (penalty or out.crossed):
        k = seat
        for _ in state.seats:
            k = state.next_seat(k)
            if team_of(k) != team and k not in state.struck:
                answer = k
                break

    # -- the end of the set ----------------------------------------------------------
    result = None
    end: SetEnd | None = None
    if out.set_lost is not None:
        end = out.set_lost
        result = set_result(state, "lost", 1 - team, end.reason, end.rule)
    elif cleared_t and (penalty or out.crossed):
        # 000 § 8, 004 § 27 (4), (6): the last puck pocketed with a fault loses the set.
        if penalty:
            end = SetEnd(
                "set.lost.last_with_penalty",
                "His last puck went in with a penalty",
                "004 § 27 (4), (6)",
            )
        else:
            end = SetEnd(
                "set.lost.last_with_crossing",
                "His last puck went in with the striker crossing back over his own line",
                "004 § 27 (4), (6)",
            )
        result = set_result(state, "lost", 1 - team, end.reason, end.rule)
    elif cleared_t and cleared_o:
        end = SetEnd(
            "set.annulled.both_last",
            "Both sides' last pucks went in with one stroke: the set is replayed",
            "004 § 27 (4)",
        )
        result = set_result(state, "annulled", None, end.reason, end.rule)
    elif cleared_t and answer is not None:
        pass  # 004 § 27 (5), § 28 (7): the series stops; the other side answers below
    elif cleared_t and state.answering is not None:
        end = SetEnd(
            "set.replayed.both_cleared",
            "Both sides cleared the table in their first series (8 + 8): the set is "
            "replayed with sides and opening stroke changed",
            "004 § 27 (5), § 28 (7)",
        )
        result = set_result(state, "replayed", None, end.reason, end.rule)
    elif cleared_t:
        whose = "their" if state.config.mode == "doubles" else "his"
        end = SetEnd(
            "set.won.cleared", f"All {whose} pucks are in the holes", "004 § 27 (3), § 28 (2)"
        )
        result = set_result(state, "won", team, end.reason, end.rule)
    elif cleared_o:
        end = SetEnd(
            "set.won.opponent_last",
            "The opponent's last puck went in: the set is his",
            "004 § 27 (3)",
        )
        result = set_result(state, "won", 1 - team, end.reason, end.rule)
    elif state.answering is not None and not keeps:
        end = SetEnd(
            "set.won.no_answer",
            "The answering side did not clear the table in its first series",
            "004 § 27 (5), § 28 (7)",
        )
        result = set_result(state, "won", state.answering, end.reason, end.rule)

    if result is not None and end is not None:
        lines.append(_set_line(result, end))
        new = finish_set(replace(state, strokes=state.strokes + 1), result)
        if new.match_result is not None:
            lines.append(_match_line(new.match_result))
        return _ruling(out, new, seat, lines, penalty, False, result, new.match_result)

    # -- penalty pucks and debts, 004 § 24 (2)-(7), § 28 (5), (6) -----------------
    if penalty:
        debt[seat] += 1  # § 24 (2): one penalty puck, however many faults
    answering = state.answering
    next_seat = seat if keeps else state.next_seat(seat)
    series_stops = cleared_t and answer is not None
    if series_stops:
        # 004 § 27 (5), § 28 (7): the table was cleared before a player of the other side
        # held the strike right; the series stops and that player answers.
        answering = team
        next_seat = answer if answer is not None else next_seat
        keeps = False
    debt_stops = False
    rows = _intact_rows(state, after_pucks)
    placed: list[Spot] = []
    for s in state.seats:
        if debt[s] == 0:
            continue
        t = team_of(s)
        empty = on_table[t] == 0
        if t == team and keeps and not empty:
            # 004 § 24 (6): a debt waits while its side goes on with the series (in
            # doubles the partner's series too); otherwise it comes out as soon as pucks
            # are available: at once when the opponent pockets one of the debtor's pucks
            # (§ 24 (5)), or, in doubles, once the row opposite him has moved (§ 28 (6)).
            continue
        before = debt[s]
        debt[s], spots = _place_debt(state, s, debt[s], after_pucks, rows)
        placed.extend(spots)
        if spots:
            cite = "004 § 24 (3)" if s == seat and penalty and before == 1 else "004 § 24 (3)-(7)"
            if state.config.mode == "doubles":
                cite += ", § 28 (5)"
            code = "debt.placed" if penalty and s == seat else "debt.placed_owed"
            lines.append(line(code, cite, seat=s, n=len(spots)))
        if debt[s] and (debt[s] != state.debt[s] or spots):
            rule = "004 § 28 (6)" if state.config.mode == "doubles" else "004 § 24 (4)"
            lines.append(line("debt.owed", rule, seat=s, n=debt[s]))
        if empty and spots and t == team and keeps and state.config.mode == "doubles":
            # 004 § 24 (6): with all pucks in, debts come out and the series goes on,
            # except in doubles, whichever partner owed them.
            next_seat = state.next_seat(seat)
            keeps = False
            debt_stops = True

    # -- three misses in a row, 004 § 27 (6) / 000 § 8 ----------------------------------
    after = tuple([after_pucks[p.id] for p in state.pucks])
    misses = 0
    # The cheap tests first: most strokes touch an own puck or keep the turn.
    stalled = not out.touched_own and not keeps and _stalled(state, state.pucks)
    if stalled and _stalled(state, after):
        misses = state.misses + 1
    if misses >= 3 * len(state.seats):
        end = SetEnd(
            "set.annulled.three_misses",
            "Three missed turns each at the last pucks: the set is replayed",
            "004 § 27 (6)" if state.config.three_miss == "circle" else "000 § 8",
        )
        result = set_result(state, "annulled", None, end.reason, end.rule)
        lines.append(_set_line(result, end))
        new = finish_set(replace(state, strokes=state.strokes + 1), result)
        keeps = False
    else:
        if series_stops:
            lines.append(line("series.answer", "004 § 27 (5), (6), § 28 (7)"))
        elif debt_stops:
            lines.append(line("turn.debt_placed", "004 § 24 (6)"))
        else:
            lines.extend(_turn_lines(out, penalty, keeps, own_in, opp_in))
        new = replace(
            state,
            pucks=after,
            debt=tuple(debt),
            turn_seat=next_seat,
            answering=answering,
            struck=tuple(dict.fromkeys((*state.struck, next_seat))),
            misses=misses,
            intact_rows=rows,
            set_strokes=state.set_strokes + 1,
            strokes=state.strokes + 1,
        )
    return _ruling(out, new, seat, lines, penalty, keeps, result, None, tuple(placed))


def _turn_lines(
    out: Outcome, penalty: bool, keeps: bool, own_in: list[int], opp_in: list[int]
) -> list[Line]:
    """Who strikes next in a set that goes on, and why (004 § 25 (1), § 20 (8)): called
    only after every decision that could end the set or the series was taken, so the
    words say what the ruling's keeps_turn and next_seat say."""
    if keeps:
        return [line("turn.again", "004 § 20 (8)")]
    if penalty:
        return [line("turn.passes", "004 § 25 (1) 7)")]
    if out.kind not in ("direct", "rebound"):
        return []
    passes: list[Line] = []
    if not own_in:
        passes.append(line("turn.none_in", "004 § 25 (1) 1)"))
    if own_in and opp_in:
        passes.append(line("turn.opponent_in", "004 § 25 (1) 2)"))
    if out.off:
        passes.append(line("turn.over_rail", "004 § 25 (1) 3)"))
    if out.crossed:
        passes.append(line("turn.crossed_line", "004 § 25 (1) 4), § 20 (7)"))
    return passes


def _ruling(
    out: Outcome,
    new: MatchState,
    seat: int,
    lines: list[Line],
    penalty: bool,
    keeps: bool,
    result: dict[str, Any] | None,
    match_result: dict[str, Any] | None,
    placed: tuple[Spot, ...] = (),
) -> Ruling:
    facts = out.facts
    return Ruling(
        state=new,
        seat=seat,
        kind=out.kind,
        legal=not penalty,
        lines=tuple(lines),
        rebound_rail=facts.rebound_rail if facts else None,
        rails=facts.rails if facts else (),
        first_touch=facts.first_touch if facts else (),
        pocketed=out.pocketed,
        restored=out.restored,
        respotted=out.respotted,
        penalty_placed=placed,
        penalty=penalty,
        keeps_turn=keeps,
        crossed_line=out.crossed,
        set_result=result,
        match_result=match_result,
    )


def _set_line(result: dict[str, Any], end: SetEnd) -> Line:
    """The line that ends a set: won by the winner, or lost by the other team."""
    o = result["outcome"]
    if o in ("won", "lost"):
        team = result["winner"] if o == "won" else 1 - result["winner"]
        return line(end.code, end.rule, set=result["set"], team=team, **end.args)
    return line(end.code, end.rule, set=result["set"], **end.args)


def _match_line(match: dict[str, Any]) -> Line:
    a, b = match["sets_won"]
    if match["winner"] is None:
        return line("match.drawn", match["rule"], a=a, b=b)
    return line("match.won", match["rule"], team=match["winner"], a=a, b=b)


# -- the stroke ----------------------------------------------------------------------
def judge(state: MatchState, seat: int, shot: Shot, result: Any) -> Ruling:
    """The ruling on a stroke played by `seat` with `shot`, given the physics' result
    of simulate(COMPETITION, sim_discs(state), shot) (its .events and .final). Raises
    StrokeRefused, like check_stroke, for a stroke that was not allowed."""
    check_stroke(state, seat, shot)
    table = state.table
    side = state.side_of(seat)
    team = team_of(seat)
    is_blind = blind_test(table, side)  # blind_for(state, side, p) for a puck at (x, y)
    pucks: dict[int, Puck] = {}  # every puck, where the ruling puts it
    before: dict[int, Puck] = {}
    mine: set[int] = set()
    blind: set[int] = set()
    for p in state.pucks:
        pucks[p.id] = p
        if p.where == "table":
            before[p.id] = p
            if team_of(p.owner) == team:
                mine.add(p.id)
                if is_blind(p.x, p.y):
                    blind.add(p.id)
    facts = read_events(_striker_log(result), side, before)
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
    resting: dict[int, tuple[float, float]] = {}  # the pucks on the table, where they rest
    size = table.size
    isfinite = math.isfinite
    for pid, p in before.items():
        end = ends.get(pid)
        if pid in off_ids:
            continue
        if end is None:  # not moved (or not in a synthetic result): where it was
            resting[pid] = (p.x, p.y)
            continue
        where, (x, y) = end
        on_surface = isfinite(x) and isfinite(y) and 0.0 <= x <= size and 0.0 <= y <= size
        if where == "table" and on_surface:
            if x != p.x or y != p.y:  # most pucks did not move: keep them as they are
                pucks[pid] = p.at(x, y)
            resting[pid] = (x, y)
        elif where == "pocket":
            pucks[pid] = p.at(p.x, p.y, "pocket")
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
        return pid in off_ids or not b.on_table or math.hypot(a.x - b.x, a.y - b.y) > MOVED

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
    if facts.kind == "direct" and first_blind:
        # 004 § 21 (4): own blind pucks knocked out by a direct stroke go back.
        knocked = [
            pid
            for pid in sorted(blind)
            if pid in off_ids or not pucks[pid].on_table or not blind_for(state, side, pucks[pid])
        ]
        restore.extend(knocked)
        further = [pid for pid in before if pid not in first and moved(pid)]
        if len(knocked) >= 2:
            set_lost = SetEnd(
                "set.lost.blind_knocked_out",
                "Two or more of his blind pucks were knocked out with a direct stroke",
                "004 § 23 (1) 1), § 21 (4)",
            )
        elif len(further) >= state.config.blind_hit_moves:
            n = state.config.blind_hit_moves
            set_lost = SetEnd(
                "set.lost.blind_hit_moved",
                "His direct stroke at his own blind puck moved "
                + ("two or more other pucks" if n == 2 else "another puck"),
                "004 § 23 (1) 4), § 21 (4)" if n == 2 else "000 § 5",
                {"n": n},
            )
    if forbidden_drive:
        for pid, p in before.items():
            if team_of(p.owner) == team or pid in off_ids or not pucks[pid].on_table:
                continue
            now = pucks[pid]
            if blind_for_owner(state, p) or not blind_for_owner(state, now):
                continue  # § 21 (6) note: blind to blind, or not into a blind position
            if in_circle(table, now.x, now.y) or state.config.mode == "singles":
                restore.append(pid)  # 004 § 21 (7), (8), doubles § 28 (4)
            else:
                lines.append(line("pucks.zone_stays", "004 § 28 (3)"))
    if facts.kind == "direct" and first_opp:
        opp_off = [pid for pid in off_ids if team_of(before[pid].owner) != team]
        if opp_off:
            # 004 § 21 (9), § 24 (1) 16): they go back to their places, not to the circle.
            restore.extend(opp_off)
            reasons.append(line("penalty.opponent_over_rail", "004 § 24 (1) 16), § 21 (9)"))

    restored: list[Spot] = []
    for pid in sorted(set(restore)):
        others = [
            (q.x, q.y) for q in pucks.values() if q.on_table and q.id != pid and q.id not in off_ids
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
    touch_rank = {pid: k for k, pid in enumerate(facts.touch_order)}
    order = sorted(
        (pid for pid in off_order if pid in off_ids),
        key=lambda pid: (touch_rank.get(pid, len(touch_rank)), off_order.index(pid)),
    )
    for pid in order:
        others = [(q.x, q.y) for q in pucks.values() if q.on_table and q.id not in off_ids]
        # The physics names the rail; failing that, the far rail is the likeliest.
        rail = off_rail.get(pid) or OPPOSITE[side]
        x, y = respot_spot(table, rail, others)
        pucks[pid] = before[pid].at(x, y)
        off_ids.discard(pid)
        respotted.append((pid, x, y))
    if respotted:
        lines.append(line("pucks.respotted", "004 § 20 (14)", pucks=tuple(r[0] for r in respotted)))

    pocketed = tuple([pid for pid in sorted(before) if pucks[pid].where != "table"])
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


def _striker_log(result: Any) -> Iterable[LogEntry]:
    """What read_events needs of a physics result: a StrokeResult gives only the events
    it reads, as plain tuples (building every event object cost more than the rest of
    the ruling); any other result (a synthetic one in the tests) its whole log."""
    if isinstance(result, StrokeResult):
        return result.striker_log()
    return map(plain_event, result.events)


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
