"""The keyboard (issue 36, 10): each new screen takes the focus on its heading (entering the
lobby, creating or leaving a room: it was left on a button just hidden), the brown buttons'
focus ring is seen (3:1 against what is around it, WCAG 1.4.11), and a skip link leads past
the header to the screen."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

RING_JS = """(id) => {
  const b = document.getElementById(id);
  const s = getComputedStyle(b);
  return {visible: b.matches(':focus-visible'), style: s.outlineStyle, width: s.outlineWidth,
          ring: s.outlineColor, shadow: s.boxShadow, button: s.backgroundColor,
          card: getComputedStyle(b.closest('.card')).backgroundColor};
}"""


def luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def focused_id(page: Page) -> str:
    return str(page.evaluate("document.activeElement?.id ?? ''"))


def test_screens_take_the_focus_the_ring_is_seen_and_a_skip_link_leads_past_the_header(
    web_server, new_page
):
    page = new_page()
    page.goto(web_server)
    page.fill("#name-input", "Kaja")
    page.press("#name-input", "Enter")
    expect(page.locator("#lobby-title")).to_be_focused()  # entering the lobby
    page.locator("#create-btn").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#room-title")).to_be_focused()  # a room created
    page.locator("#room-leave").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#lobby-title")).to_be_focused()  # the room left

    # the brown button's ring, reached by the keyboard: a dark ring against the card, a
    # white one against the button
    page.keyboard.press("Tab")
    page.locator("#create-btn").focus()
    ring = page.evaluate(RING_JS, "create-btn")
    assert ring["visible"] and ring["style"] == "solid" and float(ring["width"][:-2]) >= 2, ring
    assert contrast(ring["ring"], ring["card"]) >= 3, ring
    white = re.match(r"rgb\([^)]*\)", ring["shadow"])
    assert white and contrast(white[0], ring["button"]) >= 3, ring

    # the page's first Tab stop, before the header's: the skip link, shown when focused; it
    # leads into the screen
    expect(page.locator("#rename")).to_be_visible()
    page.locator("#rename").focus()
    page.keyboard.press("Shift+Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    assert focused_id(page) == "main"
    page.keyboard.press("Tab")
    assert page.evaluate("!!document.activeElement.closest('#screen-lobby')")
