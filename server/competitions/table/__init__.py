"""Competitions as the rule book runs them (004 §§ 5, 6, 29-32): round robin in the order of
chess tables, Swiss by maximum-weight matching, team encounters, points, tie-breaks and
withdrawals. Pure: no I/O; a service above it stores and runs it.
docs/tournaments.md maps each paragraph of the rules to the code."""

from .errors import (
    AlreadyStarted,
    AlreadyWithdrawn,
    BadScore,
    BadSettings,
    DuplicateEntrant,
    Finished,
    LateResult,
    NoPairing,
    NotPaired,
    NotStarted,
    ResultTwice,
    RoundNotComplete,
    TooFewEntrants,
    TournamentError,
    UnknownEntrant,
)
from .model import (
    BOTH,
    DOUBLES,
    SINGLES,
    TIEBREAKS,
    Entrant,
    GamePairing,
    GameResult,
    GameSpec,
    Pairing,
    Result,
    Scale,
    Settings,
    Standing,
    Withdrawal,
)
from .standings import Crosstable, PlayerStanding
from .teams import order_boards
from .tournament import Tournament

__all__ = [
    "BOTH",
    "DOUBLES",
    "SINGLES",
    "TIEBREAKS",
    "AlreadyStarted",
    "AlreadyWithdrawn",
    "BadScore",
    "BadSettings",
    "Crosstable",
    "DuplicateEntrant",
    "Entrant",
    "Finished",
    "GamePairing",
    "GameResult",
    "GameSpec",
    "LateResult",
    "NoPairing",
    "NotPaired",
    "NotStarted",
    "Pairing",
    "PlayerStanding",
    "Result",
    "ResultTwice",
    "RoundNotComplete",
    "Scale",
    "Settings",
    "Standing",
    "TooFewEntrants",
    "Tournament",
    "TournamentError",
    "UnknownEntrant",
    "Withdrawal",
    "order_boards",
]
