"""Lists are never stale: what the GM changes in the campaign shows at the open table at once,
without any action at the table (issue #11, point 4)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import sign_in
from tests.browser.test_live_table import DESKTOP, campaign_url, create_encounter

pytestmark = pytest.mark.browser

ONLINE = re.compile(r"\bconn-online\b")


def open_table(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#conn")).to_have_class(ONLINE)
    page.wait_for_function("() => window.eleoraSwaps.length > 0")  # the first push is in


def test_it_shows_a_creature_made_in_another_tab_in_the_gms_add_list(
    live_url: str, new_context: Callable[..., BrowserContext]
) -> None:
    gm = new_context(**DESKTOP)
    table = gm.new_page()
    sign_in(table, live_url, "mistrz")
    open_table(table, create_encounter(table, live_url, "Świeże listy"))
    add_list = table.locator("#table-gm #gm-add")
    expect(add_list).to_contain_text("Wilk")
    expect(add_list).not_to_contain_text("Upiór z bagien")
    seq = table.locator("#table").get_attribute("data-seq")

    bestiary = gm.new_page()  # the GM's second tab: the campaign's bestiary
    bestiary.goto(campaign_url(bestiary, live_url))
    bestiary.get_by_role("link", name="Bestiariusz").first.click()
    bestiary.get_by_role("link", name="Nowy stwór").click()
    bestiary.locator("#id_name").fill("Upiór z bagien")
    bestiary.get_by_role("button", name="Zapisz").click()
    expect(bestiary.get_by_role("heading", name="Upiór z bagien")).to_be_visible()

    expect(add_list.get_by_label("Upiór z bagien")).to_be_visible()
    assert table.locator("#table").get_attribute("data-seq") == seq  # no table action

    # Removed in the other tab: gone from the list, again with nothing done at the table.
    bestiary.goto(bestiary.url.rstrip("/") + "/delete/")
    bestiary.get_by_role("button", name="Usuń").click()
    expect(add_list).not_to_contain_text("Upiór z bagien")
    expect(add_list).to_contain_text("Wilk")

    # A reload shows the same list: the socket's first push does not bring back an old one.
    open_table(table, table.url)
    expect(table.locator("#table-gm #gm-add")).not_to_contain_text("Upiór z bagien")
