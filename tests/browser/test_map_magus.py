"""A Magus fight on a hex map in three real browsers (the GM, gracz1 on a desktop, gracz2 on a
phone): the GM lays a hexagonal map (2 m a hex) and places the three tokens before the fight;
in her turn the phone player taps her token and a hex two hexes away, sees the route cost
4 m of her Movement Rate, confirms, and every screen shows her token there and the log line.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MagusServer
from tests.browser.test_magus import (
    BORYS,
    ORK,
    WIESNA,
    Table,
    begin,
    declare,
    end_turn,
    fill_declaration,
    roll_initiative,
    seat_of,
    seat_three,
    table,  # noqa: F401 - the three browsers
)
from tests.browser.test_map import tap_field

pytestmark = pytest.mark.browser

COST = re.compile(r"(\d+) m z (\d+) m")


def lay_out(t: Table, server: MagusServer, name: str) -> None:
    """A new encounter with the three seated, an 8 × 6 hex map and every token on it."""
    seat_three(t, server, name)
    gm = t.gm.page
    form = gm.locator("#table-map form.map-create")
    form.get_by_label("Szerokość").fill("8")
    form.get_by_label("Wysokość").fill("6")
    form.get_by_role("button", name="Utwórz mapę").click()
    for seat in t.seats:
        expect(seat.page.locator("#map-terrain")).to_be_visible()
    assert gm.locator("#table-map-terrain").get_attribute("data-geometry") == "hex"
    for who, field in ((BORYS, (1, 1)), (WIESNA, (1, 3)), (ORK, (5, 2))):
        gm.locator("#table-map [data-place-seat]", has_text=who).click()
        tap_field(t.gm, field)
        expect(gm.locator("#table-map [data-place-seat]", has_text=who)).to_have_count(0)
    t.settle()
    for seat in t.seats:
        expect(seat.page.locator("#map-tokens .map-token")).to_have_count(3)
    begin(t)


def test_a_magus_player_moves_on_hexes_with_the_cost_in_metres(
    magus_server: MagusServer,
    table: Table,  # noqa: F811
) -> None:
    t = table
    lay_out(t, magus_server, "Heksy")
    for seat, hero in ((t.p2, WIESNA), (t.p1, BORYS)):
        declare(seat, fill_declaration(seat, hero))
    t.all_show(f"{BORYS} zadeklarował(a).")
    declare(t.gm, fill_declaration(t.gm, ORK))
    t.same_line(re.compile(r"^\s*Deklaracje: "))
    roll_initiative(t, 1)
    for _ in range(3):
        current = t.current()
        if current == WIESNA:
            break
        end_turn(t, seat_of(t, current), current, 1)
    else:
        pytest.fail("Wiesna never got her turn")
    phone = t.p2
    tap_field(phone, (1, 3))
    tap_field(phone, (3, 3))
    panel = phone.page.locator("#map-route-panel")
    expect(panel).to_contain_text("D4")
    cost = COST.search(panel.inner_text())
    assert cost and cost.group(1) == "4", panel.inner_text()
    phone.press(panel.get_by_role("button", name="Potwierdź ruch"))
    for seat in t.seats:
        token = seat.page.locator("#map-tokens .map-token").filter(
            has=seat.page.locator("title", has_text=WIESNA)
        )
        expect(token).to_have_attribute("data-field", "3,3")
        expect(seat.log(re.compile(rf"{WIESNA}.*D4"))).to_have_count(1)
