"""The computer's decision: try the candidate strokes on the physics core, let the
referee rule on each, replay the best under the level's noise, play the sturdiest.

Pure and deterministic for a seed: two random streams are drawn from it, one for
thinking (placements, imagined noise) and one for the hand (the noise of the stroke
actually played), so what the computer imagined tells it nothing about how its stroke
will stray (no future dice).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from server.bot.candidates import Candidate, Generator
from server.bot.evaluate import outcome, value
from server.bot.levels import BotError, Level
from server.bot.noise import stray
from server.rules.check import require_turn
from server.rules.ruling import StrokeRefused
from server.rules.state import MatchState
from server.sim.types import Shot


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


def spread_of(level: Level) -> int:
    """Placements tried per aim: more for a bigger budget."""
    return max(2, min(8, level.budget // 300))


def ordered(found: Iterable[Candidate], rng: random.Random) -> list[Candidate]:
    """The candidates in the order the search tries them: one of each idea (kind,
    puck, pocket) in turn, kinds in their order of promise, so a small budget still
    looks at every puck before it looks at any twice."""
    groups: dict[tuple[str, int | None, str | None], list[Candidate]] = {}
    for c in found:
        groups.setdefault((c.kind, c.target, c.pocket), []).append(c)
    for g in groups.values():
        rng.shuffle(g)
    out: list[Candidate] = []
    depth = 0
    while len(out) < sum(len(g) for g in groups.values()):
        for g in groups.values():
            if depth < len(g):
                out.append(g[depth])
        depth += 1
    return out


def think(
    state: MatchState, seat: int, level: Level, rng: random.Random, deadline: float | None
) -> Thought:
    """The best stroke `level` finds within its budget (and the deadline, if any)."""
    gen = Generator(state, seat, rng)
    spread = spread_of(level)
    found = [
        *gen.pots(spread),
        *gen.combos(max(1, spread // 2)),
        *gen.rebounds(max(1, spread // 2)),
        *gen.touches(spread),
    ]
    tries = ordered(found, rng) or [gen.any_stroke()]
    first = max(1, level.budget - level.shortlist * level.replays)
    sims = 0
    scored: list[tuple[float, int, Candidate]] = []
    for k, cand in enumerate(tries[:first]):
        if deadline is not None and scored and time.perf_counter() > deadline:
            break
        scored.append((value(state, seat, outcome(state, seat, cand.shot)), k, cand))
        sims += 1
    scored.sort(key=lambda t: (-t[0], t[1]))
    best_score, _, best = scored[0]
    if level.replays == 0:
        return Thought(best, best_score, sims)
    robust: list[tuple[float, int, Candidate]] = []
    for exact, k, cand in scored[: level.shortlist]:
        if deadline is not None and robust and time.perf_counter() > deadline:
            break
        total = exact
        for _ in range(level.replays):
            shot = stray(state, seat, cand.shot, level, rng)
            total += value(state, seat, outcome(state, seat, shot))
            sims += 1
        robust.append((total / (level.replays + 1), k, cand))
    robust.sort(key=lambda t: (-t[0], t[1]))
    best_score, _, best = robust[0]
    return Thought(best, best_score, sims)


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
