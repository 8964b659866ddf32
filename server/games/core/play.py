"""What every game's match is made of, shared by the games and read by the platform: the
shot a player makes, the messages and log entries one action produces (`Step`, `Out`), a
refusal (`MatchRefused`), how motion is played out (`Settings`, `Motion`), and the
computer's decision (`Choice`). Pure data, no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Shot:
    """The striker's (or shooting disc's) placement and the cue's or finger's impulse:
    direction and speed (mm/s), in the protocol's coordinates."""

    x: float
    y: float
    angle: float
    speed: float


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
    """How motion is played out and how often previews go through."""

    frame_rate: float = 30.0
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


def disc_view(id_: int, owner: int, x: float, y: float) -> dict[str, Any]:
    """A disc as the protocol shows it."""
    return {"id": id_, "owner": owner, "x": round(x, 2), "y": round(y, 2)}


@dataclass(slots=True)
class Motion:
    """An accepted stroke being played out. `result` is None after a restart (the play-out is
    then skipped and its ruling delivered at once); `after` holds the ruling's messages."""

    stroke: int
    seat: int
    shot: Shot
    duration: float
    frames: int
    started: float
    after: list[Out]
    result: Any = None  # the game's own record of the motion (its paths)
    # the referee's state before the stroke: what the room shows until the ruling is
    # delivered (not kept in checkpoints: after a restart the motion is skipped at once)
    before: Any = None

    def frame_time(self, k: int, settings: Settings) -> float:
        """Simulated time shown by frame k."""
        return min(k * settings.speed_factor / settings.frame_rate, self.duration)

    def frame(self, k: int, settings: Settings) -> dict[str, Any]:
        """The `frame` message k (0..frames-1)."""
        t = self.frame_time(k, settings)
        return {
            "t": "frame",
            "stroke": self.stroke,
            "k": k,
            "n": self.frames,
            "time": round(t, 4),
            "discs": self.discs_at(t),
        }

    def discs_at(self, t: float) -> list[dict[str, Any]]:
        """Discs on the table at simulated time t."""
        return []  # each game's motion draws its own discs; none after a restart

    def k_at(self, now: float, settings: Settings) -> int:
        """The frame due at wall time now."""
        return max(0, min(self.frames - 1, math.floor((now - self.started) * settings.frame_rate)))

    def ends(self, settings: Settings) -> float:
        """Wall time of the last frame."""
        return self.started + (self.frames - 1) / settings.frame_rate

    def view(self, now: float, settings: Settings) -> dict[str, Any]:
        """The stroke in flight, for a `room` snapshot."""
        return {
            **self.shot_view(),
            "duration": self.duration,
            "frames": self.frames,
            "k": self.k_at(now, settings),
        }

    def shot_view(self) -> dict[str, Any]:
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
        """Checkpoint data (the trajectory is not kept: a restart skips the play-out)."""
        return {
            "stroke": self.stroke,
            "seat": self.seat,
            "shot": [self.shot.x, self.shot.y, self.shot.angle, self.shot.speed],
            "duration": self.duration,
            "frames": self.frames,
            "started": self.started,
            "after": [[o.kind, o.data, o.sequenced, o.audience] for o in self.after],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Motion:
        """Inverse of to_dict, without the trajectory."""
        return cls(
            stroke=d["stroke"],
            seat=d["seat"],
            shot=Shot(*d["shot"]),
            duration=d["duration"],
            frames=d["frames"],
            started=d["started"],
            after=[Out(k, data, seq, aud) for k, data, seq, aud in d["after"]],
        )


def frame_count(duration: float, settings: Settings) -> int:
    """Frames needed to show `duration` simulated seconds, the first at 0 and the last at rest."""
    return math.ceil(duration * settings.frame_rate / settings.speed_factor - 1e-9) + 1
