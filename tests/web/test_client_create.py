"""Creating a room while Redis is slow to write: the creator gets the room and keeps it.

The regression test of an intermittent CI failure of test_doubles_room_fills_four_seats (the
invite box never appeared): the hub listed the new room, empty, then awaited its lease in
Redis; a tick of the clock loop in that gap closed the room as empty, so the creator got a
`left` (sometimes after the `room`) and the page went back to the lobby. Holding Redis writes
for a moment makes that gap longer than a tick, every time."""

from __future__ import annotations

import redis

from tests.web.webtools import enter, state, wait_state

PAUSE_MS = 300  # three ticks of the clock loop (tick_seconds 0.1)


def test_create_while_redis_is_slow(game_server, new_page):
    srv = game_server(speed_factor=2, grace_seconds=120)
    host = new_page()
    enter(host, srv.url, "Maret")
    host.wait_for_selector("#screen-lobby:not([hidden])")
    host.check("input[name=private]")
    with redis.Redis.from_url(srv.redis_url) as r:
        r.execute_command("CLIENT", "PAUSE", str(PAUSE_MS), "WRITE")
    host.click("#create-btn")
    host.wait_for_selector("#invite-box:not([hidden])", timeout=5_000)
    s = state(host)
    assert s["screen"] == "screen-room" and s["room"]["you"] == {"role": "player", "seat": 0}

    # The room is real on the server: a guest with the invite link takes the other seat.
    guest = new_page()
    guest.goto(host.input_value("#invite-link"))
    # The page asks the name once it knows the visitor has no account (GET /api/account).
    guest.wait_for_selector("#screen-name:not([hidden])")
    # A newcomer is not greeted by a red "offline", and knows there is an invitation.
    assert not guest.is_visible("#conn")
    assert "invited" in guest.inner_text("#name-invite")
    guest.fill("#name-input", "Jaan")
    guest.click("#name-form button[type=submit]")
    for page in (host, guest):
        wait_state(page, "s.screen === 'screen-room' && s.room.seats.every((x) => x)")
    # Still the creator's seat once the pause has long ended (the guest's seat is a write
    # Redis took after it, and the room stayed open all along: a tick that closed it empty
    # would have sent the creator back to the lobby).
    assert state(host)["room"]["you"] == {"role": "player", "seat": 0}
    # The invitee sees who invited them, and to what.
    assert "Maret invited you to singles" in guest.inner_text("#room-invited")
