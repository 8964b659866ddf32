"""Match states for the computer's tests: random positions anywhere on the table
(zones and centre circle included) and set-up ones."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from server.games.novuss.rules.state import MatchConfig, MatchState, Puck, new_match
from server.games.novuss.sim import COMPETITION

T = COMPETITION


def random_state(seed: int, doubles: bool = False) -> MatchState:
    """A mid-set state from `seed`: 1 to 16 (32 in doubles) of the pucks scattered
    anywhere clear of each other and of the holes, any seat to strike, any rotation."""
    rng = random.Random(seed)
    config = MatchConfig(mode="doubles" if doubles else "singles", sets=2)
    state = new_match(config, first_team=rng.randrange(2))
    r = T.puck_radius
    placed: list[Puck] = []
    ids = [p.id for p in state.pucks]
    keep = set(rng.sample(ids, rng.randint(1, len(ids))))
    for p in state.pucks:
        if p.id not in keep:
            placed.append(replace(p, where="pocket"))
            continue
        for _ in range(200):
            x, y = rng.uniform(r, T.size - r), rng.uniform(r, T.size - r)
            if any(
                math.hypot(x - hx, y - hy) <= T.pocket_radius + r
                for _, hx, hy in T.pocket_centres()
            ):
                continue
            if any(q.on_table and math.hypot(x - q.x, y - q.y) < 2 * r + 0.01 for q in placed):
                continue
            placed.append(Puck(p.id, p.owner, x, y))
            break
        else:
            placed.append(replace(p, where="pocket"))
    seat = rng.randrange(config.seats)
    return replace(
        state,
        pucks=tuple(placed),
        turn_seat=seat,
        rotation=rng.randrange(4),
        set_strokes=5,
        intact_rows=(),
        struck=state.seats,
    )
