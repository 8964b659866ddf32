"""Refusals of the tournament table, each with a stable `code` the service can answer with."""

from __future__ import annotations


class TournamentError(Exception):
    """A request the tournament table refuses; the table is unchanged."""

    code = "tournament_error"


class BadSettings(TournamentError):
    """The settings (or the entrants for them) cannot run a competition."""

    code = "bad_settings"


class DuplicateEntrant(TournamentError):
    """An entrant id (or a player in two teams) given twice."""

    code = "duplicate_entrant"


class UnknownEntrant(TournamentError):
    """No entrant has that id."""

    code = "unknown_entrant"


class AlreadyStarted(TournamentError):
    """Registration is closed: the tournament has started."""

    code = "already_started"


class NotStarted(TournamentError):
    """The tournament has not started yet."""

    code = "not_started"


class TooFewEntrants(TournamentError):
    """A competition needs at least two entrants."""

    code = "too_few_entrants"


class RoundNotComplete(TournamentError):
    """The next round cannot be paired while results of this one are missing."""

    code = "round_not_complete"


class Finished(TournamentError):
    """All rounds have been played."""

    code = "finished"


class NoPairing(TournamentError):
    """No pairing of the round exists without a rematch."""

    code = "no_pairing"


class NotPaired(TournamentError):
    """The two entrants do not meet in that round."""

    code = "not_paired"


class ResultTwice(TournamentError):
    """That encounter already has a result."""

    code = "result_twice"


class LateResult(TournamentError):
    """The round of that encounter is closed: the next round has been paired."""

    code = "late_result"


class BadScore(TournamentError):
    """The set score cannot end a match of the scheduled number of sets (004 § 32 (1))."""

    code = "bad_score"


class AlreadyWithdrawn(TournamentError):
    """That entrant has already withdrawn."""

    code = "already_withdrawn"
