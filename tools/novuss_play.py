"""A whole match between simple scripted players through the referee and the physics,
printing each stroke's ruling in words.

    python -m tools.novuss_play [--doubles] [--seed N] [--sets N] [--engine python]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable

from server.games.novuss.rules.aim import bank, ghost, pot, pot_line, shot_at
from server.games.novuss.rules.check import check_stroke, sim_discs
from server.games.novuss.rules.geometry import in_circle, in_zone, striking_field, to_world
from server.games.novuss.rules.judge import judge
from server.games.novuss.rules.ruling import StrokeRefused
from server.games.novuss.rules.state import MatchConfig, MatchState, new_match, team_of
from server.games.novuss.sim import POCKETS, Shot, simulate
from server.games.novuss.sim.engines import Engine


def _ok(state: MatchState, seat: int, shot: Shot) -> bool:
    try:
        check_stroke(state, seat, shot)
    except StrokeRefused:
        return False
    return True


def _clear(state: MatchState, a: tuple[float, float], b: tuple[float, float], skip: int) -> bool:
    """Is the striker's straight path from a to b clear of pockets and of pucks (but
    puck `skip`)?"""
    t = state.table
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = math.hypot(dx, dy) or 1.0

    def gap(px: float, py: float) -> float:
        k = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (n * n)))
        return math.hypot(ax + k * dx - px, ay + k * dy - py)

    if any(gap(x, y) < t.pocket_radius + 2.0 for _, x, y in t.pocket_centres()):
        return False
    reach = t.puck_radius + t.striker_radius
    return all(gap(p.x, p.y) >= reach for p in state.on_table() if p.id != skip)


def scripted_shot(state: MatchState, seat: int, rng: random.Random, skill: float = 0.01) -> Shot:
    """A club player's idea of a stroke: a full-ball pot of one of his free pucks if one
    lines up from his edge zone, else a rebound from the opposite rail at a blind puck,
    else a plain hit; the aim wobbles by about `skill` radians."""
    t = state.table
    side = state.side_of(seat)
    team = team_of(seat)
    u0, u1, v0, v1 = striking_field(t)
    mine = [p for p in state.on_table() if team_of(p.owner) == team]
    blind = [p for p in mine if in_circle(t, p.x, p.y) or in_zone(t, side, p.x, p.y)]
    free = [p for p in mine if p not in blind]
    options: list[Shot] = []
    for p in free:
        for pocket in POCKETS:
            v = rng.uniform(v0 + 5, v1 - 5)
            u = pot_line(state, seat, p.id, pocket, v)
            if u is None or not u0 <= u <= u1:
                continue
            # Firm enough for the puck to reach the hole with some to spare; a full-ball
            # hit gives the puck about 1.6 times the striker's speed.
            cx, cy = next((x, y) for n, x, y in t.pocket_centres() if n == pocket)
            run = math.hypot(p.x - cx, p.y - cy) + rng.uniform(60.0, 300.0)
            arrive = math.sqrt(2 * t.decel * run) / 1.6
            shot = pot(state, seat, p.id, pocket, v, arrive=arrive)
            path = _clear(state, (shot.x, shot.y), ghost(state, p.id, pocket), p.id)
            if path and shot.speed <= t.max_speed and _ok(state, seat, shot):
                options.append(shot)
    if not options:
        for p in free:
            for _ in range(6):
                u, v = rng.uniform(u0, u1), rng.uniform(v0, v1)
                shot = shot_at(state, seat, u, v, (p.x, p.y), 600.0)
                path = _clear(state, (shot.x, shot.y), (p.x, p.y), p.id)
                if path and shot.speed <= t.max_speed and _ok(state, seat, shot):
                    options.append(shot)
    if not options:  # a free puck no straight line reaches: off a rail
        for p in free:
            for rail in ("left", "right", "opposite"):
                u, v = rng.uniform(u0, u1), rng.uniform(v0, v1)
                shot = bank(state, seat, u, v, (p.x, p.y), rail, 600.0)
                if shot.speed <= t.max_speed and _ok(state, seat, shot):
                    options.append(shot)
    if not options:
        for p in blind:
            for _ in range(6):
                u, v = rng.uniform(u0, u1), rng.uniform(v0, v1)
                shot = bank(state, seat, u, v, (p.x, p.y), "opposite", 400.0)
                if shot.speed <= t.max_speed and _ok(state, seat, shot):
                    options.append(shot)
    while not options:  # up the table to the opposite rail, touching nothing
        u, v = rng.uniform(u0, u1), rng.uniform(v0, v1)
        far = to_world(side, u, t.size - t.striker_radius, t.size)
        shot = shot_at(state, seat, u, v, far, 500.0)
        if _clear(state, (shot.x, shot.y), far, 0) and _ok(state, seat, shot):
            return shot
    shot = rng.choice(options)
    wobbled = Shot(shot.x, shot.y, shot.angle + rng.gauss(0.0, skill), shot.speed)
    return wobbled if _ok(state, seat, wobbled) else shot


def play_match(
    config: MatchConfig,
    seed: int = 0,
    engine: Engine = "cython",
    out: Callable[[str], None] = print,
    max_strokes: int = 5000,
) -> MatchState:
    """Play a whole match between scripted players; print every ruling; return the end."""
    rng = random.Random(seed)
    state = new_match(config, first_team=rng.randrange(2))  # 004 § 31: by lot
    out(
        f"{config.mode.capitalize()}, {config.sets} sets. By lot, player {state.turn_seat} "
        f"opens from {state.first_side} (004 § 31)."
    )
    while not state.finished and state.strokes < max_strokes:
        seat = state.turn_seat
        assert seat is not None
        shot = scripted_shot(state, seat, rng)
        result = simulate(state.table, sim_discs(state), shot, engine=engine)
        ruling = judge(state, seat, shot, result)
        out(_header(state, seat, shot))
        for ln in ruling.lines:
            out(f"    {ln.text}" + (f"  ({ln.cite})" if ln.cite else ""))
        state = ruling.state
        if ruling.set_result is not None and not state.finished:
            out(_score(state))
    out(_final(state))
    return state


def _header(state: MatchState, seat: int, shot: Shot) -> str:
    on = {t: sum(1 for p in state.on_table() if team_of(p.owner) == t) for t in (0, 1)}
    return (
        f"Set {state.set_no}, stroke {state.set_strokes + 1}: player {seat} "
        f"({state.side_of(seat)}) strikes at {shot.speed / 1000:.1f} m/s, "
        f"{math.degrees(shot.angle):.0f} deg  [pucks left {on[0]}:{on[1]}]"
    )


def _score(state: MatchState) -> str:
    a, b = state.sets_won
    sides = ", ".join(f"player {s} at {state.side_of(s)}" for s in state.seats)
    return f"== Sets {a}:{b}. Set {state.set_no}: {sides}; player {state.turn_seat} opens."


def _final(state: MatchState) -> str:
    if state.match_result is None:
        return "Stopped: too many strokes."
    a, b = state.sets_won
    w = state.match_result["winner"]
    if w is None:
        return f"== Match drawn {a}:{b} (004 § 32 (1))."
    who = " & ".join(f"player {s}" for s in state.seats if team_of(s) == w)
    return f"== Match to {who}, sets {a}:{b} (004 § 32 (1))."


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doubles", action="store_true", help="four players, two pairs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sets", type=int, default=4)
    ap.add_argument("--engine", choices=("cython", "python"), default="cython")
    args = ap.parse_args(argv)
    config = MatchConfig(mode="doubles" if args.doubles else "singles", sets=args.sets)
    play_match(config, args.seed, "python" if args.engine == "python" else "cython")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["main", "play_match", "scripted_shot"]
