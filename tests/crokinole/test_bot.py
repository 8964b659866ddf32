"""The Crokinole computer (server/games/crokinole/bot): legal shots from random positions, a
takeout from a set-up position, determinism per seed, its errors."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.crokinole.board import TOURNAMENT as B
from server.games.crokinole.bot import LEVELS, Choice, CrokinoleBotError, choose
from server.games.crokinole.judge import close_round, play_shot, round_over
from server.games.crokinole.rules import Disc, Options, State, check_placement, new_game

INNER = B.shooting_radius - B.disc_radius - 1.0  # discs in play lie inside this


def position(
    options: Options, seat: int, spots: list[tuple[float, float, int]], left: int
) -> State:
    """A game with discs at `spots` (radius, angle in degrees, owner seat), `seat` to shoot
    with `left` discs; discs overlapping an earlier one are left out."""
    s = new_game(options, first=seat)
    discs: list[Disc] = []
    count = [0] * options.players
    for r, deg, owner in spots:
        x, y = r * math.cos(math.radians(deg)), r * math.sin(math.radians(deg))
        clear = all(math.hypot(d.x - x, d.y - y) >= 2 * B.disc_radius for d in discs)
        pegs = all(
            math.hypot(px - x, py - y) >= B.disc_radius + B.peg_radius for px, py in B.pegs()
        )
        if clear and pegs and count[owner] < options.discs_each() - left:
            discs.append(Disc(owner * 10 + count[owner], x, y))
            count[owner] += 1
    shots = tuple(left if i == seat else 2 for i in range(options.players))
    return replace(s, discs=tuple(discs), shots_left=shots)


def shoot(state: State, seat: int, c: Choice) -> None:
    """The choice is accepted by the judge: placement (002 5) and the shot (physics)."""
    check_placement(state, seat, c.shot.x, c.shot.y)
    play_shot(state, seat, c.shot.x, c.shot.y, c.shot.angle, c.shot.speed)


spot = st.tuples(st.floats(B.hole_radius, INNER), st.floats(-180.0, 180.0), st.integers(0, 1))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spots=st.lists(spot, max_size=8),
    seat=st.integers(0, 1),
    level=st.sampled_from(LEVELS[:3]),
    seed=st.integers(0, 2**31),
)
def test_every_chosen_shot_is_legal(
    spots: list[tuple[float, float, int]], seat: int, level: int, seed: int
) -> None:
    # 002 5: from the shooter's quadrant, touching or behind the shooting line
    state = position(Options(), seat, spots, 4)
    c = choose(state, seat, level, seed)
    shoot(state, seat, c)
    assert c.intended.x == c.shot.x and c.intended.y == c.shot.y  # the start is exact


@settings(max_examples=5, deadline=None)
@given(spots=st.lists(spot, max_size=6), seed=st.integers(0, 2**31))
def test_legal_in_doubles_too(spots: list[tuple[float, float, int]], seed: int) -> None:
    opts = Options(players=4)
    spots4 = [(r, a, o * 1) for r, a, o in spots]  # seats 0 and 1: two teams
    state = position(opts, 1, spots4, 3)
    shoot(state, 1, choose(state, 1, 3, seed))


def test_knocks_an_opposing_disc_off() -> None:
    # 002 3 a: a lone opposing disc in the 5 region in front of the shooter; the master
    # strikes it (a valid shot) and it leaves play, while its own disc stays and scores
    state = position(Options(), 0, [(250.0, -80.0, 1)], 1)
    c = choose(state, 0, 5, seed=7)
    assert c.target == 10
    after, ruling = play_shot(state, 0, c.shot.x, c.shot.y, c.shot.angle, c.shot.speed)
    assert ruling.valid and ruling.paragraph == "3 a"
    assert all(d.seat == 0 for d in after.discs)
    assert after.discs  # its own disc stayed to score


def test_with_no_opposing_disc_it_does_not_hide() -> None:
    # 002 3 b: with no opposing disc the top level's shot ends touching or inside the 15
    state = new_game(Options())
    c = choose(state, 0, 5, seed=3)
    assert c.target is None
    _, ruling = play_shot(state, 0, c.shot.x, c.shot.y, c.shot.angle, c.shot.speed)
    assert ruling.valid and ruling.paragraph == "3 b"


def test_same_seed_same_shot_other_seed_other_shot() -> None:
    state = position(Options(), 1, [(120.0, 30.0, 0), (200.0, 80.0, 1)], 5)
    a, b = choose(state, 1, 4, seed=11), choose(state, 1, 4, seed=11)
    assert a == b
    assert choose(state, 1, 4, seed=12).shot != a.shot


def test_budget_grows_with_level() -> None:
    state = position(Options(), 0, [(120.0, 30.0, 1)], 5)
    sims = [choose(state, 0, lv, seed=1).candidates for lv in LEVELS]
    assert sims == sorted(sims) and sims[0] < sims[-1]


def test_a_whole_game_between_levels() -> None:
    # the club computer against the beginner, four rounds (002 4 f): every shot accepted
    s = new_game(Options())
    n = 0
    while not s.over:
        seat = s.turn[0]
        c = choose(s, seat, 3 if seat == 0 else 1, seed=n)
        s, _ = play_shot(s, seat, c.shot.x, c.shot.y, c.shot.angle, c.shot.speed)
        n += 1
        if round_over(s):
            s, _ = close_round(s)
    assert n == 4 * 16 and len(s.rounds) == 4


@pytest.mark.parametrize(
    ("level", "seat", "over"),
    [(0, 0, False), (6, 0, False), (True, 0, False), (3, 1, False), (3, 0, True)],
)
def test_refusals(level: int, seat: int, over: bool) -> None:
    state = new_game(Options())
    state = replace(state, over=over)
    with pytest.raises(CrokinoleBotError):
        choose(state, seat, level, seed=1)
    with pytest.raises(CrokinoleBotError):
        choose(new_game(Options()), 0, 3, seed=1, budget_s=0.0)
