"""A page closed for flooding waits before it comes back (issue #23, point 5): the server closes
a flooding socket with 4008; the page tells its user and reconnects after half a minute, not
at once (which only earns the next close). The page's clock is Playwright's, moved by hand."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import sign_in
from tests.browser.test_live_table import DEMO_ENCOUNTER, TRACK_SOCKETS, encounter_url

pytestmark = pytest.mark.browser

FLOOD = """() => {
  const socket = window.testSockets[window.testSockets.length - 1];
  for (let i = 0; i < 400; i++) socket.send(JSON.stringify({type: "sync", seq: 2147483647}));
}"""
OPENED = "() => window.testSockets.length"


def test_a_page_closed_for_flooding_waits_half_a_minute_before_it_reconnects(
    live_url: str, new_context: Callable[..., BrowserContext]
) -> None:
    page = new_context().new_page()
    sign_in(page, live_url, "mistrz")
    url = encounter_url(page, live_url, DEMO_ENCOUNTER)
    page.clock.install()
    page.add_init_script(TRACK_SOCKETS)
    page.goto(url)
    badge = page.locator("#conn")
    expect(badge).to_have_class(re.compile(r"\bconn-online\b"))
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # the page's timers stand still

    page.evaluate(FLOOD)
    expect(badge).to_have_class(re.compile(r"\bconn-offline\b"))
    expect(page.locator("#table-toast")).to_contain_text("połączę ponownie za pół minuty")
    page.clock.run_for(29_000)
    assert page.evaluate(OPENED) == 1, "the page came back at once"
    expect(badge).to_have_class(re.compile(r"\bconn-offline\b"))

    page.clock.run_for(2_000)
    expect(badge).to_have_class(re.compile(r"\bconn-online\b"))
    assert page.evaluate(OPENED) == 2


def test_a_page_closed_as_no_longer_a_member_loads_again_instead_of_reconnecting(
    live_url: str, new_context: Callable[..., BrowserContext]
) -> None:
    """4403 (the user left the campaign, or signed out) will not change by trying again: the
    page loads itself again and shows what the server now says (here, still the table)."""
    page = new_context().new_page()
    sign_in(page, live_url, "mistrz")
    url = encounter_url(page, live_url, DEMO_ENCOUNTER)
    page.add_init_script(TRACK_SOCKETS)
    page.goto(url)
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
    page.evaluate("() => { window.beforeReload = true; }")
    # The socket's close as the server sends it when access is gone (combat/live.py).
    page.evaluate("() => window.testSockets[0].onclose(new CloseEvent('close', {code: 4403}))")
    page.wait_for_function("() => window.beforeReload === undefined")
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
