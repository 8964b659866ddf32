"""The computer opponent: it chooses a stroke by trying candidates on the physics core
and letting the referee rule on each (docs/bot.md). Pure: no I/O, no clock but an
optional thinking deadline; every argument and result is picklable, so it runs in a
worker process.

    choice = choose(state, seat, level=3, seed=42)     # raises BotError
    check_stroke(state, seat, choice.shot)             # always accepted
    tip = hint(state, seat, seed=42)                   # practice: the best, no noise
"""

from __future__ import annotations

from server.games.core.play import Choice
from server.games.novuss.bot.levels import LEVEL_TABLE, LEVELS, TOP, BotError, Level, level_of
from server.games.novuss.bot.search import check_seat, deadline_of, play, streams, think
from server.games.novuss.rules.state import MatchState
from server.games.novuss.sim.types import POCKETS, Pocket


def pocket_name(choice: Choice) -> Pocket | None:
    """The pocket a choice means by its corner ("SW", "SE", "NE", "NW"), or None."""
    return None if choice.pocket is None else POCKETS[choice.pocket]


def _decide(
    state: MatchState, seat: int, level: Level, seed: int, budget_s: float | None, noisy: bool
) -> Choice:
    check_seat(state, seat)
    deadline = deadline_of(budget_s)
    think_rng, hand_rng = streams(seed)
    thought = think(state, seat, level, think_rng, deadline)
    meant = thought.best
    shot = play(state, seat, meant.shot, level, hand_rng) if noisy else meant.shot
    return Choice(
        shot=shot,
        intended=meant.shot,
        target=meant.target,
        pocket=None if meant.pocket is None else POCKETS.index(meant.pocket),
        candidates=thought.sims,
        score=thought.score,
    )


def choose(
    state: MatchState, seat: int, level: int, seed: int, budget_s: float | None = None
) -> Choice:
    """The stroke the computer of `level` plays for `seat` in `state`.

    Deterministic for a seed unless `budget_s` (seconds of thinking) runs out first:
    the search then plays the best it has found. Raises BotError for a level not in
    LEVELS, a finished match, or a seat not holding the strike right.
    """
    return _decide(state, seat, level_of(level), seed, budget_s, noisy=True)


def hint(state: MatchState, seat: int, seed: int, budget_s: float | None = None) -> Choice:
    """The strongest search's stroke for `seat`, without noise (practice hints).
    Raises BotError like `choose`."""
    return _decide(state, seat, LEVEL_TABLE[TOP], seed, budget_s, noisy=False)


__all__ = ["LEVELS", "BotError", "Choice", "choose", "hint", "pocket_name"]
