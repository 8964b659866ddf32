"""A private doubles room fills its four seats through the interface: the invite link
opened in the address bar, and the invite code pasted in the lobby. Partners sit
opposite; team chat reaches the partner only."""

from __future__ import annotations

from tests.web.webtools import enter, state, wait_state


def test_doubles_room_fills_four_seats(web_server, new_page, artifacts):
    base = web_server
    host = new_page()
    enter(host, base, "Maret")
    host.wait_for_selector("#screen-lobby:not([hidden])")
    host.check("input[name=mode][value=doubles]")
    host.select_option("select[name=sets]", "1")
    host.check("input[name=private]")
    host.click("#create-btn")
    host.wait_for_selector("#invite-box:not([hidden])")
    link = host.input_value("#invite-link")
    assert "/r/" in link
    seats = host.locator("#seats .seat")
    assert seats.count() == 4
    assert "Team A" in seats.nth(0).inner_text() and "Team B" in seats.nth(1).inner_text()

    # Two arrive by the link itself, one pastes the link into the lobby.
    guests = []
    for name in ("Jaan", "Ivo"):
        page = new_page()
        page.goto(link)
        page.fill("#name-input", name)
        page.click("#name-form button[type=submit]")
        guests.append(page)
    paster = new_page()
    enter(paster, base, "Tiit")
    paster.wait_for_selector("#screen-lobby:not([hidden])")
    paster.fill("#invite-input", link)
    paster.click("#invite-form button[type=submit]")
    players = [host, *guests, paster]
    for page in players:
        wait_state(page, "s.screen === 'screen-room' && s.room.seats.every((x) => x)")

    # The waiting room says who is missing until everybody is ready.
    assert "not ready" in host.inner_text("#room-missing")
    host.screenshot(path=str(artifacts / "client-doubles-room.png"))
    for name in ("Maret", "Jaan", "Ivo", "Tiit"):
        assert name in host.inner_text("#seats")
    for page in players:
        page.click("#ready-btn")
    for page in players:
        wait_state(page, "s.screen === 'screen-match' && s.phase === 'play'")

    by_seat = {state(p)["room"]["you"]["seat"]: p for p in players}
    assert sorted(by_seat) == [0, 1, 2, 3]
    sides = {seat: state(p)["side"] for seat, p in by_seat.items()}
    assert len(set(sides.values())) == 4
    opposite = {"S": "N", "N": "S", "W": "E", "E": "W"}
    assert sides[2] == opposite[sides[0]] and sides[3] == opposite[sides[1]], sides
    assert host.locator("#players .player").count() == 4

    # Team chat reaches the partner (seat 2), not the other team; room chat reaches all.
    sender = by_seat[0]
    sender.click("#match-chat-slot .chat-tabs button[data-channel=team]")
    sender.fill("#match-chat-slot input[name=text]", "<b>left</b> corner")
    sender.press("#match-chat-slot input[name=text]", "Enter")
    partner_log = by_seat[2].locator("#match-chat-slot .chat-log")
    partner_log.get_by_text("<b>left</b> corner").wait_for()  # as text, not as markup
    assert by_seat[2].locator("#match-chat-slot .chat-log b").count() == 0
    sender.click("#match-chat-slot .chat-tabs button[data-channel=room]")
    sender.fill("#match-chat-slot input[name=text]", "good luck all")
    sender.press("#match-chat-slot input[name=text]", "Enter")
    for seat in (1, 3):
        log = by_seat[seat].locator("#match-chat-slot .chat-log")
        log.get_by_text("good luck all").wait_for()
        assert "left" not in log.inner_text()
        assert "(seat 1)" in log.inner_text(), "the writer's seat beside the name"

    # A fifth person with the link finds the table full and watches instead.
    late = new_page()
    late.goto(link)
    late.fill("#name-input", "Mari")
    late.click("#name-form button[type=submit]")
    s = wait_state(late, "s.screen === 'screen-match' && s.room?.you?.role === 'watcher'")
    assert s["room"]["id"] == state(host)["room"]["id"]
    assert late.is_hidden("#resign-btn") and late.is_hidden("#pass-btn")
