"""A match as the replay viewer steps through it (`/m/{id}`, docs/notation.md "The replay
viewer"), whatever its game: the record's game's `Replay` (server/games/seam.py) recomputes
the table after every entry and simulates any stroke's motion again (server/replay/http.py
serves them). Pure: the record comes in, plain data goes out.
"""

from __future__ import annotations

from typing import Any

from server.games.seam import NoSuchStroke, Replayed, ReplayError
from server.replay.verify import replay_of


def recompute(record: dict[str, Any]) -> Replayed:
    """Every entry of a record replayed for the viewer (Replay.steps); ReplayError for one
    that cannot be (no start, a game with no replay)."""
    return replay_of(record).steps(record)


def stroke_motion(replayed: Replayed, stroke: int) -> dict[str, Any]:
    """Stroke `stroke`'s motion simulated again (Replay.stroke); NoSuchStroke."""
    return replay_of({"game": replayed.game}).stroke(replayed, stroke)


__all__ = ["NoSuchStroke", "ReplayError", "Replayed", "recompute", "stroke_motion"]
