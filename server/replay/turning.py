"""The turning points of a replayed match (the replay viewer marks them, docs/notation.md
"The replay viewer"), from its steps as served (Replay.steps), whatever the game. Pure.

A step is a turning point when, after it:
- `set`: the score moved (Novuss: a set won, 004 § 27 (3); Crokinole: a round's points,
  002 4 f);
- `match`: the match was decided (its result appeared: the last set, a resignation, an
  absence);
- `lead`: the side ahead on the table (a step's `ahead`, where its game gives one: Novuss, the
  team with fewer pucks still to pocket) became the other side than the one last ahead in
  the same set; a level table in between does not count as a change, so a lead lost and won
  back by the same side is not one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypedDict

Why = Literal["set", "match", "lead"]


class Turn(TypedDict):
    """A turning point: the step (i: after the i-th entry, as the viewer counts), the stroke
    (None: an entry without one), why, and the side it favours (None: unknown)."""

    index: int
    stroke: int | None
    why: Why
    side: int | None


def _overtaken(was: int | None, now: int | None) -> bool:
    """The side ahead is now another than the one last ahead (a level table is no side)."""
    return was is not None and now is not None and now != was


def turning_points(start: dict[str, Any], steps: Sequence[dict[str, Any]]) -> list[Turn]:
    """The turning points of a match's steps, in order (see the module's docstring)."""
    turns: list[Turn] = []
    score, set_no, result = start.get("score"), start.get("set"), start.get("result")
    ahead = start.get("ahead")  # the last side ahead in this set (a level table keeps it)
    for i, step in enumerate(steps, start=1):
        why: Why | None = None
        side: int | None = None
        if step.get("result") is not None and result is None:
            why, side = "match", step["result"].get("winner")
        elif step.get("score") != score:
            before, after = score or [], step.get("score") or []
            gained = [k for k, v in enumerate(after) if k >= len(before) or v > before[k]]
            why, side = "set", gained[0] if len(gained) == 1 else None
        elif step.get("set") == set_no and _overtaken(ahead, step.get("ahead")):
            why, side = "lead", step["ahead"]
        if why is not None:
            turns.append(Turn(index=i, stroke=step.get("stroke"), why=why, side=side))
        if step.get("score") != score or step.get("set") != set_no:
            ahead = None  # a new set starts level
        if step.get("ahead") is not None:
            ahead = step["ahead"]
        score, set_no, result = step.get("score"), step.get("set"), step.get("result")
    return turns
