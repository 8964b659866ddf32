"""The replay viewer's suggestion and turning points in Chromium (issue 36; docs/notation.md
"The replay viewer"): at a step, "What would the computer strike here?" draws the computer's
stroke on the table (the canvas changes) and words it with the referee's expected ruling
(legal, as the server judged it); another step hides it, coming back shows it again; the
button is off where nobody strikes. The turning points are listed and ticked under the
timeline, and a click goes to one, which the step's heading then names. axe-core finds
nothing serious on the page with them shown. A Crokinole match's suggestion is drawn on its
board (its place ringed) and its ruling worded."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re

from playwright.sync_api import expect

from tests.replay.test_notation_e2e import start_room
from tests.replay.test_replay_viewer_e2e import resign_at_rest, shoot_crokinole
from tests.server.server_client import close_all, connected
from tests.web.test_client_a11y import serious
from tests.web.test_replay_viewer import TIMEOUT_MS, get, play_short_match, wait_index
from tests.web.test_replay_viewer_crokinole import pixel
from tests.web.webtools import frames_drawn

CANVAS = "document.getElementById('replay-canvas').toDataURL()"


def test_the_computers_stroke_is_drawn_and_the_turning_points_marked(game_server, new_page):
    srv = game_server(speed_factor=25)
    mid = play_short_match(srv.ws_url, 4)
    rep = get(f"{srv.url}/api/matches/{mid}/replay")
    turns = rep["turning"]
    assert turns and turns[-1]["why"] == "match"  # the resignation decides it

    page = new_page()
    page.goto(f"{srv.url}/m/{mid}")
    wait_index(page, 0)
    # the turning points: one button and one tick each; a click goes there
    expect(page.locator("#replay-turns button")).to_have_count(len(turns))
    expect(page.locator("#replay-marks span")).to_have_count(len(turns))
    last = page.locator("#replay-turns button").last
    expect(last).to_contain_text("the match is decided")
    last.click()
    wait_index(page, turns[-1]["index"])
    assert "turning point: " in page.inner_text("#replay-position")
    expect(last).to_have_attribute("aria-current", "step")
    # the match is over there: nobody strikes, nothing to suggest
    expect(page.locator("#replay-suggest")).to_be_disabled()

    # at the start: the computer's stroke drawn and worded, legal as the server judged it
    page.keyboard.press("Home")
    wait_index(page, 0)
    plain = page.evaluate(CANVAS)
    page.click("#replay-suggest")
    page.wait_for_function("window.__replay.suggestion !== null", timeout=TIMEOUT_MS)
    frames_drawn(page)
    served = page.evaluate("window.__replay.suggestion")
    assert served["legal"] is True and served["seat"] == rep["start"]["turn"]
    text = page.inner_text("#replay-suggestion")
    names = {p["seat"]: p["name"] for p in rep["players"]}
    assert f"The computer (level 5) would strike for {names[served['seat']]}:" in text
    assert "Expected: a legal stroke." in text
    if served["pocket"]:  # the hole as that player sees it, not a compass code
        assert re.search(r"in the (near|far) (left|right) hole", text), text
    assert page.locator("#replay-suggestion li").count() >= 1  # the ruling's lines
    assert page.evaluate(CANVAS) != plain  # drawn on the table
    # another step: gone; back: shown again, as kept
    page.keyboard.press("ArrowRight")
    wait_index(page, 1)
    expect(page.locator("#replay-suggestion")).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    wait_index(page, 0)
    expect(page.locator("#replay-suggestion")).to_contain_text("Expected: a legal stroke.")
    assert page.evaluate(CANVAS) != plain
    assert serious(page) == []  # axe-core: nothing serious, the new parts shown
    # in Estonian
    page.select_option("#lang", "et")
    expect(page.locator("#replay-suggestion")).to_contain_text("Oodatav: reeglipärane löök.")
    expect(page.locator("#replay-turns button").last).to_contain_text("mäng on otsustatud")


def play_crokinole_shots(ws_url: str, shots: int) -> str:
    """Kro (seat 0) and Kinole shoot `shots` shots at the 20-hole; Kro resigns: the match."""

    async def play() -> str:
        a, b = await connected(ws_url, "Kro", "Kinole")
        await start_room(a, b, private=False, game="crokinole")
        await asyncio.gather(shoot_crokinole(a, shots), shoot_crokinole(b, shots))
        mid = await resign_at_rest(a, b)
        await close_all(a, b)
        return mid

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread
        return pool.submit(asyncio.run, play()).result(timeout=180)


def test_a_crokinole_suggestion_is_drawn_on_the_board_and_judged(game_server, new_page):
    srv = game_server(speed_factor=25)
    mid = play_crokinole_shots(srv.ws_url, 3)
    page = new_page()
    page.goto(f"{srv.url}/m/{mid}")
    wait_index(page, 0)
    page.keyboard.press("ArrowRight")
    wait_index(page, 1)  # after the first shot: the other colour to shoot
    board = get(f"{srv.url}/api/matches/{mid}/replay")["table"]
    page.evaluate("(b) => { window.__replayBoard = b; }", board)  # for pixel(): the scale
    served = get(f"{srv.url}/api/matches/{mid}/replay/step/1/suggestion")
    shot = served["shot"]
    plain = pixel(page, shot["x"], shot["y"])
    page.click("#replay-suggest")
    page.wait_for_function("window.__replay.suggestion !== null", timeout=TIMEOUT_MS)
    frames_drawn(page)
    assert page.evaluate("window.__replay.suggestion") == served  # kept: the same shot
    assert pixel(page, shot["x"], shot["y"]) != plain  # its place ringed in blue
    expected = "Expected: a legal stroke." if served["legal"] else "Expected: a foul."
    expect(page.locator("#replay-suggestion")).to_contain_text(expected)
    assert page.locator("#replay-suggestion li").count() == 1  # the ruling in words
