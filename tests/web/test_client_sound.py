"""The table's sounds (issue 19): a stroke seen with the sound on plays them through the Web
Audio API; with the switch off (remembered in the browser) the API is not touched."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.test_client_aiming import quick_pair
from tests.web.webtools import TABLE, publish, state, strike, wait_state

TIMEOUT = 30_000
# Count what the page asks of the Web Audio API: every sound starts a source or an oscillator.
COUNT_AUDIO = """(() => {
window.__audioCalls = 0;
for (const name of ["createBufferSource", "createOscillator"]) {
  const made = AudioContext.prototype[name];
  AudioContext.prototype[name] = function (...args) {
    window.__audioCalls += 1;
    return made.apply(this, args);
  };
}
})();"""


def audio_calls(page: Page) -> int:
    """How many sounds the page started through the Web Audio API."""
    return int(page.evaluate("window.__audioCalls"))


def test_a_stroke_sounds_with_the_sound_on_and_not_with_it_off(web_server, new_page, artifacts):
    me, other, _ = quick_pair(web_server, new_page)
    for page in (me, other):
        page.add_init_script(COUNT_AUDIO)
        page.evaluate(COUNT_AUDIO)
    # The striker's page mutes; the other keeps the sound (the default).
    assert other.get_attribute("#sound", "aria-pressed") == "true"
    me.click("#sound")
    assert me.get_attribute("#sound", "aria-pressed") == "false"
    assert "off" in (me.text_content("#sound") or "")
    assert state(me)["sounds"]["muted"] is True

    # A hard stroke straight up the table into the far row of pucks.
    aim = state(me)["aim"]
    strike(me, (aim["x"], TABLE - 40 if state(me)["side"] == "S" else 40), 160)
    for page in (me, other):  # the motion played out and its ruling shown
        wait_state(page, "s.ruling && s.ruling.stroke >= 1 && !s.moving && s.held === 0", TIMEOUT)
        assert state(page)["motionDraws"] > 0
    assert audio_calls(other) > 0 and state(other)["sounds"]["played"] > 0
    assert audio_calls(me) == 0 and state(me)["sounds"]["played"] == 0
    other.screenshot(path=str(artifacts / "table-after-stroke.png"))
    publish(artifacts / "table-after-stroke.png", "client-table.png")

    # Remembered: after a reload the switch is still off.
    me.reload()
    me.wait_for_selector("#sound[aria-pressed='false']", timeout=TIMEOUT)
