"""The battle map in real browsers: the GM lays and paints it, places every token; a player on a
phone moves with the path and its cost shown first; the others see the move at once.

1. On a new Eleora encounter the GM creates a map, places both heroes, a wolf and a hidden
   wolf from the "Poza mapą" chips. The hidden wolf's token (and its seat id) is in neither
   player's page nor in any socket frame a player's browser receives. The phone player taps
   their token and a field: the route and its cost show; the GM paints difficult terrain on
   the way and the cost shown for the same field goes up; the player confirms, and every
   browser shows the token on its new field.
2. A charge: the desktop player picks the field with the keyboard (arrows, Enter), then
   Szarża in the route panel for a straight run at the wolf; after the move the attack's odds
   preview lists the charge's dice among its reasons.
(A Magus fight on hexes is in test_map_magus.py.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, WebSocket, expect

from tests.browser.test_live_table import (
    HEROES,
    OWNER,
    Seat,
    Table,
    add_party,
    create_encounter,
    roll_and_start,
    table,  # noqa: F401 - the three browsers (GM, gracz1 desktop, gracz2 phone)
)

pytestmark = pytest.mark.browser

RADOSLAW, MILENA = HEROES["gracz1"], HEROES["gracz2"]
# The centre of a field on the screen, from the terrain's own drawing data (as map.js reads it).
FIELD_POINT = """([c, r]) => {
  const slot = document.getElementById('table-map-terrain');
  const box = slot.getBoundingClientRect(), d = slot.dataset, size = Number(d.size);
  const k = box.width / Number(d.w);
  let x = (c + 0.5) * size, y = (r + 0.5) * size;
  if (d.geometry === 'hex') {
    const h = size / 2;
    x = Math.sqrt(3) * h * (c + 0.5 * (r & 1) + 0.5);
    y = h * (1 + 1.5 * r);
  }
  return [box.left + x * k, box.top + y * k];
}"""
COST = re.compile(r"(\d+) m z (\d+)")


def tap_field(seat: Seat, field: tuple[int, int]) -> None:
    seat.page.locator("#map-viewport").scroll_into_view_if_needed()
    x, y = seat.page.evaluate(FIELD_POINT, list(field))
    if seat.touch:
        seat.page.touchscreen.tap(x, y)
    else:
        seat.page.mouse.click(x, y)


def token(page: Page, seat_id: str) -> str:
    """The field a seat's token shows on this page ("c,r")."""
    return page.locator(f'#map-tokens [data-seat="{seat_id}"]').get_attribute("data-field") or ""


def seat_id_of(t: Table, name: str) -> str:
    tok = t.gm.page.locator("#map-tokens .map-token", has=t.gm.page.locator("title", has_text=name))
    return tok.first.get_attribute("data-seat") or ""


def create_map(t: Table, width: int, height: int) -> None:
    form = t.gm.page.locator("#table-map form.map-create")
    form.get_by_label("Szerokość").fill(str(width))
    form.get_by_label("Wysokość").fill(str(height))
    t.send(t.gm, form.get_by_role("button", name="Utwórz mapę"))
    for seat in t.seats:
        expect(seat.page.locator("#map-terrain")).to_be_visible()


def place(t: Table, name: str, field: tuple[int, int], *, hidden: bool = False) -> None:
    """The GM taps a "Poza mapą" chip (a hidden seat's is dashed), then the field."""
    kind = ".is-hidden" if hidden else ":not(.is-hidden)"
    chip = t.gm.page.locator(f"#table-map [data-place-seat]{kind}", has_text=name).first
    chip.click()
    before = t.gm.seq()
    tap_field(t.gm, field)
    t.gm.page.wait_for_function(
        "s => Number(document.getElementById('table').dataset.seq) > s", arg=before
    )
    t.settle(t.gm.seq())


def play_until(t: Table, hero: str, turns: int = 10) -> None:
    """End turns (each on its controller's page, the GM's for the wolves) until `hero`'s."""
    for _ in range(turns):
        current = t.current()
        if current == hero:
            return
        t.end_turn(t.seat_of(current) if current in OWNER else t.gm)
    pytest.fail(f"{hero} never got a turn: {t.status()}")


def route_panel(seat: Seat) -> str:
    panel = seat.page.locator("#map-route-panel")
    expect(panel).to_contain_text("→")
    return panel.inner_text()


def frames_of(page: Page) -> list[str]:
    """Every text frame the page's table socket receives from now on."""
    frames: list[str] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", watch)
    return frames


@pytest.fixture
def mapped(live_url: str, table: Table) -> Iterator[tuple[Table, dict[str, list[str]]]]:  # noqa: F811
    """A new encounter with both heroes and a wolf, a hidden wolf, a 10 × 6 map and every
    token placed; the players' socket frames recorded from their first page load."""
    t = table
    url = create_encounter(t.gm.page, live_url, f"Mapa {len(t.gm.page.context.pages)}")
    frames = {seat.user: frames_of(seat.page) for seat in (t.p1, t.p2)}
    add_party(t, url)
    panel = t.gm.page.locator("#table-gm")
    panel.get_by_label("Wilk", exact=True).fill("1")
    panel.get_by_label("ukryci przed graczami").check()
    t.send(t.gm, panel.get_by_role("button", name="Dodaj", exact=True))
    create_map(t, 10, 6)
    chips = t.gm.page.locator("#table-map [data-place-seat]")
    expect(chips).to_have_count(4)
    place(t, RADOSLAW, (1, 1))
    place(t, MILENA, (1, 4))
    place(t, "Wilk", (5, 1))
    place(t, "Wilk", (8, 4), hidden=True)
    expect(chips).to_have_count(0)
    yield t, frames


def test_a_phone_player_moves_with_the_path_shown_and_every_browser_sees_it(
    mapped: tuple[Table, dict[str, list[str]]],
) -> None:
    t, frames = mapped
    hidden = t.gm.page.locator("#map-tokens .map-token.is-hidden")
    expect(hidden).to_have_count(1)
    hidden_id = hidden.get_attribute("data-seat") or ""
    assert hidden_id and token(t.gm.page, hidden_id) == "8,4"
    for seat in (t.p1, t.p2):
        expect(seat.page.locator("#map-tokens .map-token")).to_have_count(3)
        assert f'data-seat="{hidden_id}"' not in seat.page.content()
        assert frames[seat.user] and not any(hidden_id in f for f in frames[seat.user])

    roll_and_start(t)
    play_until(t, MILENA)
    milena = seat_id_of(t, MILENA)
    phone = t.p2
    assert phone.touch
    tap_field(phone, (1, 4))  # her own token: selected
    tap_field(phone, (3, 4))
    first = route_panel(phone)
    assert "D5" in first, first
    used, left = map(int, COST.search(first).groups())  # type: ignore[union-attr]
    assert (used, left) == (2, 3), first
    expect(phone.page.locator("#map-route .route-line")).to_have_count(1)

    # The GM drags difficult terrain across column C, the whole way: the same field now
    # costs more (no way round it).
    t.gm.page.locator("#table-map [data-tool='difficult']").click()
    before = t.gm.seq()
    mouse = t.gm.page.mouse
    mouse.move(*t.gm.page.evaluate(FIELD_POINT, [2, 0]))
    mouse.down()
    for row in range(1, 6):
        mouse.move(*t.gm.page.evaluate(FIELD_POINT, [2, row]), steps=4)
    mouse.up()
    t.gm.page.wait_for_function(
        "s => Number(document.getElementById('table').dataset.seq) > s", arg=before
    )
    t.settle(t.gm.seq())
    for seat in t.seats:
        expect(seat.page.locator("#map-terrain .map-difficult use")).to_have_count(6)
    phone.press(phone.page.locator("#map-route-panel").get_by_role("button", name="Anuluj"))
    expect(phone.page.locator("#map-route-panel")).to_be_empty()
    tap_field(phone, (1, 4))
    tap_field(phone, (3, 4))
    again = route_panel(phone)
    assert COST.search(again).groups()[0] == "3", again  # type: ignore[union-attr]

    t.send(
        phone, phone.page.locator("#map-route-panel").get_by_role("button", name="Potwierdź ruch")
    )
    for seat in t.seats:
        expect(seat.page.locator(f'#map-tokens [data-seat="{milena}"]')).to_have_attribute(
            "data-field", "3,4"
        )
    for seat in t.seats:
        expect(seat.page.locator("#table-log")).to_contain_text(MILENA)
        # The push swapped the moved token alone: it is drawn as SVG where the move put it.
        moved = seat.page.locator(f'#map-tokens [data-seat="{milena}"]')
        assert moved.evaluate("g => g.namespaceURI") == "http://www.w3.org/2000/svg"
        box, to = moved.bounding_box(), seat.page.locator("#map-tokens").bounding_box()
        assert box and to and box["width"] > 5 and to["x"] <= box["x"] <= to["x"] + to["width"]
    overflow = phone.page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0, f"the phone page scrolls sideways by {overflow}px"
    for seat in (t.p1, t.p2):
        assert not any(hidden_id in f for f in frames[seat.user])


def test_a_charge_shows_its_bonus_in_the_attack_odds(
    mapped: tuple[Table, dict[str, list[str]]],
) -> None:
    t, _frames = mapped
    roll_and_start(t)
    play_until(t, RADOSLAW)
    p1 = t.p1
    tap_field(p1, (1, 1))
    # The keyboard picks the field: the first arrow puts the focus field on the selected
    # token, each next one moves it; Enter asks the route (three fields straight at F2).
    p1.page.locator("#map-viewport").focus()
    for _ in range(4):
        p1.page.keyboard.press("ArrowRight")
    expect(p1.page.locator("#map-status")).to_contain_text("E2")
    p1.page.keyboard.press("Enter")
    route_panel(p1)
    p1.page.locator("#map-route-panel [data-route-mode='szarza']").click()
    panel = p1.page.locator("#map-route-panel")
    expect(panel.locator("[data-route-mode='szarza']")).to_have_attribute("aria-pressed", "true")
    expect(panel).to_contain_text("Szarża")
    t.send(p1, panel.get_by_role("button", name="Potwierdź ruch"))
    radoslaw = seat_id_of(t, RADOSLAW)
    for seat in t.seats:
        expect(seat.page.locator(f'#map-tokens [data-seat="{radoslaw}"]')).to_have_attribute(
            "data-field", "4,1"
        )
    attack = p1.unfold(p1.page.locator("#table-turn #act-atak"))
    target = attack.locator("select[name='c.target']")
    target.select_option(target.locator("option").first.get_attribute("value"))
    p1.press(attack.get_by_role("button", name="Pokaż szanse"))
    preview = attack.locator("#odds-preview")
    expect(preview).to_contain_text("Szanse przeciw: Wilk")
    expect(preview).to_contain_text("Szarża")


def preview(seat: Seat, token_at: tuple[int, int], to: tuple[int, int]) -> Locator:
    """Select a token (a tap, unless it is selected: a second tap lets it go), then tap a
    field: the route panel's confirm button (the panel open)."""
    chosen = seat.page.locator(
        f'#map-tokens .is-selected[data-field="{token_at[0]},{token_at[1]}"]'
    )
    if not chosen.count():
        tap_field(seat, token_at)
        expect(chosen).to_have_count(1)
    tap_field(seat, to)
    route_panel(seat)
    return seat.page.locator("#map-route-panel").get_by_role("button", name="Potwierdź ruch")


def expect_no_route(seat: Seat) -> None:
    expect(seat.page.locator("#map-route-panel")).to_be_empty()
    expect(seat.page.locator("#map-route > *")).to_have_count(0)


def test_a_confirmed_move_and_the_turn_s_end_clear_every_stale_route(
    mapped: tuple[Table, dict[str, list[str]]], screenshots_dir: Path
) -> None:
    """The route panel of the phone, the GM's of the same token and the desktop player's of
    his own: the move clears the first two (the token stands elsewhere now), the turn's end the
    last, the fight's end any other. On a phone the confirm button opens in view."""
    t, _frames = mapped
    roll_and_start(t)
    play_until(t, MILENA)
    milena, phone = seat_id_of(t, MILENA), t.p2
    confirm = preview(phone, (1, 4), (3, 4))
    phone.page.screenshot(path=str(screenshots_dir / "p2-phone.png"))
    expect(confirm).to_be_in_viewport(ratio=1)  # on the screen without scrolling
    preview(t.gm, (1, 4), (2, 4))
    preview(t.p1, (1, 1), (2, 1))

    t.send(phone, confirm)
    for seat in t.seats:
        expect(token_of(seat, milena)).to_have_attribute("data-field", "3,4")
    phone.page.locator("#map-card").screenshot(path=str(screenshots_dir / "p2-moved.png"))
    for seat in (phone, t.gm):
        expect_no_route(seat)
        expect(seat.page.locator("#map-status")).not_to_contain_text("B5")
    expect(t.p1.page.locator("#map-route-panel")).to_contain_text(RADOSLAW)  # his still holds

    t.end_turn(phone)
    expect_no_route(t.p1)
    preview(t.p1, (1, 1), (2, 1))
    t.send(t.gm, t.gm.page.locator("#table-gm").get_by_role("button", name="Zakończ starcie"))
    expect(t.p1.page.locator("#table-status")).to_contain_text("Starcie zakończone")
    expect_no_route(t.p1)


def token_of(seat: Seat, seat_id: str) -> Locator:
    return seat.page.locator(f'#map-tokens [data-seat="{seat_id}"]')


D100_DEMO = ("Kroniki Fallathanu: Mgła nad Brodem", "Zasadzka przy brodzie")
NUMBERED = re.compile(r" (\d+)$")


def test_every_token_of_the_d100_demo_has_a_label_of_its_own(
    live_url: str,
    table: Table,  # noqa: F811
    screenshots_dir: Path,
) -> None:
    """Borys z Brodu and both Bandyci z traktu were all „BZ”: each label is one token's, and a
    creature's carries its number, as the order names it. Only looked at: the demo stays."""
    t = table
    page = t.gm.page
    page.goto(f"{live_url}/")
    page.get_by_role("link", name=D100_DEMO[0]).first.click()
    page.get_by_role("link", name="Starcia", exact=True).first.click()
    href = page.get_by_role("link", name=D100_DEMO[1], exact=True).first.get_attribute("href")
    assert href
    for seat in (t.gm, t.p2):
        seat.open(f"{live_url}{href}")
        tokens = seat.page.locator("#map-tokens .map-token")
        expect(tokens.first).to_be_visible()
        if seat is t.gm:
            seat.page.locator("#map-card").screenshot(
                path=str(screenshots_dir / "p5-d100-demo.png")
            )
        names = [
            (tok.locator("title").text_content() or "").split(" · ")[0] for tok in tokens.all()
        ]
        labels = tokens.locator(".tok-text").all_text_contents()
        assert "Bandyta z traktu 2" in names, names
        assert len(set(labels)) == len(labels), dict(zip(names, labels, strict=True))
        for name, text in zip(names, labels, strict=True):
            number = NUMBERED.search(name)
            assert not number or text.endswith(number.group(1)), (name, text)
