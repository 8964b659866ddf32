"""A Swiss on its pages (issue 36, 9): the organiser is told at creation how many entrants its
rounds need and warned on its page when the entrants are too few to be sure of them all; one
that cannot pair its next round without a rematch ends and says why; its exports read
"standings (CSV) · printable page" (the cross-table's slot, a round robin's, left no gap)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, expect

from tests.web.test_client_accounts import PASSWORD, register

# a server of its own: a name (Orga) other tests take
pytestmark = pytest.mark.fresh_server


def ok(request: APIRequestContext, url: str, body: dict[str, Any] | None = None) -> Any:
    r = request.post(url, data=body or {})
    assert r.ok, (url, r.status, r.text())
    return r.json()


def test_a_swiss_warns_of_its_rounds_and_ends_when_it_cannot_be_paired(web_server, new_page):
    base = web_server
    org = new_page()
    register(org, base, "Orga")
    org.goto(base + "/tournaments")
    form = org.locator("#create")
    form.locator("input[name=name]").fill("Small Swiss")
    form.locator("select[name=system]").select_option("swiss")
    form.locator("input[name=rounds]").fill("4")
    expect(org.locator("#rounds-note")).to_contain_text(
        "4 rounds is sure to be paired to its end with at least 7 entrants"
    )
    form.locator("input[name=sets]").fill("1")
    form.locator("input[name=auto]").uncheck()
    form.locator("button[type=submit]").click()
    org.wait_for_url(re.compile(r"/tournaments/t[0-9a-f]+$"))
    url = org.url
    api = url.replace("/tournaments/", "/api/tournaments/")
    org.click("#open")
    expect(org.locator("#status")).to_have_text("registration open")
    for i in range(5):
        player = new_page()
        r = player.request.post(
            base + "/api/account/register", data={"username": f"Swp{i}", "password": PASSWORD}
        )
        assert r.ok, r.text()
        ok(player.request, api + "/join")
    warning = org.locator("#rounds-warning")
    expect(warning).to_have_text(
        "With 5 entrants only 3 of the 4 rounds are sure to be paired: if a round cannot be "
        "paired without a rematch, the competition ends before it, with the standings it has."
    )
    # the exports: no empty slot where a round robin's cross-table would be
    exports = org.inner_text("p:has(> #csv-standings)")
    assert " ".join(exports.split()) == "standings (CSV) · printable page", exports

    # five entrants, the one who rests in round 1 withdraws, the four left meet each other by
    # round 3: round 4 cannot be paired without a rematch
    doc = ok(org.request, api + "/start")
    for rnd in (1, 2, 3):
        (shown,) = [r for r in doc["rounds"] if r["round"] == rnd]
        for t in shown["tables"]:
            body = {"round": rnd, "a": t["a"], "b": t["b"], "sets_a": 1, "sets_b": 0}
            doc = ok(org.request, api + "/result", body)
        if rnd == 1:
            (bye,) = [e["id"] for e in doc["entries"] if e["name"] == shown["byes"][0]]
            doc = ok(org.request, api + "/withdraw", {"entrant": bye})
        doc = ok(org.request, api + "/next")
    expect(org.locator("#status")).to_have_text("finished", timeout=10_000)  # the page polls
    expect(org.locator("#ended-unpaired")).to_have_text(
        "Ended after round 3 of 4: the next round could not be paired without a rematch. "
        "These standings are final."
    )
    expect(warning).to_be_hidden()
    expect(org.locator("#standings tbody tr")).to_have_count(4)
