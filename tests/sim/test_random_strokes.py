"""Seeded random strokes (breaks and mid-game): no overlap, order, energy, momentum."""

from __future__ import annotations

import itertools
import math

import pytest

from server.games.novuss.sim import COMPETITION, DiscContact, StrokeResult, simulate
from server.games.novuss.sim.engines import Engine
from server.games.novuss.sim.types import Event
from tests.sim.conftest import velocity
from tools.scenarios import mixed_strokes

OVERLAP_TOL = 1e-6  # mm: rounding of event times (T_TOL) and positions, nothing more


def _sample_times(result: StrokeResult) -> list[float]:
    """Every event time, the midpoints between them and a 20 ms grid."""
    times = sorted({e.t for e in result.events} | {0.0, result.duration})
    mids = [(a + b) / 2.0 for a, b in itertools.pairwise(times)]
    grid = [k * 0.02 for k in range(int(result.duration / 0.02) + 1)]
    return sorted(set(times + mids + grid))


def _assert_no_overlap(result: StrokeResult) -> None:
    radius = {"striker": COMPETITION.striker_radius, "puck": COMPETITION.puck_radius}
    size = COMPETITION.size
    for t in _sample_times(result):
        on = [d for d in result.trajectory.sample(t) if d.where == "table"]
        for k, a in enumerate(on):
            ra = radius[a.kind]
            assert ra - OVERLAP_TOL <= a.x <= size - ra + OVERLAP_TOL, (t, a)
            assert ra - OVERLAP_TOL <= a.y <= size - ra + OVERLAP_TOL, (t, a)
            for b in on[k + 1 :]:
                reach = ra + radius[b.kind] - OVERLAP_TOL
                if abs(a.x - b.x) < reach and abs(a.y - b.y) < reach:
                    assert math.hypot(a.x - b.x, a.y - b.y) >= reach, (t, a, b)


@pytest.mark.parametrize(("engine", "count"), [("cython", 1000), ("python", 40)])
def test_no_two_discs_overlap_at_any_sampled_time(engine: Engine, count: int) -> None:
    for pucks, shot in mixed_strokes(1, count):
        _assert_no_overlap(simulate(COMPETITION, pucks, shot, engine))


def _energy_and_momentum(result: StrokeResult, t: float, after: bool) -> tuple[float, float, float]:
    mass = {"striker": COMPETITION.striker_mass, "puck": COMPETITION.puck_mass}
    ke = px = py = 0.0
    for path in result.trajectory.paths:
        if path.where != "table" and path.t_end < t + (1e-300 if after else 0.0):
            continue  # gone before (or, after the events, at) t
        vx, vy = velocity(path, t, COMPETITION.decel, after)
        m = mass[path.kind]
        ke += 0.5 * m * (vx * vx + vy * vy)
        px += m * vx
        py += m * vy
    return ke, px, py


def test_events_are_in_time_order_and_energy_never_grows(engine: Engine) -> None:
    for pucks, shot in mixed_strokes(2, 200 if engine == "cython" else 20):
        result = simulate(COMPETITION, pucks, shot, engine)
        times = [e.t for e in result.events]
        assert times == sorted(times)
        for t in sorted(set(times)):
            before = _energy_and_momentum(result, t, after=False)[0]
            after = _energy_and_momentum(result, t, after=True)[0]
            assert after <= before * (1.0 + 1e-12) + 1e-9, t


def test_momentum_is_kept_across_instants_with_only_disc_contacts(engine: Engine) -> None:
    checked = 0
    for pucks, shot in mixed_strokes(3, 200 if engine == "cython" else 20):
        result = simulate(COMPETITION, pucks, shot, engine)
        by_time: dict[float, list[Event]] = {}
        for e in result.events:
            by_time.setdefault(e.t, []).append(e)
        for t, events in by_time.items():
            contacts = [e for e in events if isinstance(e, DiscContact)]
            if len(contacts) < len(events):
                continue
            ids = {e.a for e in contacts} | {e.b for e in contacts}
            on = {d.id: d for d in result.trajectory.sample(t)}
            if any(min(on[i].x, on[i].y, 1080 - on[i].x, 1080 - on[i].y) < 25.0 for i in ids):
                continue  # a sticking cluster against a rail gives momentum to the rail
            _, bx, by = _energy_and_momentum(result, t, after=False)
            _, ax, ay = _energy_and_momentum(result, t, after=True)
            assert (ax, ay) == pytest.approx((bx, by), rel=1e-9, abs=1e-6)
            checked += 1
    assert checked > 10
