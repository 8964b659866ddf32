"""Draw one stroke to SVG: table, zones, circle, axis lines, pockets, paths, contacts.

    python -m tools.novuss_draw --out stroke.svg                  # the scripted stroke
    python -m tools.novuss_draw --out stroke.svg --scenario break --seed 3
    python -m tools.novuss_draw --out stroke.svg --scenario midgame --seed 7

North is up. Each disc's path is drawn from its exact trajectory; where it started is
a dashed outline and where it ended a filled disc. Marks: disc-disc contacts (red
crosses, at the touching point), rail contacts (orange dots), pocketed (a ring on the
hole) and off the table (a red bar on the rail it went over).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from pathlib import Path

from server.games.novuss.sim.engines import simulate
from server.games.novuss.sim.result import StrokeResult
from server.games.novuss.sim.table import COMPETITION, Table
from server.games.novuss.sim.types import (
    STRIKER_ID,
    Disc,
    DiscContact,
    LeftTable,
    Pocketed,
    RailContact,
    Shot,
)
from tools.scenarios import Stroke, break_stroke, midgame_stroke

COLOURS = {-1: "#f4f1e8", 0: "#c0392b", 1: "#222222"}  # striker, owner 0 red, owner 1 black
PATH_COLOURS = {-1: "#1f6fb2", 0: "#c0392b", 1: "#555555"}
SAMPLE_DT = 0.002  # s between path points: a smooth curve at any speed the table allows


def scripted_stroke() -> Stroke:
    """The scripted test stroke: striker off the north rail, back into a puck, into SE."""
    return [Disc(1, 673.6, 562.4, "puck", 0)], Shot(200.0, 80.0, math.radians(75.0), 4000.0)


def render(table: Table, pucks: Sequence[Disc], shot: Shot, result: StrokeResult) -> str:
    """The SVG text of one simulated stroke."""
    s = table.size
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-30 -30 {s + 60:g} {s + 60:g}" '
        f'width="720" height="720" font-family="sans-serif">',
        f'<rect x="-30" y="-30" width="{s + 60:g}" height="{s + 60:g}" fill="#6b4226"/>',
        f'<rect x="0" y="0" width="{s:g}" height="{s:g}" fill="#e8d3a9"/>',
    ]

    def fy(y: float) -> float:
        return s - y  # SVG's y runs down; the table's north is up

    line = 'stroke="#111" stroke-width="1.5" fill="none"'
    z = table.zone_depth
    out.append(f'<rect x="{z:g}" y="{z:g}" width="{s - 2 * z:g}" height="{s - 2 * z:g}" {line}/>')
    for a in (z, s - z):  # the zone lines run rail to rail
        out.append(f'<line x1="{a:g}" y1="0" x2="{a:g}" y2="{s:g}" {line}/>')
        out.append(f'<line x1="0" y1="{a:g}" x2="{s:g}" y2="{a:g}" {line}/>')
    c, rc = s / 2.0, table.circle_radius
    out.append(f'<circle cx="{c:g}" cy="{c:g}" r="{rc:g}" {line}/>')
    axis = 'stroke="#111" stroke-width="1" stroke-dasharray="6 4"'
    for a0, a1 in ((0.0, z), (s - z, s), (c - rc, c + rc)):  # axis lines: zones and circle
        out.append(f'<line x1="{c:g}" y1="{a0:g}" x2="{c:g}" y2="{a1:g}" {axis}/>')
        out.append(f'<line x1="{a0:g}" y1="{c:g}" x2="{a1:g}" y2="{c:g}" {axis}/>')
    for _, px, py in table.pocket_centres():
        out.append(
            f'<circle cx="{px:g}" cy="{fy(py):g}" r="{table.pocket_radius:g}" fill="#1b1b1b"/>'
        )

    radius = {"striker": table.striker_radius, "puck": table.puck_radius}
    start = {STRIKER_ID: (shot.x, shot.y)} | {d.id: (d.x, d.y) for d in pucks}
    times = [k * SAMPLE_DT for k in range(int(result.duration / SAMPLE_DT) + 2)]
    times += [e.t for e in result.events]
    times.sort()
    samples = [result.trajectory.sample(t) for t in times]
    for k, path in enumerate(result.trajectory.paths):
        owner = -1 if path.kind == "striker" else path.owner
        r = radius[path.kind]
        x0, y0 = start[path.id]
        out.append(
            f'<circle cx="{x0:.2f}" cy="{fy(y0):.2f}" r="{r:g}" fill="none" '
            f'stroke="{PATH_COLOURS[owner]}" stroke-dasharray="3 3"/>'
        )
        points = []
        for t, snap in zip(times, samples, strict=True):
            d = snap[k]
            if d.where != "table" and t >= path.t_end:
                points.append((d.x, d.y))
                break
            points.append((d.x, d.y))
        dedup = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
        if len(dedup) > 1:
            pts = " ".join(f"{x:.2f},{fy(y):.2f}" for x, y in dedup)
            out.append(
                f'<polyline points="{pts}" fill="none" stroke="{PATH_COLOURS[owner]}" '
                f'stroke-width="2" stroke-opacity="0.8"/>'
            )
        end = result.final[k]
        if end.where == "table":
            out.append(
                f'<circle cx="{end.x:.2f}" cy="{fy(end.y):.2f}" r="{r:g}" '
                f'fill="{COLOURS[owner]}" stroke="#000" stroke-width="1"/>'
            )
            out.append(
                f'<text x="{end.x:.2f}" y="{fy(end.y) + 4:.2f}" font-size="11" '
                f'text-anchor="middle" fill="{"#000" if owner < 0 else "#fff"}">'
                f"{path.id}</text>"
            )

    for e in result.events:
        at_event = {d.id: d for d in result.trajectory.sample(e.t)}
        if isinstance(e, DiscContact):
            da, db = at_event[e.a], at_event[e.b]
            ra = radius[da.kind]
            dist = math.hypot(db.x - da.x, db.y - da.y) or 1.0
            x, y = da.x + (db.x - da.x) * ra / dist, da.y + (db.y - da.y) * ra / dist
            out.append(
                f'<path d="M{x - 6:.2f},{fy(y) - 6:.2f} l12,12 m0,-12 l-12,12" '
                f'stroke="#e01010" stroke-width="2.5"/>'
            )
        elif isinstance(e, RailContact):
            d = at_event[e.disc]
            x, y = _on_rail(table, e.rail, d.x, d.y)
            out.append(f'<circle cx="{x:.2f}" cy="{fy(y):.2f}" r="6" fill="#f39c12"/>')
        elif isinstance(e, Pocketed):
            d = at_event[e.disc]
            out.append(
                f'<circle cx="{d.x:.2f}" cy="{fy(d.y):.2f}" r="{radius[d.kind]:g}" '
                f'fill="none" stroke="#f1c40f" stroke-width="3"/>'
            )
        elif isinstance(e, LeftTable):
            d = at_event[e.disc]
            x, y = _on_rail(table, e.rail, d.x, d.y)
            horizontal = e.rail in ("S", "N")
            dx, dy = (20, 0) if horizontal else (0, 20)
            out.append(
                f'<line x1="{x - dx:.2f}" y1="{fy(y - dy):.2f}" x2="{x + dx:.2f}" '
                f'y2="{fy(y + dy):.2f}" stroke="#e01010" stroke-width="8"/>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _on_rail(table: Table, rail: str, x: float, y: float) -> tuple[float, float]:
    """The point of the rail beside (x, y)."""
    return {"S": (x, 0.0), "N": (x, table.size), "W": (0.0, y), "E": (table.size, y)}[rail]


def main(argv: Sequence[str] | None = None) -> None:
    """Simulate the chosen stroke and write its SVG."""
    parser = argparse.ArgumentParser(description="Draw one stroke to SVG.")
    parser.add_argument("--out", type=Path, required=True, help="SVG file to write")
    parser.add_argument("--scenario", choices=("scripted", "break", "midgame"), default="scripted")
    parser.add_argument("--seed", type=int, default=1, help="seed of a break or midgame")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    if args.scenario == "break":
        pucks, shot = break_stroke(rng)
    elif args.scenario == "midgame":
        pucks, shot = midgame_stroke(rng)
    else:
        pucks, shot = scripted_stroke()
    result = simulate(COMPETITION, pucks, shot)
    args.out.write_text(render(COMPETITION, pucks, shot, result))
    print(f"{args.out}: {len(result.events)} events, {result.duration:.3f} s")


if __name__ == "__main__":
    main()
