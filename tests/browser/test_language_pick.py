"""Polish unless the person picks English, on a browser set to English too; the pick follows
the account to another browser (issue #11, point 9)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

pytestmark = pytest.mark.browser

PASSWORD = "Angielski-Wybor-42"


def test_an_english_browser_opens_in_polish_and_the_pick_follows_the_account(
    live_url: str, new_context: Callable[..., BrowserContext]
) -> None:
    laptop = new_context(extra_http_headers={"Accept-Language": "en-GB,en;q=0.9"}).new_page()
    laptop.goto(f"{live_url}/accounts/login/")
    expect(laptop.locator("html")).to_have_attribute("lang", "pl")
    laptop.goto(f"{live_url}/signup/")  # a new account, so no other test sees its pick
    laptop.fill("#id_username", "anglofil")
    laptop.fill("#id_password1", PASSWORD)
    laptop.fill("#id_password2", PASSWORD)
    laptop.locator("main").get_by_role("button", name="Załóż konto").click()
    expect(laptop.get_by_role("link", name="Kampanie")).to_be_visible()
    laptop.get_by_role("button", name="EN").click()
    expect(laptop.locator("html")).to_have_attribute("lang", "en")
    expect(laptop.get_by_role("link", name="Campaigns")).to_be_visible()

    phone = new_context().new_page()  # another browser: Polish until she signs in
    phone.goto(f"{live_url}/accounts/login/")
    expect(phone.locator("html")).to_have_attribute("lang", "pl")
    phone.fill("#id_username", "anglofil")
    phone.fill("#id_password", PASSWORD)
    phone.locator("main").get_by_role("button", name="Zaloguj").click()
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    expect(phone.get_by_role("link", name="Campaigns")).to_be_visible()
