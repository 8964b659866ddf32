"""Refusals of the competitions service, each a code (web/js/i18n: `tour.err.<code>`), a
sentence and an HTTP status; the pure table's own refusals (server/competitions/table/errors.py) are
answered with their codes too (409)."""

from __future__ import annotations

from typing import Any


class CompetitionError(Exception):
    """A request refused; nothing changed."""

    def __init__(self, code: str, message: str, status: int = 409):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def body(self) -> dict[str, Any]:
        """The JSON answer."""
        return {"error": self.code, "message": self.message}


def not_found() -> CompetitionError:
    """No tournament has that id."""
    return CompetitionError("no_tournament", "There is no such tournament.", 404)


def not_organiser() -> CompetitionError:
    """Only the tournament's organiser may do that."""
    return CompetitionError("not_organiser", "Only the organiser may do that.", 403)


def bad_request(message: str) -> CompetitionError:
    """The request's fields are wrong (which, and why, in the message)."""
    return CompetitionError("bad_request", message, 400)
