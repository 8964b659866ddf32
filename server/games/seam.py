"""The Game seam: what a game gives the platform, as Protocols. The lobby, the computer,
history, ratings, replay and the protocol hold a `Game` from the registry
(server/games/registry.py) and a room holds a `GameMatch`; none of them names a game.
docs/architecture.md, "Adding a game", says how a new one plugs in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from server.games.core.play import Choice, Motion, Out, Settings, Shot, Step
from server.games.core.replaying import (
    Check,
    NoSuchStroke,
    Replayed,
    ReplayError,
    UnacceptedShot,
)


class Replay(Protocol):
    """A game's matches recomputed from their records with the same deterministic core and
    referee (the replay capability, server/replay: `python -m server.replay`, `/m/{id}`)."""

    def checks(self, record: dict[str, Any]) -> Iterator[Check]:
        """Every entry of the record replayed in order, hash by hash and ruling by ruling;
        a mismatch is reported and the replay goes on from the recomputed state, until the
        record asks for what the recomputed match refuses (reported, and the end). Raises
        ReplayError for a record that cannot be replayed at all (no start)."""

    def steps(self, record: dict[str, Any]) -> Replayed:
        """The viewer's steps: the table after every entry (discs at rest in the protocol's
        coordinates, sides, score, turn, result), each with its check."""

    def stroke(self, replayed: Replayed, n: int) -> dict[str, Any]:
        """Stroke n's motion simulated again from the recomputed state before it: the core's
        exact piecewise paths for the browser to sample at any instant (docs/notation.md,
        "The replay viewer"). Raises NoSuchStroke."""

    def position(self, replayed: Replayed, index: int) -> tuple[Any, int] | None:
        """What the game's computer (Game.decide) searches from at step `index` (0: the
        start; i: after the i-th entry) and the seat holding the strike there; None where no
        single seat may strike (the match over, several may shoot)."""

    def expect(self, position: Any, seat: int, shot: Shot) -> dict[str, Any]:
        """The referee's ruling on `shot` struck by `seat` from `position` (simulated and
        judged): {"legal": did the rules accept it without a foul, "ruling": the ruling as a
        log stores it}. Raises UnacceptedShot for a shot the referee refuses outright."""


class Notation(Protocol):
    """A game's matches as text (docs/notation.md) and back."""

    def write(self, record: dict[str, Any]) -> str:
        """The record as notation; raises ReplayError (its NotationError) for one the
        notation cannot carry."""

    def read(self, text: str) -> dict[str, Any]:
        """A record that Replay.checks reads; raises ReplayError naming the line at fault."""


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """What a room asks of a new match: its mode, seats, sets, stroke clock, the time an
    absent player is waited for, and its game's own options (Crokinole's scoring, ...)."""

    mode: str
    seats: int
    sets: int
    stroke_clock: float
    absent_limit: float
    options: dict[str, Any]


class Finished(Protocol):
    """The part of a match's state the platform reads: is it over, and its result."""

    @property
    def finished(self) -> bool: ...
    @property
    def match_result(self) -> dict[str, Any] | None: ...


class GameMatch(Protocol):
    """One match as a room drives it: a state machine with no I/O. Every action takes `now`
    and returns a Step (messages, log entries, the motion to play out); a refused one raises
    MatchRefused and changes nothing."""

    id: str
    settings: Settings
    started: float
    first_team: int
    strokes: int
    motion: Motion | None
    away: set[int]
    last_cause: str
    last_ruling: dict[str, Any] | None
    ended: float | None

    @property
    def state(self) -> Finished: ...
    @property
    def shown(self) -> Finished: ...
    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def position(self) -> Any:
        """What the game's computer searches from (picklable, for a worker process)."""

    def sides(self) -> list[Any]: ...
    def score(self) -> list[int]: ...
    def rest_discs(self) -> list[dict[str, Any]]: ...
    def discs(self, now: float) -> list[dict[str, Any]]: ...
    def clock_view(self, now: float) -> dict[str, Any]: ...
    def view(self, now: float) -> dict[str, Any]: ...
    def result_view(self) -> dict[str, Any]: ...
    def aim(self, seat: int, x: float, y: float, angle: float, power: float, now: float) -> Step:
        """An aim preview (rate limited by the match)."""

    def strike(self, seat: int, shot: Shot, now: float) -> Step: ...
    def finish_motion(self, now: float) -> Step: ...
    def pass_turn(self, seat: int, now: float) -> Step: ...
    def resign(self, seat: int, now: float) -> Step: ...
    def absent(self, seat: int, now: float) -> Step: ...
    def set_away(self, seat: int, away: bool, now: float) -> Step: ...
    def tick(self, now: float) -> Step: ...
    def next_due(self) -> float | None:
        """The earliest time at which tick() may find something due (None: nothing waits
        for time alone): the clock loop visits the room then, not before."""

    def to_dict(self, now: float) -> dict[str, Any]: ...
    def resume_clock(self, now: float) -> list[Out]: ...


Decide = Callable[[Any, int, int, int, "float | None"], Choice]
"""A game's computer: (position, seat, level, seed, budget in seconds) -> Choice, in the
protocol's coordinates. A module-level function, so that a worker process can run it."""


Hint = Callable[[Any, int, int, "float | None"], Choice]
"""A game's practice hint: (position, seat, seed, budget in seconds) -> the strongest
search's stroke, without noise. Module-level, for a worker process."""


class Practice(Protocol):
    """What a game gives practice rooms: hints and take-backs."""

    @property
    def hint(self) -> Hint: ...

    def pocket_of(self, choice: Choice) -> str | None:
        """The pocket a hint means, by the name a client shows, or None."""

    def take_back(self, match: GameMatch, before: Any, now: float) -> Step:
        """Back to `before` (the position before the player's last stroke, as
        GameMatch.position gave it), the same player to strike."""


class Lessons(Protocol):
    """A game's lessons ("Learn to play", the lessons capability server/lessons): set-up
    positions each with one task, a try's strokes played by the game's own physics and
    referee. Pure and stateless: a try is replayed from the lesson's position on each call."""

    def listing(self) -> list[dict[str, Any]]:
        """Every lesson in order: id, cite (the paragraph it teaches), strokes (the most of
        one try), seat (the learner's), discs (at rest, protocol coordinates) and the game's
        own fields its client draws (docs/protocol.md, "Lessons")."""

    def play(self, lesson_id: str, shots: Sequence[Shot]) -> dict[str, Any]:
        """A try's strokes from the lesson's position: the last one's ruling, lines, motion,
        discs, done (the task is done) and over (the try ends). Raises UnknownLesson, and
        LessonRefused for a try the lesson or the referee refuses."""


class Game(Protocol):
    """A game the platform serves. `None` where a game does not offer a capability."""

    @property
    def name(self) -> str:
        """Its name on the wire (`game` of create, quick, computer) and in records."""

    @property
    def title(self) -> str:
        """Its name as a sentence of the server's own (logs, HTTP errors) writes it."""

    @property
    def max_speed(self) -> float:
        """The fastest shot (mm/s): an aim preview's power is a fraction of it."""

    @property
    def options(self) -> frozenset[str]:
        """The room options of its own that `create` may carry."""

    @property
    def rated(self) -> bool:
        """Do its rated rooms move ratings."""

    @property
    def decide(self) -> Decide | None:
        """Its computer opponent, or None."""

    @property
    def practice(self) -> Practice | None:
        """Its practice rooms' hints and take-backs, or None."""

    @property
    def lessons(self) -> Lessons | None:
        """Its lessons in "Learn to play", or None."""

    @property
    def stroke_clock(self) -> bool:
        """Does a stroke clock judge a player who does not strike (else a computer that
        cannot decide resigns, as nothing else would end its turn)."""

    def new_match(
        self, mid: str, spec: MatchSpec, first_team: int, now: float, settings: Settings
    ) -> tuple[GameMatch, Step]:
        """A new match whose first shot went by lot to `first_team`."""

    def load_match(self, d: dict[str, Any], settings: Settings) -> GameMatch:
        """A match from its checkpoint (GameMatch.to_dict)."""

    def table_view(self) -> dict[str, Any]:
        """The table or board a client draws (docs/protocol.md, "Table")."""

    def rating_key(self, mode: str, alone: bool) -> str:
        """The rating (and quick-match queue, and figures' prefix) of a match in `mode`;
        `alone`: more than two sides, each a player."""

    @property
    def replay(self) -> Replay | None:
        """Its matches recomputed stroke by stroke (the replay viewer, `python -m
        server.replay`), or None: a game whose strokes carry no state hash."""

    @property
    def notation(self) -> Notation | None:
        """Its matches as text (docs/notation.md), or None."""


__all__ = [
    "Check", "Choice", "Decide", "Finished", "Game", "GameMatch", "Hint", "Lessons", "MatchSpec",
    "Motion", "NoSuchStroke", "Notation", "Out", "Practice", "Replay", "ReplayError",
    "Replayed", "Settings", "Shot", "Step", "UnacceptedShot",
]  # fmt: skip
