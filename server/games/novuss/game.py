"""Novuss as the registry holds it (server/games/seam.py `Game`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.games.core.play import Choice, Settings, Step
from server.games.novuss.bot import choose, hint, pocket_name
from server.games.novuss.lessons import NOVUSS_LESSONS
from server.games.novuss.match import Match
from server.games.novuss.notation import GAME, from_notation, to_notation
from server.games.novuss.replay import REPLAY
from server.games.novuss.rules import MatchConfig
from server.games.novuss.rules.state import as_mode
from server.games.novuss.sim import COMPETITION
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


@dataclass(frozen=True, slots=True)
class NovussPractice:
    """Practice against the computer: the strongest search's hint, and take-backs."""

    hint: Hint = hint

    def pocket_of(self, choice: Choice) -> str | None:
        return pocket_name(choice)

    def take_back(self, match: GameMatch, before: Any, now: float) -> Step:
        assert isinstance(match, Match)  # a Novuss room holds a Novuss match
        return match.take_back(before, now)


@dataclass(frozen=True, slots=True)
class NovussNotation:
    """Novuss's notation (docs/notation.md, server/games/novuss/notation.py)."""

    def write(self, record: dict[str, Any]) -> str:
        return to_notation(record)

    def read(self, text: str) -> dict[str, Any]:
        return from_notation(text)


@dataclass(frozen=True, slots=True)
class Novuss:
    """The Estonian competition rules' game (seed 004) on the competition table."""

    name: str = GAME
    title: str = "Novuss"
    max_speed: float = COMPETITION.max_speed
    options: frozenset[str] = frozenset()
    rated: bool = True
    decide: Decide | None = choose
    practice: Practice | None = NovussPractice()
    lessons: Lessons | None = NOVUSS_LESSONS
    stroke_clock: bool = True  # 004 § 26 (4)
    replay: Replay | None = REPLAY
    notation: Notation | None = NovussNotation()

    def new_match(
        self, mid: str, spec: MatchSpec, first_team: int, now: float, settings: Settings
    ) -> tuple[GameMatch, Step]:
        config = MatchConfig(
            mode=as_mode(spec.mode),
            sets=spec.sets,
            stroke_clock=spec.stroke_clock,
            absent_limit=spec.absent_limit,
        )
        return Match.new(mid, config, first_team, now, settings)

    def load_match(self, d: dict[str, Any], settings: Settings) -> GameMatch:
        return Match.from_dict(d, settings)

    def table_view(self) -> dict[str, Any]:
        t = COMPETITION
        return {
            "name": t.name,
            "size": t.size,
            "pocket_radius": t.pocket_radius,
            "pockets": {name: [x, y] for name, x, y in t.pocket_centres()},
            "zone": t.zone_depth,
            "circle_radius": t.circle_radius,
            "puck_radius": t.puck_radius,
            "puck_hole_radius": t.puck_hole_radius,
            "striker_radius": t.striker_radius,
            "striker_hole_radius": t.striker_hole_radius,
            "max_speed": t.max_speed,
        }

    def rating_key(self, mode: str, alone: bool) -> str:
        return mode  # the keys of the ratings from before a second game was rated


NOVUSS: Novuss = Novuss()
