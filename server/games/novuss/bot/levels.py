"""The computer's five strengths: how much it searches and how well its hand obeys.

A level is two honest things a human player also has: a search budget (how many
strokes it may try in its head, counted as simulations of the physics core) and an
execution noise (how far the stroke it plays strays from the stroke it meant). Nothing
else differs: every level sees the same table, the same rules and no future dice (the
noise it plays with is drawn apart from the noise it imagined while choosing).
"""

from __future__ import annotations

from dataclasses import dataclass

from server.games.core.play import ComputerError


class BotError(ComputerError):
    """The computer was asked to think when it may not: a level that does not exist,
    a match that is over, or a seat that does not hold the strike right."""


@dataclass(frozen=True, slots=True)
class Level:
    """One strength.

    budget: the most strokes simulated for one decision (first look and replays).
    replays: noisy replays of each short-listed stroke (robustness, under the level's
        own noise). shortlist: how many strokes of the first look are replayed.
    angle_sd: the standard deviation of the cue's direction (radians).
    speed_sd: the relative standard deviation of the cue's speed.
    """

    number: int
    name: str
    budget: int
    shortlist: int
    replays: int
    angle_sd: float
    speed_sd: float


LEVEL_TABLE: dict[int, Level] = {
    1: Level(1, "beginner", 40, 0, 0, 0.045, 0.25),
    2: Level(2, "casual", 150, 4, 3, 0.022, 0.13),
    3: Level(3, "club", 500, 8, 5, 0.011, 0.08),
    4: Level(4, "expert", 1000, 12, 8, 0.005, 0.05),
    5: Level(5, "master", 2000, 16, 12, 0.0012, 0.02),
}

LEVELS: tuple[int, ...] = tuple(LEVEL_TABLE)
"""The levels a caller may ask for, weakest first."""

TOP = LEVELS[-1]
"""The strongest level: the one hints are searched at."""


def level_of(level: int) -> Level:
    """The Level numbered `level`; BotError if there is none."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVEL_TABLE:
        raise BotError(f"no computer level {level!r}: the levels are {list(LEVELS)}")
    return LEVEL_TABLE[level]
