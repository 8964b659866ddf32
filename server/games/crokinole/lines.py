"""A Crokinole ruling's words as codes with arguments, made from the ruling's data alone
(issue 38): valid or not, what goes to the ditch and why, who shoots next, the round's
score. Nothing here decides; a line can only repeat what the data already says, so no two
lines disagree and none disagrees with the data. Clients word the codes (web/js/i18n/).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from server.games.crokinole.judge import RoundResult, Ruling

LineArg = int | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Line:
    """One fact: a stable code, seed 002's paragraph, the arguments (seats, sides, disc ids,
    numbers: never names)."""

    code: str
    rule: str
    args: dict[str, LineArg] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        args = {k: list(v) if isinstance(v, tuple) else v for k, v in self.args.items()}
        # `cite` as a Novuss line's (the seed and its paragraph), `rule` as before it was
        return {"code": self.code, "rule": self.rule, "cite": f"002 {self.rule}", "args": args}


def shot_lines(r: Ruling) -> tuple[Line, ...]:
    """A shot's lines: the verdict, then each group of discs that moved off the board, then
    who shoots next."""
    lines = [Line("shot.valid" if r.valid else f"shot.invalid.{r.code}", r.paragraph)]
    if r.to_ditch:  # 3 c: the shooter and the discs it struck; 7 a: own discs only
        lines.append(Line("discs.ditch_penalty", "7 a" if r.code == "not_direct" else "3 c",
                          {"discs": r.to_ditch}))  # fmt: skip
    if r.restored:
        lines.append(Line("discs.restored", "7 a", {"discs": r.restored}))
    if r.fell:
        lines.append(Line("discs.fell", "4 e", {"discs": r.fell}))
    if r.out_of_play:
        lines.append(Line("discs.out_of_play", "4 e, 6", {"discs": r.out_of_play}))
    if r.twenties:
        lines.append(Line("discs.twenties", "2 b", {"discs": r.twenties}))
    if r.next_turn:
        lines.append(Line("turn.next", "2 a", {"seats": r.next_turn}))
    else:
        lines.append(Line("round.all_shot", "2 c"))
    return tuple(lines)


def round_lines(r: RoundResult) -> tuple[Line, ...]:
    """A round's lines: its count, and the game's end when it came."""
    lines = [
        Line(
            "round.scored",
            r.paragraph,
            {"round": r.round_no, "totals": r.totals, "points": r.points, "score": r.score},
        )
    ]
    if r.over:
        lines.append(Line("game.over", r.paragraph, {"winners": r.winners}))
    return tuple(lines)
