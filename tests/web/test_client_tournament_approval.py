"""Entry with the organiser's approval on the pages (issue 37): the organiser ticks
"Entries need the organiser's approval" when he creates the competition; two players enter
and see their entries waiting; the organiser approves one and removes the other with a
reason, which that player's page shows him; the one approved is an entrant."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.test_client_accounts import register
from tests.web.test_client_tournament import new_competition, open_registration

# a server of its own: names other tests play under as guests
pytestmark = pytest.mark.fresh_server


def test_the_organiser_approves_one_entry_and_removes_another(web_server, new_page):
    base = web_server
    org, pia, pete = new_page(), new_page(), new_page()
    for page, name in ((org, "Orga"), (pia, "Pia"), (pete, "Pete")):
        register(page, base, name)

    url = new_competition(org, base, "Members' cup", sets=None, approval=True)
    expect(org.locator("#facts")).to_contain_text("entries approved by the organiser")
    open_registration(org)

    for page in (pia, pete):
        page.goto(url)
        page.click("#join")
        expect(page.locator("#you-pending")).to_be_visible()
        expect(page.locator("#join")).to_be_hidden()
        expect(page.locator("#leave")).to_be_visible()  # a request is taken back as an entry is
    requests = org.locator("#requests li")
    expect(requests).to_have_count(2, timeout=10_000)  # the organiser's page polls
    expect(org.locator("#entries li")).to_have_count(0)

    requests.filter(has_text="Pia").locator("button.approve").click()
    expect(requests).to_have_count(1)
    expect(org.locator("#entries li")).to_have_text(re.compile(r"^Pia\b"))
    org.fill("#reason", "Not a club member")
    requests.filter(has_text="Pete").locator("button.remove").click()
    expect(requests).to_have_count(0)
    expect(org.locator("#reason")).to_have_value("")

    # each player's page (polling) shows what became of his entry
    expect(pete.locator("#you-removed")).to_have_text(
        "The organiser removed your entry. Reason: Not a club member", timeout=10_000
    )
    expect(pete.locator("#you-pending")).to_be_hidden()
    expect(pete.locator("#join")).to_be_visible()  # removed, not barred
    expect(pia.locator("#you-pending")).to_be_hidden(timeout=10_000)
    expect(pia.locator("#entries li")).to_have_text("Pia")
    expect(pia.locator("#entries li button")).to_have_count(0)  # the organiser's only

    # an approved entrant is removed from the entries' list in the same way
    org.locator("#entries li", has_text="Pia").locator("button.remove").click()
    expect(org.locator("#entries li")).to_have_count(0)
    expect(pia.locator("#you-removed")).to_have_text(
        "The organiser removed your entry.", timeout=10_000
    )
