"""The Crokinole computer behind the computer seats: its search (server/crokinole_bot)
run in a worker like the Novuss one, its shot moved from the rules' coordinates (the
board's centre) to the protocol's (the south-west corner, server/crokinole_match.py)
and shaped as the Novuss `Choice`, so server/net/computer.py plays either the same way.
"""

from __future__ import annotations

from server.bot import Choice
from server.crokinole.rules import State
from server.crokinole_bot import choose as choose_shot
from server.crokinole_match import OFFSET
from server.sim import Shot


def _protocol(shot: Shot) -> Shot:
    return Shot(shot.x + OFFSET, shot.y + OFFSET, shot.angle, shot.speed)


def choose(state: State, seat: int, level: int, seed: int, budget_s: float | None) -> Choice:
    """The Crokinole computer's shot for `seat`, in protocol coordinates (picklable, for a
    worker process). Raises CrokinoleBotError as server.crokinole_bot.choose does."""
    c = choose_shot(state, seat, level, seed, budget_s)
    return Choice(
        shot=_protocol(c.shot),
        intended=_protocol(c.intended),
        target=c.target,
        pocket=None,
        candidates=c.candidates,
        score=c.score,
    )
