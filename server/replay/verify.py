"""A Novuss match recomputed from its log (docs/protocol.md, `GET /api/matches/{id}`: the
`start` entry's referee state, then every `stroke` with its shot, and the rulings without a
stroke: `clock`, `pass`, `resign`, `absent`). Each stroke is simulated again from the state
the replay has reached, with the same core, and judged again; its final state's hash and its
ruling are compared with the stored ones. A mismatch is reported, never smoothed over: the
replay goes on from the recomputed state, so every later check says whether the record still
agrees with what the core makes of it, until the record asks for what the recomputed match
refuses (a stroke out of turn, say): that entry is reported and the replay ends there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from server.rules import (
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
from server.sim import COMPETITION, Shot, SimInputError, Table, simulate

NO_STROKE = {"pass": judge_pass, "resign": judge_resign, "absent": judge_absent}


class ReplayError(Exception):
    """The record cannot be replayed at all (not Novuss, no start, an entry of no known kind)."""


@dataclass(frozen=True)
class Check:
    """One entry replayed: its place in the log, its kind, the stroke number (strokes only),
    whether the recomputed hash and ruling are the stored ones (None: nothing to compare)."""

    index: int
    kind: str
    stroke: int | None
    hash_ok: bool | None
    ruling_ok: bool
    lines: tuple[str, ...]  # the recomputed ruling in words

    @property
    def ok(self) -> bool:
        """Everything compared agrees."""
        return self.ruling_ok and self.hash_ok is not False


def replay(record: dict[str, Any], table: Table = COMPETITION) -> Iterator[Check]:
    """Recompute a match entry by entry (see the module's docstring)."""
    if record.get("game", "novuss") != "novuss":
        raise ReplayError("Only Novuss matches are replayed.")
    log = record.get("log") or []
    if not log or log[0].get("kind") != "start":
        raise ReplayError("The log does not begin with the match's start.")
    state = MatchState.from_dict(log[0]["state"])
    for i, entry in enumerate(log[1:], start=1):
        kind = entry.get("kind")
        if kind == "end":
            continue
        hash_ok: bool | None = None
        try:
            if kind == "stroke":
                shot = Shot(**entry["shot"])
                result = simulate(table, sim_discs(state), shot)
                hash_ok = result.state_hash() == entry.get("hash")
                ruling = judge(state, entry["seat"], shot, result)
            elif kind == "clock":
                ruling = judge_clock_expired(state)
            elif kind in NO_STROKE:
                ruling = NO_STROKE[kind](state, entry["seat"])
            else:
                raise ReplayError(f"Entry {i} is of no known kind ({kind!r}).")
        except (StrokeRefused, SimInputError) as e:
            # the record went where the recomputed match cannot follow: said, and the end
            why = f"the recomputed match refuses this entry: {e}"
            yield Check(i, kind, entry.get("stroke"), hash_ok, False, (why,))
            return
        state = ruling.state
        yield Check(
            i, kind, entry.get("stroke"), hash_ok, _same(ruling, entry.get("ruling")),
            tuple(_words(ruling)),
        )  # fmt: skip


def _same(ruling: Ruling, stored: Any) -> bool:
    return isinstance(stored, dict) and _plain(ruling.to_dict()) == _plain(stored)


def _plain(value: Any) -> Any:
    """Tuples as lists, as a record read back from msgpack or JSON has them."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _words(ruling: Ruling) -> list[str]:
    return [f"{ln.text} ({ln.cite})" if ln.cite else ln.text for ln in ruling.lines]
