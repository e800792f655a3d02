"""One round of Pojedynek in two real browsers: the GM (desktop) and a player (phone).

The live server runs with the test settings (so it knows the duel), on the demo database with
a duel campaign added (`duel_server`, tests/browser/conftest.py). Initiative is
random: the test plays whatever order the server rolled. Every fighter has Atak 10, so each
attack hits and asks the defender; the GM parries for the NPC (Obrona 10: always holds), the
player takes the hit.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.conftest import PHONE, DuelServer, sign_in
from tests.combat.table.duel_table import HERO, NPC

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def seat(
    new_context: Callable[..., BrowserContext], server: DuelServer, user: str, **kw: object
) -> Page:
    """A signed-in user's page at the duel table, connected and showing the first push."""
    page = new_context(**kw).new_page()
    sign_in(page, server.url, user)
    page.goto(server.table)
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
    page.wait_for_function("() => window.eleoraSwaps.length > 0")
    return page


def log_lines(page: Page, text: str) -> Locator:
    return page.locator("#table-log .log-line", has_text=text)


def play_turn(gm: Page, player: Page) -> str:
    """The current fighter attacks the other; the defender answers; the turn ends. Returns
    who acted."""
    current = gm.locator("#table-status .current-name").inner_text().strip()
    attacker, defender = (player, gm) if current == HERO else (gm, player)
    other = NPC if current == HERO else HERO
    turn = attacker.locator("#table-turn")
    turn.locator("select[name='c.target']").select_option(label=other)
    turn.get_by_role("button", name="Atakuj (k20)").click()
    for page in (gm, player):
        expect(page.locator("#table-log")).to_contain_text(f"{current} atakuje: {other}, k20")
    card = defender.locator("#table-prompts .prompt")
    expect(card).to_contain_text(f"Trafienie: {current} → {other}")
    if defender is gm:
        expect(card).to_contain_text("Parowanie (k100 ≤ 100)")
        card.get_by_role("button", name=re.compile(r"^Parowanie")).click()
        outcome = f"{NPC} paruje: k100"
    else:
        mine = player.locator("[data-my-prompt]")
        expect(mine).to_contain_text("Twoja reakcja")
        expect(mine).to_contain_text("Parowanie udaje się przy k100 ≤ 50")
        mine.get_by_role("button", name=re.compile(r"^Nic")).click()
        outcome = f"{HERO} obrywa za"
    for page in (gm, player):
        expect(page.locator("#table-log")).to_contain_text(outcome)
        expect(page.locator("#table-prompts .prompt")).to_have_count(0)
    turn.get_by_role("button", name="Zakończ turę").click()
    for page in (gm, player):
        expect(log_lines(page, f"{current} kończy turę")).to_have_count(1)
    return current


def test_a_gm_and_a_player_play_one_round_of_the_duel(
    duel_server: DuelServer, new_context: Callable[..., BrowserContext]
) -> None:
    gm = seat(new_context, duel_server, "mistrz", **DESKTOP)
    player = seat(new_context, duel_server, "gracz1", **PHONE)
    for page in (gm, player):
        expect(page.locator("#table-status")).to_contain_text("Przygotowanie")

    panel = gm.locator("#table-gm")
    panel.get_by_label(HERO).check()
    panel.get_by_label(NPC).check()
    panel.get_by_role("button", name="Dodaj", exact=True).click()
    for page in (gm, player):
        expect(page.locator("#table-order .combatant")).to_have_count(2)
    gm.get_by_role("button", name="Rozpocznij pojedynek").click()
    for page in (gm, player):
        expect(page.locator("#table-status")).to_contain_text("Runda 1")
        expect(log_lines(page, ": inicjatywa k20")).to_have_count(2)

    acted = {play_turn(gm, player), play_turn(gm, player)}

    assert acted == {HERO, NPC}
    for page in (gm, player):
        expect(page.locator("#table-status")).to_contain_text("Runda 2")
        expect(log_lines(page, ": inicjatywa k20")).to_have_count(4)  # rolled again
        expect(page.get_by_role("button", name="Pokaż szanse")).to_have_count(0)
        assert "Symulator" not in page.content()
    # The player's own card: its numbers; the NPC's health only as a wound level.
    expect(player.locator("#table-me")).to_contain_text("Atak 10 · Obrona 5")
    expect(player.locator("#table-order")).to_contain_text("Bez ran")
