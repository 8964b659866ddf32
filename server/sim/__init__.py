"""Physics of the Novuss table: one stroke simulated to rest, exactly and deterministically.

from server.sim import simulate, COMPETITION, Table, StrokeResult, Trajectory
"""

from server.sim.engines import COMPILED, SimInputError, simulate
from server.sim.result import DiscPath, StrokeResult, Trajectory, state_hash
from server.sim.table import COMPETITION, Table
from server.sim.types import (
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
