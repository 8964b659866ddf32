"""The referee's shared tail: everything after the pucks came to rest, for a stroke
(judge.py), a pass or a clock that ran out (turns.py): the strike right (004 § 25), the
end of a set (§ 23, § 27, § 28 (7)), penalty pucks and debts (§ 24 (2)-(7), § 28 (5),
(6)) and the next state."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any

from server.games.novuss.rules.facts import MOVED, Facts, blind_for_owner
from server.games.novuss.rules.geometry import (
    home_spots,
    in_circle,
)
from server.games.novuss.rules.lines import Line, line
from server.games.novuss.rules.placement import Point, penalty_spot
from server.games.novuss.rules.ruling import Kind, Ruling, Spot
from server.games.novuss.rules.sets import finish_set, set_result
from server.games.novuss.rules.state import MatchState, Puck, home_rail, team_of
from server.games.novuss.sim.types import Side


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
    pucks: dict[int, Puck]  # every puck, in the state's order, after restoring and re-spotting
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
    on_table = [p for p in pucks if p.where == "table"]
    teams = {p.owner % 2 for p in on_table}  # team_of, over every puck on the table
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
        row = [p for p in pucks.values() if p.owner == owner]
        row.sort(key=_BY_ID)
        if _in_place(row, home_spots(state.table, rail)):
            keep.append(rail)
    return tuple(keep)


_BY_ID = attrgetter("id")


def _in_place(row: list[Puck], spots: tuple[tuple[float, float], ...]) -> bool:
    """Is every puck of `row` (by id) on the table at its set-up spot (004 § 28 (6))?"""
    for k, p in enumerate(row):
        x, y = spots[k]
        if p.where != "table":
            return False
        # untouched: no need to measure
        if (p.x != x or p.y != y) and not math.hypot(p.x - x, p.y - y) <= MOVED:
            return False
    return True


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
    pool: list[Puck] = []  # his side's pucks in the holes
    others: list[Point] = []  # every puck on the table
    # 004 § 24 (3) "the penalised player's pucks": in doubles his pair's, which are of
    # one colour (§ 34 (1) 2)) and cannot be told apart on the table.
    own: list[Point] = []
    for p in pucks.values():
        if p.where == "table":
            others.append((p.x, p.y))
            if p.owner % 2 == team:  # team_of, in the one loop over every puck
                own.append((p.x, p.y))
        elif p.owner % 2 == team:
            pool.append(p)
    # His own pocketed pucks first, then his partner's; by id.
    pool.sort(key=lambda p: (mates.index(p.owner), p.id))
    # 004 § 24 (4), (7), § 28 (6): until all his are on the table
    for puck in pool[: max(owed, 0)]:
        x, y = penalty_spot(state.table, rail, own, others)
        pucks[puck.id] = puck.at(x, y)
        placed.append((puck.id, x, y))
        others.append((x, y))
        own.append((x, y))
    return owed - len(placed), placed


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
    in_holes = [0, 0]  # and in the holes: what penalty pucks are taken from
    for p in after_pucks.values():
        if p.where == "table":
            on_table[p.owner % 2] += 1  # team_of, in the one loop over every puck
        else:
            in_holes[p.owner % 2] += 1
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
    elif cleared_t and state.answering is not None and state.answer_forfeit:
        end = SetEnd(
            "set.lost.eight_eight_right_lost",
            "Both sides cleared the table in their first series (8 + 8), and the side that"
            " cleared first lost the strike right with its last stroke",
            "004 § 27 (6), § 28 (7)",
        )
        result = set_result(state, "lost", team, end.reason, end.rule)
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
    # 004 § 27 (6): stopping the series is not losing the strike right, but a clearing
    # stroke may also lose it (§ 25 (1) 2), 3): an opponent's puck in, a puck over the rail)
    answer_forfeit = state.answer_forfeit or (series_stops and not keeps)
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
        spots: list[Spot] = []
        if in_holes[t]:  # 004 § 24 (3): pucks are never created, only taken from the holes
            debt[s], spots = _place_debt(state, s, debt[s], after_pucks, rows)
            in_holes[t] -= len(spots)
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
    # Outcome.pucks holds every puck of the state, in its order.
    after = tuple(after_pucks.values())
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
        # dataclasses.replace's own work (reading every field by name) cost as much as
        # the state: every field is named here, the unchanged ones read off `state`.
        new = MatchState(
            config=state.config,
            first_side=state.first_side,
            rotation=state.rotation,
            turn_seat=next_seat,
            pucks=after,
            debt=tuple(debt),
            sets_won=state.sets_won,
            sets_played=state.sets_played,
            set_strokes=state.set_strokes + 1,
            strokes=state.strokes + 1,
            opener=state.opener,
            struck=tuple(dict.fromkeys((*state.struck, next_seat))),
            answering=answering,
            answer_forfeit=answer_forfeit,
            misses=misses,
            intact_rows=rows,
            set_results=state.set_results,
            match_result=state.match_result,
            cautions=state.cautions,
            delays=state.delays,
            table=state.table,
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
