"""Accessibility of the main screens (issue 19), checked by axe-core (npm, web/package.json)
in Chromium: the name screen, the lobby, the table in a match, the account, profile and
leaderboard pages, the rules page and Learn to play have no serious or critical violation of
WCAG 2 A/AA (and axe's best practices)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.web.test_client_accounts import register
from tests.web.test_client_aiming import quick_pair
from tests.web.webtools import wait_state

# a server of its own: a name (Ada) other tests play under as guests
pytestmark = pytest.mark.fresh_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
TIMEOUT = 30_000
# a paged table (the profile's matches, the leaderboard) drawn: its "page n of m" is written last
PAGED = "document.getElementById('page-of').textContent !== ''"
RUN_AXE = """async () => {
  const r = await axe.run(document, { runOnly: { type: "tag",
    values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + n.failureSummary) }));
}"""


def serious(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def report(found: dict[str, list[dict[str, Any]]]) -> None:
    """Fail with every violation, by screen (also kept in artifacts/axe-<screen>.json)."""
    out = ARTIFACTS / "axe"
    out.mkdir(parents=True, exist_ok=True)
    for screen, violations in found.items():
        (out / f"{screen}.json").write_text(json.dumps(violations, indent=1))
    bad = {k: v for k, v in found.items() if v}
    assert not bad, json.dumps(bad, indent=1)


@pytest.fixture(autouse=True)
def _axe_installed() -> None:
    if not AXE.exists():
        pytest.fail("axe-core is missing: npm ci in web/")


# Its pages' 30 s waits ran out twice in four runs beside the parallel ones (the rules page
# never became ready); alone it passes. The cause is not found yet.
@pytest.mark.alone
def test_the_pages_outside_the_table_have_no_serious_violations(web_server, new_page):
    page = new_page()
    found: dict[str, list[dict[str, Any]]] = {}
    page.goto(web_server)
    page.wait_for_selector("#screen-name:not([hidden])", timeout=TIMEOUT)
    found["name"] = serious(page)
    page.fill("#name-input", "Ada")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT)
    found["lobby"] = serious(page)
    page.click("#create-btn")
    page.wait_for_selector("#screen-room:not([hidden])", timeout=TIMEOUT)
    found["waiting room"] = serious(page)
    page.click("#room-leave")
    page.wait_for_selector("#screen-lobby:not([hidden])", timeout=TIMEOUT)
    page.goto(f"{web_server}/account")
    page.wait_for_selector("#register-form", timeout=TIMEOUT)
    found["account"] = serious(page)
    register(page, web_server, "Ada")
    page.goto(f"{web_server}/u/Ada")
    page.wait_for_function("document.body.textContent.includes('Ada')", timeout=TIMEOUT)
    page.wait_for_function(PAGED, timeout=TIMEOUT)  # and the matches' table
    found["profile"] = serious(page)
    page.goto(f"{web_server}/leaderboard")
    page.wait_for_selector("#board", timeout=TIMEOUT)
    page.wait_for_function(PAGED, timeout=TIMEOUT)  # the board's rows shown
    found["leaderboard"] = serious(page)
    page.goto(f"{web_server}/rules.html#p-21-1")
    page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
    found["rules"] = serious(page)
    page.goto(f"{web_server}/learn")
    page.wait_for_selector("#lesson-list li", timeout=TIMEOUT)
    found["learn"] = serious(page)
    report(found)


def test_the_table_in_a_match_has_no_serious_violations(web_server, new_page):
    me, other, _ = quick_pair(web_server, new_page)
    found = {"striker": serious(me), "other": serious(other)}
    me.click("#pass-btn")  # a ruling on screen, with its why
    wait_state(me, "s.ruling !== null")
    me.wait_for_selector("#ruling .why summary", timeout=TIMEOUT)
    found["ruling"] = serious(me)
    me.once("dialog", lambda d: d.accept())
    me.click("#resign-btn")
    me.wait_for_selector("#result:not([hidden])", timeout=TIMEOUT)
    found["result"] = serious(me)
    report(found)
