"""Which OpenSkill model predicts Novuss results better: players of known strength play random
pairings (singles, and doubles with random partners), each model rates them match by match, and
before each match of the second half its predicted win chance is scored against the result.

    python -m bench.ratings [--players 200] [--matches 20000] [--seed 1]

Strength: each simulated player has a true skill (normal, sd 1); a match is won by the side
whose summed skill plus noise is higher, and drawn when the two are within `--draw` (a 4-set
match can end 2:2, 004 § 32 (1)). The noise is run in two shapes of the same spread (sd 1.2):
normal, which is Thurstone-Mosteller's own assumption, and logistic, Plackett-Luce's (and
Elo's): scored on one shape only, the model that assumes it would win by construction. The
log loss and accuracy are over the decisive matches of the second half; prints them per noise,
mode and model; the last line is machine-readable.
"""

from __future__ import annotations

import argparse
import math
import random

from openskill.models import PlackettLuce, ThurstoneMostellerFull

from server.ratings.model import Skill

MODELS = {"plackett_luce": PlackettLuce, "thurstone_mosteller": ThurstoneMostellerFull}


NOISE_SD = 1.2
# a logistic distribution of scale s has sd s * pi / sqrt(3)
LOGISTIC_SCALE = NOISE_SD * math.sqrt(3) / math.pi


def noise(rng: random.Random, shape: str) -> float:
    """One draw of a match's luck, of sd NOISE_SD, normal or logistic."""
    if shape == "normal":
        return rng.gauss(0, NOISE_SD)
    u = min(max(rng.random(), 1e-12), 1 - 1e-12)
    return LOGISTIC_SCALE * math.log(u / (1 - u))


def simulate(
    model_name: str,
    players: int,
    matches: int,
    seed: int,
    doubles: bool,
    draw: float,
    shape: str = "normal",
) -> tuple[float, float]:
    """Log loss and accuracy of one model's predictions over the second half of the matches."""
    rng = random.Random(seed)
    truth = [rng.gauss(0.0, 1.0) for _ in range(players)]
    model = MODELS[model_name]()
    ratings = [model.rating() for _ in range(players)]
    size = 2 if doubles else 1
    loss = hits = scored = 0.0
    for i in range(matches):
        picked = rng.sample(range(players), 2 * size)
        teams = [picked[:size], picked[size:]]
        strength = [sum(truth[p] for p in t) for t in teams]
        margin = strength[0] - strength[1] + noise(rng, shape)
        winner = None if abs(margin) < draw else (0 if margin > 0 else 1)
        rated = [[ratings[p] for p in t] for t in teams]
        if i >= matches // 2 and winner is not None:
            chance = min(max(float(model.predict_win(rated)[0]), 1e-6), 1 - 1e-6)
            loss -= math.log(chance if winner == 0 else 1 - chance)
            hits += (chance > 0.5) == (winner == 0)
            scored += 1
        ranks = [0.0, 0.0] if winner is None else [0.0 if t == winner else 1.0 for t in range(2)]
        after = model.rate(rated, ranks=ranks)
        for team, new in zip(teams, after, strict=True):
            for p, r in zip(team, new, strict=True):
                ratings[p] = r
    return loss / scored, hits / scored


def main() -> None:
    """Run every model over the same simulated seasons and print the comparison."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--matches", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--draw", type=float, default=0.15)
    a = ap.parse_args()
    figures: dict[str, float] = {}
    for shape in ("normal", "logistic"):
        for mode, doubles in (("singles", False), ("doubles", True)):
            for name in MODELS:
                loss, acc = simulate(name, a.players, a.matches, a.seed, doubles, a.draw, shape)
                figures[f"{shape}_{mode}_{name}_logloss"] = loss
                print(f"{shape:8} {mode:8} {name:20} log loss {loss:.4f}  accuracy {acc:.3f}")
    best = {
        f"{shape}_{mode}": min(MODELS, key=lambda n: figures[f"{shape}_{mode}_{n}_logloss"])
        for shape in ("normal", "logistic")
        for mode in ("singles", "doubles")
    }
    print(f"newcomer shows {Skill().shown}; best by log loss: {best}")
    print(" ".join(f"{k}={v:.4f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
