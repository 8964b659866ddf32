"""Disc-disc contacts: restitution, momentum, energy, tunnelling at the maximum speed."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from server.games.novuss.sim import COMPETITION, DiscContact, Shot, simulate
from server.games.novuss.sim.engines import Engine
from server.games.novuss.sim.types import Disc
from tests.sim.conftest import velocity

EQUAL = dataclasses.replace(
    COMPETITION, striker_mass=COMPETITION.puck_mass, striker_radius=COMPETITION.puck_radius
)


def _speed_at(v0: float, distance: float) -> float:
    return math.sqrt(v0 * v0 - 2.0 * COMPETITION.decel * distance)


def test_head_on_equal_discs_share_speed_by_the_restitution_formula(engine: Engine) -> None:
    v0 = 3000.0
    result = simulate(EQUAL, [Disc(1, 540.0, 500.0)], Shot(540.0, 200.0, math.pi / 2, v0), engine)
    contact = next(e for e in result.events if isinstance(e, DiscContact))
    v = _speed_at(v0, 500.0 - 200.0 - 28.0)
    assert contact.normal_speed == pytest.approx(v, rel=1e-9)
    striker, puck = result.trajectory.paths
    e = EQUAL.e_disc
    assert velocity(striker, contact.t, EQUAL.decel, after=True)[1] == pytest.approx(
        v * (1 - e) / 2, rel=1e-9
    )
    assert velocity(puck, contact.t, EQUAL.decel, after=True)[1] == pytest.approx(
        v * (1 + e) / 2, rel=1e-9
    )


def test_head_on_heavy_striker_follows_the_unequal_mass_formula(engine: Engine) -> None:
    v0 = 3000.0
    pucks = [Disc(1, 540.0, 500.0)]
    result = simulate(COMPETITION, pucks, Shot(540.0, 200.0, math.pi / 2, v0), engine)
    contact = next(e for e in result.events if isinstance(e, DiscContact))
    v = _speed_at(v0, 500.0 - 200.0 - 38.0)
    m1, m2, e = COMPETITION.striker_mass, COMPETITION.puck_mass, COMPETITION.e_disc
    striker, puck = result.trajectory.paths
    after1 = velocity(striker, contact.t, COMPETITION.decel, after=True)[1]
    after2 = velocity(puck, contact.t, COMPETITION.decel, after=True)[1]
    assert after1 == pytest.approx(v * (m1 - e * m2) / (m1 + m2), rel=1e-9)
    assert after2 == pytest.approx(v * m1 * (1 + e) / (m1 + m2), rel=1e-9)


def test_every_oblique_contact_keeps_momentum_and_loses_energy(engine: Engine) -> None:
    rng = random.Random(5)
    table = COMPETITION
    mass = {0: table.striker_mass, 1: table.puck_mass}
    for _ in range(40 if engine == "cython" else 10):
        puck = Disc(1, rng.uniform(300.0, 780.0), rng.uniform(450.0, 700.0))
        offset = rng.uniform(-37.0, 37.0)  # sideways miss distance: always a contact
        shot = Shot(puck.x + offset, 200.0, math.pi / 2, rng.uniform(1500.0, 8000.0))
        result = simulate(table, [puck], shot, engine)
        contact = next(e for e in result.events if isinstance(e, DiscContact))
        p_before = [0.0, 0.0]
        p_after = [0.0, 0.0]
        ke_before = ke_after = 0.0
        for path in result.trajectory.paths:
            m = mass[path.id]
            b = velocity(path, contact.t, table.decel, after=False)
            a = velocity(path, contact.t, table.decel, after=True)
            for k in (0, 1):
                p_before[k] += m * b[k]
                p_after[k] += m * a[k]
            ke_before += 0.5 * m * (b[0] ** 2 + b[1] ** 2)
            ke_after += 0.5 * m * (a[0] ** 2 + a[1] ** 2)
        assert p_after == pytest.approx(p_before, rel=1e-9, abs=1e-6)
        assert ke_after <= ke_before


def _gap_pucks(width: float) -> list[Disc]:
    """Two pucks across the striker's path up x = 540 leaving a gap `width` between them."""
    half = width / 2.0 + COMPETITION.puck_radius
    return [Disc(1, 540.0 - half, 700.0), Disc(2, 540.0 + half, 700.0)]


def test_striker_at_maximum_speed_passes_a_gap_1mm_wider_than_itself(engine: Engine) -> None:
    pucks = _gap_pucks(2.0 * COMPETITION.striker_radius + 1.0)
    result = simulate(COMPETITION, pucks, Shot(540.0, 60.0, math.pi / 2, 8000.0), engine)
    assert not any(isinstance(e, DiscContact) for e in result.events)
    assert [(d.x, d.y) for d in result.final[1:]] == [(p.x, p.y) for p in pucks]


def test_striker_at_maximum_speed_aimed_1mm_into_a_pucks_edge_touches_it(engine: Engine) -> None:
    reach = COMPETITION.striker_radius + COMPETITION.puck_radius
    puck = Disc(1, 540.0 + reach - 1.0, 700.0)
    result = simulate(COMPETITION, [puck], Shot(540.0, 60.0, math.pi / 2, 8000.0), engine)
    contacts = [e for e in result.events if isinstance(e, DiscContact)]
    assert (contacts[0].a, contacts[0].b) == (0, 1)
    # The contact happens where the discs just touch: the centres are reach apart.
    striker, moved = result.trajectory.sample(contacts[0].t)
    assert math.hypot(striker.x - moved.x, striker.y - moved.y) == pytest.approx(reach, abs=1e-6)
