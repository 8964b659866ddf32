"""What every game's match is made of, shared by the games and read by the platform: the
shot a player makes, the messages and log entries one action produces (`Step`, `Out`), a
refusal (`MatchRefused`), how motion is played out (`Settings`, `Motion`), and the
computer's decision (`Choice`). Pure data, no I/O.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, cast

from server.games.core.paths import discs_at


@dataclass(frozen=True, slots=True)
class Shot:
    """The striker's (or shooting disc's) placement and the cue's or finger's impulse:
    direction and speed (mm/s), in the protocol's coordinates."""

    x: float
    y: float
    angle: float
    speed: float


def nearest_single(value: float) -> float:
    """The float32 nearest a number, as a float (itself when beyond a float32's range)."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", value))[0])
    except OverflowError:
        return value


def as_struck(shot: Shot) -> Shot:
    """A shot as the server plays it: each of its numbers rounded to the nearest float32
    (docs/protocol.md, `strike`), so that the archive keeps what was struck exactly in 16
    bytes, not 32 (server/store/archive.py). The rounding moves a placement by less than a
    millionth of a millimetre."""
    return Shot(*(nearest_single(v) for v in (shot.x, shot.y, shot.angle, shot.speed)))


class ComputerError(ValueError):
    """A game's computer cannot decide: not its seat's turn, or no stroke it may play."""


@dataclass(frozen=True, slots=True)
class Choice:
    """The computer's stroke, whichever game's search chose it.

    shot: the stroke to play, the level's execution noise already applied. intended: the
    stroke meant, before the noise (for a hint: draw its placement and aim). target: the
    disc aimed at, or None. pocket: Novuss's pocket meant (an index into
    server.games.novuss.sim.POCKETS), or None. candidates: strokes simulated to decide.
    score: the search's worth of the stroke meant (positive is good for the striker's side).
    """

    shot: Shot
    intended: Shot
    target: int | None
    pocket: int | None
    candidates: int
    score: float


class MatchRefused(Exception):
    """An action the match does not accept now: a protocol error code, a sentence, a rule."""

    def __init__(self, code: str, message: str, rule: str = "", reason: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.reason = reason  # the rules engine's own code for a refused stroke


@dataclass(frozen=True, slots=True)
class Settings:
    """How fast motion plays (simulated seconds per wall second) and how often previews go
    through."""

    speed_factor: float = 1.0
    aim_rate: float = 15.0


@dataclass(frozen=True, slots=True)
class Out:
    """A message for the room. sequenced: it gets a seq and is kept for resume.
    audience: None for everybody, or a team number (team chat); readers: for team chat, the
    sessions of the team as it was when the line was written."""

    kind: str
    data: dict[str, Any]
    sequenced: bool = True
    audience: int | None = None
    readers: tuple[str, ...] = ()


@dataclass(slots=True)
class Step:
    """What one action produced."""

    out: list[Out] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    motion: Motion | None = None

    def extend(self, other: Step) -> Step:
        """Append another step's output to this one."""
        self.out.extend(other.out)
        self.log.extend(other.log)
        self.motion = other.motion or self.motion
        return self


class ShotView(TypedDict):
    """A stroke as the `stroke` message names it (docs/protocol.md)."""

    stroke: int
    seat: int
    x: float
    y: float
    angle: float
    speed: float


class StrokeView(ShotView):
    """The `stroke` message's data: the stroke and its whole motion, the track's fields
    (server/games/core/paths.py; none after a restart)."""

    duration: float
    decel: NotRequired[float]
    paths: NotRequired[list[list[Any]]]
    origin: NotRequired[Any]
    wheres: NotRequired[Any]


class RulingView(TypedDict):
    """The `ruling` message's data, every game's (docs/protocol.md); what the ruling found
    (`ruling`), the discs and the score are the game's own."""

    stroke: int | None
    seat: int | None
    cause: str
    ruling: dict[str, Any]
    discs: list[dict[str, Any]]
    turn: int | None
    set: int
    score: list[int]
    sides: list[Any]
    lines: NotRequired[list[dict[str, Any]]]  # Novuss: the ruling's lines (codes, arguments)
    game: NotRequired[str]  # Crokinole: its name, and the round so far
    round: NotRequired[dict[str, Any]]


@dataclass(slots=True)
class Motion:
    """An accepted stroke being played out. `track` is its exact paths in the wire's form
    (server/games/core/paths.py), None after a restart (the play-out is then skipped and its
    ruling delivered at once); `after` holds the ruling's messages."""

    stroke: int
    seat: int
    shot: Shot
    duration: float
    started: float
    after: list[Out]
    track: dict[str, Any] | None = None
    # the referee's state before the stroke: what the room shows until the ruling is
    # delivered (not kept in checkpoints: after a restart the motion is skipped at once)
    before: Any = None

    def time_at(self, now: float, settings: Settings) -> float:
        """The stroke's simulated time at wall time now."""
        return min(max(now - self.started, 0.0) * settings.speed_factor, self.duration)

    def ends(self, settings: Settings) -> float:
        """Wall time at which the motion has played: its ruling is due."""
        return self.started + self.duration / settings.speed_factor

    def discs_at(self, t: float) -> list[dict[str, Any]]:
        """Discs in play at simulated time t (none known after a restart)."""
        return [] if self.track is None else discs_at(self.track, t)

    def start_view(self) -> StrokeView:
        """The `stroke` message's data: the stroke and its whole motion."""
        # the track's keys are StrokeView's (paths.py); it is typed an open map there
        view = {**self.shot_view(), "duration": self.duration, **(self.track or {})}
        return cast(StrokeView, view)

    def view(self, now: float, settings: Settings) -> dict[str, Any]:
        """The stroke in flight, for a `room` snapshot: its motion and how far it has played."""
        return {**self.start_view(), "time": self.time_at(now, settings)}

    def shot_view(self) -> ShotView:
        """The stroke as the `stroke` message names it."""
        s = self.shot
        return {
            "stroke": self.stroke,
            "seat": self.seat,
            "x": s.x,
            "y": s.y,
            "angle": s.angle,
            "speed": s.speed,
        }

    def to_dict(self) -> dict[str, Any]:
        """Checkpoint data (the paths are not kept: a restart skips the play-out)."""
        return {
            "stroke": self.stroke,
            "seat": self.seat,
            "shot": [self.shot.x, self.shot.y, self.shot.angle, self.shot.speed],
            "duration": self.duration,
            "started": self.started,
            "after": [[o.kind, o.data, o.sequenced, o.audience] for o in self.after],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Motion:
        """Inverse of to_dict, without the paths (a checkpoint of protocol 1's server also
        names its frame count: not needed)."""
        return cls(
            stroke=d["stroke"],
            seat=d["seat"],
            shot=Shot(*d["shot"]),
            duration=d["duration"],
            started=d["started"],
            after=[Out(k, data, seq, aud) for k, data, seq, aud in d["after"]],
        )
