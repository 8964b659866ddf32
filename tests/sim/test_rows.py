"""The starting rows (004 § 19 (2)): touching pucks at rest, and a Newton's cradle."""

from __future__ import annotations

import math

from server.games.novuss.sim import COMPETITION, DiscContact, RailContact, Shot, simulate
from server.games.novuss.sim.engines import Engine
from tools.scenarios import starting_rows


def test_starting_rows_touch_each_other_and_the_rail() -> None:
    rows = starting_rows()
    south = [d for d in rows if d.owner == 0]
    assert [d.x for d in south] == [442.0, 470.0, 498.0, 526.0, 554.0, 582.0, 610.0, 638.0]
    assert all(d.y == COMPETITION.puck_radius for d in south)


def test_starting_rows_stay_at_rest_when_untouched(engine: Engine) -> None:
    rows = starting_rows()
    result = simulate(COMPETITION, rows, Shot(540.0, 80.0, math.pi / 2, 1000.0), engine)
    assert result.events and all(
        not isinstance(e, DiscContact | RailContact) or getattr(e, "disc", 0) == 0
        for e in result.events
    )
    assert [(d.x, d.y, d.where) for d in result.final[1:]] == [(d.x, d.y, "table") for d in rows]
    for path in result.trajectory.paths[1:]:
        assert path.segments[3:5] == (0.0, 0.0) and len(path.segments) == 5


def test_stroke_along_a_row_moves_its_far_puck(engine: Engine) -> None:
    rows = starting_rows()
    # The striker slides along the south rail into the west end of the south row.
    result = simulate(COMPETITION, rows, Shot(300.0, 24.0, 0.0, 3000.0), engine)
    far = next(d for d in result.final if d.id == 8)
    assert far.x > 638.0 + 20.0
    chain = [(e.a, e.b) for e in result.events if isinstance(e, DiscContact)]
    for pair in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8)]:
        assert pair in chain
    # The north row is far away and never moves.
    assert [(d.x, d.y) for d in result.final[9:]] == [(d.x, d.y) for d in rows[8:]]


def test_break_into_the_north_row_scatters_it_without_overlap(engine: Engine) -> None:
    rows = starting_rows()
    result = simulate(COMPETITION, rows, Shot(530.0, 80.0, math.pi / 2 + 0.01, 7000.0), engine)
    moved = [d for d, p in zip(result.final[9:], rows[8:], strict=True) if (d.x, d.y) != (p.x, p.y)]
    assert len(moved) >= 4
    on = [d for d in result.final if d.where == "table"]
    for k, a in enumerate(on):
        for b in on[k + 1 :]:
            reach = (24.0 if a.id == 0 else 14.0) + 14.0
            assert math.hypot(a.x - b.x, a.y - b.y) >= reach - 1e-6
