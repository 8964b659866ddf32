"""A match recomputed from its log and checked against the stored state hashes and rulings,
whatever its game: the registry (server/games/registry.py) gives the record's game, whose
`Replay` (server/games/seam.py) recomputes it (Novuss: server/games/novuss/replay.py,
Crokinole: server/games/crokinole/replay.py). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from server.games.registry import of_record
from server.games.seam import Check, Replay, ReplayError


def replay_of(record: dict[str, Any]) -> Replay:
    """The replay of the record's game; ReplayError for a game that has none or is unknown."""
    try:
        played = of_record(record)
    except KeyError:
        raise ReplayError(f"No game of this server is called {record.get('game')!r}.") from None
    if played.replay is None:
        raise ReplayError(f"A {played.title} match is not replayed: its game has no replay.")
    return played.replay


def replay(record: dict[str, Any]) -> Iterator[Check]:
    """Recompute a match entry by entry, hash by hash (Replay.checks)."""
    return replay_of(record).checks(record)


__all__ = ["Check", "ReplayError", "replay", "replay_of"]
