"""A referee's ruling: data, and its lines (codes with arguments, each with the paragraph
it rests on: server/games/novuss/rules/lines.py), which a client words in the player's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from server.games.novuss.rules.lines import Line
from server.games.novuss.rules.state import MatchState

Kind = Literal["direct", "rebound", "pass", "clock", "absent", "resign"]
Spot = tuple[int, float, float]


class StrokeRefused(Exception):
    """A stroke that may not be played now or from there. code: a stable token for
    the client; rule: the paragraph; message: a sentence for the player."""

    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.code = code
        self.rule = rule
        self.message = message


@dataclass(frozen=True, slots=True)
class Ruling:
    """The outcome of one stroke (or of a pass, a clock run out, an absence, a
    resignation).

    kind: direct or rebound stroke (rebound_rail: "opposite" or "side", 004 § 21; rails:
    the rails the striker touched before its first puck), or what happened instead of a
    stroke. first_touch: the puck ids the striker touched
    first (several if at the same instant). pocketed: pucks that stay in the pockets.
    restored / respotted / penalty_placed: (puck id, x, y) put on the table by the
    referee. penalty: a penalty puck was awarded (004 § 24 (2): at most one per stroke).
    debts: penalty pucks owed per seat afterwards. next_seat: who strikes next (None:
    the match is over). set_result / match_result: when a set or the match ended.
    """

    state: MatchState
    seat: int
    kind: Kind
    legal: bool
    lines: tuple[Line, ...]
    rebound_rail: str | None = None
    rails: tuple[str, ...] = ()
    first_touch: tuple[int, ...] = ()
    pocketed: tuple[int, ...] = ()
    restored: tuple[Spot, ...] = ()
    respotted: tuple[Spot, ...] = ()
    penalty_placed: tuple[Spot, ...] = ()
    penalty: bool = False
    keeps_turn: bool = False
    crossed_line: bool = False
    set_result: dict[str, Any] | None = None
    match_result: dict[str, Any] | None = None

    @property
    def debts(self) -> tuple[int, ...]:
        """Penalty pucks owed per seat after the ruling."""
        return self.state.debt

    @property
    def next_seat(self) -> int | None:
        """The seat holding the strike right after the ruling."""
        return self.state.turn_seat

    def text(self) -> str:
        """The ruling in English, one line a fact with its citation."""
        return "\n".join(f"{ln.text} ({ln.cite})" if ln.cite else ln.text for ln in self.lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain, msgpack-able data (the state after is not included: see state.to_dict)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "legal": self.legal,
            "rebound_rail": self.rebound_rail,
            "rails": list(self.rails),
            "first_touch": list(self.first_touch),
            "pocketed": list(self.pocketed),
            "restored": [list(s) for s in self.restored],
            "respotted": [list(s) for s in self.respotted],
            "penalty_placed": [list(s) for s in self.penalty_placed],
            "penalty": self.penalty,
            "keeps_turn": self.keeps_turn,
            "crossed_line": self.crossed_line,
            "debts": list(self.debts),
            "next_seat": self.next_seat,
            "set_result": None if self.set_result is None else dict(self.set_result),
            "match_result": None if self.match_result is None else dict(self.match_result),
            "lines": [ln.to_dict() for ln in self.lines],
        }
