"""What the computer would have struck at a step of a replayed match (the replay viewer's
suggestion, docs/notation.md "The replay viewer"): the top level's choice for the seat holding
the strike there, searched by the record's game's computer (`Game.decide`) from the
recomputed position (`Replay.position`), and what the referee makes of that stroke
(`Replay.expect`: simulated with the same core and judged). Whatever the game: the seam gives
both. Pure: it runs in a worker process (server/workers.py), its arguments and answer
picklable.
"""

from __future__ import annotations

from typing import Any, TypedDict

from server.games.core.play import ComputerError, Shot
from server.games.registry import game
from server.games.seam import Replayed
from server.net.protocol import LEVELS

TOP_LEVEL = LEVELS  # the strongest of the computer's levels (docs/bot.md): the one suggesting


class NoSuggestion(Exception):
    """No suggestion at that step: nobody may strike there, or the game has no computer."""


class Suggestion(TypedDict):
    """The viewer's suggestion (`GET /api/matches/{id}/replay/step/{i}/suggestion`): the seat
    it is for, the stroke meant (placement, direction, speed; the protocol's coordinates),
    the disc aimed at and Novuss's pocket (None: none meant), the search's worth of it
    (positive is good for the striker's side), the strokes simulated to choose it, and what
    the referee rules on it: `legal` and the ruling as a log stores it."""

    seat: int
    shot: dict[str, float]
    target: int | None
    pocket: str | None
    score: float
    candidates: int
    legal: bool
    ruling: dict[str, Any]


def at_step(replayed: Replayed, index: int) -> tuple[Any, int]:
    """The position the computer searches from at step `index` and the seat to strike;
    NoSuggestion where there is none (a step out of range, one the replay stopped at, the
    match over, several seats to shoot at once)."""
    played = game(replayed.game)
    if played.replay is None or played.decide is None:
        raise NoSuggestion(f"{played.title} has no computer to ask.")
    if not 0 <= index < len(replayed.at) or (index and replayed.steps[index - 1].get("stopped")):
        raise NoSuggestion(f"This replay has no step {index} to strike from.")
    found = played.replay.position(replayed, index)
    if found is None:
        raise NoSuggestion(f"Nobody strikes at step {index}.")
    return found


def suggest(
    name: str | None, position: Any, seat: int, seed: int, budget: float | None
) -> Suggestion:
    """The top level's stroke for `seat` from `position` in game `name`, meant (without the
    level's execution noise: what it aims at, as a practice hint is) and judged. Raises
    NoSuggestion when the computer cannot decide there."""
    played = game(name)
    assert played.decide is not None and played.replay is not None  # at_step checked both
    try:
        choice = played.decide(position, seat, TOP_LEVEL, seed, budget)
    except ComputerError as e:
        raise NoSuggestion(str(e)) from None
    meant: Shot = choice.intended
    judged = played.replay.expect(position, seat, meant)
    pocket = None if played.practice is None else played.practice.pocket_of(choice)
    return Suggestion(
        seat=seat,
        shot={"x": meant.x, "y": meant.y, "angle": meant.angle, "speed": meant.speed},
        target=choice.target,
        pocket=pocket,
        score=choice.score,
        candidates=choice.candidates,
        legal=bool(judged["legal"]),
        ruling=judged["ruling"],
    )
