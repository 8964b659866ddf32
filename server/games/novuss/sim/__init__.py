"""Physics of the Novuss table: one stroke simulated to rest, exactly and deterministically.

from server.games.novuss.sim import simulate, COMPETITION, Table, StrokeResult, Trajectory
"""

from server.games.core import COMPILED
from server.games.novuss.sim.engines import SimInputError, simulate
from server.games.novuss.sim.result import DiscPath, StrokeResult, Trajectory, state_hash
from server.games.novuss.sim.table import COMPETITION, Table
from server.games.novuss.sim.types import (
    POCKETS,
    SIDES,
    STRIKER_ID,
    Disc,
    DiscContact,
    DiscRest,
    Event,
    LeftTable,
    Pocketed,
    RailContact,
    Shot,
    StrikerZone,
)

__all__ = [
    "COMPETITION",
    "COMPILED",
    "POCKETS",
    "SIDES",
    "STRIKER_ID",
    "Disc",
    "DiscContact",
    "DiscPath",
    "DiscRest",
    "Event",
    "LeftTable",
    "Pocketed",
    "RailContact",
    "Shot",
    "SimInputError",
    "StrikerZone",
    "StrokeResult",
    "Table",
    "Trajectory",
    "simulate",
    "state_hash",
]
