"""Shared fixtures: every physics test runs against both engines."""

from __future__ import annotations

import pytest

from server.games.novuss.sim.engines import Engine
from server.games.novuss.sim.result import DiscPath

ENGINES: tuple[Engine, ...] = ("cython", "python")


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Engine:
    """The compiled core and its pure-Python twin."""
    chosen: Engine = request.param  # pytest types a parameter as Any: one of ENGINES
    return chosen


def velocity(path: DiscPath, t: float, decel: float, after: bool) -> tuple[float, float]:
    """A disc's velocity just before (after=False) or just after (after=True) time t,
    read from its trajectory segments."""
    segs = [path.segments[k : k + 5] for k in range(0, len(path.segments), 5)]
    chosen = segs[0]
    for seg in segs:
        if seg[0] < t or (after and seg[0] == t):
            chosen = seg
    t0, _, _, vx, vy = chosen
    sp = (vx * vx + vy * vy) ** 0.5
    if sp == 0.0:
        return 0.0, 0.0
    s = max(sp - decel * (t - t0), 0.0)
    return vx / sp * s, vy / sp * s
