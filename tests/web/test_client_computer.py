"""Play the computer from the lobby, in practice: the computer is named with its level, a
hint is asked for and drawn on the table, the player strikes by mouse from the hint's
placement along its aim, and takes the stroke back (docs/bot.md, "In the product")."""

from __future__ import annotations

import math

from tests.web.webtools import colours_in, drag, enter, frames_drawn, state, strike, wait_state

HINT_BLUE = (1, 7, 14)  # #1e7be0 in colours_in's 4-bit channels
TABLE_BOX = (0.0, 0.0, 0.7, 1.0)  # the canvas's part of the page


def test_play_the_computer_ask_a_hint_see_it_drawn_strike(game_server, new_page, artifacts):
    # the computer waits 3 s or more before it strikes: the take-back comes first
    base = game_server(speed_factor=4, grace_seconds=120, bot_delay=3, bot_budget=0.3).url
    page = new_page()
    enter(page, base, "Maret")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    page.screenshot(path=str(artifacts / "computer-lobby.png"))
    page.click("#computer-details summary")  # the card opens
    page.select_option("#computer-level", "1")
    page.check("#computer-form input[name=practice]")
    page.click("#computer-play")
    s = wait_state(page, "s.screen === 'screen-match' && s.phase !== null")
    assert s["room"]["seats"][1]["computer"] == 1
    assert "Computer (level 1)" in page.inner_text("#players")

    mine = "s.phase === 'play' && !s.moving && s.held === 0 && s.turn === s.room.you.seat"
    wait_state(page, mine + " && s.aim !== null", timeout=180_000)
    assert page.is_visible("#hint-btn") and page.is_visible("#takeback-btn")
    before = page.screenshot(path=str(artifacts / "computer-before-hint.png"))
    assert before
    assert HINT_BLUE not in colours_in(page, artifacts / "computer-before-hint.png", TABLE_BOX)
    discs = sorted((d["id"], d["x"], d["y"]) for d in state(page)["discs"])

    page.click("#hint-btn")
    hint = wait_state(page, "s.hint !== null", timeout=120_000)["hint"]
    frames_drawn(page)  # the hint is drawn
    page.screenshot(path=str(artifacts / "computer-hint.png"))
    assert HINT_BLUE in colours_in(page, artifacts / "computer-hint.png", TABLE_BOX)

    # strike by mouse: the striker to the hint's placement, the cue along its aim
    aim = state(page)["aim"]
    drag(page, (aim["x"], aim["y"]), (hint["x"], hint["y"]))
    placed = state(page)["aim"]
    assert math.hypot(placed["x"] - hint["x"], placed["y"] - hint["y"]) < 3.0
    toward = (hint["x"] + 200 * math.cos(hint["angle"]), hint["y"] + 200 * math.sin(hint["angle"]))
    strike(page, toward, 60.0)
    wait_state(page, "s.ruling !== null && s.ruling.seat === s.room.you.seat && !s.moving")
    assert state(page)["hint"] is None  # a hint is for one position

    page.click("#takeback-btn")
    wait_state(page, mine)
    back = sorted((d["id"], d["x"], d["y"]) for d in state(page)["discs"])
    assert back == discs
