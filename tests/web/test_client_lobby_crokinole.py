"""Crokinole from the main lobby in Chromium: a room created with the game's options, joined
from the list, a shot played on /crokinole/, and back to the lobby; quick match per game."""

from __future__ import annotations

from playwright.sync_api import Page
from test_client_crokinole import shoot
from webtools import TIMEOUT_MS, enter, server_room

SEATED = "window.crokinole?.room?.id === '{room}' && window.crokinole.seat === {seat}"


def on_crokinole_page(page: Page, seat: int) -> str:
    """Wait until the page has moved to /crokinole/ and holds `seat`; the room's id."""
    page.wait_for_url("**/crokinole/?room=*", timeout=TIMEOUT_MS)
    page.wait_for_function(
        f"window.crokinole?.room && window.crokinole.seat === {seat}", timeout=TIMEOUT_MS
    )
    return str(page.evaluate("window.crokinole.room.id"))


def test_a_crokinole_room_from_the_lobby_joined_from_the_list(web_server, new_page, artifacts):
    host = new_page()
    enter(host, web_server, "Maret")
    host.wait_for_selector("#screen-lobby:not([hidden])")
    host.check("input[name=game][value=crokinole]")
    assert host.is_visible("#crokinole-options") and not host.is_visible("#novuss-options")
    host.select_option("select[name=scoring]", "conventional")
    host.fill("input[name=target]", "60")
    host.check("input[name=direct_hit]")
    assert host.is_disabled("input[name=free_order]")  # 002 7 c: doubles only
    host.click("#create-btn")
    room = on_crokinole_page(host, 0)
    # the same session as in the lobby: the seat was resumed, not a second one taken
    assert server_room(web_server, room)["options"] == {
        "scoring": "conventional",
        "target": 60,
        "direct_hit": True,
    }

    guest = new_page()
    enter(guest, web_server, "Jaan")
    row = guest.locator(f"#open-rooms li[data-room='{room}']")
    row.wait_for(timeout=TIMEOUT_MS)
    assert row.inner_text().startswith("Crokinole · Singles · to 60 (4 g) · direct hit (7 a)")
    assert "Maret v …" in row.inner_text()
    guest.screenshot(path=str(artifacts / "lobby-crokinole-row.png"))
    row.get_by_role("button", name="Join").click()
    assert on_crokinole_page(guest, 1) == room
    players = [s["name"] for s in server_room(web_server, room)["seats"]]
    assert players == ["Maret", "Jaan"]

    for page in (host, guest):
        page.click("#ready")
    for page in (host, guest):
        page.wait_for_function("window.crokinole.phase === 'play'", timeout=TIMEOUT_MS)
    turn = host.evaluate("window.crokinole.turn")
    shooter = {0: host, 1: guest}[turn]
    shoot(shooter, turn)
    for page in (host, guest):
        page.wait_for_function(
            f"document.querySelector('#ruling').textContent.startsWith('Seat {turn + 1}')"
            f" && window.crokinole.turn === {1 - turn}",
            timeout=TIMEOUT_MS,
        )
    assert "(3 b)" in host.inner_text("#ruling")  # the first shot: no opposing disc in play
    assert host.evaluate("window.crokinole.room.match.rules.options.direct_hit") is True

    # back to the lobby: out of the room (resigning the game), the lobby shown again
    guest.click("#lobby")
    guest.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT_MS)
    host.wait_for_function(
        "document.querySelector('#round').textContent.includes('colour 1 wins')",
        timeout=TIMEOUT_MS,
    )


def test_quick_crokinole_from_the_lobby(web_server, new_page):
    pages = [new_page(), new_page()]
    for page, name in zip(pages, ("Anu", "Boris"), strict=True):
        enter(page, web_server, name)
        page.wait_for_selector("#screen-lobby:not([hidden])")
        page.select_option("#quick-game", "crokinole")
        page.click("#quick-singles")
    rooms = {on_crokinole_page(page, seat) for seat, page in enumerate(pages)}
    assert len(rooms) == 1
    for page in pages:
        page.wait_for_function("window.crokinole.phase === 'play'", timeout=TIMEOUT_MS)
    assert server_room(web_server, rooms.pop())["game"] == "crokinole"
