"""A lone disc: sliding friction, rails, pockets, leaving the table, input checks."""

from __future__ import annotations

import math

import pytest

from server.games.novuss.sim import (
    COMPETITION,
    LeftTable,
    Pocketed,
    RailContact,
    Shot,
    SimInputError,
    StrikerZone,
    simulate,
)
from server.games.novuss.sim.engines import Engine
from server.games.novuss.sim.types import Disc, Side


def test_lone_disc_stops_after_v_squared_over_two_mu_g(engine: Engine) -> None:
    for speed in (300.0, 800.0, 1300.0):
        result = simulate(COMPETITION, [], Shot(540.0, 100.0, math.pi / 2, speed), engine)
        expected = speed**2 / (2.0 * COMPETITION.mu * COMPETITION.g)
        assert expected < 1080.0 - 24.0 - 100.0  # no rail in the way
        assert result.final[0].y - 100.0 == pytest.approx(expected, abs=0.1)
        assert result.final[0].x == pytest.approx(540.0, abs=1e-9)
        assert result.duration == pytest.approx(speed / COMPETITION.decel, rel=1e-12)


def test_trajectory_sample_follows_the_quadratic_time_law(engine: Engine) -> None:
    speed = 1200.0
    result = simulate(COMPETITION, [], Shot(540.0, 100.0, math.pi / 2, speed), engine)
    a = COMPETITION.decel
    for t in (0.0, 0.1, 0.5, 1.0):
        (striker,) = result.trajectory.sample(t)
        assert striker.y == pytest.approx(100.0 + speed * t - a * t * t / 2.0, abs=1e-9)
    assert result.trajectory.sample(99.0) == result.final


def test_moderate_stroke_into_a_rail_bounces_with_rail_restitution(engine: Engine) -> None:
    result = simulate(COMPETITION, [], Shot(540.0, 540.0, -math.pi / 2, 2000.0), engine)
    rails = [e for e in result.events if isinstance(e, RailContact)]
    assert rails[0].rail == "S" and rails[0].disc == 0
    at_rail = math.sqrt(2000.0**2 - 2.0 * COMPETITION.decel * (540.0 - 24.0))
    assert rails[0].normal_speed == pytest.approx(at_rail, rel=1e-9)
    rebound = COMPETITION.e_rail * at_rail
    assert result.final[0].y == pytest.approx(24.0 + rebound**2 / (2 * COMPETITION.decel), abs=0.1)


@pytest.mark.parametrize(("angle", "rail"), [(-math.pi / 2, "S"), (0.0, "E"), (math.pi, "W")])
def test_hard_stroke_into_a_rail_sends_the_disc_over_that_rail(
    engine: Engine, angle: float, rail: Side
) -> None:
    result = simulate(COMPETITION, [], Shot(540.0, 540.0, angle, 8000.0), engine)
    off = [e for e in result.events if isinstance(e, LeftTable)]
    assert off == [LeftTable(off[0].t, 0, rail)]
    assert result.final[0].where == "off"
    assert not any(isinstance(e, RailContact) for e in result.events)


def test_puck_resting_against_the_rail_is_squeezed_not_sent_over_it(engine: Engine) -> None:
    puck = Disc(1, 540.0, 14.0)
    result = simulate(COMPETITION, [puck], Shot(540.0, 300.0, -math.pi / 2, 8000.0), engine)
    assert RailContact in {type(e) for e in result.events if getattr(e, "disc", 0) == 1}
    assert not any(isinstance(e, LeftTable) and e.disc == 1 for e in result.events)


def _towards_sw(offset: float, speed: float) -> Shot:
    """From (160, 160) on the diagonal towards the SW hole, shifted sideways by offset."""
    s = math.sqrt(0.5)
    return Shot(160.0 + offset * s, 160.0 - offset * s, -3 * math.pi / 4, speed)


def test_slow_disc_over_a_pocket_falls_in(engine: Engine) -> None:
    # Stops after 120 mm, past the hole's edge (141.4 - 40 = 101.4 mm away).
    speed = math.sqrt(2.0 * COMPETITION.decel * 120.0)
    result = simulate(COMPETITION, [], _towards_sw(0.0, speed), engine)
    assert [e for e in result.events if isinstance(e, Pocketed)] == [
        Pocketed(result.events[-1].t, 0, "SW")
    ]
    assert result.final[0].where == "pocket"
    assert math.hypot(result.final[0].x - 60.0, result.final[0].y - 60.0) == pytest.approx(40.0)


def test_slow_disc_passing_beside_a_pocket_stays_on_the_table(engine: Engine) -> None:
    # Same run, 41 mm to the side of the hole's centre: it comes to rest beside it.
    speed = math.sqrt(2.0 * COMPETITION.decel * 141.5)
    result = simulate(COMPETITION, [], _towards_sw(41.0, speed), engine)
    assert not any(isinstance(e, Pocketed) for e in result.events)
    assert result.final[0].where == "table"
    assert math.hypot(result.final[0].x - 60.0, result.final[0].y - 60.0) > 40.0


def test_striker_zone_events_mark_each_crossing_of_the_hole_line(engine: Engine) -> None:
    # From inside the S zone straight north: leaves S, enters N, bounces, leaves N ...
    result = simulate(COMPETITION, [], Shot(540.0, 60.0, math.pi / 2, 3000.0), engine)
    zones = [(e.side, e.inside) for e in result.events if isinstance(e, StrikerZone)]
    assert zones[:3] == [("S", False), ("N", True), ("N", False)]
    first = next(e for e in result.events if isinstance(e, StrikerZone))
    limit = COMPETITION.zone_depth - COMPETITION.striker_hole_radius
    (striker,) = result.trajectory.sample(first.t)
    assert striker.y == pytest.approx(limit, abs=1e-6)


@pytest.mark.parametrize(
    ("pucks", "shot"),
    [
        ([], Shot(540.0, 60.0, 0.0, 0.0)),
        ([], Shot(540.0, 60.0, 0.0, 8000.1)),
        ([], Shot(540.0, 60.0, math.nan, 100.0)),
        ([], Shot(540.0, math.inf, 0.0, 100.0)),
        ([], Shot(10.0, 540.0, 0.0, 100.0)),
        ([], Shot(60.0, 60.0, 0.0, 100.0)),
        ([Disc(1, 540.0, 100.0)], Shot(540.0, 80.0, 0.0, 100.0)),
        ([Disc(1, 540.0, 1070.0)], Shot(540.0, 80.0, 0.0, 100.0)),
        ([Disc(1, 540.0, 500.0), Disc(1, 600.0, 500.0)], Shot(540.0, 80.0, 0.0, 100.0)),
    ],
    ids=[
        "zero",
        "too-fast",
        "nan-angle",
        "inf-y",
        "off",
        "over-hole",
        "overlap",
        "puck-off",
        "dup-id",
    ],
)
def test_bad_input_raises_a_value_error(pucks: list[Disc], shot: Shot) -> None:
    with pytest.raises(SimInputError) as err:
        simulate(COMPETITION, pucks, shot)
    assert isinstance(err.value, ValueError)
