"""Exact undo and NPCs that play themselves, in real browsers (issue #11, points 3 and 5).

The GM is on a desktop, Milena's player on a phone with touch, Radosław's on a desktop (the
`table` fixture of test_live_table.py); initiative is random, so each test plays whatever
order was rolled. Nothing sleeps: every wait is for something on a page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.test_live_table import (
    DEFAULT_TIMEOUT_S,
    HEROES,
    OWNER,
    Table,
    new_fight,
    play_until_a_wolf_may_attack,
    seconds_left,
)
from tests.browser.test_live_table import table as table  # noqa: F401, PLC0414 (a fixture)

pytestmark = pytest.mark.browser

MILENA = HEROES["gracz2"]  # on the phone
TIMED_OUT = "nie reaguje (czas minął)"
# The lines a reaction or a roll writes: dice shown, a reaction, a hit or a miss, an expiry.
ROLLED = r"trafia:|reaguje|wybiera reakcj|czas minął"
COUNT_ROLLED = """re => {
  const lines = [...document.querySelectorAll('#table-log .log-line')]
    .filter(li => li.querySelector('details.roll') || new RegExp(re).test(li.textContent));
  return [lines.length, lines.filter(li => !li.classList.contains('undone')).length];
}"""
# The GM's page (read only, never clicked): a prompt waits, or the turn is `name`'s.
PROMPT_OR_TURN = """name => !!document.querySelector('#table-prompts .prompt') ||
  (document.querySelector('#table-status .current-name') || {}).textContent?.trim() === name"""


def rolled_lines(page: Page) -> tuple[int, int]:
    """How many roll/reaction lines the page's log shows: all, and those not undone."""
    total, live = page.evaluate(COUNT_ROLLED, ROLLED)
    return total, live


def names_in_order(t: Table) -> list[str]:
    return [n.strip() for n in t.gm.page.locator("#table-order .combatant .name").all_inner_texts()]


def test_undo_of_an_answered_parowanie_brings_the_prompt_back_with_time_left_and_no_new_roll(
    live_url: str, table: Table
) -> None:
    t = table
    new_fight(t, live_url, "Cofnięta parada")
    play_until_a_wolf_may_attack(t, MILENA)

    # The GM attacks Milena with the wolf from the turn panel; her phone gets the prompt.
    wolf, phone, prompt = t.declare_wolf_attack(MILENA)
    assert phone is t.p2 and phone.touch
    attacked = t.settle(t.gm.seq())
    before = {s.user: rolled_lines(s.page) for s in t.seats}
    # She thinks a moment (the countdown ticks once), so less than the full time is left.
    countdown = prompt.locator(".countdown-text")
    expect(countdown).to_have_text(re.compile(r"^\d+ s$"))
    expect(countdown).not_to_have_text(countdown.inner_text())
    left_when_answered = seconds_left(prompt)
    assert 0 < left_when_answered < DEFAULT_TIMEOUT_S

    # She answers Parowanie by touch: the log shows her choice and the roll's result.
    parry = prompt.get_by_role("button", name=re.compile(r"^Parowanie(?! i Unik)"))
    t.send(phone, parry)
    answered = t.settle(t.gm.seq())
    assert answered == attacked + 1, "the answer is one entry (its dice and the result)"
    result = re.compile(rf"{wolf} (nie )?trafia: {MILENA}")
    for s in t.seats:
        log = s.page.locator("#table-log")
        expect(log).to_contain_text(f"{MILENA} wybiera reakcję: Parowanie")
        expect(log).to_contain_text(result)
        expect(s.page.locator("#table-prompts .prompt")).to_have_count(0)
    answered_lines = {s.user: rolled_lines(s.page) for s in t.seats}
    for s in t.seats:
        assert answered_lines[s.user][1] > before[s.user][1], (before, answered_lines)

    # The GM takes the answer back.
    undo = t.gm.page.locator("#table-undo").get_by_role("button", name="Cofnij ostatni krok")
    undone = t.send(t.gm, undo)
    for s in t.seats:
        expect(s.page.locator("#table-log")).to_contain_text(
            f"Mistrz Gry cofa starcie do kroku {attacked}."
        )
        expect(s.page.locator("#table-log .log-line.undone").first).to_be_attached()

    # Her prompt is back, with the time it had left (not the full time), and it keeps running.
    prompt = phone.page.locator("[data-my-prompt]")
    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text("Twoja reakcja")
    expect(prompt).to_contain_text(f"{wolf} → {MILENA}")
    countdown = prompt.locator(".countdown-text")
    expect(countdown).to_have_text(re.compile(r"^\d+ s$"))
    shown = countdown.inner_text()
    left = seconds_left(prompt)
    assert 0 < left <= left_when_answered, (left, left_when_answered)
    expect(countdown).not_to_have_text(shown)  # a tick later (no sleep): still counting down
    expect(prompt).to_be_visible()
    assert 0 < seconds_left(prompt) < left
    expect(prompt.get_by_role("button", name=re.compile(r"^Parowanie(?! i Unik)"))).to_be_enabled()
    expect(t.gm.page.locator("#table-prompts .prompt")).to_contain_text(f"Czekamy na: {MILENA}")

    # Nothing was rolled or resolved by itself: the same lines, the answer's struck through.
    assert t.settle(t.gm.seq()) == undone
    for s in t.seats:
        total, live = rolled_lines(s.page)
        assert total == answered_lines[s.user][0], (s.user, total, answered_lines[s.user])
        assert live == before[s.user][1], (s.user, live, before[s.user])
        assert TIMED_OUT not in s.page.locator("#table-log").inner_text()


def answer_nothing(t: Table, card: Locator) -> None:
    """The player the GM's card waits for declines it on their own page (the GM clicks
    nothing); then that prompt is gone from both pages (the wolf may open another at once)."""
    waited = re.search(r"Czekamy na: (.+)", card.locator("h2").inner_text())
    assert waited and waited.group(1).strip() in OWNER, card.inner_text()
    seat = t.seat_of(waited.group(1).strip())
    prompt_id = (card.get_attribute("id") or "").removeprefix("prompt-")
    prompt = seat.page.locator(f"[data-my-prompt='{prompt_id}']")
    expect(prompt).to_be_visible()
    seat.press(prompt.get_by_role("button", name=re.compile(r"^Nic\b")))
    expect(prompt).to_have_count(0)
    expect(t.gm.page.locator(f"#prompt-{prompt_id}")).to_have_count(0)


def test_an_npc_marked_to_play_itself_takes_its_turn_and_the_players_see_it(
    live_url: str, table: Table
) -> None:
    t = table
    new_fight(t, live_url, "Wilk gra sam")
    order = names_in_order(t)
    (wolf,) = [name for name in order if name not in OWNER]
    if t.current() == wolf:  # marked in its own turn it would play at once: mark it off it
        t.end_turn(t.gm)

    # The GM marks the wolf to play itself, on its row.
    row = t.gm.page.locator("#table-order .combatant").filter(has_text=wolf)
    quick = row.locator(".gm-row-quick")
    expect(quick.get_by_role("button", name="Zagraj turę")).to_have_count(0)  # not its turn
    t.gm.press(quick.get_by_role("button", name="Gra sama: nie"))
    marked = quick.get_by_role("button", name="Gra sama: tak")
    expect(marked).to_have_attribute("aria-pressed", "true")
    marked_at = t.gm.seq()

    # The players end their heroes' turns up to the wolf's (on their own pages).
    index = order.index(wolf)
    after = order[(index + 1) % len(order)]
    while (current := t.current()) != wolf:
        seat = t.seat_of(current)
        button = seat.page.locator("#table-turn").get_by_role("button", name="Zakończ turę")
        if order[(order.index(current) + 1) % len(order)] != wolf:
            t.end_turn(seat)
            continue
        # The last one before the wolf: its turn comes and the table plays it.
        seat.press(button)
        break

    # The wolf attacks; a hero who may react answers "Nic" on their page; the turn moves on.
    for _ in range(6):
        t.gm.page.wait_for_function(PROMPT_OR_TURN, arg=after)
        cards = t.gm.page.locator("#table-prompts .prompt")
        if not cards.count():
            break
        answer_nothing(t, cards.first)
    else:
        pytest.fail(f"the wolf's turn did not end: {t.status()}")

    # The players' pages show the wolf's turn, its attack and the turn after it.
    attack = re.compile(rf"{re.escape(wolf)} atakuje( bez broni)?: ({'|'.join(HEROES.values())})")
    outcome = re.compile(rf"{re.escape(wolf)} (nie )?trafia: ")
    seq = t.settle(t.gm.seq())
    assert seq > marked_at
    for s in (t.p1, t.p2):
        log = s.page.locator("#table-log")
        expect(log).to_contain_text(f"Tura: {wolf}")
        expect(log).to_contain_text(attack)
        expect(log).to_contain_text(outcome)
        expect(log).to_contain_text(f"Tura: {after}")
        expect(s.page.locator("#table-status .current-name")).to_have_text(after)
        assert TIMED_OUT not in log.inner_text()
    assert_turns_in_log_order(t.p2.page.locator("#table-log .log-line"), wolf, after)
    expect(marked).to_have_attribute("aria-pressed", "true")  # it plays every turn


def assert_turns_in_log_order(lines: Locator, wolf: str, after: str) -> None:
    """Newest first: the wolf's attack after its turn began, the next turn after that."""
    texts = [line.strip() for line in lines.all_inner_texts()]
    newest = {
        key: next(i for i, text in enumerate(texts) if text.startswith(prefix))
        for key, prefix in (
            ("wolf", f"Tura: {wolf}"),
            ("attack", f"{wolf} atakuje"),
            ("after", f"Tura: {after}"),
        )
    }
    assert newest["after"] < newest["attack"] < newest["wolf"], (newest, texts[:12])
