"""On a phone the finger pulls the cue back; the last roll of the finger as it lifts
does not change the shot."""

from __future__ import annotations

import math
import time

import msgpack
from playwright.sync_api import CDPSession, WebSocket

from tests.web.webtools import page_xy, state, to_world, wait_state


def touch(
    cdp: CDPSession,
    kind: str,
    x: float | None = None,
    y: float | None = None,
    at: float | None = None,
) -> None:
    """A touch event, stamped with the time it happened (`at`, s since the epoch): a
    busy machine may deliver it later, but the page sees when the finger moved."""
    points = [] if x is None else [{"x": x, "y": y}]
    event = {"type": kind, "touchPoints": points, "timestamp": time.time() if at is None else at}
    cdp.send("Input.dispatchTouchEvent", event)


def test_lifting_the_finger_does_not_change_the_shot(web_server, new_page):
    base = web_server
    phone = new_page(viewport=(390, 844), scale=3, has_touch=True, is_mobile=True)
    desk = new_page()
    sent = []
    sockets: list[WebSocket] = []

    def listen(ws: WebSocket) -> None:
        sockets.append(ws)
        ws.on("framesent", lambda f: sent.append(msgpack.unpackb(f)))

    phone.on("websocket", listen)
    for page, name in ((phone, "Liis"), (desk, "Mart")):
        page.goto(base)
        page.fill("#name-input", name)
        page.click("#name-form button[type=submit]")
        page.wait_for_selector("#screen-lobby:not([hidden])")
        page.click("#quick-singles")
    for page in (phone, desk):
        wait_state(page, "s.screen === 'screen-match' && s.phase === 'play'")
    if state(desk)["aim"] is not None:  # the phone strikes: the desk gives up the turn
        desk.click("#pass-btn")
    aim = wait_state(phone, "s.aim !== null && !s.moving && s.held === 0")["aim"]
    side = state(phone)["side"]

    # Press behind the striker and pull back slowly, straight ahead...
    ahead = to_world(side, aim["x"] if side in "SN" else 540.0, 1000.0)
    cdp = phone.context.new_cdp_session(phone)
    sx, sy = page_xy(phone, aim["x"], aim["y"])
    tx, ty = page_xy(phone, *ahead)
    ux, uy = (sx - tx) / math.hypot(sx - tx, sy - ty), (sy - ty) / math.hypot(sx - tx, sy - ty)
    # (a finger pressed near the striker would move it: start a finger's width away)
    touch(cdp, "touchStart", sx + ux * 45, sy + uy * 45)
    for k in range(1, 11):
        touch(cdp, "touchMove", sx + ux * (45 + 6 * k), sy + uy * (45 + 6 * k))
        time.sleep(0.02)  # the subject: a slow pull, a move every 20 ms
    time.sleep(0.25)  # the subject: the finger rests on the pull a moment before it rolls
    meant = state(phone)["aim"]
    assert meant["legal"] and meant["power"] > 0.3, meant
    # ...then the finger rolls sideways as it lifts.
    rolled = time.time()
    touch(cdp, "touchMove", sx + ux * 120 + 40, sy + uy * 120 - 30, at=rolled)
    # the test hears of the sent frame a little after the page sends it
    with sockets[-1].expect_event("framesent", lambda f: msgpack.unpackb(f)["t"] == "strike"):
        touch(cdp, "touchEnd", at=rolled + 0.015)
    phone.wait_for_function("window.__novuss.state.aim === null")
    strikes = [m for m in sent if m["t"] == "strike"]
    assert len(strikes) == 1, [m["t"] for m in sent]
    assert abs(strikes[0]["angle"] - meant["angle"]) < 1e-9, (strikes, meant)
    assert abs(strikes[0]["speed"] - meant["power"] * 8000.0) < 1e-6
