"""A strike is played with its numbers rounded to float32 (server/lobby/room.py `strike`,
docs/protocol.md changelog 2.1): the shot simulated and logged is the rounded one, which the
archive keeps exactly in 16 bytes; a shot refused so that is legal as sent (a disc touching
the shooting line to the last bit, 002 5) is played as sent."""

from __future__ import annotations

import math

from server.games.core.play import Shot, as_struck, nearest_single
from server.games.crokinole.match import OFFSET
from server.games.crokinole.rules import ShotRefused, State, check_placement
from tests.server.test_crokinole_e2e import shot_for
from tests.server.test_crokinole_room_unit import game_of, shooter, started


def test_a_shot_is_played_and_logged_rounded_to_float32() -> None:
    room = started()
    seat = shooter(room)
    sent = Shot(**shot_for(seat, 3))
    assert as_struck(sent) != sent  # the scripted shot's numbers are not float32s
    step = room.strike(f"s{seat}", sent, 1.0)
    (entry,) = [e for e in step.log if e["kind"] == "stroke"]
    played = as_struck(sent)
    assert entry["shot"] == {"x": played.x, "y": played.y, "angle": played.angle,
                             "speed": played.speed}  # fmt: skip
    assert all(nearest_single(v) == v for v in entry["shot"].values())
    stroke = next(o.data for o in step.out if o.kind == "stroke")
    assert (stroke["x"], stroke["speed"]) == (played.x, played.speed)


def on_the_line(room_seat: int, state: State) -> Shot:
    """A disc touching the shooting line from behind as sent (002 5: legal), which rounded
    to float32 lies inside it by a fraction of a micrometre (refused: 002 5)."""
    board = state.board
    base = shot_for(room_seat, 0)
    centre = math.atan2(base["y"] - OFFSET, base["x"] - OFFSET)
    reach = board.shooting_radius - board.disc_radius
    for k in range(20_000):
        a = centre + (k - 10_000) * 1e-5
        x, y = reach * math.cos(a) + OFFSET, reach * math.sin(a) + OFFSET
        rounded = as_struck(Shot(x, y, base["angle"], base["speed"]))
        try:
            check_placement(state, room_seat, x - OFFSET, y - OFFSET)
        except ShotRefused:
            continue
        try:
            check_placement(state, room_seat, rounded.x - OFFSET, rounded.y - OFFSET)
        except ShotRefused:
            return Shot(x, y, base["angle"], base["speed"])
    raise AssertionError("no placement found on the line that rounding moves inside it")


def test_a_shot_refused_rounded_and_legal_as_sent_is_played_as_sent() -> None:
    room = started()
    seat = shooter(room)
    sent = on_the_line(seat, game_of(room).game)
    step = room.strike(f"s{seat}", sent, 1.0)
    (entry,) = [e for e in step.log if e["kind"] == "stroke"]
    assert entry["shot"] == {"x": sent.x, "y": sent.y, "angle": sent.angle, "speed": sent.speed}
