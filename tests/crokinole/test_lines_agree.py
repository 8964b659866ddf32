"""A Crokinole ruling's lines agree with its data and with the game it leaves (issue 38):
valid or not, every disc accounted for (on the board, to the ditch as a penalty, off the
board, out of play, a twenty), who shoots next, the round's score. Checked by code and
arguments over whole random games of every kind seed 002 describes."""

from __future__ import annotations

import math
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.crokinole.judge import (
    Ruling,
    close_round,
    play_shot,
    round_over,
    side_totals,
    winners,
)
from server.games.crokinole.rules import Options, ShotRefused, State, new_game, quadrant_centre
from tools.crokinole_play import choose_shot

OPTIONS = [
    Options(),
    Options(scoring="conventional", target=40),
    Options(players=4),
    Options(players=4, free_order=True),
    Options(players=4, teams=False),
    Options(players=3, direct_hit=True),
    Options(direct_hit=True, line_discs_stay=True),
]


def _args(r: Ruling | Any, code: str) -> dict[str, Any] | None:
    found = [ln.args for ln in r.lines if ln.code == code]
    assert len(found) <= 1, r.lines
    return found[0] if found else None


def assert_shot_agrees(before: State, after: State, r: Ruling) -> None:
    ctx = f"{r}\n{r.lines}"
    verdicts = [ln for ln in r.lines if ln.code.startswith("shot.")]
    assert len(verdicts) == 1, ctx
    assert verdicts[0].code == ("shot.valid" if r.valid else f"shot.invalid.{r.code}"), ctx
    assert r.valid == (r.code == "valid"), ctx
    # 3 c, 7 a: an invalid shot ditches the shooter; a valid one ditches nothing as a penalty.
    assert (r.disc in r.to_ditch) == (not r.valid), ctx
    assert r.valid or r.disc not in r.restored, ctx
    assert not r.restored or r.code == "not_direct", ctx
    for code, discs in (
        ("discs.ditch_penalty", r.to_ditch),
        ("discs.restored", r.restored),
        ("discs.fell", r.fell),
        ("discs.out_of_play", r.out_of_play),
        ("discs.twenties", r.twenties),
    ):
        args = _args(r, code)
        assert (args["discs"] if args else ()) == discs, ctx
    # Every disc once: on the board, or gone by exactly one road.
    on_board = {d.id for d in after.discs}
    gone = [*r.to_ditch, *r.fell, *r.out_of_play, *r.twenties]
    assert len(gone) == len(set(gone)) and not on_board & set(gone), ctx
    assert on_board | set(gone) == {d.id for d in before.discs} | {r.disc}, ctx
    was = {d.id: d for d in before.discs}
    now = {d.id: d for d in after.discs}
    for disc in r.restored:  # 7 a: back where it was
        assert math.hypot(now[disc].x - was[disc].x, now[disc].y - was[disc].y) < 1e-9, ctx
    side = before.options.side_of
    for s in range(before.options.sides()):
        added = sum(1 for d in r.twenties if side(d // 10) == s)
        assert after.twenties[s] - before.twenties[s] == added, ctx
    # Who shoots next (2 a, 7 c), or nobody: the round is all shot (2 c).
    assert r.next_turn == after.turn, ctx
    nxt = _args(r, "turn.next")
    assert (nxt["seats"] if nxt else ()) == after.turn, ctx
    assert (_args(r, "round.all_shot") is not None) == (not after.turn) == round_over(after), ctx


def _shot(state: State, seat: int, rng: random.Random) -> tuple[float, float, float, float]:
    """Mostly the scripted player's aim, sometimes anything from a legal spot."""
    if rng.random() < 0.7:
        return choose_shot(state, seat, rng)
    b = state.board
    a = quadrant_centre(state.options.quadrant(seat)) + math.radians(rng.uniform(-40, 40))
    r = b.shooting_radius + rng.uniform(0.0, 2.0)
    return (
        r * math.cos(a),
        r * math.sin(a),
        rng.uniform(-math.pi, math.pi),
        rng.uniform(50.0, b.max_speed),
    )


@settings(
    max_examples=28, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(OPTIONS) - 1))
def test_whole_random_games_say_what_they_decide(seed: int, which: int) -> None:
    rng = random.Random(seed)
    options = OPTIONS[which]
    state = new_game(options, first=rng.randrange(options.players))
    for _ in range(2000):
        if state.over:
            break
        if round_over(state):
            totals = side_totals(state)
            after, result = close_round(state)
            scored = _args(result, "round.scored")
            assert scored is not None and scored["round"] == state.round_no
            assert scored["totals"] == totals == result.totals
            assert scored["points"] == result.points
            assert scored["score"] == after.score
            assert after.score == tuple(
                a + b for a, b in zip(state.score, result.points, strict=True)
            )
            over = _args(result, "game.over")
            assert (over is not None) == after.over
            if over is not None:
                assert over["winners"] == winners(after)
            state = after
            continue
        seat = rng.choice(state.turn)
        try:
            after, ruling = play_shot(state, seat, *_shot(state, seat, rng))
        except ShotRefused:
            continue  # a spot taken or a wild start: the state is unchanged
        assert_shot_agrees(state, after, ruling)
        state = after
    assert state.over
