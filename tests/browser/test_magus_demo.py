"""The demo's Magus fight (a fresh copy of seed_demo's ravine: `magus_demo_copy`), as a group
meets it on its first evening (issue #22).

1. Melee follows the picked target: the GM moves Ork 1 next to Liriel in its turn; its attack
   form starts on the target it declared (Liriel), „Atakuj: Tasak” is offered against her and
   refused, with the reach reason, against a hero three hexes away.
2. Magus counts damage up, towards the ratings that knock out and kill: Liriel's seat and card
   on her player's phone say „Obrażenia 0” beside her Próg Utraty Przytomności 26 and Próg
   Śmierci 32 (not a health of „0/32”), and in English the same words the English sheet uses.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, sign_in
from tests.browser.test_magus import DESKTOP, Seat, fill_declaration
from tests.browser.test_map import tap_field

pytestmark = pytest.mark.browser

THORGRIM = "Thorgrim Kowal Tarcz"
LIRIEL = "Liriel Szept Liści"
ORK, TASAK = "Ork 1", "Tasak"
# Before/after pictures of issue #22 are copied here when ISSUE_SHOTS names a folder.
ISSUE_SHOTS = "ISSUE22_SHOTS"


def shot(seat: Seat, name: str) -> None:
    """What the screen shows now, under build/screenshots/ (and ISSUE22_SHOTS/<name>)."""
    path = SCREENSHOTS / f"magus-demo-{name}.png"
    seat.page.screenshot(path=path)
    folder = os.environ.get(ISSUE_SHOTS)
    if folder:
        shutil.copy(path, f"{folder}/{name}.png")


def token_field(seat: Seat, name: str) -> tuple[int, int]:
    page = seat.page
    tok = page.locator("#map-tokens .map-token", has=page.locator("title", has_text=name))
    col, row = (tok.get_attribute("data-field") or "").split(",")
    return int(col), int(row)


def seat_id(seat: Seat, name: str) -> str:
    page = seat.page
    tok = page.locator("#map-tokens .map-token", has=page.locator("title", has_text=name))
    return tok.get_attribute("data-seat") or ""


def gm_button(gm: Seat, name: str) -> None:
    gm.press(gm.page.locator("#table-gm").get_by_role("button", name=name))


def status_says(gm: Seat, text: str) -> None:
    expect(gm.page.locator("#table-status")).to_contain_text(text)


def current(gm: Seat) -> str:
    return gm.page.locator("#table-status .current-name").inner_text().strip()


def gm_plays_to_the_orc_s_turn(gm: Seat) -> None:
    """Start; the GM declares Ork 1's attack on Liriel (nobody else declares), reveals, rolls
    every Initiative, and ends turns (the GM acts for every seat) until Ork 1's."""
    gm_button(gm, "Rozpocznij walkę")
    status_says(gm, "Deklaracje — runda 1")
    form = fill_declaration(gm, ORK, weapon=TASAK, target=LIRIEL)
    gm.press(form.get_by_role("button", name="Deklaruj", exact=True))
    expect(gm.page.locator("#table-log .log-line", has_text=f"{ORK} zadeklarował")).to_have_count(1)
    gm_button(gm, "Odkryj deklaracje")
    status_says(gm, "Inicjatywa — runda 1")
    gm_button(gm, "Rzuć brakujące Inicjatywy")
    status_says(gm, "Runda 1")
    for ended in range(1, 7):
        who = current(gm)
        if who == ORK:
            return
        gm.press(gm.page.locator("#table-turn").get_by_role("button", name="Koniec tury"))
        line = gm.page.locator("#table-log .log-line", has_text=f"{who} kończy turę.")
        expect(line).to_have_count(1)
        expect(gm.page.locator("#table-status .current-name")).not_to_have_text(who)
        assert ended < 6, "Ork 1 never got its turn"


def gm_moves(gm: Seat, name: str, to: tuple[int, int]) -> None:
    """The GM takes a token off the map and puts it on `to` (the GM's placing, any time)."""
    page = gm.page
    tok = page.locator("#map-tokens .map-token", has=page.locator("title", has_text=name))
    tok.click()
    gm.press(page.locator("#table-map [data-unplace]"))
    chip = page.locator("#table-map [data-place-seat]", has_text=name)
    chip.click()
    tap_field(gm, to)
    expect(tok).to_have_attribute("data-field", f"{to[0]},{to[1]}")


def test_magus_melee_follows_the_picked_target(
    new_context: Callable[..., BrowserContext], live_url: str, magus_demo_copy: str
) -> None:
    page = new_context(**DESKTOP).new_page()
    sign_in(page, live_url, "mistrz")
    gm = Seat("mistrz", page)
    gm.open(magus_demo_copy)
    gm_plays_to_the_orc_s_turn(gm)
    col, row = token_field(gm, LIRIEL)
    gm_moves(gm, ORK, (col + 1, row))

    ork = seat_id(gm, ORK)
    attack = gm.unfold(page.locator(f"#act-atak-{ork}"))
    expect(page.locator(f"#why-all-{ork}")).to_have_count(0)  # no reason about Thorgrim above
    target = attack.get_by_label(re.compile(r"^Cel"))
    # The form starts on the declared target, and what it offers is what the rules allow
    # against the target picked: Liriel is in reach, Thorgrim is not.
    target.select_option(label=LIRIEL)
    strike = attack.get_by_role("button", name=f"Atakuj: {TASAK}")
    attack.scroll_into_view_if_needed()
    shot(gm, "p1")
    expect(target.locator("option[selected]")).to_have_text(LIRIEL)
    expect(strike).to_be_enabled()
    target.select_option(label=THORGRIM)
    expect(strike).to_be_disabled()
    why = attack.locator(f"#{strike.get_attribute('aria-describedby')}")
    expect(why).to_contain_text(f"{THORGRIM} jest poza zasięgiem walki wręcz")
    target.select_option(label=LIRIEL)
    gm.press(strike)
    log = page.locator("#table-log .log-line", has_text=f"{ORK} atakuje: {LIRIEL} ({TASAK})")
    expect(log).to_have_count(1)


# Liriel's sheet (seed_demo): Próg Utraty Przytomności 26, Próg Śmierci 32.
RATINGS = {
    "pl": ("Obrażenia 0", "Próg Utraty Przytomności 26", "Próg Śmierci 32"),
    "en": ("Damage 0", "Unconsciousness Rating 26", "Death Rating 32"),
}


def sheet_says_the_same(phone: Seat, ratings: tuple[str, ...]) -> None:
    """Her sheet (the table's link to it) names the two ratings with the same words."""
    page = phone.page
    phone.press(page.get_by_role("link", name=re.compile(rf"{LIRIEL}$")).first)
    for key, words in zip(("prog_przytomnosci", "prog_smierci"), ratings, strict=True):
        label, value = words.rsplit(" ", 1)
        stat = page.locator(f'.stat-derived[data-key="{key}"]')
        expect(stat.locator("dt")).to_have_text(label)
        expect(stat.locator("dd")).to_contain_text(value)


def test_magus_shows_damage_against_its_ratings_in_both_languages(
    new_context: Callable[..., BrowserContext], live_url: str, magus_demo_copy: str
) -> None:
    page = new_context(**PHONE).new_page()
    sign_in(page, live_url, "gracz2")
    phone = Seat("gracz2", page, touch=True)
    phone.open(magus_demo_copy)
    row = page.locator("#table-order .combatant", has_text=LIRIEL)
    card = page.locator("#table-me .me-card", has_text=LIRIEL)
    card.scroll_into_view_if_needed()
    shot(phone, "p3")
    try:
        for language in ("pl", "en"):
            if language == "en":  # the pick is the account's: back to Polish below
                phone.press(page.get_by_role("button", name="EN"))
                expect(page.locator("html")).to_have_attribute("lang", "en")
                phone.open(magus_demo_copy)
            for where in (row, card):
                for words in RATINGS[language]:
                    expect(where).to_contain_text(words)
                expect(where).not_to_contain_text("0/32")
            sheet_says_the_same(phone, RATINGS[language][1:])
            phone.open(magus_demo_copy)
        row.scroll_into_view_if_needed()
        shot(phone, "p3-en-order")  # the order's rows, in English
    finally:
        if page.locator("html").get_attribute("lang") == "en":
            phone.press(page.get_by_role("button", name="PL"))
            expect(page.locator("html")).to_have_attribute("lang", "pl")
