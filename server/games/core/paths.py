"""A stroke's motion as exact piecewise paths: the one form the wire carries it in, for live
play (`stroke`, `room.motion`), replays and lessons alike (docs/protocol.md, "Motion").

A motion (a "track") is `{"decel", "duration", "paths"}` and, for a game whose paths are not
in the protocol's coordinates or whose places have other names, `"origin"` and `"wheres"`.
A path is one row `[id, kind, owner, where, t_end, x_end, y_end, t0, x0, y0, vx, vy, t0, ...]`:
segments of uniform deceleration `decel`. Evaluated here with the arithmetic of
server/games/novuss/sim/result.py (`DiscPath.position`) and web/js/replay-motion.js, so what
the server says is where a disc is equals what every client draws. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any


def disc_view(id_: int, owner: int, x: float, y: float) -> dict[str, Any]:
    """A disc as the protocol shows it."""
    return {"id": id_, "owner": owner, "x": round(x, 2), "y": round(y, 2)}


def position(row: list[Any], t: float, decel: float) -> tuple[float, float, bool]:
    """Where a path's disc is at time t (s from the stroke's start): x, y (the paths' own
    coordinates) and whether it is still in play (its game's first place). From `t_end` on,
    a disc that left play is where it left it; so is a disc in play whose path gives the
    time it came to rest (t_end > 0: exact resting places)."""
    where, t_end = row[3], row[4]
    if t >= t_end and (where != 0 or t_end > 0):
        return row[5], row[6], where == 0
    k = 7
    for i in range(12, len(row), 5):  # the last segment starting at or before t
        if row[i] <= t:
            k = i
    t0, x0, y0, vx, vy = row[k : k + 5]
    sp = (vx * vx + vy * vy) ** 0.5
    if sp == 0.0:
        return x0, y0, True
    dt = min(max(t - t0, 0.0), sp / decel)
    s = sp - decel * dt
    d = (sp + s) * 0.5 * dt
    return x0 + vx / sp * d, y0 + vy / sp * d, True


def discs_at(track: dict[str, Any], t: float) -> list[dict[str, Any]]:
    """The discs in play at time t (clamped to the motion), as the protocol shows discs."""
    at = min(max(t, 0.0), track["duration"])
    ox, oy = track.get("origin", (0.0, 0.0))
    out = []
    for row in track["paths"]:
        x, y, live = position(row, at, track["decel"])
        if live:
            out.append(disc_view(row[0], row[2], x + ox, y + oy))
    return out
