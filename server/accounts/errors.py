"""The refusals of the accounts capability: a code the client renders in the player's
language, a reason code and parameters, an HTTP status, and an English fallback."""

from __future__ import annotations

from typing import Any

ACCOUNT_ERRORS: dict[str, tuple[str, ...]] = {
    "bad_request": (),
    "busy": (),
    "foreign_origin": (),  # server/edge/origin.py, before any handler
    "name_taken": (),
    "bad_login": (),
    "not_logged_in": (),
    "throttled": (),  # params.retry_after: seconds
    "bad_username": ("type", "length", "characters", "reserved"),  # length: params min, max
    "weak_password": ("type", "too_short", "too_long", "common", "has_name"),  # min / max
}
"""Every refusal of the account API, with its reasons: the codes the account page words in
the player's language (web/js/i18n/, `acct.err.<code>` and `acct.err.<code>.<reason>`)."""


class AccountError(Exception):
    """A request about an account refused, with nothing changed."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        reason: str = "",
        params: dict[str, Any] | None = None,
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.reason = reason
        self.params = params or {}

    def body(self) -> dict[str, Any]:
        """The JSON body of the refusal (docs/accounts.md, "Errors")."""
        out: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.reason:
            out["reason"] = self.reason
        if self.params:
            out["params"] = self.params
        return out
