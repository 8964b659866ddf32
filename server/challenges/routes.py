"""The dispatcher's routes of the challenges (server/net/dispatch.py)."""

from __future__ import annotations

from server.challenges.book import Terms
from server.challenges.service import Challenges
from server.net import protocol as p
from server.net.dispatch import Routes


def routes(challenges: Challenges) -> Routes:
    """challenge, challenge_answer and challenge_cancel."""
    return {
        p.Challenge: lambda c, m: challenges.send(
            c, m.to, Terms(m.game, m.mode, m.sets, m.clock, m.rated)
        ),
        p.ChallengeAnswer: lambda c, m: challenges.answer(c, m.id, m.accept),
        p.ChallengeCancel: lambda c, m: challenges.cancel(c, m.id),
    }
