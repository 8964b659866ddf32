"""Draw one Crokinole shot to SVG: the board, the paths, contacts, the ditch and the 20s.

    python -m tools.crokinole_draw --out shot.svg [--seed S]

North is up. A disc's start is a dashed outline, its end a filled disc (a ring on the
hole for a 20, a cross at the edge for the ditch); red crosses mark disc-disc contacts,
orange dots peg contacts.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from pathlib import Path

from server.games.crokinole.board import TOURNAMENT, Board
from server.games.crokinole.physics import Flick, Piece, ShotResult, simulate

COLOURS = ("#c0392b", "#222222")
SAMPLE_DT = 0.01  # s between path points
MARGIN = 30.0  # mm around the surface: the ditch


def _circle(x: float, y: float, r: float, style: str) -> str:
    return f'<circle cx="{x:.2f}" cy="{-y:.2f}" r="{r:.2f}" {style}/>'


def render(board: Board, pieces: Sequence[Piece], flick: Flick, result: ShotResult) -> str:
    """The SVG text of a shot (owners: id // 10 % 2 picks the colour)."""
    half = board.surface_radius + MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-half} {-half} {2 * half} {2 * half}" '
        f'width="{2 * half:.0f}" height="{2 * half:.0f}">',
        _circle(0, 0, half, 'fill="#5a3d22"'),
        _circle(0, 0, board.surface_radius, 'fill="#e8d3a6"'),
    ]
    for r in (board.shooting_radius, board.ring10_radius, board.ring15_radius):
        out.append(_circle(0, 0, r, 'fill="none" stroke="#222" stroke-width="0.8"'))
    for k in range(4):
        a = math.pi / 4 + k * math.pi / 2
        c, s = math.cos(a), math.sin(a)
        x0, y0, x1, y1 = (
            board.ring10_radius * c,
            board.ring10_radius * s,
            board.shooting_radius * c,
            board.shooting_radius * s,
        )
        out.append(
            f'<line x1="{x0:.2f}" y1="{-y0:.2f}" x2="{x1:.2f}" y2="{-y1:.2f}" '
            'stroke="#222" stroke-width="0.8"/>'
        )
    out.append(_circle(0, 0, board.hole_radius, 'fill="#3b2a18"'))
    out.extend(_circle(x, y, board.peg_radius, 'fill="#444" class="peg"') for x, y in board.pegs())
    out.extend(_paths(board, pieces, flick, result))
    out.append("</svg>")
    return "\n".join(out)


def _paths(board: Board, pieces: Sequence[Piece], flick: Flick, result: ShotResult) -> list[str]:
    out = []
    r = board.disc_radius
    colour = {p.id: COLOURS[p.id // 10 % 2] for p in [*pieces, Piece(flick.id, flick.x, flick.y)]}
    for p in [*pieces, Piece(flick.id, flick.x, flick.y)]:
        out.append(
            _circle(p.x, p.y, r, f'fill="none" stroke="{colour[p.id]}" stroke-dasharray="3 2"')
        )
    steps = max(1, math.ceil(result.duration / SAMPLE_DT))
    trails: dict[int, list[tuple[float, float]]] = {}
    for k in range(steps + 1):
        for i, (x, y) in result.positions_at(k * result.duration / steps, board.decel).items():
            trails.setdefault(i, []).append((x, y))
    for i, pts in trails.items():
        if len(set(pts)) > 1:
            d = " ".join(f"{x:.2f},{-y:.2f}" for x, y in pts)
            out.append(
                f'<polyline points="{d}" fill="none" stroke="{colour[i]}" stroke-width="1.2"/>'
            )
    for f in result.finals:
        if f.where == "board":
            out.append(_circle(f.x, f.y, r, f'fill="{colour[f.id]}" fill-opacity="0.85"'))
        elif f.where == "hole":
            out.append(
                _circle(
                    0, 0, board.hole_radius, f'fill="none" stroke="{colour[f.id]}" stroke-width="3"'
                )
            )
        else:
            out.append(
                _circle(f.x, f.y, 6, 'fill="none" stroke="#d00" stroke-width="2" class="ditch"')
            )
    spots = {e.t: e for e in result.events if e.kind in ("disc", "peg")}
    for t, e in sorted(spots.items()):
        x, y = result.positions_at(t, board.decel).get(e.a, (0.0, 0.0))
        style = (
            'fill="#f39c12" class="peg-contact"'
            if e.kind == "peg"
            else 'fill="#d00" class="contact"'
        )
        out.append(_circle(x, y, 3, style))
    return out


def seeded_shot(seed: int) -> tuple[list[Piece], Flick]:
    """A few discs of both colours and a flick from the south quadrant at one of them."""
    rng = random.Random(seed)
    pieces: list[Piece] = []
    for k in range(6):
        rad, a = rng.uniform(60.0, 260.0), rng.uniform(0.0, 2 * math.pi)
        x, y = rad * math.cos(a), rad * math.sin(a)
        clear = all(math.hypot(x - p.x, y - p.y) > 40 for p in pieces)
        clear = clear and all(math.hypot(x - px, y - py) > 25 for px, py in TOURNAMENT.pegs())
        if clear:
            pieces.append(Piece(10 * (k % 2) + k, x, y))
    a0 = -math.pi / 2 + rng.uniform(-0.6, 0.6)
    sx, sy = TOURNAMENT.shooting_radius * math.cos(a0), TOURNAMENT.shooting_radius * math.sin(a0)
    target = rng.choice(pieces) if pieces else Piece(-1, 0.0, 0.0)
    angle = math.atan2(target.y - sy, target.x - sx)
    return pieces, Flick(7, sx, sy, angle, rng.uniform(800.0, 2500.0))


def main(argv: Sequence[str] | None = None) -> None:
    """Simulate a seeded shot and write its picture."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args(argv)
    pieces, flick = seeded_shot(args.seed)
    result = simulate(TOURNAMENT, pieces, flick)
    args.out.write_text(render(TOURNAMENT, pieces, flick, result))
    print(f"{args.out}: {len(result.events)} events, {result.duration:.2f} s")


if __name__ == "__main__":
    main()
