"""Learn to play (docs/client.md, "Learn to play"): reached from the lobby, a lesson played
on the table in the browser and judged by the server's referee (server/lessons), in the
page's language; a missed try says so and starts again."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.webtools import (
    enter,
    page_xy,
    place_striker,
    publish,
    px_per_mm,
    state,
    wait_state,
)

TIMEOUT = 30_000
DIRECT_PUCK = (880.0, 860.0)  # server/games/novuss/lessons/catalog.py: "direct"'s puck


def aim_pot(page: Page, puck: tuple[float, float], pocket: str) -> None:
    """Click the puck, then again until the aim sends it into `pocket`."""
    x, y = page_xy(page, *puck)
    for _ in range(5):
        page.mouse.click(x, y)
        if state(page)["aim"]["pocket"] == pocket:
            return
    raise AssertionError(f"no aim into {pocket}: {state(page)['aim']}")


def note_over_a_hole(page: Page) -> bool:
    """Does the word beside the aim cover part of a hole (js/aim-note.js)?"""
    box = page.locator("#aim-note").bounding_box()
    assert box is not None
    size, inset, radius = 1080.0, 60.0, 40.0  # web/js/table.js COMPETITION, 004 § 33 (1) 1)
    k = px_per_mm(page)
    for hx, hy in [
        (inset, inset),
        (size - inset, inset),
        (inset, size - inset),
        (size - inset,) * 2,
    ]:
        px, py = page_xy(page, hx, hy)
        nx = min(max(px, box["x"]), box["x"] + box["width"])
        ny = min(max(py, box["y"]), box["y"] + box["height"])
        if (px - nx) ** 2 + (py - ny) ** 2 < (radius * k) ** 2:
            return True
    return False


def power(page: Page, percent: int) -> None:
    """The power by the keyboard: Shift+↑ adds 5 %."""
    page.focus("#table")
    for _ in range(percent // 5):
        page.keyboard.press("Shift+ArrowUp")
    assert round(state(page)["aim"]["power"] * 100) == percent


def test_a_lesson_is_done_at_the_table_with_the_referees_answer(web_server, new_page, artifacts):
    page = new_page()
    enter(page, web_server, "Learner")
    page.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT)
    page.click("#learn-link")
    page.wait_for_url("**/learn**")
    page.wait_for_selector("#lesson-list li", timeout=TIMEOUT)
    assert page.locator("#lesson-list [data-game=novuss]").count() == 7
    page.select_option("#lang", "et")
    page.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)
    page.click("[data-lesson=direct]")
    assert page.text_content("#lesson-title") == "2. õppetund: Löö seib otse auku"
    assert page.get_attribute("#lesson-cite", "href") == "/rules.html#p-21-1"

    # a miss first: the referee's answer, "not yet", and the try starts again
    wait_state(page, "s.aim !== null", TIMEOUT)
    power(page, 5)
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer:not([hidden])", timeout=TIMEOUT)
    assert page.get_attribute("#verdict", "data-done") == "0"
    assert "Veel mitte" in page.text_content("#verdict")
    page.click("#again")

    # the task: place the striker, aim the puck into the NE hole, strike
    place_striker(page, 180.0)
    aim_pot(page, DIRECT_PUCK, "NE")
    assert "vaba" in page.text_content("#aim-note")  # pressing it said it is free
    assert not note_over_a_hole(page), "the word about the aim hides a hole"
    power(page, 20)
    page.keyboard.press("Enter")
    page.wait_for_selector("#verdict[data-done='1']", timeout=TIMEOUT)
    lines = page.locator("#answer-lines li").all_text_contents()
    assert any("auku" in line for line in lines), lines  # the referee's words, in Estonian
    assert "Tehtud" in page.text_content("#announce")
    assert page.get_attribute("[data-lesson=direct] >> xpath=..", "data-done") == "1"
    page.screenshot(path=str(artifacts / "learn-done.png"))
    publish(artifacts / "learn-done.png", "client-learn.png")
    # remembered: the tick is there after a reload, and the lesson can be replayed
    page.reload()
    page.wait_for_selector("#lesson-list li[data-done='1']", timeout=TIMEOUT)
    assert page.text_content("#lesson-title").startswith("2.")
    assert page.is_hidden("#answer")


def test_lessons_check_what_they_teach_and_say_how_to_strike(web_server, new_page):
    """Issue 36, 3: lesson 1's striker starts where it may not stay (red, 004 § 20 (2)); the
    page says how to strike; a stroke touching no puck is not the penalty lesson done; the
    last lesson done leads on to playing the computer."""
    page = new_page()
    page.goto(web_server + "/learn#place")
    page.wait_for_selector("#lesson-list li", timeout=TIMEOUT)
    s = wait_state(page, "s.aim !== null", TIMEOUT)
    assert s["aim"]["legal"] is False and s["aim"]["reason"] == "touching", s["aim"]
    assert page.text_content("#learn-hint")  # says why it may not stay there
    how = page.locator("#learn-how")
    assert how.is_visible() and "pull back" in how.inner_text()

    page.click("[data-lesson=penalty]")
    s = wait_state(page, "s.aim !== null", TIMEOUT)
    place_striker(page, 150.0)  # straight up the left side: touching no puck
    power(page, 10)
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer:not([hidden])", timeout=TIMEOUT)
    assert page.get_attribute("#verdict", "data-done") == "0"
    assert page.is_hidden("#after-lessons")
    # the learner's own stroke read to "you" (issue 36, 4: "placed for You", "their pucks")
    lines = page.locator("#answer-lines li").all_text_contents()
    assert any("your striker touched no puck" in x for x in lines), lines
    assert any("placed for you in the edge zone opposite you" in x for x in lines), lines
    assert not any("You" in x or "their" in x for x in lines), lines

    page.click("[data-lesson=opening]")
    place_striker(page, 180.0)
    aim_pot(page, DIRECT_PUCK, "NE")  # the opening lesson's last puck lies where lesson 2's does
    power(page, 20)
    page.keyboard.press("Enter")
    page.wait_for_selector("#verdict[data-done='1']", timeout=TIMEOUT)
    link = page.locator("#after-lessons a")
    assert link.is_visible() and link.get_attribute("href") == "/#computer-form"
