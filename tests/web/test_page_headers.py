"""Every page but the table's names the same places in its header (a player who opened the
leaderboard could reach the lessons or the competitions only by the lobby), in the player's
language, the page open marked as the current one rather than linked to itself."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page

PLACES = ["/learn", "/tournaments", "/leaderboard", "/rules.html", "/account"]
PAGES = {"/learn": "/learn", "/account": "/account", "/leaderboard": "/leaderboard",
         "/u/nobody": None, "/tournaments": "/tournaments", "/tournaments/nope": None,
         "/rules.html": "/rules.html", "/m/nope": None}  # fmt: skip


def header_links(page: Page) -> list[dict[str, str | None]]:
    """The header's links: where each goes, its words, whether it is the page open."""
    links: list[dict[str, str | None]] = page.eval_on_selector_all(
        "#topbar-menu a",
        """links => links.map(a => ({href: a.getAttribute("href"), text: a.textContent.trim(),
             current: a.getAttribute("aria-current")}))""",
    )
    return links


def test_every_page_names_the_same_places_and_marks_its_own(
    web_server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    for path, own in PAGES.items():
        page.goto(web_server + path)
        page.wait_for_load_state("networkidle")
        links = header_links(page)
        assert [a["href"] for a in links] == PLACES, path
        assert [a["href"] for a in links if a["current"] == "page"] == ([own] if own else [])
    estonian = new_page(locale="et-EE")
    estonian.goto(web_server + "/leaderboard")
    estonian.wait_for_load_state("networkidle")
    texts = [a["text"] for a in header_links(estonian)]
    assert "võistlused" in texts and "õpi mängima" in texts, texts
