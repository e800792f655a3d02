"""No two controls of a turn panel overlap, in any ruleset, at 390 px and 360 px (phones) and
768 px (a tablet): on a phone d100's „Zakończ turę” lay over „Odpoczynek”, so a tap meant for
rest ended the turn (issue 22).

The check is generic: the bounding box of every visible control (button, link, input, select,
textarea, summary) in the turn region against every other, first as the page shows it, then
with every fold of the region open. Each ruleset's table is played to its turn panels: Eleora
and Magus (setup, declarations, a running round), d100 and the tests' duel (setup, a turn).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser import test_magus as magus
from tests.browser.conftest import PHONE, D100Server, DuelServer, MagusServer, sign_in
from tests.browser.test_d100 import DOBROGOST, JAGA, ZBOJ
from tests.browser.test_live_table import (
    OWNER,
    Table,
    add_party,
    create_encounter,
    roll_and_start,
)
from tests.browser.test_live_table import table as table  # noqa: F401, PLC0414 (a fixture)
from tests.combat.table.duel_table import HERO, NPC

pytestmark = pytest.mark.browser

WIDTHS = (390, 360, 768)
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
# Every pair of visible controls (checkVisibility: a closed fold's content is laid out but not
# shown) of the region whose boxes share more than a pixel each way,
# named by their text; `unfold`: with every <details> of the region open (then closed again).
OVERLAPS = """([region, unfold]) => {
  const root = document.querySelector(region);
  if (!root) return [];
  const folded = unfold ? [...root.querySelectorAll("details:not([open])")] : [];
  folded.forEach((d) => { d.open = true; });
  const controls = [...root.querySelectorAll(
    "button, a[href], input:not([type=hidden]), select, textarea, summary")]
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([el, r]) => r.width > 0 && r.height > 0
      && el.checkVisibility({visibilityProperty: true}));
  const name = (el) => el.tagName.toLowerCase() + " „"
    + (el.textContent.trim() || el.name || el.value).slice(0, 40) + "”";
  const found = [];
  controls.forEach(([a, ra], i) => controls.slice(i + 1).forEach(([b, rb]) => {
    if (a.contains(b) || b.contains(a)) return;
    const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (x > 1 && y > 1) found.push(`${name(a)} × ${name(b)}`);
  }));
  folded.forEach((d) => { d.open = false; });
  return found;
}"""


def assert_no_overlaps(page: Page, where: str, shot: Path | None = None) -> None:
    """At each width, folded and unfolded, no two controls of the turn region overlap; the
    page's own size comes back. `shot`: the region at 390 px, as the page shows it."""
    size = page.viewport_size
    try:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844})
            if shot and width == 390:
                page.locator("#table-turn").screenshot(path=str(shot))
            for unfold in (False, True):
                found = page.evaluate(OVERLAPS, ["#table-turn", unfold])
                folds = ", every fold open" if unfold else ""
                assert not found, f"{where}, {width} px{folds}: {found}"
    finally:
        if size:
            page.set_viewport_size(size)


def signed_in(
    new_context: Callable[..., BrowserContext], base: str, user: str, **kw: object
) -> Page:
    page = new_context(**kw).new_page()
    sign_in(page, base, user)
    return page


def open_table(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
    page.wait_for_function("() => window.eleoraSwaps.length > 0")


def new_encounter(page: Page, encounters: str, name: str) -> str:
    """The GM opens a new encounter from a campaign's list of encounters; its table's URL."""
    page.goto(encounters)
    page.get_by_label("Nazwa starcia").fill(name)
    page.get_by_role("button", name="Otwórz nowe starcie").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    return page.url


def seat_and_start(pages: list[Page], names: tuple[str, ...], start: str, shows: str) -> None:
    """The GM (the first page) adds `names` and presses `start`; every page shows `shows`."""
    gm = pages[0]
    panel = gm.locator("#table-gm")
    for who in names:
        panel.get_by_label(who).check()
    panel.get_by_role("button", name="Dodaj", exact=True).click()
    for page in pages:
        expect(page.locator("#table-order .combatant")).to_have_count(len(names))
    for page in pages:
        assert_no_overlaps(page, "setup")
    gm.locator("#table-gm").get_by_role("button", name=start).click()
    for page in pages:
        expect(page.locator("#table-status")).to_contain_text(shows)


def test_no_controls_overlap_in_an_eleora_turn_panel(live_url: str, table: Table) -> None:  # noqa: F811
    t = table
    add_party(t, create_encounter(t.gm.page, live_url, "Układ tury"))
    for seat in t.seats:
        assert_no_overlaps(seat.page, f"Eleora, setup, {seat.user}")
    roll_and_start(t)
    current = t.current()
    acting = t.seat_of(current) if current in OWNER else t.gm
    expect(
        acting.page.locator("#table-turn").get_by_role("button", name="Zakończ turę")
    ).to_be_visible()
    for seat in {acting.user: acting, t.gm.user: t.gm}.values():
        assert_no_overlaps(seat.page, f"Eleora, {current}'s turn, {seat.user}")


def test_no_controls_overlap_in_a_magus_turn_panel(
    magus_server: MagusServer, new_context: Callable[..., BrowserContext]
) -> None:
    users = (("mistrz", DESKTOP), ("gracz1", DESKTOP), ("gracz2", PHONE))
    seats = [
        magus.Seat(user, signed_in(new_context, magus_server.url, user, **kw), touch=kw is PHONE)
        for user, kw in users
    ]
    t = magus.Table(*seats)
    magus.seat_three(t, magus_server, "Układ tury")
    magus.begin(t)
    for seat in t.seats:
        assert_no_overlaps(seat.page, f"Magus, declarations, {seat.user}")
    for seat, hero in ((t.p2, magus.WIESNA), (t.p1, magus.BORYS), (t.gm, magus.ORK)):
        magus.declare(seat, magus.fill_declaration(seat, hero))
    magus.roll_initiative(t, 1)
    for seat in t.seats:
        assert_no_overlaps(seat.page, f"Magus, {t.current()}'s turn, {seat.user}")


def test_no_controls_overlap_in_a_d100_turn_panel(
    d100_server: D100Server, new_context: Callable[..., BrowserContext], screenshots_dir: Path
) -> None:
    gm = signed_in(new_context, d100_server.url, "mistrz", **DESKTOP)
    phone = signed_in(new_context, d100_server.url, "gracz1", **PHONE)
    url = new_encounter(
        gm, f"{d100_server.url}/campaigns/{d100_server.campaign}/encounters/", "Układ tury"
    )
    for page in (gm, phone):
        open_table(page, url)
    seat_and_start([gm, phone], (DOBROGOST, JAGA, ZBOJ), "Rozpocznij walkę", f"tura: {DOBROGOST}")
    expect(phone.locator("#table-turn").get_by_role("button", name="Odpoczynek")).to_be_visible()
    assert_no_overlaps(phone, f"d100, {DOBROGOST}'s turn, phone", screenshots_dir / "p4-d100.png")
    assert_no_overlaps(gm, f"d100, {DOBROGOST}'s turn, GM")


def test_no_controls_overlap_in_a_duel_turn_panel(
    duel_server: DuelServer, new_context: Callable[..., BrowserContext]
) -> None:
    gm = signed_in(new_context, duel_server.url, "mistrz", **DESKTOP)
    phone = signed_in(new_context, duel_server.url, "gracz1", **PHONE)
    gm.goto(duel_server.table)
    gm.get_by_role("link", name="← Starcia").click()
    url = new_encounter(gm, gm.url, "Układ tury")
    for page in (gm, phone):
        open_table(page, url)
    seat_and_start([gm, phone], (HERO, NPC), "Rozpocznij pojedynek", "Runda 1")
    current = gm.locator("#table-status .current-name").inner_text().strip()
    for page, who in ((gm, "GM"), (phone, "phone")):
        if who == "GM" or current == HERO:
            expect(
                page.locator("#table-turn").get_by_role("button", name="Zakończ turę")
            ).to_be_visible()
        assert_no_overlaps(page, f"duel, {current}'s turn, {who}")
