"""Invariants over thousands of random legal strokes from random reachable positions:
pucks are never created or lost, no player has more than 8 on the table (16 per pair),
exactly one player holds the strike right, a finished set stays finished, the state
round-trips, and the pucks left on the table are a legal input for the next stroke."""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.novuss.rules import (
    MatchConfig,
    MatchState,
    StrokeRefused,
    check_stroke,
    judge,
    judge_clock_expired,
    judge_pass,
    new_match,
    sim_discs,
    team_of,
)
from server.games.novuss.rules.geometry import (
    angle_to_world,
    cue_limits_local,
    striking_field,
    to_world,
)
from server.games.novuss.sim import COMPETITION, Shot, simulate
from tools.novuss_play import scripted_shot

from .helpers import assert_pucks_account, to_strike

STROKES = 30


def random_legal_shot(state: MatchState, seat: int, rng: random.Random) -> Shot:
    """Any placement in the striking field, any angle the cue allows, any speed."""
    t = state.table
    u0, u1, v0, v1 = striking_field(t)
    side = state.side_of(seat)
    for _ in range(200):
        x, y = to_world(side, rng.uniform(u0, u1), rng.uniform(v0, v1), t.size)
        lo, hi = cue_limits_local(t, side, x, y)
        a = angle_to_world(side, rng.uniform(lo, hi))
        shot = Shot(x, y, a, rng.uniform(50.0, t.max_speed))
        try:
            check_stroke(state, seat, shot)
        except StrokeRefused:
            continue
        return shot
    raise AssertionError("no legal placement found")


def check_invariants(before: MatchState, after: MatchState) -> None:
    assert_pucks_account(after)
    for team in (0, 1):
        assert sum(1 for p in after.on_table() if team_of(p.owner) == team) <= (
            8 if after.config.mode == "singles" else 16
        )
    if after.finished:
        assert after.turn_seat is None
    else:
        assert after.turn_seat in after.seats
    # A finished set stays finished: results are only appended, scores only grow.
    assert after.set_results[: len(before.set_results)] == before.set_results
    assert after.sets_played >= before.sets_played
    assert all(a >= b for a, b in zip(after.sets_won, before.sets_won, strict=True))
    assert MatchState.from_dict(after.to_dict()) == after
    # The pucks on the table are a legal position for the physics.
    t = after.table
    pucks = after.on_table()
    for k, p in enumerate(pucks):
        assert t.puck_radius - 1e-6 <= p.x <= t.size - t.puck_radius + 1e-6
        assert t.puck_radius - 1e-6 <= p.y <= t.size - t.puck_radius + 1e-6
        for _, cx, cy in t.pocket_centres():
            assert math.hypot(p.x - cx, p.y - cy) > t.pocket_radius
        for q in pucks[k + 1 :]:
            assert math.hypot(p.x - q.x, p.y - q.y) >= 2 * t.puck_radius - 1e-6


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(0, 2**32 - 1), doubles=st.booleans(), sets=st.integers(1, 6))
def test_random_strokes_keep_the_invariants(seed: int, doubles: bool, sets: int) -> None:
    rng = random.Random(seed)
    config = MatchConfig(mode="doubles" if doubles else "singles", sets=sets)
    state = new_match(config, rng.randrange(2))
    for _ in range(STROKES):
        if state.finished:
            break
        seat = to_strike(state)
        roll = rng.random()
        if roll < 0.03:
            ruling = judge_pass(state, seat)
        elif roll < 0.06:
            ruling = judge_clock_expired(state)
        else:
            if roll < 0.5:
                shot = scripted_shot(state, seat, rng, skill=rng.uniform(0.0, 0.1))
            else:
                shot = random_legal_shot(state, seat, rng)
            result = simulate(COMPETITION, sim_discs(state), shot)
            ruling = judge(state, seat, shot, result)
            assert ruling.kind in ("direct", "rebound")
        check_invariants(state, ruling.state)
        assert ruling.lines
        state = ruling.state


def random_position(rng: random.Random, config: MatchConfig) -> MatchState:
    """A mid-set position: each player with 1 to 8 pucks scattered at random (clear of
    each other and of the holes), the rest pocketed, a random player to strike."""
    from dataclasses import replace

    from server.games.novuss.rules.placement import is_free

    state = new_match(config, rng.randrange(2))
    t = state.table
    placed: list[tuple[float, float]] = []
    pucks = []
    for p in state.pucks:
        keep = rng.random() < 0.35 or p.id % 8 == 1
        if not keep:
            pucks.append(replace(p, where="pocket"))
            continue
        while True:
            x, y = rng.uniform(14, t.size - 14), rng.uniform(14, t.size - 14)
            if is_free(t, x, y, placed):
                break
        placed.append((x, y))
        pucks.append(replace(p, x=x, y=y))
    seat = rng.randrange(config.seats)
    return replace(
        state,
        pucks=tuple(pucks),
        turn_seat=seat,
        struck=state.seats,
        intact_rows=(),
        set_strokes=10,
    )


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(0, 2**32 - 1), doubles=st.booleans())
def test_random_positions_keep_the_invariants(seed: int, doubles: bool) -> None:
    rng = random.Random(seed)
    config = MatchConfig(mode="doubles" if doubles else "singles", sets=rng.choice([1, 4, 6]))
    state = random_position(rng, config)
    for _ in range(20):
        if state.finished:
            break
        seat = to_strike(state)
        if rng.random() < 0.7:
            shot = scripted_shot(state, seat, rng, skill=rng.uniform(0.0, 0.05))
        else:
            shot = random_legal_shot(state, seat, rng)
        result = simulate(COMPETITION, sim_discs(state), shot)
        ruling = judge(state, seat, shot, result)
        check_invariants(state, ruling.state)
        state = ruling.state
