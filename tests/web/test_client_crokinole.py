"""The Crokinole page in Chromium: create a room, two players, a few shots, the score shown."""

from __future__ import annotations

from playwright.sync_api import Page


def shoot(page: Page, seat: int) -> None:
    """Press on the shooting line of the seat's quadrant, pull away from the centre, release."""
    box = page.locator("#board").bounding_box()
    assert box is not None
    x = box["x"] + box["width"] * 0.44
    edge, pull = (0.95, 60) if seat == 0 else (0.05, -60)  # seat 0 south, seat 1 north
    y = box["y"] + box["height"] * edge
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + pull / 2)
    page.mouse.move(x, y + pull)
    page.mouse.up()


def test_a_crokinole_room_in_the_browser(web_server, new_page, artifacts):
    host = new_page()
    host.goto(web_server + "/crokinole/")
    host.wait_for_function(
        "window.crokinole && document.querySelector('#status').dataset.state === 'open'"
    )
    host.click("#create")
    host.wait_for_function("window.crokinole.room && window.crokinole.board")
    room = host.evaluate("window.crokinole.room.id")
    guest = new_page()
    guest.goto(f"{web_server}/crokinole/?room={room}")
    guest.wait_for_function(
        "window.crokinole && window.crokinole.room && window.crokinole.seat === 1"
    )
    for page in (host, guest):
        page.click("#ready")
    for page in (host, guest):
        page.wait_for_function("window.crokinole.phase === 'play'")
    pages = {0: host, 1: guest}
    for _ in range(4):
        turn = host.evaluate("window.crokinole.turn")
        shoot(pages[turn], turn)
        for page in (host, guest):
            page.wait_for_function(
                f"document.querySelector('#ruling .line')?.dataset.seat === '{turn}'"
                f" && window.crokinole.turn !== {turn}",
                timeout=20_000,
            )
    for page in (host, guest):  # each shot drawn from its paths, frame after frame
        assert page.evaluate("window.crokinole.motionDraws") > 4
    text = host.inner_text("#ruling")
    assert "(3 " in text  # the paragraph of seed 002's valid-shot rule
    assert host.inner_text("#score").startswith("Game 0 to 0 · twenties")
    assert host.evaluate("window.crokinole.board.pegs.length") == 8
    host.screenshot(path=str(artifacts / "crokinole-board.png"))
    # The page's language switcher rewords what is on screen at once (docs/client.md).
    host.select_option("#lang", "et")
    host.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)
    assert host.inner_text("#score").startswith("Mäng 0 : 0 · 20 augus")
    # the shooter named to the reader: "you" for his own shot (issue 34)
    assert host.inner_text("#ruling").startswith("Sina: " if turn == 0 else "Player: ")
    assert host.text_content("#create") == "Loo Crokinole'i tuba"
    host.select_option("#lang", "lv")
    host.wait_for_selector("html[lang=lv]")  # its catalog loaded (js/i18n.js)
    assert host.inner_text("#ruling").startswith("Tu: " if turn == 0 else "Player: ")
    assert guest.inner_text("#ruling").startswith("You: " if turn == 1 else "Player: ")
