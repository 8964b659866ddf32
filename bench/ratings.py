"""Which OpenSkill model predicts Novuss results better: players of known strength play random
pairings (singles, and doubles with random partners), each model rates them match by match, and
before each match of the second half its predicted win chance is scored against the result.

    python -m bench.ratings [--players 200] [--matches 20000] [--seed 1]

Strength: each simulated player has a true skill; a match is won by the side whose summed
skill plus noise (logistic, scale 1) is higher, and drawn when the two are within `--draw`
(a 4-set match can end 2:2, 004 § 32 (1)). Prints log loss and accuracy per model and mode;
the last line is machine-readable.
"""

from __future__ import annotations

import argparse
import math
import random

from openskill.models import PlackettLuce, ThurstoneMostellerFull

from server.ratings.model import Skill

MODELS = {"plackett_luce": PlackettLuce, "thurstone_mosteller": ThurstoneMostellerFull}


def simulate(
    model_name: str, players: int, matches: int, seed: int, doubles: bool, draw: float
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
        margin = strength[0] - strength[1] + rng.gauss(0, 1.2)
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
    for mode, doubles in (("singles", False), ("doubles", True)):
        for name in MODELS:
            loss, acc = simulate(name, a.players, a.matches, a.seed, doubles, a.draw)
            figures[f"{name}_{mode}_logloss"] = loss
            print(f"{mode:8} {name:20} log loss {loss:.4f}  accuracy {acc:.3f}")
    best = {
        mode: min(MODELS, key=lambda n: figures[f"{n}_{mode}_logloss"])
        for mode in ("singles", "doubles")
    }
    print(f"newcomer shows {Skill().shown}; best: {best}")
    print(" ".join(f"{k}={v:.4f}" for k, v in figures.items()) + f" best_singles={best['singles']}")


if __name__ == "__main__":
    main()
