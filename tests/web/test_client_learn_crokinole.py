"""Learn to play, Crokinole (server/games/crokinole/lessons.py): the lessons listed beside
Novuss's, a lesson's board drawn and shot in Chromium as in a Crokinole room (press by the
shooting line, pull back, let go), a shot that does not do the task judged "not yet" by the
referee, the task done, and the game's last lesson leading on to playing the computer."""

from __future__ import annotations

import math

from playwright.sync_api import Page

from server.games.crokinole.board import TOURNAMENT as B
from server.games.crokinole.match import OFFSET
from tests.web.webtools import publish, wait_state

TIMEOUT = 30_000
FULL_PULL = 150.0  # mm of pull for full power (web/js/crokinole-board.js `flick`)


def shoot(page: Page, polar_deg: float, tx: float, ty: float, slide: float) -> None:
    """Press on the shooting line at `polar_deg` (the learner's quarter is the south one),
    pull back away from (tx, ty) (the rules' coordinates, from the centre) as far as makes
    the disc stop `slide` mm beyond it, and let go."""
    a = math.radians(polar_deg)
    sx, sy = B.shooting_radius * math.cos(a), B.shooting_radius * math.sin(a)
    d = math.hypot(tx - sx, ty - sy) + slide
    speed = math.sqrt(2.0 * B.decel * d)
    pull = speed / (0.5 * B.max_speed) * FULL_PULL
    ux, uy = (tx - sx) / math.hypot(tx - sx, ty - sy), (ty - sy) / math.hypot(tx - sx, ty - sy)
    at = page.evaluate("([x, y]) => window.__novuss.crokinole.toPage(x, y)",
                       [sx + OFFSET, sy + OFFSET])  # fmt: skip
    to = page.evaluate("([x, y]) => window.__novuss.crokinole.toPage(x, y)",
                       [sx - pull * ux + OFFSET, sy - pull * uy + OFFSET])  # fmt: skip
    wait_state(page, "window.__novuss.crokinole.enabled", TIMEOUT)
    page.mouse.move(*at)
    page.mouse.down()
    page.mouse.move(*to, steps=10)
    shown = page.text_content("#learn-power")
    assert shown == f"{round(min(1.0, pull / FULL_PULL) * 100)}%", shown  # the power, as pulled
    page.mouse.up()


def test_a_crokinole_lesson_is_done_on_the_board(web_server, new_page, artifacts):
    page = new_page()
    page.goto(web_server + "/learn")
    page.wait_for_selector("#lesson-list li", timeout=TIMEOUT)
    assert page.locator("#lesson-list [data-game=crokinole]").count() == 3
    page.click("[data-lesson=crokinole-line]")
    page.wait_for_selector("#crok-board", state="visible", timeout=TIMEOUT)
    assert page.is_hidden("#table-wrap") and page.is_hidden("#learn-how")
    how = page.locator("#crok-how")
    assert how.is_visible() and "Pull back" in how.inner_text()  # how to shoot, said
    assert page.text_content("#lesson-cite") == "The rule: 002 5, 3 b"  # the paragraph taught
    # nothing of the Novuss striker's warnings (lesson 1's, open before) stays
    page.wait_for_function("document.getElementById('learn-hint').textContent === ''")

    # a press and release with no pull shoots nothing and leaves nothing on the line
    wait_state(page, "window.__novuss.crokinole.enabled", TIMEOUT)
    at = page.evaluate("() => window.__novuss.crokinole.toPage(330.2, 30)")
    page.mouse.click(*at)
    assert page.evaluate("window.__novuss.crokinole.aim") is None
    assert page.evaluate("window.__novuss.crokinole.enabled") is True
    assert page.is_hidden("#answer")
    # by the keys: the power set, shown, and let go (Esc) with nothing shot
    page.focus("#crok-board")
    for _ in range(3):
        page.keyboard.press("Shift+ArrowUp")
    page.wait_for_function("document.getElementById('learn-power').textContent === '15%'")
    page.keyboard.press("Escape")
    assert page.evaluate("window.__novuss.crokinole.aim") is None
    assert page.is_hidden("#answer")

    # too soft: the disc stops short of the 15 line, an invalid shot (002 3 b): not done
    shoot(page, -67.5, 0.0, -200.0, 0.0)
    page.wait_for_selector("#answer:not([hidden])", timeout=TIMEOUT)
    assert page.get_attribute("#verdict", "data-done") == "0"
    lines = page.locator("#answer-lines li").all_text_contents()
    assert any("15" in x and "(3 b)" in x for x in lines), lines
    page.click("#again")

    # between two pegs into the 15: a valid shot, the lesson done
    shoot(page, -67.5, 0.0, 0.0, -50.0)
    page.wait_for_selector("#verdict[data-done='1']", timeout=TIMEOUT)
    assert page.get_attribute("[data-lesson=crokinole-line] >> xpath=..", "data-done") == "1"
    assert page.is_hidden("#after-lessons")  # more Crokinole lessons follow
    page.click("#next")
    page.wait_for_function("location.hash === '#crokinole-twenty'", timeout=TIMEOUT)
    assert "20" in page.text_content("#lesson-title")

    # the last lesson: the opponent's disc must be hit (002 3 a)
    page.click("[data-lesson=crokinole-hit]")
    shoot(page, -90.0, 60.0, -160.0, 100.0)
    page.wait_for_selector("#verdict[data-done='1']", timeout=TIMEOUT)
    page.screenshot(path=str(artifacts / "learn-crokinole.png"))
    publish(artifacts / "learn-crokinole.png", "client-learn-crokinole.png")
    link = page.locator("#after-lessons a")
    assert link.is_visible() and link.get_attribute("href") == "/?game=crokinole#computer-form"
    link.click()
    page.wait_for_selector("#computer-game", state="attached", timeout=TIMEOUT)
    page.wait_for_function(
        "document.getElementById('computer-game').value === 'crokinole'", timeout=TIMEOUT
    )
