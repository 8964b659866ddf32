"""What the games' notations share (docs/notation.md): a header of `[Tag "value"]` lines,
then one line per entry of a match's log; floats written as the shortest decimal that reads
back as the same IEEE-754 double (repr) and read back exactly, decimal or hex; the state
hashes as 64 hex digits; the start state's hash over canonical JSON. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from server.games.core.replaying import ReplayError

Number = int | float
Tags = dict[str, tuple[str, int]]
"""tag -> (value, its 1-based line)"""

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9]*) ("(?:[^"\\]|\\.)*")\]')
_INT = re.compile(r"-?[0-9]+")
# Python's float() also reads "1_0", " 1", "nan", "infinity": the notation does not
_DECIMAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_HEX = re.compile(r"-?0x[0-9a-f]+(?:\.[0-9a-f]*)?p[-+][0-9]+")
HASH = re.compile(r"[0-9a-f]{64}")


class NotationError(ReplayError):
    """Text that is not a match's notation, or a record the notation cannot carry; `line`
    is the 1-based line at fault (None: the whole text or record)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line


# -- numbers ---------------------------------------------------------------------------
def write_float(x: float) -> str:
    """A double as the shortest decimal that reads back as the same bits (repr)."""
    return repr(float(x))


def read_float(token: str, line: int | None = None) -> float:
    """A decimal or hex float token as its double; refuses anything else (nan, inf, 1_0)."""
    if _DECIMAL.fullmatch(token):
        return float(token)
    if _HEX.fullmatch(token):
        return float.fromhex(token)
    raise NotationError(f"{token!r} is not a number (a decimal like 412.5, or a hex float)", line)


def write_number(x: Number | None) -> str:
    """An int as an int, a float as repr, None as "-": the type survives the round trip,
    since the start state's hash tells 30 from 30.0."""
    if x is None:
        return "-"
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise NotationError(f"{x!r} is not a number")
    return str(x) if isinstance(x, int) else write_float(x)


def read_number(token: str, line: int | None) -> Number | None:
    if token == "-":
        return None
    if _INT.fullmatch(token):
        return int(token)
    return read_float(token, line)


def read_int(token: str, what: str, line: int | None) -> int:
    if not _INT.fullmatch(token):
        raise NotationError(f"{what} must be a whole number, not {token!r}", line)
    return int(token)


def start_hash(state: dict[str, Any]) -> str:
    """sha256 of the referee's start state as canonical JSON (sorted keys, no spaces; JSON
    writes floats as repr): the notation's header must rebuild exactly this state."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def header_lines(tags: Iterable[tuple[str, str]]) -> list[str]:
    """The header: one `[Tag "value"]` a line, the value a JSON string."""
    return [f"[{tag} {json.dumps(value, ensure_ascii=False)}]" for tag, value in tags]


def read_header(lines: list[str], required: Iterable[str]) -> tuple[Tags, int]:
    """The header's tags, and the 0-based index of the first line after it. Blank lines and
    `;` comments are skipped; a tag given twice, a malformed line or a required tag missing
    is refused naming its line."""
    tags: Tags = {}
    body = len(lines)
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if not line.startswith("["):
            body = n - 1
            break
        m = _TAG.fullmatch(line)
        if m is None:
            raise NotationError('a header line is [Tag "value"], the value a JSON string', n)
        tag, value = m.group(1), _tag_value(m.group(2), n)
        if tag in tags:
            raise NotationError(f"the tag {tag} is given twice", n)
        tags[tag] = (value, n)
    for tag in required:
        if tag not in tags:
            raise NotationError(f"the header has no {tag} tag", 1)
    return tags, body


def _tag_value(quoted: str, line: int) -> str:
    try:
        value = json.loads(quoted)
    except ValueError:
        raise NotationError("the tag's value is not a well-formed JSON string", line) from None
    if not isinstance(value, str):
        raise NotationError("the tag's value is not a string", line)
    return value


# -- entries ---------------------------------------------------------------------------
SeatOf = Callable[[str, int], int]
"""(a seat's token, its line) -> the seat, refused with NotationError if the game has none"""
_NUMBERED = re.compile(r"([0-9]+)\.")


def entry_line(e: dict[str, Any], seat_kinds: tuple[str, ...]) -> str:
    """A log entry as its line: a stroke (`N. seat x y angle speed hash`) or one of the
    game's entries that name a seat only (`resign 1`)."""
    kind = e.get("kind")
    if kind == "stroke":
        s = e["shot"]
        numbers = " ".join(write_float(s[k]) for k in ("x", "y", "angle", "speed"))
        return f"{int(e['stroke'])}. {int(e['seat'])} {numbers} {e['hash']}"
    if kind in seat_kinds:
        return f"{kind} {int(e['seat'])}"
    raise NotationError(f"The record holds an entry of no known kind ({kind!r}).")


def read_entries(
    lines: list[str], after: int, seat_kinds: tuple[str, ...], seat_of: SeatOf, noun: str
) -> list[dict[str, Any]]:
    """The log's entries from the lines after the header (the 1-based line `after`): the
    game's strokes (`noun`: "stroke", "shot"), numbered from 1 with none skipped, and its
    entries that name a seat only."""
    out: list[dict[str, Any]] = []
    done = 0
    others = ", ".join(seat_kinds[:-1]) + f" or {seat_kinds[-1]}"
    for n, raw in enumerate(lines[after:], start=after + 1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            raise NotationError(f"a header tag after the {noun}s (the header comes first)", n)
        words = line.split()
        if words[0] in seat_kinds:
            if len(words) != 2:
                raise NotationError(f"{words[0]} takes one seat, like `{words[0]} 1`", n)
            out.append({"kind": words[0], "seat": seat_of(words[1], n), "line": n})
            continue
        m = _NUMBERED.fullmatch(words[0])
        if m is None:
            raise NotationError(
                f"{words[0]!r} begins no entry: a {noun} is `N. seat x y angle speed hash`,"
                f" else {others} and a seat",
                n,
            )
        if len(words) != 7:
            raise NotationError(
                f"a {noun} has 7 fields (N. seat x y angle speed hash), not {len(words)}", n
            )
        done += 1
        if int(m.group(1)) != done:
            raise NotationError(f"{noun} {done} was expected here, not {m.group(1)}", n)
        x, y, angle, speed = (read_float(w, n) for w in words[2:6])
        if not HASH.fullmatch(words[6]):
            raise NotationError(f"a {noun}'s state hash is 64 lowercase hex digits", n)
        out.append({
            "kind": "stroke", "stroke": done, "seat": seat_of(words[1], n),
            "shot": {"x": x, "y": y, "angle": angle, "speed": speed}, "hash": words[6],
            "line": n,
        })  # fmt: skip
    return out
