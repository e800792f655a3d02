"""The table as a phone player and the GM meet it (issue #11): a prompt pinned in view and
focused, refusals where the eye is, a calm turn panel, odds read at a glance, a region bar.

The GM is on a desktop, Milena's player on a phone with touch (the `table` fixture of
test_live_table.py); initiative is random, so each test plays whatever order was rolled.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.test_live_table import (
    HEROES,
    OWNER,
    Table,
    create_encounter,
    new_fight,
    play_until_a_wolf_may_attack,
)
from tests.browser.test_live_table import table as table  # noqa: F401, PLC0414 (a fixture)

pytestmark = pytest.mark.browser

MILENA = HEROES["gracz2"]  # on the phone
FOCUS_WITHIN_MS = 1_000
IN_MY_PROMPT = (
    "() => !!(document.activeElement && document.activeElement.closest('[data-my-prompt]'))"
)
# A bar's fill as a share of the bar (its border aside), and the number printed beside it.
FILL_SHARE = "b => b.querySelector('.fill').getBoundingClientRect().width / b.clientWidth"
DAMAGE = re.compile(r"śr\. (\d+),(\d) obr\.")


def scrolled_to_the_log(page: Page, press: object) -> None:
    """Jump to the log with the region bar: the log is in view, the page scrolled."""
    bar = page.get_by_role("navigation", name="Części stołu")
    for name in ("Moja postać", "Tura", "Kolejność", "Dziennik"):
        expect(bar.get_by_role("link", name=name, exact=True)).to_be_visible()
    press(bar.get_by_role("link", name="Dziennik", exact=True))  # type: ignore[operator]
    expect(page.locator("#log-h")).to_be_in_viewport()
    page.wait_for_function("() => window.scrollY > 0")


def expected_damage(chip: Locator) -> float:
    match = DAMAGE.search(chip.text_content() or "")
    assert match, chip.text_content()
    return float(f"{match.group(1)}.{match.group(2)}")


def assert_bars_proportionate(bars: Locator, values: Locator) -> None:
    """Each bar's fill is the share its percentage says (no 1 px tick)."""
    assert bars.count() == values.count() >= 1
    for i in range(bars.count()):
        percent = int(values.nth(i).inner_text().strip().rstrip("%"))
        share = bars.nth(i).evaluate(FILL_SHARE)
        assert abs(share * 100 - percent) <= 2, (percent, share)
        assert bars.nth(i).bounding_box()["width"] >= 48  # type: ignore[index]


def test_the_sound_toggle_is_one_tap_and_remembered(live_url: str, table: Table) -> None:
    t = table
    phone = t.p2
    phone.open(create_encounter(t.gm.page, live_url, "Dzwonek"))
    toggle = phone.page.get_by_role("button", name="Dźwięk i wibracje")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    phone.press(toggle)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert phone.page.evaluate("localStorage.getItem('eleora.alerts')") == "on"
    phone.page.reload()
    phone.wait_online()
    expect(toggle).to_have_attribute("aria-pressed", "true")


def test_a_prompt_opening_while_the_phone_reads_the_log_is_pinned_and_focused(
    live_url: str, table: Table
) -> None:
    t = table
    new_fight(t, live_url, "Wilk zza pleców")
    play_until_a_wolf_may_attack(t, MILENA)
    phone = t.p2
    scrolled_to_the_log(phone.page, phone.press)

    attack = t.gm.unfold(t.gm.page.locator("#table-turn #act-atak"))
    attack.locator("select[name='c.target']").select_option(label=MILENA)
    clicked = t.gm.page.evaluate("Date.now()")
    t.gm.press(attack.get_by_role("button", name="Atakuj", exact=True))

    # Within a second of the GM's click the phone's prompt is in view, whole, and focused.
    phone.page.wait_for_function(IN_MY_PROMPT, timeout=FOCUS_WITHIN_MS)
    focused_after = phone.page.evaluate("Date.now()") - clicked
    assert focused_after <= FOCUS_WITHIN_MS, focused_after
    prompt = phone.page.locator("[data-my-prompt]")
    expect(prompt).to_be_in_viewport(ratio=1)
    expect(prompt.locator(".countdown-text")).to_have_text(re.compile(r"^\d+ s$"))
    expect(prompt.locator(".prompt-options button").first).to_be_focused()
    expect(phone.page.locator("#table-announce")).to_have_text(f"Reakcja dla: {MILENA}")

    # The GM sees the same countdown: on the prompt's card and in the wolf's turn panel.
    expect(t.gm.page.locator("#table-prompts .countdown-text")).to_have_text(re.compile(r"\d+ s"))
    waiting = t.gm.page.locator("#table-turn .waiting")
    expect(waiting).to_contain_text(f"Czekamy na reakcję: {MILENA}")
    expect(waiting.locator(".countdown-text")).to_have_text(re.compile(r"^\d+ s$"))
    expect(t.gm.page.locator("#table-turn .why")).to_have_count(0)  # said once, above

    # Odds from the defender's side, bars in proportion, the lowest expected damage marked.
    chips = prompt.locator(".odds-chip")
    expect(chips.first).to_contain_text(re.compile(r"szansa, że cię trafi \d{1,3}%"))
    expect(t.gm.page.locator("#table-prompts .odds-chip").first).to_contain_text("szansa trafienia")
    assert_bars_proportionate(chips.locator(".bar"), chips.locator(".odds-num"))
    for i in range(chips.count()):
        box = chips.nth(i).locator(".odds-nums").bounding_box()
        assert box and box["height"] < 50  # the numbers fit, not wrapped over lines
    damage = [expected_damage(chips.nth(i)) for i in range(chips.count())]
    best = prompt.locator(".btn-answer.is-best")
    if len(set(damage)) > 1:
        expect(best).to_have_count(1)
        expect(best).to_contain_text("najlepsza")
        expect(best).to_have_class(re.compile(r"\bbtn-primary\b"))
        assert expected_damage(best.locator(".odds-chip")) == min(damage)
    expect(prompt.locator(".btn-primary")).to_have_count(best.count())

    t.send(phone, best.first if best.count() else prompt.locator(".btn-answer").first)
    for s in t.seats:
        expect(s.page.locator("#table-prompts .prompt")).to_have_count(0)
    expect(t.gm.page.locator("#table-turn .waiting")).to_have_count(0)


def test_an_illegal_attack_is_refused_where_the_phone_player_looks(
    live_url: str, table: Table
) -> None:
    t = table
    new_fight(t, live_url, "Pusty kołczan")
    phone = t.p2
    for _ in range(6):  # to Milena's turn, ending the others' on their own pages
        current = t.current()
        if current == MILENA:
            break
        t.end_turn(t.seat_of(current) if current in OWNER else t.gm)
    else:
        pytest.fail(f"no turn for {MILENA}: {t.status()}")

    # A calm turn panel: Atak, Ruch and Zakończ turę first, the rest under Więcej.
    turn = phone.page.locator("#table-turn")
    main = turn.locator(".actions-main")
    expect(main.locator(".btn-action")).to_have_text(["Atak", "Ruch", "Zakończ turę"])
    more = turn.locator("details.more-actions")
    expect(more.locator(":scope > summary")).to_have_text(re.compile("Więcej"))
    expect(more.get_by_text("Dobycie", exact=True)).to_be_hidden()
    phone.press(more.locator(":scope > summary"))
    expect(more.get_by_text("Dobycie", exact=True)).to_be_visible()

    # First shot with the bow: the preview's odds from the attacker's side, bars in proportion.
    attack = phone.unfold(turn.locator("#act-atak"))
    weapon = attack.locator("select[name='c.weapon']")
    expect(weapon).to_have_value("Łuk")
    phone.press(attack.get_by_role("button", name="Pokaż szanse"))
    preview = attack.locator("#odds-preview")
    expect(preview.locator(".odds-value").first).to_have_text(re.compile(r"^\d{1,3}%$"))
    expect(preview).to_contain_text("szansa trafienia")
    assert_bars_proportionate(preview.locator(".bar"), preview.locator(".odds-value"))
    t.send(phone, attack.get_by_role("button", name="Atakuj", exact=True))
    if t.gm.page.locator("#table-prompts .prompt").count():
        # The wolf's reaction is the GM's to give: the attacker sees the same countdown.
        waiting = turn.locator(".waiting")
        expect(waiting).to_contain_text("Czekamy na reakcję: Wilk")
        expect(waiting.locator(".countdown-text")).to_have_text(re.compile(r"^\d+ s$"))
        t.answer_npc_prompts()
    expect(phone.page.locator("#table-log")).to_contain_text(re.compile(rf"{MILENA} (nie )?trafia"))

    # The bow is not loaded now: offered disabled with its reason where the server says so.
    attack = phone.unfold(turn.locator("#act-atak"))
    bow = weapon.locator("option[value='Łuk']")
    if bow.is_disabled():
        expect(attack.locator(".weapon-why")).to_contain_text("Łuk")
        bow.evaluate("o => { o.disabled = false; }")  # as a page that missed the update would
    weapon.select_option("Łuk")

    # Atakuj: refused, in the toast fixed to the viewport and next to the form.
    phone.press(attack.get_by_role("button", name="Atakuj", exact=True))
    toast = phone.page.locator("#table-toast")
    expect(toast).to_be_visible()
    expect(toast).to_have_attribute("role", "alert")
    expect(toast).to_be_in_viewport(ratio=1)
    reason = toast.inner_text().strip()
    assert "Łuk" in reason, reason
    beside = attack.locator(".form-error")
    expect(beside).to_have_text(reason)
    expect(beside).to_be_in_viewport()

    # Pokaż szanse on the same choice: the refusal instead of odds.
    phone.press(attack.get_by_role("button", name="Pokaż szanse"))
    refused = preview.locator(".odds-refused")
    shown = preview.locator(".odds-value")
    expect(refused.or_(shown).first).to_be_visible()
    if shown.count():
        # SERVER PART PENDING (issue #11 point 2): the preview does not yet run the command's
        # legality checks, so it still shows odds for an unloaded bow.
        pytest.xfail("the odds preview does not run the legality checks yet (server side)")
    expect(refused).to_contain_text("Łuk")
    expect(shown).to_have_count(0)
