"""The GM's page of a by-post turn (issue 22, point 11): the resolve control and the players'
posts come first, in the first screen, and the NPCs' post forms fold away (closed <details>,
each still opened with one click and usable), so the page is a fraction of its old 5,900 px."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from characters.management.commands.seed_demo import D100_CAMPAIGN, D100_POST
from tests.browser.conftest import PHONE, sign_in
from tests.browser.test_live_table import DESKTOP

pytestmark = pytest.mark.browser

RESOLVE = "Rozstrzygnij turę teraz"
NPCS = ("Ghul 1", "Ghul 2", "Wampir 1")


def open_post_table(page: Page, base: str) -> None:
    page.goto(f"{base}/")
    page.get_by_role("link", name=D100_CAMPAIGN).first.click()
    page.get_by_role("link", name="Starcia", exact=True).first.click()
    page.get_by_role("link", name=D100_POST, exact=True).first.click()
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
    page.wait_for_function("() => window.eleoraSwaps.length > 0")


def test_the_gms_by_post_page_puts_the_resolve_first_and_folds_the_npc_forms(
    live_url: str, new_context: Callable[..., BrowserContext]
) -> None:
    page = new_context(**DESKTOP).new_page()
    sign_in(page, live_url, "mistrz")
    open_post_table(page, live_url)
    height = DESKTOP["viewport"]["height"]

    resolve = page.locator("#table-gm").get_by_role("button", name=RESOLVE)
    expect(resolve).to_be_visible()
    box = resolve.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, box  # in the first screen
    posts = page.locator("#table-gm .d100-posts").bounding_box()
    turn = page.locator("#table-turn").bounding_box()
    assert posts is not None and turn is not None and posts["y"] < turn["y"], (posts, turn)
    total = page.evaluate("() => document.documentElement.scrollHeight")
    assert total < 3000, total  # was about 5,900 px with every NPC's form open
    page.screenshot(path="build/screenshots/by-post-gm.png", full_page=True)

    # Each NPC's form is folded away; one click opens it, and it stays usable.
    for npc in NPCS:
        form = page.locator(f'#table-turn form[aria-label="Wpis: {npc}"]')
        expect(form).to_have_count(1)  # on the page, without JS too, but folded away
        expect(form).to_be_hidden()
    summaries = page.locator("#table-turn details.together-seat > summary")
    summaries.get_by_text("Ghul 1", exact=True).click()
    form = page.locator("#table-turn").get_by_role("form", name="Wpis: Ghul 1")
    expect(form).to_be_visible()
    form.get_by_label("Opis (wpis fabularny)").fill("Ghul wyje.")
    form.get_by_role("button", name="Wyślij wpis").click()
    expect(page.locator("#table-log")).to_contain_text("Mistrz Gry wpisuje za: Ghul 1")
    named = page.locator("strong").get_by_text("Ghul 1", exact=True)
    expect(page.locator("#table-gm .d100-posts li").filter(has=named)).to_contain_text("✓")


def test_on_a_phone_the_resolve_control_is_in_the_gms_first_screen(
    live_url: str, new_context: Callable[..., BrowserContext]
) -> None:
    page = new_context(**PHONE).new_page()
    sign_in(page, live_url, "mistrz")
    open_post_table(page, live_url)
    resolve = page.locator("#table-gm").get_by_role("button", name=RESOLVE)
    expect(resolve).to_be_visible()
    box = resolve.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["viewport"]["height"], box
    turn = page.locator("#table-turn").bounding_box()
    assert turn is not None and box["y"] < turn["y"], (box, turn)
    page.screenshot(path="build/screenshots/by-post-gm-phone.png", full_page=True)
