"""The tournament table: entrants, rounds, pairings, results and withdrawals, as one immutable
value; every change returns a new Tournament and a refusal changes nothing (004 §§ 29-32)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import codec, rounds
from .errors import (
    AlreadyStarted,
    AlreadyWithdrawn,
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
    UnknownEntrant,
)
from .model import BOTH, Entrant, Pairing, Result, Settings, Standing, Withdrawal
from .roundrobin import round_count
from .scoring import check_result
from .standings import Crosstable, PlayerStanding, crosstable, player_standings, standings


@dataclass(frozen=True)
class Tournament:
    """A competition's table. `entrants` are in registration order until start() draws the
    table order; `rounds[-1]` holds the pairings of the round in play; `results` are oriented
    as their pairings (a is the pairing's a); `unpaired`: a Swiss ended because its next round
    could not be paired without a rematch."""

    settings: Settings
    entrants: tuple[Entrant, ...]
    seed: int
    started: bool = False
    rounds: tuple[tuple[Pairing, ...], ...] = ()
    results: tuple[Result, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    unpaired: bool = False

    @classmethod
    def new(cls, settings: Settings, entrants: Sequence[Entrant], seed: int) -> Tournament:
        """A tournament open for registration with these entrants."""
        tournament = cls(settings, (), seed)
        for entrant in entrants:
            tournament = tournament.register(entrant)
        return tournament

    def register(self, entrant: Entrant) -> Tournament:
        """Add an entrant before the start."""
        if self.started:
            raise AlreadyStarted("registration closed when the tournament started")
        _check_entrant(self.settings, entrant)
        taken = {e.id for e in self.entrants} | {m for e in self.entrants for m in e.members}
        if entrant.id in taken or taken & set(entrant.members):
            raise DuplicateEntrant(f"{entrant.id!r} (or one of its players) is entered already")
        return replace(self, entrants=(*self.entrants, entrant))

    def start(self) -> Tournament:
        """Close registration and draw the table order: by lot for a round robin (004 § 31 (1)
        1)); for a Swiss competition by rating, highest first, the unrated after, ties by lot."""
        if self.started:
            raise AlreadyStarted("the tournament has started already")
        if len(self.entrants) < 2:
            raise TooFewEntrants("a competition needs at least two entrants")
        most = round_count(len(self.entrants))
        if self.settings.system == "swiss" and (self.settings.rounds or 0) > most:
            # more rounds than a round robin has would force a rematch
            raise BadSettings(f"{len(self.entrants)} entrants can play at most {most} rounds")
        drawn = list(self.entrants)
        random.Random(self.seed).shuffle(drawn)
        if self.settings.system == "swiss":
            drawn.sort(key=lambda e: -e.rating if e.rating is not None else float("inf"))
        return replace(self, started=True, entrants=tuple(drawn))

    @property
    def total_rounds(self) -> int:
        """How many rounds the competition has."""
        if self.settings.system == "swiss":
            return self.settings.rounds or 0
        return round_count(len(self.entrants))

    @property
    def round(self) -> int:
        """The number of the round in play (from 1), 0 before the first."""
        return len(self.rounds)

    @property
    def struck(self) -> frozenset[str]:
        """Entrants whose results are struck out or annulled (004 § 32 (3))."""
        return frozenset(w.entrant for w in self.withdrawals if not w.kept)

    @property
    def withdrawn(self) -> frozenset[str]:
        """Entrants who have withdrawn."""
        return frozenset(w.entrant for w in self.withdrawals)

    def pending(self) -> tuple[Pairing, ...]:
        """The pairings of the round in play still waiting for a result."""
        if not self.rounds:
            return ()
        done = {(r.round, r.a) for r in self.results}
        struck = self.struck
        return tuple(
            p
            for p in self.rounds[-1]
            if p.b is not None and (p.round, p.a) not in done and not ({p.a, p.b} & struck)
        )

    @property
    def round_complete(self) -> bool:
        """Whether every encounter of the round in play has its result (True before round 1)."""
        return not self.pending()

    @property
    def finished(self) -> bool:
        """Whether the last round is paired and complete (or no one is left to pair, or a
        Swiss could pair no further round)."""
        if not self.started or not self.round_complete:
            return False
        active = len(self.entrants) - len(self.withdrawn)
        swiss = self.settings.system == "swiss"
        return self.round >= self.total_rounds or (swiss and active < 2) or self.unpaired

    def entrant(self, entrant_id: str) -> Entrant:
        """The entrant with that id."""
        for entrant in self.entrants:
            if entrant.id == entrant_id:
                return entrant
        raise UnknownEntrant(f"no entrant {entrant_id!r}")

    def pairing_for(self, entrant_id: str) -> Pairing | None:
        """The entrant's encounter (or bye) in the round in play, if he has one."""
        self.entrant(entrant_id)
        if not self.rounds:
            return None
        return next((p for p in self.rounds[-1] if p.involves(entrant_id)), None)

    def pair_next_round(self) -> Tournament:
        """Pair the next round; its pairings are in `rounds[-1]`. A round-robin encounter with
        a withdrawn entrant whose results stay is scored at once as a minus and a plus
        (004 § 32 (3) 1)). A Swiss whose next round cannot be paired without a rematch ends
        instead (`unpaired`, finished) with the standings it has: nothing else could end it
        (issue 36: it stalled for ever); `sure_rounds` says beforehand how far is certain."""
        if not self.started:
            raise NotStarted("start the tournament first")
        if self.finished:
            raise Finished("all rounds have been played")
        if not self.round_complete:
            raise RoundNotComplete(f"round {self.round} still has encounters without a result")
        try:
            pairings = rounds.next_round(self)
        except NoPairing:
            return replace(self, unpaired=True)
        minuses = rounds.minuses(self, pairings)
        return replace(self, rounds=(*self.rounds, pairings), results=self.results + minuses)

    def record(self, result: Result) -> Tournament:
        """Enter the result of an encounter of the round in play. Refused: an entrant unknown,
        a round already closed (late_result), a pair that does not meet (not_paired), a second
        result (result_twice), or sets the match cannot end with (bad_score)."""
        if not self.started:
            raise NotStarted("the tournament has not started")
        self.entrant(result.a)
        self.entrant(result.b)
        if 1 <= result.round < self.round:
            raise LateResult(f"round {result.round} is closed: round {self.round} is in play")
        pairing = self._pairing(result.round, result.a, result.b)
        if any(r.round == pairing.round and r.a == pairing.a for r in self.results):
            raise ResultTwice(f"{pairing.a} - {pairing.b} of round {pairing.round} has its result")
        oriented = result if result.a == pairing.a else rounds.flip(result)
        check_result(self.settings, oriented)
        return replace(self, results=(*self.results, oriented))

    def _pairing(self, round_no: int, a: str, b: str) -> Pairing:
        if round_no == self.round:
            for pairing in self.rounds[-1]:
                if {pairing.a, pairing.b} == {a, b}:
                    if {a, b} & self.struck:
                        raise NotPaired(f"the encounter {a} - {b} was struck out (004 § 32 (3))")
                    return pairing
        raise NotPaired(f"{a} and {b} do not meet in round {round_no}")

    def withdraw(self, entrant_id: str) -> Tournament:
        """An entrant leaves (004 § 32 (3)). Before the start he is just taken off the list.
        After: with at least half of his encounters (round robin) or rounds (Swiss) played, his
        results stay, his unplayed encounters are minuses for him and pluses for his opponents
        (round robin; in Swiss he is no longer paired); with fewer, his results are struck out
        and he takes no part in the allocation of places."""
        self.entrant(entrant_id)
        if not self.started:
            return replace(self, entrants=tuple(e for e in self.entrants if e.id != entrant_id))
        if entrant_id in self.withdrawn:
            raise AlreadyWithdrawn(f"{entrant_id!r} has withdrawn already")
        if self.finished:
            raise Finished("the tournament is over: the standings are final")
        played = sum(r.involves(entrant_id) for r in self.results)
        if self.settings.byes_count:
            # 004 § 32 (3) 2), the regulations' reading (§ 3): a round with a bye is a round
            # played (a bye is complete once paired), out of every round of the competition.
            played += sum(
                1 for rnd in self.rounds for p in rnd if p.a == entrant_id and p.b is None
            )
            scheduled = self.total_rounds
        else:
            # Only encounters count, out of those he was to play (n - 1 in a round robin).
            scheduled = (
                len(self.entrants) - 1
                if self.settings.system == "round_robin"
                else self.total_rounds
            )
        kept = 2 * played >= scheduled
        leaving = replace(
            self, withdrawals=(*self.withdrawals, Withdrawal(entrant_id, self.round, played, kept))
        )
        if kept and self.rounds:
            # the encounter he leaves unplayed in this round is a minus for him
            open_now = tuple(p for p in self.pending() if p.involves(entrant_id))
            return replace(leaving, results=leaving.results + rounds.minuses(leaving, open_now))
        return leaving

    def table(self) -> tuple[str, ...]:
        """The entrants who take part in the allocation of places, in table order."""
        struck = self.struck
        return tuple(e.id for e in self.entrants if e.id not in struck)

    def counted(self) -> tuple[Result, ...]:
        """The results that count: those not struck out or annulled (004 § 32 (3))."""
        struck = self.struck
        return tuple(r for r in self.results if not ({r.a, r.b} & struck))

    def byes(self) -> tuple[str, ...]:
        """The entrant left without an opponent, once for each round he was."""
        struck = self.struck
        return tuple(p.a for rnd in self.rounds for p in rnd if p.b is None and p.a not in struck)

    def standings(self) -> list[Standing]:
        """The standings with the organiser's tie-breaks (004 § 32 (2); docs/tournaments.md)."""
        return standings(self.settings, self.table(), self.counted(), self.byes())

    def crosstable(self) -> Crosstable:
        """The cross-table in table order (for a round robin, the order drawn by lot)."""
        return crosstable(self.settings, self.table(), self.counted(), self.byes())

    def player_standings(self) -> list[PlayerStanding]:
        """The individual ranking of a team competition's players (004 § 6 (4))."""
        if not self.settings.teams:
            raise BadSettings("player standings are for team competitions")
        pairings = {(p.round, p.a): p for rnd in self.rounds for p in rnd}
        games = [(pairings[(r.round, r.a)], r) for r in self.counted()]
        teams = {e.id: e.members for e in self.entrants if e.id not in self.struck}
        return player_standings(self.settings, teams, games)

    def to_dict(self) -> dict[str, Any]:
        """The tournament as plain data (json and msgpack carry it); from_dict restores it."""
        data: dict[str, Any] = codec.plain(self)
        return data

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Tournament:
        """The tournament to_dict gave."""
        return cls(
            settings=codec.settings_from(d["settings"]),
            entrants=tuple(codec.entrant_from(e) for e in d["entrants"]),
            seed=int(d["seed"]),
            started=bool(d["started"]),
            rounds=tuple(tuple(codec.pairing_from(p) for p in rnd) for rnd in d["rounds"]),
            results=tuple(codec.result_from(r) for r in d["results"]),
            withdrawals=tuple(codec.withdrawal_from(w) for w in d["withdrawals"]),
            unpaired=bool(d.get("unpaired", False)),  # older tables have none
        )


def _check_entrant(settings: Settings, entrant: Entrant) -> None:
    if not entrant.id or not entrant.name or entrant.id == BOTH:
        raise BadSettings(f"an entrant needs an id (not {BOTH!r}) and a name")
    if len(set(entrant.members)) != len(entrant.members):
        raise DuplicateEntrant(f"a player is twice in {entrant.id!r}")
    if settings.teams:
        if len(entrant.members) < settings.board_count:
            raise BadSettings(f"a team needs {settings.board_count} players (004 § 29 (1))")
    elif settings.kind == "doubles" and len(entrant.members) != 2:
        raise BadSettings("a doubles entrant is a pair of two players")
    elif settings.kind == "singles" and len(entrant.members) > 1:
        raise BadSettings("a singles entrant is one player")
