"""Every page and answer carries the security headers (issue 37: none had them): a Content
Security Policy (scripts, styles, images and connections from this server only, no framing
by another site), nosniff and a Referrer-Policy; and the pages still work under the policy
in Chromium (no violation reported, the page's own script ran)."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable

from playwright.sync_api import Page

from server.games.novuss.lessons import lesson
from tests.web.webtools import enter

PAGES = ["/", "/learn", "/account", "/leaderboard", "/u/nobody", "/tournaments", "/rules.html",
         "/m/nope"]  # fmt: skip


def headers_of(url: str) -> dict[str, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return dict(r.headers)
    except urllib.error.HTTPError as e:  # a 404 page carries them too
        return dict(e.headers)


def test_every_answer_carries_the_security_headers(web_server) -> None:
    for path in [*PAGES, "/js/app.js", "/api/lessons", "/healthz", "/api/matches/nope"]:
        h = headers_of(web_server + path)
        csp = h.get("Content-Security-Policy", "")
        assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp, (path, h)
        assert "script-src 'self'" in csp and "object-src 'none'" in csp, path
        assert h.get("X-Content-Type-Options") == "nosniff", path
        assert h.get("Referrer-Policy") == "same-origin", path
        assert h.get("X-Frame-Options") == "DENY", path


def test_the_pages_work_under_the_policy(web_server, new_page: Callable[..., Page]) -> None:
    page = new_page(bypass_csp=False)
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    for path in PAGES:  # a script or style refused would be reported on the console
        page.goto(web_server + path)
        page.wait_for_load_state("networkidle")
    # a lesson's try, as learn.js sends it, under the policy's connect-src
    page.goto(web_server + "/learn")
    s = lesson("direct").solution[0]
    shot = {"x": s.x, "y": s.y, "angle": s.angle, "speed": s.speed}
    status = page.evaluate(
        """async (shot) => (await fetch("/api/lessons/direct", {method: "POST",
             headers: {"Content-Type": "application/json"},
             body: JSON.stringify({shots: [shot]})})).status""",
        shot,
    )
    assert status == 200
    # the lobby's module ran and its websocket connected under the policy's connect-src
    enter(page, web_server, "Csp")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    assert violations == [], violations
