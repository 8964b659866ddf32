"""Whether a stroke may be played now, from there: the strike right, the striker's
placement (004 § 20 (1), (2)), the cue's angle (§ 20 (5)) and the speed limit."""

from __future__ import annotations

import math

from server.games.novuss.rules.geometry import (
    EPS,
    angle_to_local,
    per_table,
    striking_field,
    to_local,
)
from server.games.novuss.rules.ruling import StrokeRefused
from server.games.novuss.rules.state import MatchState
from server.games.novuss.sim.table import Table
from server.games.novuss.sim.types import Disc, Shot


def require_turn(state: MatchState, seat: int) -> None:
    """Refuse anything from a seat that does not hold the strike right: online the
    server refuses rather than scoring the set lost (004 § 23 (1) 6), 8))."""
    if state.finished:
        raise StrokeRefused("match_over", "004 § 32 (1)", "The match is over.")
    if seat != state.turn_seat:
        raise StrokeRefused(
            "not_your_turn",
            "004 § 23 (1) 8)",
            "Only the player holding the strike right may strike.",
        )


def max_speed(state: MatchState) -> float:
    """The fastest cue stroke accepted (mm/s): the config's, else the table preset's."""
    limit = state.config.max_speed
    return state.table.max_speed if limit is None else limit


def check_stroke(state: MatchState, seat: int, shot: Shot) -> None:
    """Raise StrokeRefused(code, rule, message) if `seat` may not play `shot` now;
    return None if he may. Online the client cannot place the striker illegally, so
    a placement that would be a penalty at the table (§ 24 (1) 10)) is refused."""
    require_turn(state, seat)
    table = state.table
    side = state.side_of(seat)
    isfinite = math.isfinite
    x, y = shot.x, shot.y
    if not (isfinite(x) and isfinite(y) and isfinite(shot.angle) and isfinite(shot.speed)):
        raise StrokeRefused("bad_shot", "", "The stroke's numbers are not finite.")
    if not 0 < shot.speed <= max_speed(state):
        raise StrokeRefused(
            "speed",
            "table preset max_speed",
            f"The stroke's speed must be above 0 and at most {max_speed(state):g} mm/s.",
        )
    # in_striking_field and cue_angle_allowed (geometry.py), their comparisons of the
    # same numbers, from one conversion to the local frame: every stroke is checked twice.
    u, v = to_local(side, x, y, table.size)
    u0, u1, v0, v1 = per_table(table, _FIELDS, striking_field)
    if not (u0 - EPS <= u <= u1 + EPS and v0 - EPS <= v <= v1 + EPS):
        raise StrokeRefused(
            "placement_zone",
            "004 § 20 (1)",
            "The striker's hole must lie entirely in your own edge zone, between the "
            "side zones' lines.",
        )
    reach = table.striker_radius + table.puck_radius
    far = reach + 1.0  # a puck this far away along an axis is clear without measuring
    for p in state.pucks:
        dx = p.x - x
        dy = p.y - y
        if dx >= far or dx <= -far or dy >= far or dy <= -far or p.where != "table":
            continue
        if math.hypot(dx, dy) <= reach + 1e-9:
            raise StrokeRefused(
                "placement_touch",
                "004 § 20 (2), § 24 (1) 10)",
                f"The striker may not touch a puck when it is placed (puck #{p.id}).",
            )
    # 004 § 20 (5): cue_limits_local's angles
    a = angle_to_local(side, shot.angle)
    if not math.atan2(v, u) - EPS <= a <= math.atan2(v, u - table.size) + EPS:
        raise StrokeRefused(
            "cue_angle",
            "004 § 20 (5)",
            "The cue must come from within your own rail's corners, and the stroke must "
            "point away from your own rail.",
        )


_FIELDS: dict[int, tuple[Table, tuple[float, float, float, float]]] = {}


def sim_discs(state: MatchState) -> tuple[Disc, ...]:
    """The pucks on the table as the physics takes them (owner = seat)."""
    # state.on_table()'s pucks, read without making its tuple first
    return tuple([Disc(p.id, p.x, p.y, "puck", p.owner) for p in state.pucks if p.where == "table"])
