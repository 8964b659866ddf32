"""Seed 002 paragraph by paragraph, mostly through real shots from set-up positions."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from server.games.crokinole import scoring
from server.games.crokinole.board import TOURNAMENT as B
from server.games.crokinole.judge import (
    Ruling,
    aim,
    close_round,
    play_shot,
    round_over,
    side_totals,
    winners,
)
from server.games.crokinole.physics import Flick, Piece, simulate
from server.games.crokinole.rules import (
    Disc,
    Options,
    ShotRefused,
    State,
    new_game,
    quadrant_centre,
)

R = B.shooting_radius
OFFSET = math.radians(-20.0)  # start left of the middle: clear of the peg in front


def start(state: State, seat: int) -> tuple[float, float]:
    a = quadrant_centre(state.options.quadrant(seat)) + OFFSET
    return R * math.cos(a), R * math.sin(a)


def shoot(
    state: State, seat: int, tx: float, ty: float, slide: float = 0.0
) -> tuple[State, Ruling]:
    """Shoot the seat's next disc from its quadrant through (tx, ty), stopping `slide` beyond."""
    x, y = start(state, seat)
    angle, speed = aim(x, y, tx, ty, slide, B.decel)
    return play_shot(state, seat, x, y, angle, speed)


def with_discs(state: State, *discs: Disc) -> State:
    return replace(state, discs=tuple(discs))


def test_1_singles_eight_discs_doubles_six_partners_share_a_colour() -> None:
    # 002 1
    assert new_game().shots_left == (8, 8)
    doubles = Options(players=4)
    assert new_game(doubles).shots_left == (6,) * 4
    assert [doubles.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [doubles.quadrant(s) for s in range(4)] == [0, 1, 2, 3]
    assert [Options().quadrant(s) for s in range(2)] == [0, 2]  # opposite sides


def test_2a_turns_go_clockwise_and_out_of_turn_is_refused() -> None:
    # 002 2 a
    state = new_game(Options(players=4))
    with pytest.raises(ShotRefused) as err:
        shoot(state, 1, 0.0, 0.0, R)
    assert (err.value.code, err.value.paragraph) == ("not_your_turn", "2 a")
    for seat in (0, 1, 2, 3, 0):
        assert state.turn == (seat,)
        state, _ = shoot(state, seat, 0.0, 0.0, 2 * R)


def test_2b_a_twenty_is_set_aside_and_counted() -> None:
    # 002 2 b, 3 b (a 20 is within the 15 line), 4 a
    state, ruling = shoot(new_game(), 0, 0.0, 0.0)
    assert ruling.valid and ruling.twenties == (0,)
    assert state.discs == () and state.twenties == (1, 0)
    assert side_totals(state) == (20, 0)


def test_2d_singles_alternate_the_start_doubles_move_it_clockwise() -> None:
    # 002 2 d
    singles = new_game(first=1)
    doubles = new_game(Options(players=4), first=3)
    after_singles, _ = close_round(replace(singles, shots_left=(0, 0)))
    after_doubles, _ = close_round(replace(doubles, shots_left=(0,) * 4))
    assert after_singles.turn == (0,) and after_doubles.turn == (0,)


def test_3a_a_shot_missing_the_opponent_goes_to_the_ditch_with_what_it_struck() -> None:
    # 002 3 a, 3 c: own disc bumped, no opponent struck
    state = with_discs(new_game(), Disc(10, 200.0, 200.0), Disc(1, 0.0, -200.0))
    state2, ruling = shoot(state, 0, 0.0, -200.0, 20.0)
    assert (ruling.valid, ruling.code, ruling.paragraph) == (False, "no_opponent_struck", "3 a")
    assert ruling.to_ditch == (0, 1)  # the shooter (id 0 is the first disc) and the own disc
    assert [d.id for d in state2.discs] == [10]


def test_3a_hitting_an_opponent_directly_or_through_an_own_disc_is_valid() -> None:
    # 002 3 a
    _, ruling = shoot(with_discs(new_game(), Disc(10, -50.0, -150.0)), 0, -50.0, -150.0, 10.0)
    assert ruling.valid and ruling.paragraph == "3 a"
    # an own disc in line, the opponent behind it
    x, y = start(new_game(), 0)
    ux, uy = -x / R, -y / R
    own = Disc(1, x + ux * 100.0, y + uy * 100.0)
    opp = Disc(
        10, x + ux * (100.0 + 2 * B.disc_radius + 1.0), y + uy * (100.0 + 2 * B.disc_radius + 1.0)
    )
    _, chain = shoot(with_discs(new_game(), own, opp), 0, own.x, own.y, 30.0)
    assert chain.valid and chain.to_ditch == ()


def test_3a_an_opponent_disc_behind_a_peg_reached_off_the_peg() -> None:
    # 002 3 a through the physics: the disc hides behind the peg in front of the shooter
    hidden = Disc(10, 0.0, -B.ring15_radius + B.peg_radius + B.disc_radius + 1.0)
    state = with_discs(new_game(), hidden)
    x, y = start(state, 0)
    angle, speed = aim(x, y, hidden.x, hidden.y, 0.0, B.decel)
    _, blocked = play_shot(state, 0, x, y, angle, speed * 1.3)
    assert not blocked.valid and blocked.code == "no_opponent_struck"
    # scan the angles for a carom off the peg onto the hidden disc
    for k in range(200):
        a = angle - 0.1 + k * 0.001
        result = simulate(B, [Piece(10, hidden.x, hidden.y)], Flick(0, x, y, a, speed * 1.3))
        kinds = [(e.kind, e.b) for e in result.events]
        if kinds[:2] == [("peg", 5), ("disc", 10)]:
            break
    else:
        pytest.fail("no carom off the peg found")
    _, ruling = play_shot(state, 0, x, y, a, speed * 1.3)
    assert ruling.valid and ruling.paragraph == "3 a"


def test_3b_no_hiding_a_shot_short_of_the_15_line_is_invalid() -> None:
    # 002 3 b, 3 c
    state, ruling = shoot(new_game(), 0, 0.0, -200.0)
    assert (ruling.valid, ruling.code, ruling.paragraph) == (False, "not_in_15", "3 b")
    assert state.discs == () and ruling.to_ditch == (0,)


def test_3b_a_disc_touching_the_15_line_is_enough() -> None:
    # 002 3 b: touching counts
    x, y = start(new_game(), 0)
    d = B.ring15_radius + B.disc_radius - 0.5
    tx, ty = -x / R * d, -y / R * d
    state, ruling = shoot(new_game(), 0, tx, ty)
    assert ruling.valid and ruling.paragraph == "3 b"
    assert len(state.discs) == 1


def test_3c_a_twenty_in_an_invalid_shot_goes_to_the_ditch() -> None:
    # 002 3 c: "including any 20's"
    state = with_discs(new_game(), Disc(10, 250.0, 0.0))
    after, ruling = shoot(state, 0, 0.0, 0.0)
    assert not ruling.valid and ruling.to_ditch == (0,) and ruling.twenties == ()
    assert after.twenties == (0, 0)


@pytest.mark.parametrize(
    "d, value",
    [
        (0.0, 15),
        (B.ring15_radius - B.disc_radius - 0.1, 15),
        (B.ring15_radius, 10),  # on the 15 line: the lower value (4 c)
        (B.ring10_radius - B.disc_radius - 0.1, 10),
        (B.ring10_radius - B.disc_radius + 0.1, 5),  # its edge over the 10 line
        (R - B.disc_radius - 0.1, 5),
        (R - B.disc_radius + 0.1, 0),  # touching the shooting line (4 e)
    ],
)
def test_4a_4c_4d_region_values(d: float, value: int) -> None:
    assert scoring.disc_value(B, d * math.cos(1.0), d * math.sin(1.0)) == value


def test_4c_a_disc_shot_to_rest_on_the_15_line_scores_10() -> None:
    x, y = start(new_game(), 0)
    tx, ty = -x / R * B.ring15_radius, -y / R * B.ring15_radius
    state, ruling = shoot(new_game(), 0, tx, ty)
    assert ruling.valid
    assert side_totals(state) == (10, 0)


def test_4e_a_disc_knocked_onto_the_far_shooting_line_goes_to_the_ditch() -> None:
    # 002 4 e, 6 a: the opponent disc driven from the centre to the far line
    state = new_game()
    x, y = start(state, 0)
    ux, uy = -x / R, -y / R
    target = Disc(10, 0.0, 0.0)
    a = B.decel
    v1 = math.sqrt(2 * a * R) / (0.5 * (1 + B.e_disc))
    v0 = math.sqrt(v1 * v1 + 2 * a * (R - 2 * B.disc_radius))
    after, ruling = play_shot(with_discs(state, target), 0, x, y, math.atan2(uy, ux), v0)
    assert ruling.valid and ruling.out_of_play == (10,)
    assert [d.id for d in after.discs] == [0]


def test_7b_a_disc_on_the_line_stays_and_counts_5() -> None:
    state = new_game(Options(line_discs_stay=True))
    on_line = Disc(10, 0.0, R)
    assert side_totals(with_discs(state, on_line)) == (0, 5)
    assert side_totals(with_discs(new_game(), on_line)) == (0, 0)


def scripted_round(state: State) -> State:
    """Seat 0 (and partners) shoot each disc into the 20; the others into the ditch."""
    while not round_over(state):
        seat = state.turn[0]
        if state.options.side_of(seat) == 0:
            state, _ = shoot(state, seat, 0.0, 0.0)
        else:
            state, _ = shoot(state, seat, 0.0, 0.0, 2 * R)
    return state


def test_4f_a_tournament_game_is_four_rounds_of_2_1_0() -> None:
    state = new_game()
    results = []
    while not state.over:
        state, result = close_round(scripted_round(state))
        results.append(result)
    assert [r.totals for r in results] == [(160, 0)] * 4
    assert state.score == (8, 0) and winners(state) == (0,)
    assert state.round_no == 4 and state.turn == ()
    with pytest.raises(ShotRefused, match="game_over"):
        shoot(state, 0, 0.0, 0.0)


def test_4f_a_tied_round_scores_1_each() -> None:
    assert scoring.tournament_points((35, 35)) == (1, 1)
    assert scoring.tournament_points((5, 35)) == (0, 2)


def test_4g_conventional_play_cancels_down_and_ends_at_the_target() -> None:
    assert scoring.cancelled_points((45, 30)) == (15, 0)
    assert scoring.cancelled_points((20, 20)) == (0, 0)
    state, result = close_round(
        scripted_round(new_game(Options(scoring="conventional", target=100)))
    )
    assert result.points == (160, 0) and state.over


def test_5_placement_is_refused_with_the_paragraph_and_changes_nothing() -> None:
    state = new_game()
    x, y = start(state, 0)
    cases = [
        ((0.5 * x, 0.5 * y), "inside_shooting_line"),
        ((-y, x), "outside_quadrant"),
        ((1.2 * x, 1.2 * y), "off_the_board"),
    ]
    for (px, py), code in cases:
        with pytest.raises(ShotRefused) as err:
            play_shot(state, 0, px, py, 0.0, 100.0)
        assert (err.value.code, err.value.paragraph) == (code, "5")
    taken = with_discs(state, Disc(10, x, y))
    with pytest.raises(ShotRefused, match="spot_taken"):
        play_shot(taken, 0, x, y, 0.0, 100.0)
    with pytest.raises(ShotRefused, match="bad_shot"):
        play_shot(state, 0, x, y, 0.0, 1e9)


def test_5_a_disc_touching_the_line_from_behind_may_be_shot() -> None:
    state = new_game()
    a = quadrant_centre(0)
    d = B.surface_radius - B.disc_radius - 0.1  # its edge at the ditch, touching the line
    assert d - B.disc_radius < R
    _, ruling = play_shot(state, 0, d * math.cos(a + OFFSET), d * math.sin(a + OFFSET), 0.0, 10.0)
    assert ruling.disc == 0


def test_6b_6c_back_inside_without_striking_stays_struck_across_is_out() -> None:
    from server.games.crokinole.judge import _settle
    from server.games.crokinole.physics import Final, ShotResult

    state = new_game()
    result = ShotResult(
        (Final(0, "board", 0.0, 250.0, False), Final(10, "board", 0.0, -250.0, True)), (), (), 1.0
    )
    discs, out, _ = _settle(state, result, set(), set(), {})
    assert [d.id for d in discs] == [0] and out == [10]


def test_7a_hitting_an_own_disc_first_puts_the_opponent_back() -> None:
    x, y = start(new_game(), 0)
    ux, uy = -x / R, -y / R
    own = Disc(1, x + ux * 100.0, y + uy * 100.0)
    opp = Disc(
        10, x + ux * (100.0 + 2 * B.disc_radius + 1.0), y + uy * (100.0 + 2 * B.disc_radius + 1.0)
    )
    state = with_discs(new_game(Options(direct_hit=True)), own, opp)
    after, ruling = shoot(state, 0, own.x, own.y, 60.0)
    assert (ruling.valid, ruling.code, ruling.paragraph) == (False, "not_direct", "7 a")
    assert ruling.to_ditch == (0, 1) and ruling.restored == (10,)
    assert after.discs == (opp,)


def test_7c_free_order_lets_either_opponent_shoot() -> None:
    state = new_game(Options(players=4, free_order=True))
    state, _ = shoot(state, 0, 0.0, 0.0, 2 * R)
    assert state.turn == (1, 3)
    state, _ = shoot(state, 3, 0.0, 0.0, 2 * R)
    assert state.turn == (0, 2)


def test_7d_three_and_four_players_score_by_rank() -> None:
    assert scoring.rank_points((50, 40, 40, 10)) == (8, 5, 5, 2)
    assert scoring.rank_points((30, 30, 30, 0)) == (6, 6, 6, 2)
    state = new_game(Options(players=3))
    assert state.shots_left == (6, 6, 6) and len(state.score) == 3
    state, result = close_round(scripted_round(state))
    assert result.paragraph == "7 d" and result.points == (8, 5, 5)


def test_options_seed_002_does_not_describe_are_refused() -> None:
    with pytest.raises(ShotRefused, match="conventional_needs_two_sides"):
        new_game(Options(players=3, scoring="conventional"))
    with pytest.raises(ShotRefused, match="free_order_needs_doubles"):
        new_game(Options(free_order=True))
