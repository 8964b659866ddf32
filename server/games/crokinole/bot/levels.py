"""The Crokinole computer's five strengths, as the Novuss computer's (docs/bot.md): a
search budget (shots simulated per decision) and a hand's execution noise. Numbers are
the Crokinole bot's own: a flick is short and the board small, so the hand is steadier
and the budget smaller than Novuss's for the same name."""

from __future__ import annotations

from dataclasses import dataclass

from server.games.core.play import ComputerError


class CrokinoleBotError(ComputerError):
    """The computer was asked to think when it may not: a level that does not exist, a
    game that is over, or a seat whose turn it is not."""


@dataclass(frozen=True, slots=True)
class Level:
    """One strength: `budget` shots simulated, then the `shortlist` best each replayed
    `replays` times under the level's own noise; the hand strays by `angle_sd` radians
    and by `speed_sd` of the speed (relative)."""

    number: int
    name: str
    budget: int
    shortlist: int
    replays: int
    angle_sd: float
    speed_sd: float


LEVEL_TABLE: dict[int, Level] = {
    1: Level(1, "beginner", 12, 0, 0, 0.05, 0.20),
    2: Level(2, "casual", 40, 3, 2, 0.025, 0.10),
    3: Level(3, "club", 100, 4, 3, 0.012, 0.06),
    4: Level(4, "expert", 200, 6, 4, 0.006, 0.035),
    5: Level(5, "master", 400, 8, 5, 0.002, 0.015),
}

LEVELS: tuple[int, ...] = tuple(LEVEL_TABLE)
TOP = LEVELS[-1]


def level_of(level: int) -> Level:
    """The Level numbered `level`; CrokinoleBotError if there is none."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVEL_TABLE:
        raise CrokinoleBotError(f"no computer level {level!r}: the levels are {list(LEVELS)}")
    return LEVEL_TABLE[level]
