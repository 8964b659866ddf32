"""A competition's table: a room whose seats are held for the paired players. Pure logic.

The tournament service (server/competitions/) makes the room when a round starts, with every
seat held for its registered player: a stand-in seat (`HELD` + the account's uid) that counts
as away, its grace running from that moment. The player takes it by joining the room (the
tournament page sends them there); nobody else may. When every player has come, the match
starts, the opening stroke to team 0, where the service seats the side with the right (004
§ 31 (1) 1), § 31 (2); `options["opener"]`). A held seat nobody took is freed when its grace
runs out (Room.tick), as any absent player's: the service then scores the encounter lost by
absence (004 § 22 (3)).

`options` of such a room: `tournament` (its id), `opener` (0), `held` (the account uid of each
seat, in seat order). Who came is kept apart (server/competitions/store.py, `mark_came`): the
room closes once everybody has left it.

A table decided elsewhere (the organiser entered its result by hand, or withdrew a player)
is ended by `decided_elsewhere`: everybody in the room is told (`decided`), the match being
played (if any) stops and counts for nothing, the seats are freed and the room closes, so its
players are free for their next round (docs/competitions.md, "Results by hand").
"""

from __future__ import annotations

from typing import Any

from server.games.core.play import Out, Step
from server.lobby.lobby import Lobby
from server.lobby.room import LobbyError, Room
from server.lobby.seat import Player, Seat

HELD = "held:"  # the session id of a seat kept for an account: no real session has this form


def is_competition(room: Room) -> bool:
    """Is this room a competition's table (its seats held for paired players)?"""
    return "held" in room.options


def held_seat(player: Player, until: float) -> Seat:
    """The seat kept for a paired player until they come (ready: the match starts as soon as
    everybody is there), away until `until`."""
    assert player.account is not None  # competitions are between registered players
    return Seat(HELD + player.account, player.name, True, until, player.account,
                player.rating, player.provisional)  # fmt: skip


def competition_room(
    lobby: Lobby,
    rid: str,
    tid: str,
    mode: str,
    sets: int,
    clock: float,
    players: list[Player],
    now: float,
) -> Room:
    """A new table of tournament `tid`, listed, its seats held for `players` in seat order
    (team 0 = seats 0 and 2 opens); each has the lobby's grace time to come."""
    options = {"tournament": tid, "opener": 0, "held": [p.account for p in players]}
    room = lobby.new_room(mode, sets, clock, False, rid, options=options)
    room.seats = [held_seat(p, now + lobby.grace) for p in players]
    room.changed(now)
    return lobby.add(room)


def take_held(room: Room, player: Player, now: float) -> tuple[int, Step]:
    """The paired player takes the seat held for them (or given up meanwhile); the match
    starts once every seat is taken. Anybody else is refused as from a full room."""
    held = room.options["held"]
    if player.account is None or player.account not in held:
        raise LobbyError("seat_taken", "A competition's table seats its paired players only.")
    if room.match is not None:
        raise LobbyError("not_now", "This table's match has been played.")
    seat = held.index(player.account)
    current = room.seats[seat]
    if current is not None and not current.sid.startswith(HELD):
        raise LobbyError("in_room", "You already have this seat (in another tab?).")
    # the room's own seat setter keeps the lobby's index of who sits where (package-private)
    room._seat_at(seat, player.seat(ready=True))
    room.rematch.clear()
    room.changed(now)
    return seat, room.start_if_ready(now)


def decided_elsewhere(room: Room, outcome: dict[str, Any], now: float) -> Step | None:
    """The table's result was decided outside its room (`outcome`: `sets` by team, `forfeit`
    the team that lost by absence or None, `withdrawn` True for a withdrawal): tell everybody
    in the room, stop the match and free every seat, so that the room closes and its players
    go on to their next table. None while the discs move: the caller tries again at rest."""
    if room.match is not None and room.match.motion is not None:
        return None
    data = {"room": room.id, "tournament": room.options.get("tournament"), **outcome}
    room.emit(Out("decided", data))
    for i in range(len(room.seats)):
        room._seat_at(i, None)
    room.rematch.clear()
    room.changed(now)
    return Step()
