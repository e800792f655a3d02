"""The demo GM and a player, each in their own browser, see what their role allows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS, sign_in

pytestmark = pytest.mark.browser

CAMPAIGN = "Wilki z Czarnego Lasu"


def test_it_shows_the_gm_and_a_player_only_what_their_role_allows(live_url, new_context) -> None:
    gm = new_context(viewport={"width": 1280, "height": 900}).new_page()
    player = new_context(**PHONE).new_page()
    sign_in(gm, live_url, "mistrz")
    sign_in(player, live_url, "gracz1")

    # The GM runs the campaign: invite code, both players' characters and the NPC wolves.
    gm.get_by_role("link", name=CAMPAIGN).first.click()
    expect(gm.get_by_role("heading", name=CAMPAIGN)).to_be_visible()
    expect(gm.get_by_text("Radosław Szablista").first).to_be_visible()
    expect(gm.get_by_text("Milena Łuczniczka").first).to_be_visible()
    expect(gm.get_by_text("Wilk 1").first).to_be_visible()
    expect(gm.get_by_role("heading", name="Zaproszenie")).to_be_visible()
    expect(gm.locator(".invite-code")).to_have_text(re.compile(r"\S{6,}"))
    campaign_url = gm.url
    gm.screenshot(path=str(SCREENSHOTS / "gm-campaign.png"), full_page=True)

    # The player (on a phone) sees the party and their own character, never the NPCs.
    player.get_by_role("link", name=CAMPAIGN).first.tap()
    expect(player.get_by_role("heading", name=CAMPAIGN)).to_be_visible()
    expect(player.get_by_text("Wilk 1")).to_have_count(0)
    expect(player.locator(".invite-code")).to_have_count(0)
    player.get_by_role("link", name=re.compile("Radosław Szablista")).tap()
    expect(player.get_by_role("heading", name="Radosław Szablista")).to_be_visible()
    # Derived values come from the rules engine: Krzepa 3 → Zdrowie 9 + 3² = 18.
    expect(player.locator(".stat-derived", has_text="Zdrowie")).to_contain_text("18")
    expect(player.locator(".stat-derived", has_text="Obrona")).to_contain_text("4")
    player.screenshot(path=str(SCREENSHOTS / "player-sheet.png"), full_page=True)
    own_sheet = player.url

    # What is not the player's: the GM's pages and the other player's sheet.
    other = gm.get_by_role("link", name=re.compile("Milena Łuczniczka")).first.get_attribute("href")
    wolf = gm.get_by_role("link", name=re.compile("Wilk 1")).first.get_attribute("href")
    for path in (other, wolf, campaign_url.replace(live_url, "") + "bestiary/"):
        response = player.goto(f"{live_url}{path}")
        assert response is not None
        assert response.status in (403, 404), (path, response.status)

    # The player edits their own sheet on the phone; a value out of range is held back.
    player.goto(own_sheet)
    player.get_by_role("link", name="Edytuj").tap()
    krzepa = player.get_by_label("Krzepa", exact=True)
    krzepa.fill("99")
    player.get_by_role("button", name="Zapisz postać").tap()
    # The browser holds the form back (the server's own errors are tested in tests/characters).
    assert krzepa.evaluate("el => el.validity.rangeOverflow")
    expect(player.get_by_role("heading", name=re.compile("Edycja"))).to_be_visible()
    krzepa.fill("4")
    player.get_by_label("Notatki").fill("Blizna po wilczych kłach.")
    player.get_by_role("button", name="Zapisz postać").tap()
    expect(player.get_by_role("heading", name="Radosław Szablista")).to_be_visible()

    # The GM may open every sheet of the campaign and sees the player's change: 9 + 4² = 25.
    gm.goto(own_sheet)
    expect(gm.get_by_role("heading", name="Radosław Szablista")).to_be_visible()
    expect(gm.get_by_text("Blizna po wilczych kłach.")).to_be_visible()
    expect(gm.locator(".stat-derived", has_text="Zdrowie")).to_contain_text("25")
