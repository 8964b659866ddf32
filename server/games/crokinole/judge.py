"""Judging a Crokinole shot (seed 002 § 2 b, 3, 4 e, 6, 7 a-b) and closing a round (2 c, 4).

`play_shot` checks the placement, runs the shot through the physics and returns the next
state with a `Ruling`: codes and paragraphs for the client to render, never sentences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from server.games.crokinole import scoring
from server.games.crokinole.lines import Line, round_lines, shot_lines
from server.games.crokinole.physics import Flick, Piece, ShotInputError, ShotResult, simulate
from server.games.crokinole.rules import (
    ROUNDS_PER_GAME,
    Disc,
    ShotRefused,
    State,
    check_placement,
    next_round,
    next_turn,
)


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the referee decided about one shot."""

    seat: int
    disc: int
    valid: bool
    code: str  # "valid", "no_opponent_struck", "not_direct", "not_in_15"
    paragraph: str
    to_ditch: tuple[int, ...]  # removed as the penalty of an invalid shot (3 c, 7 a)
    out_of_play: tuple[int, ...]  # on or beyond the shooting line, or struck across it (4 e, 6)
    twenties: tuple[int, ...]  # discs that dropped in the hole and are set aside (2 b)
    restored: tuple[int, ...]  # opposing discs put back (7 a)
    fell: tuple[int, ...] = ()  # left the board into the ditch during the shot itself
    next_turn: tuple[int, ...] = ()  # who may shoot next in this round (none: it is over)

    @property
    def lines(self) -> tuple[Line, ...]:
        """The ruling's words as codes, made from its data alone (issue 38)."""
        return shot_lines(self)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: totals on the board with the 20s, the points each side gets."""

    round_no: int
    totals: tuple[int, ...]
    points: tuple[int, ...]
    paragraph: str
    score: tuple[int, ...] = ()  # the game after this round
    over: bool = False
    winners: tuple[int, ...] = ()  # the sides with the best game score, once it is over

    @property
    def lines(self) -> tuple[Line, ...]:
        """The round's words as codes, made from its data alone."""
        return round_lines(self)


def side_totals(state: State) -> tuple[int, ...]:
    """Each side's points on the board and in twenties (002 2 c, 4 a-e)."""
    opts = state.options
    totals = [20 * n for n in state.twenties]
    for d in state.discs:
        totals[opts.side_of(d.seat)] += scoring.disc_value(
            state.board, d.x, d.y, opts.line_discs_stay
        )
    return tuple(totals)


def _moved(result: ShotResult, shooter: int) -> set[int]:
    """The shooter and every disc struck during the shot."""
    moved = {shooter}
    for e in result.events:
        if e.kind == "disc":
            moved |= {e.a, e.b}
    return moved


def _validity(state: State, seat: int, shooter: int, result: ShotResult) -> tuple[str, str]:
    """(code, paragraph) of the shot's validity (002 3 a, b; 7 a)."""
    opts = state.options
    mine = opts.side_of(seat)
    side = {d.id: opts.side_of(d.seat) for d in state.discs} | {shooter: mine}
    if any(side[d.id] != mine for d in state.discs):
        contacts = [(e.a, e.b) for e in result.events if e.kind == "disc"]
        if opts.direct_hit:  # 7 a: the shooter's first contact must be an opposing disc
            first = next(((a, b) for a, b in contacts if shooter in (a, b)), None)
            ok = first is not None and side[first[0] + first[1] - shooter] != mine
            return ("valid", "7 a") if ok else ("not_direct", "7 a")
        # 3 a: some disc of the shooter's colour meets an opposing disc
        if any((side[a] == mine) != (side[b] == mine) for a, b in contacts):
            return ("valid", "3 a")
        return ("no_opponent_struck", "3 a")
    for disc_id in _moved(result, shooter):  # 3 b, the "no hiding" rule
        f = result.final(disc_id)
        if f.where == "hole" or (
            f.where == "board" and scoring.touching_or_within_15(state.board, f.x, f.y)
        ):
            return ("valid", "3 b")
    return ("not_in_15", "3 b")


def play_shot(
    state: State, seat: int, x: float, y: float, angle: float, speed: float
) -> tuple[State, Ruling]:
    """Shoot the seat's next disc from (x, y); the next state and the ruling.

    Raises ShotRefused (placement, turn: 002 5, 2 a) before anything changes."""
    after, ruling, _ = judge_shot(state, seat, x, y, angle, speed)
    return after, ruling


def judge_shot(
    state: State, seat: int, x: float, y: float, angle: float, speed: float
) -> tuple[State, Ruling, ShotResult]:
    """play_shot, with the shot's motion (for a play-out)."""
    check_placement(state, seat, x, y)
    shooter = state.next_disc_id(seat)
    pieces = [Piece(d.id, d.x, d.y) for d in state.discs]
    try:
        result = simulate(state.board, pieces, Flick(shooter, x, y, angle, speed))
    except ShotInputError as err:
        raise ShotRefused("bad_shot", "5") from err
    code, paragraph = _validity(state, seat, shooter, result)
    before = {d.id: d for d in state.discs}
    ditch: set[int] = set()
    restored: set[int] = set()
    if code != "valid":
        mine = state.options.side_of(seat)
        for disc_id in _moved(result, shooter):
            own = state.options.side_of(disc_id // 10) == mine
            if code == "not_direct" and not own:
                restored.add(disc_id)  # 7 a: the opponent's discs go back
            else:
                ditch.add(disc_id)  # 3 c: the shooter and every disc it struck, 20s too
    discs, out, twenties = _settle(state, result, ditch, restored, before)
    fell = [f.id for f in result.finals if f.where == "ditch" and f.id not in ditch | restored]
    counts = list(state.twenties)
    for disc_id in twenties:
        counts[state.options.side_of(disc_id // 10)] += 1
    left = list(state.shots_left)
    left[seat] -= 1
    after = replace(state, discs=discs, twenties=tuple(counts), shots_left=tuple(left))
    after = replace(after, turn=next_turn(after, seat))
    ruling = Ruling(
        seat, shooter, code == "valid", code, paragraph,
        tuple(sorted(ditch)), tuple(sorted(out)), tuple(sorted(twenties)), tuple(sorted(restored)),
        tuple(sorted(fell)), after.turn,
    )  # fmt: skip
    return after, ruling, result


def _settle(
    state: State, result: ShotResult, ditch: set[int], restored: set[int], before: dict[int, Disc]
) -> tuple[tuple[Disc, ...], list[int], list[int]]:
    """The discs left on the board, those out of play (4 e, 6 a-c, 7 b) and the 20s (2 b)."""
    stay = state.options.line_discs_stay
    discs: list[Disc] = []
    out: list[int] = []
    twenties: list[int] = []
    for f in result.finals:
        if f.id in restored:
            discs.append(before[f.id])
        elif f.id in ditch or f.where == "ditch":
            continue
        elif f.where == "hole":
            twenties.append(f.id)
        elif not stay and (
            f.struck_across or scoring.on_or_beyond_shooting_line(state.board, f.x, f.y)
        ):
            out.append(f.id)  # 4 e, 6 a, 6 c; 6 b: back inside without striking, in play
        else:
            discs.append(Disc(f.id, f.x, f.y))
    return tuple(sorted(discs, key=lambda d: d.id)), out, twenties


def round_over(state: State) -> bool:
    """Every disc of the round has been shot (002 2 c)."""
    return not state.over and not any(state.shots_left)


def close_round(state: State) -> tuple[State, RoundResult]:
    """Count the round (002 2 c, 4) and open the next, or end the game (4 f, 4 g, 7 d)."""
    opts = state.options
    totals = side_totals(state)
    if opts.sides() > 2:
        points, paragraph = scoring.rank_points(totals), "7 d"
    elif opts.scoring == "tournament":
        points, paragraph = scoring.tournament_points(totals), "4 f"
    else:
        points, paragraph = scoring.cancelled_points(totals), "4 g"
    score = tuple(a + b for a, b in zip(state.score, points, strict=True))
    if opts.scoring == "conventional":
        over = max(score) >= opts.target
    else:
        over = state.round_no >= ROUNDS_PER_GAME
    after = next_round(state, totals, score, over)
    best = winners(after) if over else ()
    return after, RoundResult(state.round_no, totals, points, paragraph, score, over, best)


def winners(state: State) -> tuple[int, ...]:
    """The sides with the best game score (several on a tie, 4 f)."""
    best = max(state.score)
    return tuple(s for s, v in enumerate(state.score) if v == best)


def aim(
    x: float, y: float, tx: float, ty: float, slide: float, decel: float
) -> tuple[float, float]:
    """Angle and speed that send a disc from (x, y) through (tx, ty) to rest `slide` mm
    beyond it (for scripted players and tests)."""
    d = math.hypot(tx - x, ty - y) + slide
    return math.atan2(ty - y, tx - x), math.sqrt(2.0 * decel * d)
