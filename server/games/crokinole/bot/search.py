"""Choosing a Crokinole shot: simulate each candidate with the engine, let the real judge
rule (002 3, 4), score what is left, replay the best under the level's noise."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from server.games.core.play import Shot
from server.games.crokinole.bot.candidates import Candidate, ideas, stray
from server.games.crokinole.bot.levels import CrokinoleBotError, Level
from server.games.crokinole.judge import judge_shot, side_totals
from server.games.crokinole.rules import ShotRefused, State, check_placement

INVALID = 5.0  # a foul costs a little beyond the discs it sends to the ditch (002 3 c)


def check_seat(state: State, seat: int) -> None:
    """CrokinoleBotError unless `seat` may shoot now in a game still on (002 2 a)."""
    if state.over:
        raise CrokinoleBotError("the game is over")
    if seat not in state.turn:
        raise CrokinoleBotError(f"seat {seat} may not shoot now (002 2 a)")


class Scorer:
    """The worth of a shot for the seat's side: its total on the board and in twenties
    less the best other side's, after the judge's ruling (002 4), minus a foul's cost."""

    def __init__(self, state: State, seat: int):
        self.state = state
        self.seat = seat
        self.side = state.options.side_of(seat)
        self.sims = 0

    def worth(self, shot: Shot) -> float:
        """The shot judged; a shot the judge refuses is worth nothing."""
        self.sims += 1
        try:
            after, ruling, _ = judge_shot(
                self.state, self.seat, shot.x, shot.y, shot.angle, shot.speed
            )
        except ShotRefused:
            return float("-inf")
        totals = side_totals(after)
        others = max(t for s, t in enumerate(totals) if s != self.side)
        return totals[self.side] - others - (0.0 if ruling.valid else INVALID)


@dataclass(frozen=True, slots=True)
class Thought:
    """The outcome of a search: the candidate meant, its worth and the shots simulated."""

    best: Candidate
    score: float
    sims: int


def think(
    state: State, seat: int, level: Level, rng: random.Random, deadline: float | None
) -> Thought:
    """The best shot `level` finds within its budget (and the deadline, if any)."""
    first = max(1, level.budget - level.shortlist * level.replays)
    tries = ideas(state, seat, rng, first)
    if not tries:
        raise CrokinoleBotError("no legal place to shoot from (002 5)")
    scorer = Scorer(state, seat)
    scored: list[tuple[float, int]] = []
    for i, cand in enumerate(tries):
        if deadline is not None and scored and time.perf_counter() > deadline:
            break
        scored.append((scorer.worth(cand.shot), i))
    scored.sort(key=lambda t: (-t[0], t[1]))
    best_score, best = scored[0]
    if level.replays == 0:
        return Thought(tries[best], best_score, scorer.sims)
    robust: list[tuple[float, int]] = []
    for exact, i in scored[: level.shortlist]:
        if deadline is not None and robust and time.perf_counter() > deadline:
            break
        total = exact
        for _ in range(level.replays):
            total += scorer.worth(stray(state, tries[i].shot, level.angle_sd, level.speed_sd, rng))
        robust.append((total / (level.replays + 1), i))
    robust.sort(key=lambda t: (-t[0], t[1]))
    best_score, best = robust[0]
    return Thought(tries[best], best_score, scorer.sims)


def played(state: State, seat: int, shot: Shot, level: Level, rng: random.Random) -> Shot:
    """The meant shot as the level's hand plays it; the start is never moved, so it stays
    one check_placement accepts (002 5)."""
    out = stray(state, shot, level.angle_sd, level.speed_sd, rng)
    check_placement(state, seat, out.x, out.y)
    return out
