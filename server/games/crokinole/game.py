"""Crokinole as the registry holds it (server/games/seam.py `Game`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.games.core.play import Choice, Settings, Shot, Step
from server.games.crokinole.board import TOURNAMENT
from server.games.crokinole.bot import choose as choose_shot
from server.games.crokinole.bot.levels import TOP
from server.games.crokinole.lessons import CROKINOLE_LESSONS
from server.games.crokinole.match import OFFSET, CrokinoleMatch, board_view
from server.games.crokinole.notation import from_notation, to_notation
from server.games.crokinole.replay import REPLAY
from server.games.crokinole.rules import State
from server.games.seam import (
    Decide,
    GameMatch,
    Hint,
    Lessons,
    MatchSpec,
    Notation,
    Practice,
    Replay,
)


def _protocol(shot: Shot) -> Shot:
    return Shot(shot.x + OFFSET, shot.y + OFFSET, shot.angle, shot.speed)


def decide(state: State, seat: int, level: int, seed: int, budget_s: float | None) -> Choice:
    """The Crokinole computer's shot for `seat`, moved from the rules' coordinates (the
    board's centre) to the protocol's (the south-west corner); picklable, for a worker
    process. Raises CrokinoleBotError as server.games.crokinole.bot.choose does."""
    c = choose_shot(state, seat, level, seed, budget_s)
    return Choice(
        shot=_protocol(c.shot),
        intended=_protocol(c.intended),
        target=c.target,
        pocket=None,
        candidates=c.candidates,
        score=c.score,
    )


def hint(state: State, seat: int, seed: int, budget_s: float | None) -> Choice:
    """Practice's hint: the strongest level's search for `seat`, its shot as meant
    (`intended`: before the hand's noise), in the protocol's coordinates; picklable, for a
    worker process. Raises CrokinoleBotError as `decide` does."""
    return decide(state, seat, TOP, seed, budget_s)


@dataclass(frozen=True, slots=True)
class CrokinolePractice:
    """Practice against the computer: the strongest search's hint, and take-backs."""

    hint: Hint = hint

    def pocket_of(self, choice: Choice) -> str | None:
        return None  # a Crokinole board has no pockets: the hint names its target disc

    def take_back(self, match: GameMatch, before: Any, now: float) -> Step:
        assert isinstance(match, CrokinoleMatch)  # a Crokinole room holds a Crokinole match
        return match.take_back(before, now)


@dataclass(frozen=True, slots=True)
class CrokinoleNotation:
    """Crokinole's notation (docs/notation.md, server/games/crokinole/notation.py)."""

    def write(self, record: dict[str, Any]) -> str:
        return to_notation(record)

    def read(self, text: str) -> dict[str, Any]:
        return from_notation(text)


@dataclass(frozen=True, slots=True)
class Crokinole:
    """Seed 002's game on the tournament board."""

    name: str = "crokinole"
    title: str = "Crokinole"
    max_speed: float = TOURNAMENT.max_speed
    options: frozenset[str] = frozenset(
        {"scoring", "target", "direct_hit", "line_discs_stay", "free_order", "players"}
    )
    rated: bool = True
    decide: Decide | None = decide
    practice: Practice | None = CrokinolePractice()
    lessons: Lessons | None = CROKINOLE_LESSONS
    stroke_clock: bool = False  # seed 002 has no shot clock
    replay: Replay | None = REPLAY  # a state hash per shot (physics.state_hash)
    notation: Notation | None = CrokinoleNotation()

    def new_match(
        self, mid: str, spec: MatchSpec, first_team: int, now: float, settings: Settings
    ) -> tuple[GameMatch, Step]:
        return CrokinoleMatch.new(mid, spec.seats, first_team, now, settings, spec.options)

    def load_match(self, d: dict[str, Any], settings: Settings) -> GameMatch:
        return CrokinoleMatch.from_dict(d, settings)

    def table_view(self) -> dict[str, Any]:
        return board_view()

    def rating_key(self, mode: str, alone: bool) -> str:
        # 002 7 d: 3 or 4 players each alone are rated apart from singles and doubles
        return f"{self.name}-7d" if alone else f"{self.name}-{mode}"


CROKINOLE: Crokinole = Crokinole()
