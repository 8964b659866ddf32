"""A stroke's motion in the browser (docs/protocol.md, "Discs, motion and the table"): drawn
from its exact paths once per display frame (requestAnimationFrame), not per message; the
positions the page computes are the server's own (`DiscPath.position`), to the bit; a watcher
who joins mid-motion gets the paths and the time played and draws the rest of it, and every
page shows the ruling after the motion."""

from __future__ import annotations

from typing import Any

import msgpack
from playwright.sync_api import Page

from server.games.novuss.sim import Trajectory
from tests.web.test_client_aiming import quick_pair
from tests.web.webtools import TABLE, enter, state, strike, wait_state

TIMEOUT = 30_000

# Counts the page's display frames while its motion plays, beside the page's own drawing.
COUNT_RAF = """(() => {
  window.__rafs = 0;
  const tick = () => {
    requestAnimationFrame(tick);
    try {
      if (window.__novuss?.state.moving) window.__rafs += 1; // the hook is made after this
    } catch (err) {
      window.__rafErrors = String(err);
    }
  };
  requestAnimationFrame(tick);
})()"""

# The page's own sampler (js/replay-motion.js) at given stroke times.
SAMPLE = """async ({motion, times}) => {
  const { discsAt } = await import("/js/replay-motion.js");
  return times.map((t) => discsAt(motion, t).map((d) => [d.id, d.x, d.y]));
}"""


def server_positions(motion: dict[str, Any], t: float) -> list[list[float]]:
    """The discs on the table at stroke time t, by the physics' own DiscPath.position."""
    data = {"v": 1, "decel": motion["decel"], "duration": motion["duration"]}
    traj = Trajectory.from_compact({**data, "discs": motion["paths"]})
    return [[d.id, d.x, d.y] for d in traj.sample(t) if d.where == "table"]


def received(page: Page) -> list[dict[str, Any]]:
    """Every message the page's socket receives from now on."""
    got: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda f: got.append(msgpack.unpackb(f))),
    )
    return got


def test_the_motion_is_drawn_every_display_frame_from_the_servers_paths(game_server, new_page):
    base = game_server(speed_factor=0.5, grace_seconds=120).url  # long motions: join one
    me, other, _ = quick_pair(base, new_page)
    room = state(me)["room"]["id"]
    watcher = new_page()
    heard = received(watcher)
    enter(watcher, base, "Anna")
    watcher.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT)
    me.evaluate(COUNT_RAF)

    # A hard stroke straight up the table into the far row of pucks.
    aim = state(me)["aim"]
    strike(me, (aim["x"], TABLE - 40 if state(me)["side"] == "S" else 40), 160)
    wait_state(me, "s.moving", TIMEOUT)
    watcher.add_init_script(COUNT_RAF)  # counting before the page's own first frame
    watcher.goto(f"{base}/?room={room}")
    joined = wait_state(watcher, "s.moving && s.room?.you?.role === 'watcher'", TIMEOUT)
    motion = state(me)["motion"]
    assert joined["motion"]["paths"] == motion["paths"], "the same paths as the striker's"
    assert joined["played"] > 0.0, "joined mid-motion: the rest of it, not all of it again"

    # The page's positions are the server's, exactly, at any instant of the stroke.
    times = [motion["duration"] * k / 8 for k in range(9)]
    for page in (me, watcher):
        sampled = page.evaluate(SAMPLE, {"motion": motion, "times": times})
        assert sampled == [server_positions(motion, t) for t in times]

    for page in (me, other, watcher):  # the motion played out, then its ruling shown
        wait_state(page, "s.ruling?.stroke === 1 && !s.moving && s.held === 0", TIMEOUT)
    for page in (me, watcher):
        drawn, rafs = state(page)["motionDraws"], page.evaluate("window.__rafs")
        assert page.evaluate("window.__rafErrors") is None
        # one drawing per display frame while the discs move (a frame or so either end)
        assert rafs > 5 and abs(drawn - rafs) <= 2, (drawn, rafs)
    kinds = [m["t"] for m in heard if isinstance(m, dict)]
    assert "frame" not in kinds and kinds.index("room") < kinds.index("ruling"), kinds
