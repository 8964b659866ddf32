"""What makes a room the computer's: its seats' sessions, and practice rooms. Read by the
computer's seats and by practice alike (so neither imports the other)."""

from __future__ import annotations

from server.lobby.room import Room

NAME = "Computer"  # as records and notation name it; the client names it in its language


def computer_sid(rid: str, seat: int) -> str:
    """The session id a computer seat sits under: unique to its room and seat."""
    return f"cpu-{rid}-{seat}"


def practice(room: Room) -> bool:
    """A practice room: hints and take-backs allowed, never rated."""
    return bool(room.options.get("practice"))


def computer_seats(room: Room) -> list[int]:
    """The seats the computer plays."""
    return [i for i, s in room.seated() if s.computer is not None]
