"""The account page's refusals in the player's language, where the eye is (issue 36, 7): they
were the server's English at the bottom of the page, and the eleventh registration from one
address was told "try again later" with no wait."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.test_client_accounts import PASSWORD
from tests.web.webtools import enter

# a server of its own: the per-address limits at their defaults (too many tries)
pytestmark = pytest.mark.fresh_server


def test_a_refusal_is_in_estonian_under_its_button_with_the_field_focused(web_server, new_page):
    base = web_server
    page = new_page(locale="et-EE")
    page.goto(base + "/account")
    form = page.locator("#register-form")
    form.locator("input[name=username]").fill("Ada")
    form.locator("input[name=password]").fill("short")
    form.locator("button[type=submit]").click()
    message = page.locator("#register-message")
    expect(message).to_have_text("Paroolis on vähemalt 10 märki.")
    expect(message).to_be_in_viewport()
    password = form.locator("input[name=password]")
    expect(password).to_be_focused()
    expect(password).to_have_attribute("aria-invalid", "true")
    expect(password).to_have_attribute("aria-describedby", "register-message")
    # reworded by a change of language, as the rest of the page
    page.select_option("#lang", "lv")
    page.wait_for_selector("html[lang=lv]")  # its catalog loaded (js/i18n.js)
    expect(message).to_have_text("Parolē ir vismaz 10 rakstzīmes.")
    page.select_option("#lang", "et")
    page.wait_for_selector("html[lang=et]")  # its catalog loaded (js/i18n.js)

    # ten registrations from this address (one made, nine of a taken name: no hash each)...
    for _ in range(10):
        r = page.request.post(
            base + "/api/account/register", data={"username": "Ada", "password": PASSWORD}
        )
        assert r.status in (200, 409), r.text()
    # ...and the eleventh is told how long to wait, in minutes
    form.locator("input[name=username]").fill("Bea")
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(message).to_contain_text("Siit on tehtud liiga palju katseid. Proovi uuesti")
    assert " minuti pärast." in message.inner_text()
    minutes = int(message.inner_text().split("uuesti ")[1].split(" ")[0])
    assert 1 <= minutes <= 15
    expect(password).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#member")).to_be_hidden()


def test_a_guest_typing_a_members_name_is_asked_again_in_the_page_language(
    web_server, new_page, browser
):
    """issue 37: a guest may not pass for a member; the name form says why, in Latvian."""
    base = web_server
    with browser.new_context() as other:  # the member registers in a browser of his own
        r = other.request.post(
            base + "/api/account/register", data={"username": "Zane", "password": PASSWORD}
        )
        assert r.status == 200, r.text()
    page = new_page(locale="lv-LV")
    enter(page, base, "Z\u0430ne")  # a Cyrillic а: reads as Zane
    error = page.locator("#name-error")
    expect(error).to_have_text(
        "Šis vārds pieder reģistrētam spēlētājam: izvēlies citu vai pieslēdzies kā šis spēlētājs."
    )
    expect(page.locator("#name-input")).to_be_focused()
    expect(page.locator("#name-input")).to_have_attribute("aria-invalid", "true")
    page.fill("#name-input", "Zane the guest")
    page.click("#name-form button[type=submit]")
    expect(page.locator("#screen-lobby")).to_be_visible()
    expect(error).to_be_hidden()
