"""How long quick-match players wait and how near their ratings are, with the pairing of
server/lobby/pairing.py (docs/accounts.md, "Quick match by rating"), on a simulated singles
queue: players come at random (exponential gaps of `--every` seconds on average), a third of
them guests, the ratings normal around 1500 (sd 250); the queue is looked at on each arrival
and once a second, as the server does.

    python -m bench.pairing [--players 2000] [--seed 15] [--every 2 4 20]
"""

from __future__ import annotations

import argparse
import random
import statistics

from server.lobby.pairing import Waiting, pick


def run(players: int, every: float, seed: int) -> tuple[list[float], list[int]]:
    """Simulate one queue: each seated player's wait (s), and the rating gap of each pair
    of two registered players."""
    rng = random.Random(seed)
    arrivals: list[tuple[float, int | None]] = []
    t = 0.0
    for _ in range(players):
        t += rng.expovariate(1 / every)
        guest = rng.random() < 1 / 3
        arrivals.append((t, None if guest else round(rng.gauss(1500, 250))))
    queue: list[Waiting] = []
    waits: list[float] = []
    gaps: list[int] = []
    k, now = 0, 0.0
    while k < len(arrivals):
        if arrivals[k][0] <= now + 1.0:
            now, rating = arrivals[k]
            queue.append(Waiting(rating, now))
            k += 1
        else:
            now += 1.0  # the once-a-second look
        while (table := pick(queue, 2, now)) is not None:
            seated = [queue[i] for i in table]
            waits += [now - s.since for s in seated]
            ratings = [s.rating for s in seated if s.rating is not None]
            if len(ratings) == 2:
                gaps.append(abs(ratings[0] - ratings[1]))
            queue = [q for i, q in enumerate(queue) if i not in table]
    return waits, gaps


def _pct(values: list[float] | list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])


def main() -> None:
    """Print the waits and rating gaps for each arrival rate."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--every", type=float, nargs="+", default=[2.0, 4.0, 20.0])
    args = ap.parse_args()
    for every in args.every:
        waits, gaps = run(args.players, every, args.seed)
        print(
            f"one player every {every:g} s: wait p50 {statistics.median(waits):.1f} s,"
            f" p99 {_pct(waits, 0.99):.1f} s, max {max(waits):.1f} s;"
            f" {len(gaps)} rated pairs: rating gap p50 {statistics.median(gaps):.0f},"
            f" p90 {_pct(gaps, 0.9):.0f}"
        )


if __name__ == "__main__":
    main()
