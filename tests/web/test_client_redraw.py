"""When the table is drawn (web/js/redraw.js, docs/client.md "Drawing"): every display frame
while something moves, at once after a message or an input, and otherwise ten times a second
for what changes slowly (the clock's ring), not sixty times a second for a still picture."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.test_client_aiming import quick_pair
from tests.web.webtools import state, wait_state

# Display frames counted in the page, with the time they took.
COUNT_FRAMES = """n => new Promise(done => {
  const start = performance.now();
  const step = () => (n-- <= 0 ? done(performance.now() - start) : requestAnimationFrame(step));
  requestAnimationFrame(step);
})"""


def frames(page: Page, n: int) -> float:
    """Wait for `n` display frames of the page; the milliseconds they took."""
    return float(page.evaluate(COUNT_FRAMES, n))


def test_a_still_table_is_drawn_ten_times_a_second_and_an_input_at_once(game_server, new_page):
    base = game_server(speed_factor=4, grace_seconds=120).url
    _, other, _ = quick_pair(base, new_page)
    # the other player's table: nothing moves, no highlight fades, the clock not in its last
    # seconds (its ring pulses then, every frame)
    still = "!s.moving && s.held === 0 && !s.animating && s.clockRing?.left > 10"
    wait_state(other, still)
    before = state(other)["draws"]
    took = frames(other, 60)
    drawn = state(other)["draws"] - before
    assert not state(other)["animating"], "still throughout"
    assert 1 <= drawn <= took / 100 + 2, f"{drawn} drawings in {took:.0f} ms of 60 frames"

    # An input is drawn at the next frame: the pointer moved over the table 20 times, a frame
    # after each (ten times a second alone would draw a few).
    box = other.locator("#table").bounding_box()
    assert box is not None
    before = state(other)["draws"]
    for k in range(20):
        other.mouse.move(box["x"] + 50 + 5 * k, box["y"] + box["height"] / 2)
        frames(other, 1)
    assert state(other)["draws"] - before >= 20
