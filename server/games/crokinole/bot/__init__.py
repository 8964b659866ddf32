"""The computer opponent for Crokinole (seed 002): it samples shots from the player's
shooting line, runs each through the Crokinole engine, lets the real judge rule on it and
plays the one whose result is worth most, through the level's noisy hand (docs/bot.md,
"Crokinole"). Pure: imports only server.games.crokinole and the games' core; coordinates are
the rules' (millimetres from the board's centre).

    choice = choose(state, seat, level=3, seed=42)     # raises CrokinoleBotError
    judge_shot(state, seat, *astuple(choice.shot))     # never refused (002 5)
"""

from __future__ import annotations

import random
import time

from server.games.core.play import Choice
from server.games.crokinole.bot.levels import LEVELS, CrokinoleBotError, level_of
from server.games.crokinole.bot.search import check_seat, played, think
from server.games.crokinole.rules import State


def choose(state: State, seat: int, level: int, seed: int, budget_s: float | None = None) -> Choice:
    """The shot the computer of `level` plays for `seat` in `state`, in the rules'
    coordinates: `shot` with the hand's noise applied (its start always legal, 002 5),
    `intended` the shot meant, `target` the opposing disc aimed at or None for a draw into
    the 15 or the 20-hole (002 3 b), `pocket` None (Crokinole has none), `score` the
    search's worth of the shot meant (points of the seat's side less the best other side's
    after it, as the judge counts them, 002 4).

    Deterministic for a seed unless `budget_s` (seconds of thinking) runs out first.
    Raises CrokinoleBotError for a level not in LEVELS, a finished game, or a seat whose
    turn it is not."""
    lv = level_of(level)
    check_seat(state, seat)
    if budget_s is not None and not budget_s > 0:
        raise CrokinoleBotError(f"the time budget must be positive, not {budget_s!r}")
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    think_rng = random.Random(f"croki-think:{seed}")
    hand_rng = random.Random(f"croki-hand:{seed}")
    thought = think(state, seat, lv, think_rng, deadline)
    meant = thought.best.shot
    return Choice(
        shot=played(state, seat, meant, lv, hand_rng),
        intended=meant,
        target=thought.best.target,
        pocket=None,
        candidates=thought.sims,
        score=thought.score,
    )


__all__ = ["LEVELS", "Choice", "CrokinoleBotError", "choose"]
