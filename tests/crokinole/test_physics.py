"""The Crokinole shot physics: the 20-hole, the ditch, the pegs, impacts, determinism."""

from __future__ import annotations

import math

import pytest

from server.games.core import python_core
from server.games.crokinole.board import TOURNAMENT as B
from server.games.crokinole.physics import Flick, Piece, ShotInputError, simulate

R = B.shooting_radius
START_ANGLE = math.radians(250.0)  # clear of the peg in front of the south seat


def toward(
    x: float, y: float, tx: float, ty: float, dist_extra: float = 0.0
) -> tuple[float, float]:
    """Angle and speed to slide from (x, y) and stop exactly dist_extra past (tx, ty)."""
    d = math.hypot(tx - x, ty - y) + dist_extra
    return math.atan2(ty - y, tx - x), math.sqrt(2.0 * B.decel * d)


def start() -> tuple[float, float]:
    return R * math.cos(START_ANGLE), R * math.sin(START_ANGLE)


def test_a_disc_stopping_over_the_hole_drops_in() -> None:
    # 002 4 b: completely in the hole, lying flat
    x, y = start()
    angle, speed = toward(x, y, 0.0, 0.0)
    res = simulate(B, [], Flick(1, x, y, angle, speed))
    assert res.final(1).where == "hole"
    assert [e.kind for e in res.events] == ["stop", "hole"]


def test_a_fast_disc_skims_over_the_hole_and_goes_to_the_ditch() -> None:
    x, y = start()
    angle, speed = toward(x, y, 0.0, 0.0, dist_extra=2.0 * R)
    res = simulate(B, [], Flick(1, x, y, angle, speed))
    assert res.final(1).where == "ditch"
    assert res.events[-1].kind == "ditch"
    assert math.hypot(res.final(1).x, res.final(1).y) == pytest.approx(B.surface_radius)


def test_a_disc_stopping_partly_over_the_hole_stays_on_the_board() -> None:
    x, y = start()
    angle, speed = toward(x, y, 0.0, 0.0, dist_extra=5.0)
    res = simulate(B, [], Flick(1, x, y, angle, speed))
    assert res.final(1).where == "board"


def test_a_disc_bounces_off_a_peg() -> None:
    # straight from the middle of the south quadrant: the peg in front of the seat
    res = simulate(B, [], Flick(1, 0.0, -R, math.pi / 2, 1500.0))
    kinds = [(e.kind, e.b) for e in res.events]
    assert kinds[0] == ("peg", 5)
    assert res.final(1).y < -B.ring15_radius  # thrown back toward the shooter


def test_a_head_on_hit_passes_the_motion_on() -> None:
    x, y = start()
    tx, ty = 0.5 * x, 0.5 * y
    angle, speed = toward(x, y, tx, ty, dist_extra=40.0)
    res = simulate(B, [Piece(7, tx, ty)], Flick(1, x, y, angle, speed))
    assert res.events[0].kind == "disc" and {res.events[0].a, res.events[0].b} == {1, 7}
    shooter, target = res.final(1), res.final(7)
    assert math.hypot(target.x, target.y) < math.hypot(tx, ty)  # driven inward
    assert math.hypot(shooter.x - x, shooter.y - y) < math.hypot(tx - x, ty - y)


def test_a_disc_striking_across_the_shooting_line_is_marked() -> None:
    # 002 6 c: a disc knocked over the line that strikes a disc there
    px, py = 0.0, R + 2.0
    res = simulate(B, [Piece(3, 20.0, py), Piece(4, px, 200.0)], Flick(1, -40.0, py, 0.0, 600.0))
    assert res.final(1).struck_across and res.final(3).struck_across
    assert not res.final(4).struck_across


def busy_board() -> tuple[list[Piece], Flick]:
    pieces = [Piece(i, 150.0 * math.cos(i * 0.9), 150.0 * math.sin(i * 0.9)) for i in range(7)]
    pieces += [
        Piece(10 + i, 250.0 * math.cos(i * 1.3), 250.0 * math.sin(i * 1.3)) for i in range(5)
    ]
    x, y = start()
    return pieces, Flick(99, x, y, START_ANGLE - math.pi + 0.05, 3000.0)


def test_the_same_shot_gives_the_same_bits() -> None:
    pieces, flick = busy_board()
    first = simulate(B, pieces, flick)
    assert len(first.events) > 5
    assert simulate(B, pieces, flick) == first


def test_the_compiled_core_and_its_twin_agree_bit_for_bit() -> None:
    pieces, flick = busy_board()
    assert simulate(B, pieces, flick) == simulate(B, pieces, flick, core=python_core())


@pytest.mark.parametrize(
    "pieces, flick, why",
    [
        ([], Flick(1, 0.0, -R, 0.0, 1e9), "speed"),
        ([], Flick(1, float("nan"), -R, 0.0, 100.0), "not finite"),
        ([], Flick(1, 0.0, -340.0, 0.0, 100.0), "off the playing surface"),
        ([Piece(2, 0.0, -R)], Flick(1, 5.0, -R, 0.0, 100.0), "overlaps disc"),
        ([Piece(2, 0.0, B.ring15_radius)], Flick(1, 0.0, -R, 0.0, 100.0), "overlaps a peg"),
    ],
)
def test_bad_input_is_refused(pieces: list[Piece], flick: Flick, why: str) -> None:
    with pytest.raises(ShotInputError, match=why):
        simulate(B, pieces, flick)


def test_positions_during_a_shot_follow_the_segments_to_the_finals() -> None:
    pieces, flick = busy_board()
    res = simulate(B, pieces, flick)
    assert res.positions_at(0.0, B.decel)[99] == (flick.x, flick.y)
    end = res.positions_at(res.duration, B.decel)
    on_board = {f.id: (f.x, f.y) for f in res.finals if f.where == "board"}
    assert set(end) == set(on_board)
    for disc_id, (x, y) in on_board.items():
        assert end[disc_id] == pytest.approx((x, y), abs=1e-6)


def test_a_disc_resting_at_the_edge_struck_outward_falls_into_the_ditch() -> None:
    edge = B.surface_radius
    res = simulate(
        B, [Piece(3, 0.0, edge)], Flick(1, 0.0, edge - 2 * B.disc_radius - 5.0, math.pi / 2, 500.0)
    )
    assert res.final(3).where == "ditch"
    assert res.final(3).y <= edge + 1e-6
