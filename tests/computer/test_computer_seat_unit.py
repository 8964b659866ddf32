"""A computer seat is part of the room's stored state: it round-trips through the checkpoint
with its level, and every view names it (pure: no server)."""

from __future__ import annotations

from server.computer.rooms import NAME, computer_seats, computer_sid, practice
from server.games.core.play import Settings
from server.lobby.room import Room
from server.lobby.seat import Player, Seat


def test_a_computer_seat_round_trips_through_the_checkpoint():
    seat = Player("cpu-r1-1", NAME, computer=4).seat(ready=True)
    assert Seat.from_dict(seat.to_dict()) == seat
    assert seat.identity()["computer"] == 4
    person = Seat.from_dict({k: v for k, v in Player("s1", "Mari").seat().to_dict().items()
                             if k != "computer"})  # fmt: skip  # a checkpoint from before
    assert person.computer is None


def test_a_room_with_computer_seats_keeps_them_after_a_reload():
    room = Room("r1", "doubles", 1, 30.0, False, Settings(), 120.0, options={"practice": True})
    room.join(Player("s0", "Mari"), "Mari", 0, None, 0.0)
    for i in (1, 2, 3):
        sid = computer_sid(room.id, i)
        room.join(Player(sid, NAME, computer=2), NAME, i, None, 0.0)
    back = Room.from_dict(room.to_dict(0.0), [], Settings(), 120.0, 256)
    assert computer_seats(back) == [1, 2, 3] and practice(back)
    assert [p and p["computer"] for p in back.summary()["players"]] == [None, 2, 2, 2]
    seats = back.snapshot(None, 0.0)["seats"]
    assert [s and s["computer"] for s in seats] == [None, 2, 2, 2]
    assert back.rated is False
