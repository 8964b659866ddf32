"""What every game's replay shares (server/games/seam.py `Replay`): the check of one entry,
a match recomputed for the viewer, and the walk that turns a game's checks into the viewer's
steps. Pure: no I/O, no game named.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


class ReplayError(Exception):
    """A record that cannot be replayed at all (a game with no replay, no start, an entry of
    no known kind)."""


class NoSuchStroke(Exception):
    """The match has no stroke of that number (or the replay stopped before it)."""


class UnacceptedShot(Exception):
    """A shot the referee refuses from a replayed position (Replay.expect): a placement the
    rules forbid, a speed out of range, a match that is over."""


@dataclass(frozen=True)
class Check:
    """One entry of a match's log replayed (Replay.checks): its place in the log, its kind,
    the stroke number (strokes only), whether the recomputed state hash and ruling (for
    `end`: result) are the stored ones (None: nothing stored to compare), the recomputed
    ruling in words, its line in a notation text (None: not from one), and the game's own
    recomputed state after it (None when the entry could not be replayed: the replay ends)."""

    index: int
    kind: str
    stroke: int | None
    hash_ok: bool | None
    ruling_ok: bool | None
    lines: tuple[str, ...]
    line: int | None = None
    state: Any = field(default=None, compare=False, repr=False)
    # the recomputed ruling as a log stores it (None: the entry has none): what an archived
    # record, which keeps only what was struck, is given back (server/history/http.py)
    ruling: Any = field(default=None, compare=False, repr=False)
    # the entry's other recomputed fields an archived record gives back (a stroke's
    # `duration`, Novuss's `own`, and its whole state `hash`, of which an archived stroke
    # keeps the start), None when there are none
    restored: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """Everything compared agrees."""
        return self.ruling_ok is not False and self.hash_ok is not False


@dataclass(frozen=True)
class Replayed:
    """One match recomputed for the replay viewer (Replay.steps): the table at the start and
    after every entry as served, and what the game keeps to simulate a stroke again on demand
    (Replay.stroke), by stroke number."""

    start: dict[str, Any]
    steps: tuple[dict[str, Any], ...]
    before: dict[int, Any]  # stroke -> the game's state before it, its seat and its shot
    stopped: str | None  # why the replay ended early (None: it reached the log's end)
    game: str | None = None  # the record's `game` (None: a record from before a second game)
    # the game's recomputed state at each step (0: the start; i: after steps[i - 1]), what
    # Replay.position gives the computer to search from (the replay viewer's suggestion)
    at: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    @property
    def mismatches(self) -> int:
        """Entries whose hash or ruling disagree with the stored ones."""
        return sum(1 for s in self.steps if s["hash_ok"] is False or s["ruling_ok"] is False)


# The fewest hex digits of a state hash a stroke may keep: an archived stroke keeps the first
# 8 (4 bytes, form 3; form 2 kept 16: server/store/archive.py), which a recomputed state that
# differs matches by chance once in 2^32, and the strokes after it and the last state (kept
# whole) do not.
KEPT_HASH_DIGITS = 8


def same_hash(recomputed: str, stored: Any) -> bool:
    """Is a stored state hash the recomputed one: the whole, or the start of it an archived
    stroke keeps (at least KEPT_HASH_DIGITS hex digits)?"""
    if not isinstance(stored, str) or len(stored) < KEPT_HASH_DIGITS:
        return False
    return recomputed.startswith(stored)


def ruling_digest(ruling: Any) -> str:
    """The first 4 bytes (8 hex digits) of the SHA-256 of a ruling as a log stores it, keys
    sorted: what an archived record keeps of each ruling (server/store/archive.py), so that a
    replay still tells a recomputed ruling that differs."""
    text = json.dumps(plain(ruling), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def same_ruling(recomputed: Any, entry: dict[str, Any]) -> bool | None:
    """Does a recomputed ruling (as a log stores it) agree with an entry's: the stored ruling,
    or the digest an archived entry keeps of it; None when the entry has neither."""
    if "ruling" in entry:
        stored = entry["ruling"]
        return isinstance(stored, dict) and plain(recomputed) == plain(stored)
    if "ruling_digest" in entry:
        return bool(ruling_digest(recomputed) == entry["ruling_digest"])
    return None


def plain(value: Any) -> Any:
    """Tuples as lists, as a record read back from msgpack or JSON has them."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def same_result(recomputed: dict[str, Any] | None, stored: Any) -> bool:
    """The stored result says what the recomputed one says, in every field it gives (a
    notation gives fewer fields than a record)."""
    if recomputed is None or not isinstance(stored, dict):
        return False
    return all(plain(recomputed.get(k)) == plain(v) for k, v in stored.items())


def build_steps(
    record: dict[str, Any],
    checks: Iterable[Check],
    start: Any,
    table_at: Callable[[Any], dict[str, Any]],
    before_of: Callable[[Any, dict[str, Any]], Any],
) -> Replayed:
    """The viewer's steps from a game's checks: the table (`table_at` of the game's state)
    at the start and after every entry, each entry with its check and its stored ruling;
    `before_of(state, entry)` is what the game keeps of a stroke to simulate it again. A check
    without a state (an entry the recomputed match refuses) ends the steps there, marked."""
    log = record["log"]
    state = start
    at = [start]
    steps: list[dict[str, Any]] = []
    before: dict[int, Any] = {}
    stopped = None
    for check in checks:
        entry = log[check.index] if check.index < len(log) else {}
        if check.kind == "stroke" and check.stroke is not None:
            before[check.stroke] = before_of(state, entry)
        step: dict[str, Any] = {
            "index": check.index,
            "kind": check.kind,
            "seat": entry.get("seat"),
            "stroke": check.stroke,
            "hash_ok": check.hash_ok,
            "ruling_ok": check.ruling_ok,
            # the stored one, whose agreement ruling_ok says (an archived entry keeps only its
            # digest: then the recomputed one, which is the stored one if ruling_ok)
            "ruling": entry.get("ruling", check.ruling if check.ruling_ok else None),
            "recomputed": list(check.lines),
        }
        if check.state is None:
            stopped = check.lines[0] if check.lines else "the replay stopped"
            before.pop(check.stroke or 0, None)
            steps.append({**step, **table_at(state), "stopped": stopped})
            at.append(state)
            break
        state = check.state
        at.append(state)
        steps.append({**step, **table_at(state)})
    game = record.get("game")
    return Replayed(table_at(start), tuple(steps), before, stopped, game, tuple(at))


def stroke_step(replayed: Replayed, stroke: int) -> dict[str, Any]:
    """The step of stroke `stroke` (NoSuchStroke when the replay has no motion for it)."""
    if stroke not in replayed.before:
        raise NoSuchStroke(f"This match has no stroke {stroke} to replay.")
    return next(s for s in replayed.steps if s["stroke"] == stroke and s["kind"] == "stroke")
