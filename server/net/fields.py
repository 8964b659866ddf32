"""The reading of one client message's fields, each checked against its type and range, and
the refusal of one that does not fit (server/net/protocol.py decodes with these)."""

from __future__ import annotations

import math
import unicodedata
from typing import Any, overload

from server.net.names import MARKS_MAX, stacked_marks
from server.wire import ErrorMessage

_CONTROLS = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))


class ProtocolError(Exception):
    """A client message that is refused: a stable code and a sentence for the player."""

    def __init__(
        self,
        code: str,
        message: str,
        ref: int | str | None = None,
        rule: str = "",
        reason: str = "",
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref
        self.rule = rule
        self.reason = reason

    def reply(self) -> ErrorMessage:
        """The `error` message answering the refused one."""
        out: ErrorMessage = {"t": "error", "code": self.code, "message": self.message}
        if self.ref is not None:
            out["ref"] = self.ref
        if self.rule:
            out["rule"] = self.rule
        if self.reason:
            out["reason"] = self.reason
        return out


class Fields:
    """Reads typed fields out of one raw map; every refusal names the message and field."""

    def __init__(self, raw: dict[str, Any], kind: str, ref: int | str | None):
        self.raw = raw
        self.kind = kind
        self.ref = ref
        self.seen = {"t", "ref"}

    def fail(self, name: str, why: str) -> ProtocolError:
        return ProtocolError("bad_field", f"{self.kind}.{name}: {why}.", self.ref)

    def get(self, name: str, required: bool) -> Any:
        self.seen.add(name)
        if name not in self.raw or self.raw[name] is None:
            if required:
                raise self.fail(name, "missing")
            return None
        return self.raw[name]

    @overload
    def text(self, name: str, lo: int, hi: int, *, says: str = "") -> str: ...
    @overload
    def text(
        self, name: str, lo: int, hi: int, required: bool, *, says: str = ""
    ) -> str | None: ...
    def text(
        self, name: str, lo: int, hi: int, required: bool = True, *, says: str = ""
    ) -> str | None:
        """A string field, stripped, `lo` to `hi` characters long; `says`: the length the
        refusal names instead (a name cleaned afterwards is checked again, to its own)."""
        value = self.get(name, required)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(name, "must be a string")
        value = value.strip()
        if not lo <= len(value) <= hi:
            raise self.fail(name, f"must be {says or f'{lo} to {hi}'} characters")
        # Zl, Zp: U+2028 and U+2029 break a line as a newline does (docs/protocol.md)
        if any(unicodedata.category(c) in _CONTROLS for c in value):
            raise self.fail(name, "must not contain control characters")
        if stacked_marks(value):  # a stack of marks spills over the lines around it
            raise self.fail(name, f"at most {MARKS_MAX} combining marks on one letter")
        return value

    @overload
    def ident(self, name: str, hi: int) -> str: ...
    @overload
    def ident(self, name: str, hi: int, required: bool) -> str | None: ...
    def ident(self, name: str, hi: int, required: bool = True) -> str | None:
        value = self.get(name, required)
        if value is None:
            return None
        if not isinstance(value, str) or not 1 <= len(value) <= hi or not value.isascii():
            raise self.fail(name, f"must be an id of 1 to {hi} ASCII characters")
        if not all(c.isalnum() or c in "-_" for c in value):
            raise self.fail(name, "must hold only letters, digits, '-' and '_'")
        return value

    @overload
    def integer(self, name: str, lo: int, hi: int) -> int: ...
    @overload
    def integer(self, name: str, lo: int, hi: int, required: bool) -> int | None: ...
    def integer(self, name: str, lo: int, hi: int, required: bool = True) -> int | None:
        value = self.get(name, required)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(name, "must be an integer")
        if not lo <= value <= hi:
            raise self.fail(name, f"must be between {lo} and {hi}")
        return value

    def number(self, name: str, lo: float, hi: float, open_lo: bool = False) -> float:
        value = self.get(name, True)
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise self.fail(name, "must be a number")
        value = float(value)
        if not math.isfinite(value):
            raise self.fail(name, "must be finite")
        if value < lo or value > hi or (open_lo and value == lo):
            raise self.fail(name, f"must be {'above' if open_lo else 'from'} {lo:g} to {hi:g}")
        return value

    def flag(self, name: str, default: bool) -> bool:
        value = self.get(name, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(name, "must be true or false")
        return value

    def choice(self, name: str, options: tuple[str, ...], required: bool = True) -> Any:
        value = self.get(name, required)
        if value is None and not required:
            return None
        if value not in options:
            raise self.fail(name, "must be one of " + ", ".join(options))
        return value

    def done(self) -> None:
        extra = sorted(str(k) for k in self.raw if k not in self.seen)
        if extra:
            raise self.fail(extra[0], "is not a field of this message")
