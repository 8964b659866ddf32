"""A pair enters itself on the pages (issue 36): in a doubles competition a player fills
"Enter your pair or team" naming his partner; his page says it waits for the partner, whose
page (polling) offers to confirm it; once confirmed both are one entrant, and the organiser's
page lists the pair. axe-core finds nothing serious on the partner's page with it shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.test_client_a11y import serious
from tests.web.test_client_accounts import register
from tests.web.test_client_tournament import new_competition, open_registration

# a server of its own: names other tests play under as guests
pytestmark = pytest.mark.fresh_server


def test_a_player_enters_his_pair_and_the_partner_confirms(web_server, new_page):
    base = web_server
    org, pia, pete = new_page(), new_page(), new_page()
    for page, name in ((org, "Orga"), (pia, "Pia"), (pete, "Pete")):
        register(page, base, name)
    url = new_competition(org, base, "Pairs cup", sets=None, kind="doubles")
    open_registration(org)

    pia.goto(url)
    expect(pia.locator("#join")).to_be_hidden()  # a pair does not enter alone
    own = pia.locator("#enter-own")
    own.locator("input[name=name]").fill("Pia & Pete")
    own.locator("input[name=members]").fill("Pete")
    own.locator("button[type=submit]").click()
    expect(pia.locator("#your-requests li")).to_have_text(
        "Pia & Pete (Pia, Pete) · waiting for: Pete"
    )
    expect(pia.locator("#enter-own")).to_be_hidden()
    expect(pia.locator("#leave")).to_be_visible()  # she may take it back
    expect(org.locator("#requests li")).to_contain_text("waiting for: Pete", timeout=10_000)

    pete.goto(url)
    line = pete.locator("#your-requests li")
    expect(line).to_contain_text("Pia & Pete (Pia, Pete)")
    expect(pete.locator("#enter-own")).to_be_hidden()
    assert serious(pete) == []
    line.locator("button.confirm").click()
    expect(pete.locator("#your-requests")).to_be_hidden()
    expect(pete.locator("#entries li")).to_have_text("Pia & Pete (Pia, Pete)")
    expect(pete.locator("#leave")).to_be_visible()
    # the others' pages (polling) show the entry
    expect(pia.locator("#your-requests")).to_be_hidden(timeout=10_000)
    expect(pia.locator("#entries li")).to_have_text("Pia & Pete (Pia, Pete)")
    expect(org.locator("#entries li")).to_contain_text("Pia & Pete (Pia, Pete)", timeout=10_000)
    expect(org.locator("#requests li")).to_have_count(0)
