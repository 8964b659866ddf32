"""Crokinole practice in Chromium (docs/bot.md, "Practice"): chosen in the lobby's computer
card, the Crokinole page shows Hint and Take back to the seated player; a hint is drawn on
the board for the player's shot, and a take-back brings back the board before it."""

from __future__ import annotations

from tests.web.test_client_crokinole import shoot
from tests.web.test_client_lobby_crokinole import on_crokinole_page
from tests.web.webtools import TIMEOUT_MS, enter, server_room


def test_crokinole_practice_hint_and_take_back(game_server, new_page):
    # the computer waits 3 s before it shoots: time to take the player's shot back at rest
    base = game_server(speed_factor=25, grace_seconds=120, bot_delay=3, bot_budget=0.3).url
    page = new_page()
    enter(page, base, "Maret")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    page.click("#computer-details summary")
    page.select_option("#computer-game", "crokinole")
    page.check("#computer-form input[name=practice]")
    page.click("#computer-play")
    room = on_crokinole_page(page, 0)
    assert server_room(base, room)["options"] == {"practice": True}
    page.wait_for_selector("#practice:not([hidden])", timeout=TIMEOUT_MS)
    page.wait_for_function("window.crokinole.turn === 0", timeout=2 * TIMEOUT_MS)
    page.click("#hint-btn")
    hint = page.wait_for_function("window.crokinole.hint", timeout=3 * TIMEOUT_MS).json_value()
    assert hint["seat"] == 0 and hint["pocket"] is None
    before = page.evaluate("JSON.stringify([window.crokinole.discs, window.crokinole.round])")
    left = page.evaluate("window.crokinole.round.shots_left[0]")
    shoot(page, 0)
    page.wait_for_function(
        f"window.crokinole.round.shots_left[0] === {left - 1} && window.crokinole.turn === 1"
        " && window.crokinole.phase === 'play'",
        timeout=TIMEOUT_MS,
    )
    assert page.evaluate("window.crokinole.hint") is None  # gone with the shot
    page.click("#takeback-btn")
    page.wait_for_function(
        f"window.crokinole.round.shots_left[0] === {left} && window.crokinole.turn === 0",
        timeout=TIMEOUT_MS,
    )
    after = page.evaluate("JSON.stringify([window.crokinole.discs, window.crokinole.round])")
    assert after == before
    assert page.is_visible("#ruling-banner")  # "Your last stroke was taken back."
