"""Who sits at a table: a seat's occupant (`Seat`, kept in the room's checkpoint) and who
takes one (`Player`: a guest session, or a registered player with the rating shown beside the
name). Pure data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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

    def to_dict(self) -> dict[str, Any]:
        """Checkpoint data."""
        return {
            "sid": self.sid, "name": self.name, "ready": self.ready, "away": self.away_until,
            "account": self.account, "rating": self.rating, "provisional": self.provisional,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        """Inverse of to_dict."""
        return cls(
            d["sid"], d["name"], d["ready"], d["away"],
            d.get("account"), d.get("rating"), d.get("provisional", True),
        )  # fmt: skip

    def identity(self) -> dict[str, Any]:
        """Who sits here, as every view shows it: registered or a guest, and the rating."""
        return {"registered": self.account is not None, "rating": self.rating,
                "provisional": self.provisional}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Player:
    """Who takes a seat: a session, its name, and (registered) its account and rating."""

    sid: str
    name: str
    account: str | None = None
    rating: int | None = None
    provisional: bool = True

    def seat(self, ready: bool = False) -> Seat:
        """The seat this player holds."""
        return Seat(self.sid, self.name, ready, None, self.account, self.rating, self.provisional)
