"""A room's kept events are bounded in bytes as well as in number (issue 37: 256 events of up
to ~3.6 KB held 0.9 MB for one room), and a resume past what is kept gets a whole room."""

from __future__ import annotations

from server.games.core.play import Out, Settings
from server.lobby.events import EVENT_BYTES
from server.lobby.room import Room

SETTINGS = Settings(speed_factor=20.0)


def test_the_event_buffer_is_bounded_in_bytes():
    room = Room("r1", "singles", 1, 30.0, False, SETTINGS, grace=120.0, buffer=256)
    line = "x" * 3000
    for _ in range(200):
        room.emit(Out("chat", {"seat": None, "name": "n", "text": line, "team": None}))
    kept = sum(len(e.packed) for e in room.events)
    assert kept == room.buffer.bytes <= EVENT_BYTES
    assert len(room.events) < 200 and room.events[-1].seq == room.seq == 200
    assert room.missed(room.seq - len(room.events), None) is not None  # what is kept replays
    assert room.missed(1, None) is None  # older: a whole room instead
    # a checkpoint's reload keeps the same bound
    back = Room.from_dict(room.to_dict(1.0), list(room.events), SETTINGS, 120.0, 256)
    assert back.buffer.bytes == kept and len(back.events) == len(room.events)


def test_small_events_are_still_bounded_by_count():
    room = Room("r1", "singles", 1, 30.0, False, SETTINGS, grace=120.0, buffer=8)
    for _ in range(20):
        room.emit(Out("chat", {"seat": None, "name": "n", "text": "hi", "team": None}))
    assert len(room.events) == 8
    assert room.buffer.bytes == sum(len(e.packed) for e in room.events)


def test_a_table_nobody_is_at_with_no_match_keeps_no_events():
    """Its last person dropped, a room with no match being played forgets its events (a
    return gets a whole `room`): issue 37, a rematch flood's abandoned rooms held 20 KB of
    events each for their 20 s. While somebody is still at the table, they are kept."""
    room = Room("r1", "singles", 1, 30.0, False, SETTINGS, grace=120.0, buffer=256)
    room.join("s1", "Anna", 0, None, 1.0)
    room.join("s2", "Berit", 1, None, 1.0)
    for _ in range(5):
        room.emit(Out("chat", {"seat": 0, "name": "Anna", "text": "hi", "team": None}))
    room.drop("s1", 2.0)
    assert len(room.events) > 6 and room.missed(1, None) is not None  # Berit is still there
    room.drop("s2", 3.0)
    assert [e.kind for e in room.events] == ["gone"] and room.buffer.bytes > 0
    assert room.missed(1, None) is None  # a return from before: a whole room
    assert room.seq == room.events[-1].seq  # the sequence goes on
