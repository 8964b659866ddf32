"""A challenge as it is kept and told: pure, no I/O, no clock of its own (every call takes
`now`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import msgpack

from server.lobby.room import LobbyError
from server.wire import Challenged, ChallengeEnd, ChallengeSent, ChallengeWhy

MAX_FROM = 3  # challenges one session has waiting at once
MAX_TO = 5  # challenges waiting for one player, from everybody: nobody floods a screen

End = ChallengeWhy
"""Why a challenge ended (`challenge_end.why`): the challenged player accepted (the room is
made) or declined; the challenger cancelled it or left; nobody answered in time; one of the
two had taken a seat elsewhere meanwhile; the challenger's connection was gone at the
answer."""


class ChallengeRefused(LobbyError):
    """A challenge, answer or cancel refused: an error code (server/messages.py), nothing
    changed."""


@dataclass(frozen=True, slots=True)
class Terms:
    """The room a challenge offers: its game (the registry's), mode, sets, clock, rated."""

    game: str
    mode: str
    sets: int
    clock: float
    rated: bool


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenge waiting for its answer."""

    id: str
    sender: str  # the challenger's session
    sender_name: str
    sender_account: str
    pid: str  # the process and connection that sent it: the challenger is seated there
    cid: str
    target: str  # the challenged account's uid
    target_name: str
    terms: Terms
    expires: float  # wall time

    def _left(self, now: float) -> float:
        return round(max(0.0, self.expires - now), 1)  # seconds: no clock skew to mind

    def offer(self, now: float) -> Challenged:
        """`challenged`: what the challenged player's tabs show."""
        m = self.terms
        told: Challenged = {
            "t": "challenged", "id": self.id, "game": m.game, "mode": m.mode, "sets": m.sets,
            "clock": m.clock, "rated": m.rated, "expires_in": self._left(now),
            "from": self.sender_name,
        }  # fmt: skip
        return told

    def sent(self, now: float) -> ChallengeSent:
        """`challenge_sent`: the challenger's receipt."""
        m = self.terms
        return ChallengeSent(
            t="challenge_sent", id=self.id, game=m.game, mode=m.mode, sets=m.sets,
            clock=m.clock, rated=m.rated, expires_in=self._left(now), to=self.target_name,
        )  # fmt: skip

    def ended(self, why: End) -> ChallengeEnd:
        """`challenge_end`: told to both sides (every tab of the challenged player)."""
        return ChallengeEnd(t="challenge_end", id=self.id, why=why)

    def pack(self) -> bytes:
        """As Redis keeps it."""
        packed = msgpack.packb(asdict(self), use_bin_type=True)
        assert isinstance(packed, bytes)  # msgpack is untyped; packb returns bytes
        return packed

    @staticmethod
    def unpack(data: bytes) -> Challenge:
        """From what Redis keeps."""
        raw = msgpack.unpackb(data, raw=False)
        return Challenge(**{**raw, "terms": Terms(**raw["terms"])})


def refusal_for_limits(mine: list[str], theirs: int, target: str) -> ChallengeRefused | None:
    """Whether one more challenge may wait: `mine`, the targets of the challenger's waiting
    challenges; `theirs`, how many wait for the target."""
    if target in mine:
        return ChallengeRefused("already_challenged", "You have challenged that player already.")
    if len(mine) >= MAX_FROM:
        return ChallengeRefused("too_many_challenges", "Wait for an answer to your challenges.")
    if theirs >= MAX_TO:
        return ChallengeRefused(
            "too_many_challenges", "That player has too many challenges waiting."
        )
    return None
