"""The GM balances an encounter in the browser: the simulator answers in place (HTMX)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS, sign_in

pytestmark = pytest.mark.browser


def test_it_simulates_the_demo_party_against_three_wolves(live_url, new_context) -> None:
    gm = new_context(viewport={"width": 1100, "height": 900}).new_page()
    sign_in(gm, live_url, "mistrz")
    gm.get_by_role("link", name="Wilki z Czarnego Lasu").first.click()
    gm.get_by_role("link", name="Symulator starcia").click()

    gm.get_by_label("Radosław Szablista").check()
    gm.get_by_label("Milena Łuczniczka").check()
    gm.get_by_label("Wilk", exact=True).fill("3")
    gm.get_by_label("Liczba starć").fill("60")
    url_before = gm.url
    gm.get_by_role("button", name="Symuluj").click()

    result = gm.locator("#simulation")
    # 60 fights by the real rules: seconds of CPU when the other test worker is busy too.
    expect(result).to_contain_text("60 starć", timeout=30_000)
    shares = [int(t.rstrip("%")) for t in result.locator(".odds-value").all_inner_texts()]
    assert len(shares) == 3 and 99 <= sum(shares) <= 101
    assert gm.url == url_before  # swapped in place, no page load
    expect(gm.get_by_label("Radosław Szablista")).to_be_checked()
    gm.screenshot(path=str(SCREENSHOTS / "gm-simulator.png"), full_page=True)

    # A bad count is refused next to its field, and the previous inputs stay.
    gm.get_by_label("Wilk", exact=True).fill("0")
    gm.get_by_role("button", name="Symuluj").click()
    expect(gm.get_by_role("alert")).to_contain_text(re.compile("Wybierz przeciwników"))
    expect(result).not_to_contain_text("60 starć")
