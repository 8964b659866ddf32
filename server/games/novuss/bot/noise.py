"""The hand's errors: a meant stroke played a little off in direction and speed.

The placement is exact (online the striker is put down where the player clicks); the
cue's direction strays by a normal error and its speed by a relative one, the level's.
A stray stroke is kept inside what `check_stroke` allows: the direction clamped to the
cue's limits (004 § 20 (5)), the speed to (0, max_speed].
"""

from __future__ import annotations

import math
import random

from server.games.novuss.bot.candidates import legal
from server.games.novuss.bot.levels import Level
from server.games.novuss.rules.check import max_speed
from server.games.novuss.rules.geometry import angle_to_local, angle_to_world, cue_limits_local
from server.games.novuss.rules.state import MatchState
from server.games.novuss.sim.types import Shot

MARGIN = 1e-7
"""Radians kept inside the cue's limits when a stray direction is clamped."""
SLOWEST = 20.0
"""mm/s: a stray speed is never below this (a stroke must move the striker)."""


def stray(state: MatchState, seat: int, shot: Shot, level: Level, rng: random.Random) -> Shot:
    """`shot` as the level's hand plays it; always a stroke `check_stroke` accepts
    (the meant one if, against all odds, no stray one is)."""
    if level.angle_sd == 0 and level.speed_sd == 0:
        return shot
    side = state.side_of(seat)
    lo, hi = cue_limits_local(state.table, side, shot.x, shot.y)
    top = max_speed(state)
    for _ in range(8):
        a = angle_to_local(side, shot.angle) + rng.gauss(0.0, level.angle_sd)
        a = min(max(a, lo + MARGIN), hi - MARGIN)
        speed = shot.speed * math.exp(rng.gauss(0.0, level.speed_sd))
        speed = min(max(speed, SLOWEST), top)
        played = Shot(shot.x, shot.y, angle_to_world(side, a), speed)
        if legal(state, seat, played):
            return played
    return shot
