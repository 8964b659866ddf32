"""A whole Crokinole game between scripted players, every ruling and score in words.

    python -m tools.crokinole_play [--players 2|3|4] [--solo] [--scoring tournament|conventional]
                                    [--target N] [--seed S] [--direct] [--line-stays] [--free-order]

The players aim at an opposing disc when one is in play (002 3 a) and at the 20-hole
otherwise (3 b), from a free spot of their quadrant (5), with a seeded error in angle and
speed so that fouls, misses and twenties all happen. The English here is for this command
only; the server sends codes and paragraphs.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

from server.games.crokinole.judge import Ruling, aim, close_round, play_shot, round_over, winners
from server.games.crokinole.rules import Options, ShotRefused, State, new_game, quadrant_centre

MAX_REFUSALS = 50  # a scripted player that cannot find a spot is a bug, not a game

WORDS = {
    "valid": "valid shot",
    "no_opponent_struck": "invalid shot: no opposing disc struck",
    "not_direct": "invalid shot: an own disc struck first",
    "not_in_15": "invalid shot: with no opposing disc in play, no disc ended touching or inside "
    "the 15 line",
}


def describe(r: Ruling) -> str:
    """A ruling in words with its paragraph."""
    text = f"seat {r.seat}, disc {r.disc}: {WORDS[r.code]} (002 {r.paragraph})"
    if r.twenties:
        text += f"; twenties set aside {list(r.twenties)} (2 b)"
    if r.out_of_play:
        text += f"; out of play on or over the shooting line {list(r.out_of_play)} (4 e, 6)"
    if r.to_ditch:  # the words come from the data: only the discs that did go (3 c, 7 a)
        text += f"; to the ditch {list(r.to_ditch)} ({'7 a' if r.code == 'not_direct' else '3 c'})"
    if r.fell:
        text += f"; off the board into the ditch {list(r.fell)} (4 e)"
    if r.restored:
        text += f"; put back {list(r.restored)} (7 a)"
    return text


def choose_shot(state: State, seat: int, rng: random.Random) -> tuple[float, float, float, float]:
    """A start in the seat's quadrant and a flick at a target, with a little error."""
    b = state.board
    side = state.options.side_of(seat)
    targets = [d for d in state.discs if state.options.side_of(d.seat) != side]
    centre = quadrant_centre(state.options.quadrant(seat))
    for _ in range(50):
        a = centre + math.radians(rng.uniform(-40.0, 40.0))
        x, y = b.shooting_radius * math.cos(a), b.shooting_radius * math.sin(a)
        if all(math.hypot(d.x - x, d.y - y) >= 2.0 * b.disc_radius for d in state.discs):
            break
    if targets:
        t = rng.choice(targets)
        angle, speed = aim(x, y, t.x, t.y, 150.0, b.decel)
    else:
        angle, speed = aim(x, y, 0.0, 0.0, 0.0, b.decel)
    angle += rng.gauss(0.0, 0.02)
    speed = min(speed * rng.uniform(0.97, 1.03), b.max_speed)
    return x, y, angle, speed


def play_game(options: Options, seed: int, out: list[str]) -> State:
    """Play to the end, appending every line of the commentary to `out`."""
    rng = random.Random(seed)
    refusals = 0
    state = new_game(options, first=rng.randrange(options.players))
    out.append(f"round 1, seat {state.starter} starts (002 1)")
    while not state.over:
        if round_over(state):
            state, result = close_round(state)
            out.append(
                f"round {result.round_no}: on the board with the 20s {list(result.totals)}, "
                f"points {list(result.points)} (002 {result.paragraph}); game {list(state.score)}"
            )
            if not state.over:
                out.append(f"round {state.round_no}, seat {state.starter} starts (002 2 d)")
            continue
        seat = state.turn[0]
        try:
            state, ruling = play_shot(state, seat, *choose_shot(state, seat, rng))
        except ShotRefused as refused:  # the scripted player picked a bad spot: try again
            out.append(f"seat {seat}: refused {refused.code} (002 {refused.paragraph})")
            refusals += 1
            if refusals > MAX_REFUSALS:
                raise
            continue
        refusals = 0
        out.append(describe(ruling))
    out.append(f"game over: {list(state.score)}, won by side(s) {list(winners(state))}")
    return state


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the options, play one game and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--solo", action="store_true", help="4 players each alone (7 d)")
    parser.add_argument("--scoring", default="tournament", choices=("tournament", "conventional"))
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--direct", action="store_true", help="7 a")
    parser.add_argument("--line-stays", action="store_true", help="7 b")
    parser.add_argument("--free-order", action="store_true", help="7 c")
    args = parser.parse_args(argv)
    options = Options(
        players=args.players,
        teams=not args.solo,
        scoring=args.scoring,
        target=args.target,
        direct_hit=args.direct,
        line_discs_stay=args.line_stays,
        free_order=args.free_order,
    )
    lines: list[str] = []
    play_game(options, args.seed, lines)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
