"""A competition in the browser (docs/competitions.md): an organiser creates a round robin on
/tournaments and opens registration, two players enter on its page, the organiser starts it,
each player's page takes him to his table when the round starts, one resigns, both are taken
back to the competition's page, and the organiser's page shows the standings and the
cross-table updated."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_client_accounts import register
from tests.web.webtools import wait_state

# a server of its own: names (Orga, Pia, Pete) other tests play under as guests
pytestmark = pytest.mark.fresh_server


def new_competition(
    org: Page,
    base: str,
    name: str,
    sets: str | None = "1",
    kind: str | None = None,
    approval: bool = False,
) -> str:
    """The organiser's competition made with the create form (its name, and the sets, kind
    and approval asked); the address of its page, where he is."""
    org.goto(base + "/tournaments")
    form = org.locator("#create")
    form.locator("input[name=name]").fill(name)
    if sets is not None:
        form.locator("input[name=sets]").fill(sets)
    if kind is not None:
        form.locator("select[name=kind]").select_option(kind)
    if approval:
        form.locator("input[name=approval]").check()
    form.locator("button[type=submit]").click()
    org.wait_for_url(re.compile(r"/tournaments/t[0-9a-f]+$"))
    return org.url


def open_registration(org: Page) -> None:
    """The organiser opens the registration, on his competition's page."""
    org.click("#open")
    expect(org.locator("#status")).to_have_text("registration open")


def join_all(org: Page, url: str, players: tuple[Page, ...]) -> None:
    """Each player joins from the competition's page; the organiser's page lists them."""
    for page in players:
        page.goto(url)
        page.click("#join")
        expect(page.locator("#leave")).to_be_visible()
    expect(org.locator("#entries li")).to_have_count(len(players), timeout=10_000)


def to_the_table(page: Page, name: str) -> None:
    """The page went to /?join=<room>: the table's client takes the seat under the player's
    account, asking no name (issue 36: an empty name form met him there)."""
    page.wait_for_url(re.compile(r"/\?(join|room)="), timeout=20_000)  # ?room= once seated
    wait_state(page, "s.screen === 'screen-room' || s.screen === 'screen-match'", timeout=30_000)
    assert page.inner_text("#me-name") == name


def test_organiser_creates_players_join_play_and_the_standings_update(web_server, new_page):
    base = web_server
    org, pia, pete = new_page(), new_page(), new_page()
    for page, name in ((org, "Orga"), (pia, "Pia"), (pete, "Pete")):
        register(page, base, name)

    url = new_competition(org, base, "Saturday cup")
    open_registration(org)
    join_all(org, url, (pia, pete))
    org.click("#start")
    expect(org.locator("#status")).to_have_text("being played")
    expect(org.locator("#rounds a.watch")).to_have_count(1)  # a live link to watch the match

    # the round starts: each player's page takes him to his table
    to_the_table(pia, "Pia")
    to_the_table(pete, "Pete")
    for page in (pia, pete):
        wait_state(page, "s.screen === 'screen-match' && s.phase === 'play'", timeout=30_000)
    pia.on("dialog", lambda d: d.accept())
    pia.click("#resign-btn")
    wait_state(pete, "s.phase === 'over'", timeout=30_000)
    # a competition's table plays one match: its players are taken back to the competition
    for page in (pia, pete):
        page.wait_for_url(url, timeout=20_000)
    expect(pete.locator("#standings tbody tr").first).to_contain_text("Pete", timeout=10_000)

    # the organiser's page (polling) shows the result, the standings and the cross-table
    expect(org.locator("#status")).to_have_text("finished", timeout=20_000)
    first = org.locator("#standings tbody tr").first
    expect(first).to_contain_text("Pete")
    expect(first.locator("td").nth(2)).to_have_text("2")
    expect(org.locator("#rounds .outcome")).to_have_count(1)
    cells = org.locator("#crosstable tbody td").all_inner_texts()
    assert "1:0" in cells and "0:1" in cells
    # the printable page and the CSV
    org.goto(url + "/print")
    expect(org.locator("#standings tbody tr")).to_have_count(2)
    csv = org.request.get(url.replace("/tournaments/", "/api/tournaments/") + "/standings.csv")
    assert csv.ok and csv.text().splitlines()[1].split(",")[1] == "Pete"
