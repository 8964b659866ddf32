"""Data that crosses the boundary of the physics core: inputs, events, results.

Coordinates: millimetres, origin at the south-west corner of the playing surface,
x to the east, y to the north; the surface is 0..1080 on both axes (seed 004 § 33).
Rails and edge zones are named by the side of the table they lie on: "S" (y = 0),
"N" (y = 1080), "W" (x = 0), "E" (x = 1080). Pockets by their corner: "SW", "SE",
"NE", "NW". Time in seconds from the cue's touch. Angles in radians, counter-
clockwise from +x. The physics knows no rules and no owners beyond carrying them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from server.games.core.play import Shot as Shot

Side = Literal["S", "W", "N", "E"]
Pocket = Literal["SW", "SE", "NE", "NW"]
DiscKind = Literal["striker", "puck"]
Where = Literal["table", "pocket", "off"]

SIDES: tuple[Side, ...] = ("S", "W", "N", "E")
POCKETS: tuple[Pocket, ...] = ("SW", "SE", "NE", "NW")
STRIKER_ID = 0
"""The striker's disc id in every simulation; pucks use ids >= 1 chosen by the caller."""


@dataclass(frozen=True, slots=True)
class Disc:
    """A disc at rest on the table before a stroke. owner is opaque to the physics."""

    id: int
    x: float
    y: float
    kind: DiscKind = "puck"
    owner: int = -1


@dataclass(frozen=True, slots=True)
class DiscContact:
    """Two discs touched (a < b). normal_speed: closing speed along the line of centres."""

    t: float
    a: int
    b: int
    normal_speed: float


@dataclass(frozen=True, slots=True)
class RailContact:
    """A disc bounced off a rail."""

    t: float
    disc: int
    rail: Side
    normal_speed: float


@dataclass(frozen=True, slots=True)
class Pocketed:
    """A disc's centre passed over a pocket's hole and it fell in."""

    t: float
    disc: int
    pocket: Pocket


@dataclass(frozen=True, slots=True)
class LeftTable:
    """A disc hit a rail harder than the table's jump speed and went over it."""

    t: float
    disc: int
    rail: Side


@dataclass(frozen=True, slots=True)
class StrikerZone:
    """The striker's hole became entirely inside (inside=True) or no longer entirely
    inside (inside=False) the edge zone along rail `side`: the moment the zone line
    stops or starts being visible through its hole (seed 004 § 20 (7), § 25 (1) 4))."""

    t: float
    side: Side
    inside: bool


Event = DiscContact | RailContact | Pocketed | LeftTable | StrikerZone


@dataclass(frozen=True, slots=True)
class DiscRest:
    """Where a disc ended: on the table at (x, y), in a pocket, or off the table."""

    id: int
    x: float
    y: float
    where: Where
    kind: DiscKind = "puck"
    owner: int = -1
