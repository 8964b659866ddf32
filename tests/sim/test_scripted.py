"""A scripted stroke: striker into the opposite rail, back into a puck, puck into a hole."""

from __future__ import annotations

import math

import pytest

from server.games.core.collision import reach_time
from server.games.novuss.sim import (
    COMPETITION,
    DiscContact,
    Pocketed,
    RailContact,
    Shot,
    StrikerZone,
    simulate,
)
from server.games.novuss.sim.engines import Engine
from server.games.novuss.sim.types import Disc, Event

SHOT = Shot(200.0, 80.0, math.radians(75.0), 4000.0)
# Placed on the striker's return path so that the line of centres at contact points
# at the SE hole.
PUCK = Disc(1, 673.6, 562.4, "puck", 0)


def _kinds(events: tuple[Event, ...]) -> list[tuple[str, int | str, int | str | bool]]:
    """Each event without its time and speed."""
    out: list[tuple[str, int | str, int | str | bool]] = []
    for e in events:
        if isinstance(e, StrikerZone):
            out.append(("zone", e.side, e.inside))
        elif isinstance(e, RailContact):
            out.append(("rail", e.disc, e.rail))
        elif isinstance(e, DiscContact):
            out.append(("disc", e.a, e.b))
        elif isinstance(e, Pocketed):
            out.append(("pocket", e.disc, e.pocket))
        else:
            out.append(("off", e.disc, e.rail))
    return out


def test_scripted_stroke_logs_exactly_the_expected_sequence(engine: Engine) -> None:
    result = simulate(COMPETITION, [PUCK], SHOT, engine)
    assert _kinds(result.events) == [
        ("zone", "S", False),  # the hole leaves the shooter's edge zone
        ("zone", "N", True),
        ("rail", 0, "N"),  # the opposite rail
        ("zone", "N", False),
        ("disc", 0, 1),  # back into the puck
        ("pocket", 1, "SE"),  # the puck into the SE hole
        ("zone", "S", True),  # the striker runs on: back into the own zone,
        ("rail", 0, "S"),  # off the own rail,
        ("zone", "S", False),
        ("zone", "E", True),  # into the east zone, and
        ("rail", 0, "E"),  # to rest after the east rail
    ]
    times = [e.t for e in result.events]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert [(d.id, d.where) for d in result.final] == [(0, "table"), (1, "pocket")]


def test_scripted_stroke_reaches_the_opposite_rail_when_the_kinematics_say(engine: Engine) -> None:
    result = simulate(COMPETITION, [PUCK], SHOT, engine)
    rail = next(e for e in result.events if isinstance(e, RailContact))
    s = math.sin(SHOT.angle)
    gap = 1080.0 - COMPETITION.striker_radius - SHOT.y
    expected = reach_time(gap, SHOT.speed * s, COMPETITION.decel * s)
    assert rail.t == pytest.approx(expected, rel=1e-12)
    assert rail.normal_speed == pytest.approx((SHOT.speed - COMPETITION.decel * rail.t) * s)
