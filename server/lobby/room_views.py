"""What a room shows: its line in the lobby, the whole `room` message for a player or a
watcher, and its match record's header (with who may read a private one). Pure: read from the
room, nothing changed."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from server import wire
from server.games.registry import game

if TYPE_CHECKING:
    from server.lobby.room import Room


def invite_hash(invite: str) -> str:
    """What a private match's record keeps of its room's invite: a check, not the invite."""
    return hashlib.sha256(("invite:" + invite).encode()).hexdigest()


def record_for(
    record: dict[str, Any], invite: str | None, viewer: str | None = None
) -> dict[str, Any] | None:
    """A stored match record as served: a private match's only to who has its room's invite
    or played in it (`viewer`: the asking account's uid; to anybody else it does not exist),
    and never with its invite check."""
    access = record.pop("access", None)
    played = viewer is not None and any(
        p.get("account") == viewer for p in record.get("players", [])
    )
    if access is not None and not played and (invite is None or invite_hash(invite) != access):
        return None
    return record


def summary(room: Room) -> wire.RoomSummary:
    """The room as the lobby lists it."""
    return {
        "id": room.id,
        "game": room.game,
        "options": room.rule_options(),
        "mode": room.mode,
        "sets": room.sets,
        "clock": room.clock,
        "status": room.status,
        "players": [
            None if s is None else {"name": s.name, "ready": s.ready, **s.identity()}
            for s in room.seats
        ],
        "rated": room.rated,
        "watchers": room.watchers,
        "score": None if room.match is None else room.match.score(),
    }


def snapshot(room: Room, seat: int | None, now: float) -> wire.Room:
    """The full `room` message for a player at `seat` (None: a watcher)."""
    m = room.match
    sides = m.sides() if m is not None else [None] * len(room.seats)
    seats: list[wire.SeatView | None] = [
        None
        if s is None
        else {
            "seat": i,
            "team": room.team_of(i),
            "name": s.name,
            "ready": s.ready,
            "away": None if s.away_until is None else round(max(0.0, s.away_until - now), 1),
            "side": sides[i],
            **s.identity(),
        }
        for i, s in enumerate(room.seats)
    ]
    return {
        "t": "room",
        "seq": room.seq,
        "id": room.id,
        "game": room.game,
        "options": room.rule_options(),
        "mode": room.mode,
        "sets": room.sets,
        "clock": room.clock,
        "private": room.private,
        "rated": room.rated,
        "status": room.status,
        "watchers": room.watchers,
        "invite": room.invite if seat is not None else None,
        "you": {"role": "watcher" if seat is None else "player", "seat": seat},
        "seats": seats,
        "table": game(room.game).table_view(),
        "match": None if m is None else m.view(now),
        "discs": [] if m is None else m.discs(now),
        "motion": None if m is None or m.motion is None else m.motion.view(now, room.settings),
        "rematch": sorted(room.rematch),
    }


def record_header(room: Room) -> dict[str, Any]:
    """The match record's header: players, settings, times, result."""
    m = room.match
    assert m is not None  # only called with a match
    return {
        "id": m.id,
        "room": room.id,
        "game": room.game,
        "mode": room.mode,
        "sets": room.sets,
        "clock": room.clock,
        "players": [
            {
                "seat": i,
                "team": room.team_of(i),
                "name": s.name,
                "sid": s.sid,
                "account": s.account,
                # the computer's seat: its level, for a page to name it in the reader's language
                **({"computer": s.computer} if s.computer is not None else {}),
            }
            for i, s in room.seated()
        ],
        "rated": room.rated,
        "started": m.started,
        "ended": m.ended,
        "strokes": m.strokes,
        "score": m.score(),
        "result": m.state.match_result,
        "private": room.private,
        **({"access": invite_hash(room.invite)} if room.private and room.invite else {}),
        **({"aborted": True} if m.ended is not None and room.aborted() else {}),
    }
