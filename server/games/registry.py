"""The one registry of games. The platform asks it for a game by the name a client or a
record gives; nothing outside server/games names a game."""

from __future__ import annotations

from server.games.crokinole.game import CROKINOLE
from server.games.novuss.game import NOVUSS
from server.games.seam import Game

DEFAULT = NOVUSS.name
"""The game of a request or record that names none (every record from before Crokinole)."""
_GAMES: dict[str, Game] = {g.name: g for g in (NOVUSS, CROKINOLE)}
NAMES: tuple[str, ...] = tuple(_GAMES)


class UnknownGame(KeyError):
    """A name no game of this server has."""


def game(name: str | None) -> Game:
    """The game named `name` (None: the default)."""
    try:
        return _GAMES[name or DEFAULT]
    except KeyError:
        raise UnknownGame(name) from None


def of_record(record: dict[str, object]) -> Game:
    """The game a match record (or room document) was played in."""
    name = record.get("game")
    return game(name if isinstance(name, str) else None)


def rating_mode(name: str, mode: str, alone: bool = False) -> str:
    """The rating (and quick-match queue) of a match of game `name` in `mode`
    (Game.rating_key): "singles", "crokinole-doubles", "crokinole-7d", ..."""
    return game(name).rating_key(mode, alone)
