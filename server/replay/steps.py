"""A match as the replay viewer steps through it (`/m/{id}`, docs/notation.md "The replay
viewer"), whatever its game: the record's game's `Replay` (server/games/seam.py) recomputes
the table after every entry and simulates any stroke's motion again (server/replay/http.py
serves them). Pure: the record comes in, plain data goes out.
"""

from __future__ import annotations

import json
from typing import Any

from server.games.registry import of_record
from server.games.seam import NoSuchStroke, Replayed, ReplayError
from server.replay.turning import turning_points
from server.replay.verify import replay_of

# what GET /api/matches/{id}/replay serves besides the record's header (which it names anew
# on each request: an account renamed or deleted since)
SERVED = ("table", "start", "steps", "turning", "mismatches", "stopped")


def recompute(record: dict[str, Any]) -> Replayed:
    """Every entry of a record replayed for the viewer (Replay.steps); ReplayError for one
    that cannot be (no start, a game with no replay)."""
    return replay_of(record).steps(record)


def recompute_encoded(record: dict[str, Any]) -> tuple[Replayed, bytes]:
    """The record replayed (recompute), and what the viewer gets of it besides the header
    (SERVED) as one JSON object, encoded where it was recomputed: in a worker process, not on
    the server's loop (issue 37: a 100-stroke match's steps took the loop 6 ms to encode on
    every request, the flood's largest cost)."""
    replayed = recompute(record)
    data = {
        "table": of_record(record).table_view(),
        "start": replayed.start,
        "steps": list(replayed.steps),
        "turning": turning_points(replayed.start, replayed.steps),
        "mismatches": replayed.mismatches,
        "stopped": replayed.stopped,
    }
    return replayed, json.dumps(data, separators=(",", ":")).encode()


def stroke_motion(replayed: Replayed, stroke: int) -> dict[str, Any]:
    """Stroke `stroke`'s motion simulated again (Replay.stroke); NoSuchStroke."""
    return replay_of({"game": replayed.game}).stroke(replayed, stroke)


__all__ = [
    "SERVED", "NoSuchStroke", "ReplayError", "Replayed", "recompute", "recompute_encoded",
    "stroke_motion",
]  # fmt: skip
