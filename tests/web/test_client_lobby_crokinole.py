"""Crokinole from the main lobby in Chromium: a room created with the game's options, joined
from the list, a shot played on /crokinole/, and back to the lobby; quick match per game."""

from __future__ import annotations

import math

from playwright.sync_api import Page

from tests.web.test_client_crokinole import shoot
from tests.web.webtools import TIMEOUT_MS, enter, publish, server_room

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
    host.screenshot(path=str(artifacts / "lobby-crokinole-create.png"))
    publish(artifacts / "lobby-crokinole-create.png", "client-lobby-crokinole.png")
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
            f"document.querySelector('#ruling .line')?.dataset.seat === '{turn}'"
            f" && window.crokinole.turn === {1 - turn}",
            timeout=TIMEOUT_MS,
        )
    assert "(3 b)" in host.inner_text("#ruling")  # the first shot: no opposing disc in play
    # the ruling names the shooter: "You" to him, by name to the other (issue 34)
    assert shooter.inner_text("#ruling").startswith("You: ")
    other = {0: host, 1: guest}[1 - turn]
    assert other.inner_text("#ruling").startswith(("Maret: ", "Jaan: ")[turn])
    assert host.evaluate("window.crokinole.room.match.rules.options.direct_hit") is True

    # back to the lobby: out of the room (resigning the game), the lobby shown again
    guest.once("dialog", lambda dialog: dialog.accept())  # "Leaving resigns the match. Leave?"
    guest.click("#lobby")
    guest.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT_MS)
    host.wait_for_selector("#result:not([hidden])", timeout=TIMEOUT_MS)
    assert host.inner_text("#result-title") == "You won the match!"


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


def shoot_from(page: Page, quadrant: int) -> None:
    """Press on the shooting line a little off the middle of a quadrant (0 south, then
    clockwise seen from above), pull straight away from the centre, release."""
    board = page.evaluate("window.crokinole.board")
    box = page.locator("#board").bounding_box()
    assert box is not None
    width = page.evaluate("document.querySelector('#board').width")
    px = box["width"] / width * width / (board["size"] + 40)  # CSS px per mm
    cx, cy = board["centre"]
    a = -math.pi / 2 - quadrant * math.pi / 2 + 0.12
    x, y = cx + board["shooting_radius"] * math.cos(a), cy + board["shooting_radius"] * math.sin(a)
    sx, sy = box["x"] + (x + 20) * px, box["y"] + box["height"] - (y + 20) * px
    page.mouse.move(sx, sy)
    page.mouse.down()
    for k in (1, 2):
        page.mouse.move(sx + 30 * k * math.cos(a), sy - 30 * k * math.sin(a))
    page.mouse.up()


def test_three_players_each_alone_from_the_lobby(web_server, new_page):
    # 002 7 d): three colours, each his own quadrant, clockwise
    names = ("Anu", "Boris", "Cara")
    pages = [new_page() for _ in names]
    for page, name in zip(pages, names, strict=True):
        enter(page, web_server, name)
        page.wait_for_selector("#screen-lobby:not([hidden])")
    host = pages[0]
    host.check("input[name=game][value=crokinole]")
    host.select_option("select[name=players]", "3")
    assert host.is_disabled("select[name=scoring]")  # 002 4 g is between two sides
    host.click("#create-btn")
    room = on_crokinole_page(host, 0)
    for seat, page in enumerate(pages[1:], start=1):
        row = page.locator(f"#open-rooms li[data-room='{room}']")
        row.wait_for(timeout=TIMEOUT_MS)
        assert row.inner_text().startswith("Crokinole · 3 players")
        row.get_by_role("button", name="Join").click()
        on_crokinole_page(page, seat)
    for page in pages:
        page.click("#ready")
    for page in pages:
        page.wait_for_function("window.crokinole.phase === 'play'", timeout=TIMEOUT_MS)
    for _ in range(3):
        turn = host.evaluate("window.crokinole.turn")
        shoot_from(pages[turn], turn)
        for page in pages:
            page.wait_for_function(
                f"document.querySelector('#ruling .line')?.dataset.seat === '{turn}'"
                f" && window.crokinole.turn === {(turn + 1) % 3}",
                timeout=TIMEOUT_MS,
            )
    assert host.inner_text("#score").startswith("Game 0 to 0 to 0")
    assert host.evaluate("window.crokinole.round.shots_left") == [5, 5, 5]


def test_an_expired_session_token_gets_a_new_session_on_the_crokinole_page(web_server, new_page):
    page = new_page()
    page.add_init_script("localStorage.setItem('novuss.token', 'expired-token')")
    page.goto(web_server + "/crokinole/")
    page.wait_for_function("window.crokinole && window.crokinole.session", timeout=TIMEOUT_MS)
    assert page.evaluate("localStorage.getItem('novuss.token')") != "expired-token"
