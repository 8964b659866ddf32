"""Play the computer at Crokinole from the lobby in Chromium: the game chosen in the card,
the page moved to /crokinole/ with the match started, and the computer's shots ruled
there like a person's (docs/bot.md, "Crokinole")."""

from __future__ import annotations

from tests.web.test_client_crokinole import shoot
from tests.web.test_client_lobby_crokinole import on_crokinole_page
from tests.web.webtools import TIMEOUT_MS, enter, server_room


def test_play_the_computer_at_crokinole_from_the_lobby(game_server, new_page, artifacts):
    base = game_server(speed_factor=25, grace_seconds=120, bot_delay=0, bot_budget=0.3).url
    page = new_page()
    enter(page, base, "Maret")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    page.click("#computer-details summary")
    assert page.is_visible("#computer-form select[name=sets]")
    page.select_option("#computer-game", "crokinole")
    # one game, no stroke clock: Novuss's sets and clock are not offered (002)
    assert page.is_hidden("#computer-form select[name=sets]")
    assert page.is_hidden("#computer-form select[name=clock]")
    page.select_option("#computer-level", "3")
    page.click("#computer-play")
    room = on_crokinole_page(page, 0)
    assert [s["computer"] for s in server_room(base, room)["seats"]] == [None, 3]
    page.wait_for_function("window.crokinole.phase === 'play'", timeout=TIMEOUT_MS)
    # two shots of the player, each answered by a computer shot ruled on the page
    for _ in range(2):
        page.wait_for_function("window.crokinole.turn === 0", timeout=TIMEOUT_MS)
        left = page.evaluate("window.crokinole.round.shots_left[0]")
        shoot(page, 0)
        # my disc shot, then the computer's (002 2 a: alternate), ruled on the page
        page.wait_for_function(
            f"window.crokinole.round.shots_left[0] === {left - 1}"
            " && document.querySelector('#ruling').textContent.startsWith('The computer: ')"
            " && window.crokinole.turn === 0",
            timeout=TIMEOUT_MS,
        )
    page.screenshot(path=str(artifacts / "crokinole-computer.png"))
    record = server_room(base, room)
    assert record["game"] == "crokinole"
