"""The computer's decision: try the candidate strokes on the physics core, let the
referee rule on each, replay the best under the level's noise, play the sturdiest.

Pure and deterministic for a seed: two random streams are drawn from it, one for
thinking (placements, imagined noise) and one for the hand (the noise of the stroke
actually played), so what the computer imagined tells it nothing about how its stroke
will stray (no future dice).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from server.games.novuss.bot.candidates import Candidate, Generator, legal, variations
from server.games.novuss.bot.evaluate import Scorer
from server.games.novuss.bot.levels import BotError, Level
from server.games.novuss.bot.noise import stray
from server.games.novuss.rules.check import require_turn
from server.games.novuss.rules.ruling import StrokeRefused
from server.games.novuss.rules.state import MatchState
from server.games.novuss.sim.types import Shot


@dataclass(frozen=True, slots=True)
class Thought:
    """The outcome of a search: the stroke meant, its worth and the strokes simulated."""

    best: Candidate
    score: float
    sims: int


def check_seat(state: MatchState, seat: int) -> None:
    """BotError unless `seat` holds the strike right in a match still on."""
    try:
        require_turn(state, seat)
    except StrokeRefused as e:
        raise BotError(f"seat {seat} may not strike now: {e.message}") from e


REFINE = 0.25
"""The share of the first look spent on variations of its best strokes."""
REFINED = 8
"""How many of the first look's best strokes are varied."""


def score_all(
    scorer: Scorer, tries: list[Candidate], deadline: float | None
) -> list[tuple[float, Candidate]]:
    """Each candidate with the worth of the referee's ruling on it, until the deadline."""
    out: list[tuple[float, Candidate]] = []
    for cand in tries:
        if deadline is not None and out and time.perf_counter() > deadline:
            break
        out.append((scorer.worth(cand.shot), cand))
    return out


def nudged(
    state: MatchState, seat: int, best: list[Candidate], count: int, rng: random.Random
) -> list[Candidate]:
    """`count` small variations in aim and speed of the strokes in `best`."""
    out: list[Candidate] = []
    for k in range(count * 2):
        if len(out) >= count:
            break
        c = best[k % len(best)]
        s = c.shot
        shot = Shot(
            s.x, s.y, s.angle + rng.gauss(0.0, 0.01), s.speed * math.exp(rng.gauss(0.0, 0.1))
        )
        if legal(state, seat, shot):
            out.append(Candidate(shot, c.kind, c.target, c.pocket))
    return out


def think(
    state: MatchState, seat: int, level: Level, rng: random.Random, deadline: float | None
) -> Thought:
    """The best stroke `level` finds within its budget (and the deadline, if any): a
    broad first look, variations of its best, then the best replayed under noise."""
    gen = Generator(state, seat)
    first = max(1, level.budget - level.shortlist * level.replays)
    refine = int(first * REFINE) if level.replays else 0
    tries = variations(gen.ideas(), rng, first - refine) or [gen.any_stroke()]
    scorer = Scorer(state, seat)
    scored = score_all(scorer, tries, deadline)
    rank = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    if refine:
        top = [scored[i][1] for i in rank[:REFINED]]
        scored += score_all(scorer, nudged(state, seat, top, refine, rng), deadline)
        rank = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    best_score, best = scored[rank[0]]
    if level.replays == 0:
        return Thought(best, best_score, scorer.sims)
    robust: list[tuple[float, int]] = []
    for i in rank[: level.shortlist]:
        if deadline is not None and robust and time.perf_counter() > deadline:
            break
        exact, cand = scored[i]
        total = exact
        for _ in range(level.replays):
            shot = stray(state, seat, cand.shot, level, rng)
            total += scorer.worth(shot)
        robust.append((total / (level.replays + 1), i))
    robust.sort(key=lambda t: -t[0])
    best_score, i = robust[0]
    return Thought(scored[i][1], best_score, scorer.sims)


def streams(seed: int) -> tuple[random.Random, random.Random]:
    """The thinking and the hand's random streams of a seed, independent of each other."""
    return random.Random(f"bot-think:{seed}"), random.Random(f"bot-hand:{seed}")


def deadline_of(budget_s: float | None) -> float | None:
    """The clock time thinking must stop at, if a time budget is given."""
    if budget_s is None:
        return None
    if not budget_s > 0:
        raise BotError(f"the time budget must be positive, not {budget_s!r}")
    return time.perf_counter() + budget_s


def play(state: MatchState, seat: int, shot: Shot, level: Level, rng: random.Random) -> Shot:
    """The meant stroke as the level's hand plays it."""
    return stray(state, seat, shot, level, rng)
