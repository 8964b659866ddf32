"""Who sits at a table: a seat's occupant (`Seat`, kept in the room's checkpoint) and who
takes one (`Player`: a guest session, a registered player with the rating shown beside the
name, or the computer at a level: server/computer/seats.py plays its seats). Pure data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.wire import Identity


@dataclass(slots=True)
class Seat:
    """A seated player. away_until: wall time the grace ends while the player is away."""

    sid: str
    name: str
    ready: bool = False
    away_until: float | None = None
    account: str | None = None  # the uid of a registered player (None: a guest)
    rating: int | None = None  # the player's rating in the room's mode when seated
    provisional: bool = True
    computer: int | None = None  # the computer's level (1-5) playing this seat, None: a person

    def to_dict(self) -> dict[str, Any]:
        """Checkpoint data (a computer seat is part of it: it plays on after a restart)."""
        return {
            "sid": self.sid, "name": self.name, "ready": self.ready, "away": self.away_until,
            "account": self.account, "rating": self.rating, "provisional": self.provisional,
            "computer": self.computer,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        """Inverse of to_dict."""
        return cls(
            d["sid"], d["name"], d["ready"], d["away"],
            d.get("account"), d.get("rating"), d.get("provisional", True), d.get("computer"),
        )  # fmt: skip

    def identity(self) -> Identity:
        """Who sits here, as every view shows it: registered or a guest, and the rating; the
        computer with its level (the client names it in the player's language)."""
        return {"registered": self.account is not None, "rating": self.rating,
                "provisional": self.provisional, "computer": self.computer}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Player:
    """Who takes a seat: a session, its name, and (registered) its account and rating."""

    sid: str
    name: str
    account: str | None = None
    rating: int | None = None
    provisional: bool = True
    computer: int | None = None

    def seat(self, ready: bool = False) -> Seat:
        """The seat this player holds."""
        return Seat(
            self.sid, self.name, ready, None, self.account, self.rating, self.provisional,
            self.computer,
        )  # fmt: skip
