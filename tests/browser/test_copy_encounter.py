"""The GM copies an encounter (issue 22, point 12d): on the campaign's encounters page one
click makes a new encounter, not started, that opens with the same map (size, terrain) and
the same tokens on the same fields."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from characters.management.commands.seed_demo import CAMPAIGN, ENCOUNTER
from tests.browser.conftest import sign_in
from tests.browser.test_live_table import DESKTOP

pytestmark = pytest.mark.browser


def open_table(page: Page) -> None:
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
    page.wait_for_function("() => window.eleoraSwaps.length > 0")


def board(page: Page) -> tuple[dict[str, str | None], list[tuple[str | None, str | None]]]:
    """The map's size and terrain as drawn, and each token's (field, title)."""
    slot = page.locator("#table-map-terrain")
    drawn = {name: slot.get_attribute(f"data-{name}") for name in ("geometry", "cols", "rows")}
    drawn["terrain"] = page.locator("#map-terrain").inner_html()
    tokens = page.locator("#map-tokens .map-token")
    fields = [
        (tokens.nth(i).get_attribute("data-field"), tokens.nth(i).locator("title").text_content())
        for i in range(tokens.count())
    ]
    return drawn, sorted(fields, key=str)


def test_the_gm_copies_an_encounter_and_sees_its_map(
    live_url: str, new_context: Callable[..., BrowserContext]
) -> None:
    page = new_context(**DESKTOP).new_page()
    sign_in(page, live_url, "mistrz")
    page.goto(f"{live_url}/")
    page.get_by_role("link", name=CAMPAIGN).first.click()
    page.get_by_role("link", name="Starcia", exact=True).first.click()
    encounters = page.url
    page.get_by_role("link", name=ENCOUNTER, exact=True).first.click()
    open_table(page)
    expect(page.locator("#map-tokens .map-token").first).to_be_visible()
    source = board(page)
    assert source[1], source  # the demo's map has its tokens

    page.goto(encounters)
    page.get_by_role("button", name=f"Kopiuj starcie: {ENCOUNTER}").click()
    expect(page.get_by_role("heading", name=f"{ENCOUNTER} (kopia)")).to_be_visible()
    expect(page.get_by_text("Skopiowano starcie: mapa i skład są gotowe do walki.")).to_be_visible()
    open_table(page)
    expect(page.locator("#table-status")).to_contain_text("Przygotowanie")
    expect(page.locator("#map-tokens .map-token")).to_have_count(len(source[1]))
    assert board(page) == source
    page.screenshot(path="build/screenshots/copied-encounter.png", full_page=True)
