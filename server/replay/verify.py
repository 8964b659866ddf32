"""A Novuss match recomputed from its log (docs/protocol.md, `GET /api/matches/{id}`: the
`start` entry's referee state, then every `stroke` with its shot, and the rulings without a
stroke: `clock`, `pass`, `resign`, `absent`). Each stroke is simulated again from the state
the replay has reached, with the same core, and judged again; its final state's hash and its
ruling are compared with the stored ones. A mismatch is reported, never smoothed over: the
replay goes on from the recomputed state, so every later check says whether the record still
agrees with what the core makes of it, until the record asks for what the recomputed match
refuses (a stroke out of turn, say): that entry is reported and the replay ends there. The
`end` entry's result is compared with the recomputed match's; a record without rulings (one
read from the notation, server/games/novuss/notation.py) has its hashes and result compared.

Crokinole records are refused: their strokes carry no state hash, so there is nothing to check
a recomputation against.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from server.games.novuss.rules import (
    MatchState,
    Ruling,
    StrokeRefused,
    judge,
    judge_absent,
    judge_clock_expired,
    judge_pass,
    judge_resign,
    sim_discs,
)
from server.games.novuss.rules.check import require_turn
from server.games.novuss.sim import COMPETITION, Shot, SimInputError, Table, simulate
from server.games.registry import of_record
from server.games.seam import ReplayError as ReplayError

NO_STROKE = {"pass": judge_pass, "resign": judge_resign, "absent": judge_absent}


@dataclass(frozen=True)
class Check:
    """One entry replayed: its place in the log, its kind, the stroke number (strokes only),
    whether the recomputed hash and ruling (for `end`: result) are the stored ones (None:
    nothing stored to compare), its line in a notation text (None: not from one), and the
    recomputed state after it (None when the entry could not be replayed: the replay ends)."""

    index: int
    kind: str
    stroke: int | None
    hash_ok: bool | None
    ruling_ok: bool | None
    lines: tuple[str, ...]  # the recomputed ruling in words
    line: int | None = None
    state: MatchState | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """Everything compared agrees."""
        return self.ruling_ok is not False and self.hash_ok is not False


def replay(record: dict[str, Any], table: Table = COMPETITION) -> Iterator[Check]:
    """Recompute a match entry by entry (see the module's docstring)."""
    played = of_record(record)
    if not played.replayable:
        raise ReplayError(
            f"A {played.title} match is not replayed: its strokes carry no state hash to check"
            " a recomputation against."
        )
    log = record.get("log") or []
    if not log or log[0].get("kind") != "start":
        raise ReplayError("The log does not begin with the match's start.")
    state = MatchState.from_dict(log[0]["state"])
    ended = False
    for i, entry in enumerate(log[1:], start=1):
        kind = entry.get("kind")
        line = entry.get("line")
        if kind == "end":
            ended = True
            agrees = _same_result(state.match_result, entry.get("result"))
            yield Check(i, kind, None, None, agrees, (_result_words(state),), line, state)
            continue
        hash_ok: bool | None = None
        try:
            if kind == "stroke":
                shot = Shot(**entry["shot"])
                result = simulate(table, sim_discs(state), shot)
                hash_ok = result.state_hash() == entry.get("hash")
                ruling = judge(state, entry["seat"], shot, result)
            elif kind == "clock":
                if entry.get("seat", state.turn_seat) != state.turn_seat:
                    # 004 § 26 (4): the clock runs for the player holding the strike right
                    require_turn(state, entry["seat"])
                ruling = judge_clock_expired(state)
            elif kind in NO_STROKE:
                ruling = NO_STROKE[kind](state, entry["seat"])
            else:
                raise ReplayError(f"Entry {i} is of no known kind ({kind!r}).")
        except (StrokeRefused, SimInputError) as e:
            # the record went where the recomputed match cannot follow: said, and the end
            why = f"the recomputed match refuses this entry: {e}"
            yield Check(i, kind, entry.get("stroke"), hash_ok, False, (why,), line)
            return
        state = ruling.state
        same = _same(ruling, entry["ruling"]) if "ruling" in entry else None
        yield Check(i, kind, entry.get("stroke"), hash_ok, same, tuple(_words(ruling)), line, state)
    if state.finished and not ended:
        why = "the recomputed match is over, and the record does not say so"
        yield Check(len(log), "end", None, None, False, (why, _result_words(state)), None, state)


def _same(ruling: Ruling, stored: Any) -> bool:
    return isinstance(stored, dict) and _plain(ruling.to_dict()) == _plain(stored)


def _same_result(recomputed: dict[str, Any] | None, stored: Any) -> bool:
    """The stored result says what the recomputed one says, in every field it gives (the
    notation gives the winner, the sets won and the reason)."""
    if recomputed is None or not isinstance(stored, dict):
        return False
    return all(_plain(recomputed.get(k)) == _plain(v) for k, v in stored.items())


def _result_words(state: MatchState) -> str:
    result = state.match_result
    if result is None:
        return "the recomputed match is not over"
    a, b = result.get("sets_won", state.sets_won)
    winner = result.get("winner")
    who = "a draw" if winner is None else f"team {winner} won"
    return f"Result: {who}, {a}-{b} in sets ({result.get('reason')}, {result.get('rule')})"


def _plain(value: Any) -> Any:
    """Tuples as lists, as a record read back from msgpack or JSON has them."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _words(ruling: Ruling) -> list[str]:
    return [f"{ln.text} ({ln.cite})" if ln.cite else ln.text for ln in ruling.lines]
