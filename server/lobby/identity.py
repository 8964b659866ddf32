"""Who a session is when it takes a seat: a guest, or a registered player with a rating.

The owner of a room asks Redis (the session may have said hello to another process): the
account a session plays as (`sacct:{sid}`, written at its hello) and that account's rating in
the room's game and mode (`room_rating_mode`), so the seat carries both into the room's views
and the match's record.
"""

from __future__ import annotations

from server.accounts.store import AccountStore
from server.games.registry import rating_mode
from server.history.store import HistoryStore
from server.lobby.room import Room
from server.lobby.seat import Player
from server.ratings.model import Skill
from server.store.postgres import AWAY


def room_rating_mode(room: Room) -> str:
    """The rating a room's players are shown with, and its match moves: its game's, in its
    mode, or of players each alone (002 7 d: a Crokinole room with a `players` option)."""
    return rating_mode(room.game, room.mode, "players" in room.options)


class Identities:
    """Sessions to seated players."""

    def __init__(self, accounts: AccountStore, history: HistoryStore):
        self.accounts = accounts
        self.history = history

    async def players(self, people: list[tuple[str, str]], mode: str) -> list[Player]:
        """(session id, name) pairs as players: account and rating for the registered."""
        sids = [sid for sid, _ in people]
        uids = await self.accounts.session_accounts(sids)
        registered = [u for u in uids.values() if u is not None]
        try:  # PostgreSQL away: seated with the rating unknown (archiving reads it again)
            skills = await self.history.skills(registered, mode) if registered else {}
        except AWAY:
            skills = {}
        out = []
        for sid, name in people:
            uid = uids.get(sid)
            if uid is None:
                out.append(Player(sid, name))
                continue
            skill = Skill(*skills[uid]) if uid in skills else Skill()
            out.append(Player(sid, name, uid, skill.shown, skill.provisional))
        return out
