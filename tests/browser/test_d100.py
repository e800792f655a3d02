"""Kroniki Fallathanu (d100) in three real browsers: the GM (desktop), gracz1 (desktop) and
gracz2 (phone).

The campaign is the tests' own (`d100_server`, tests/browser/conftest.py): Dobrogost (gracz1),
Jaga (gracz2) and a bandit with many PŻ; by post also an archer hidden from the players. Both
encounters are seated before the fight with fixed seeds, so every die is the same on every run
(the seeds were picked so both attacks of the live round and all of the by-post turn land).

1. A live round: the GM starts; Dobrogost attacks the bandit, whose GM-run Blok answers by
   itself; the bandit attacks Jaga and her phone asks for a reaction with a countdown and each
   answer's exact odds; she answers Unik. All three logs tell the same attack lines (each roll
   with its threshold, OoP and level), the players see the bandit as a wound level, the GM as
   numbers. The GM ends the fight: the player's verification page checks every roll ✓.
2. A by-post turn: the GM switches the pace and starts; Dobrogost posts (action, defence,
   text) and closes his page; the reminder time passes (a clock the test moves) and Jaga, the
   one still awaited, is mailed; Jaga posts; Dobrogost, back, sees his post and not hers; the
   GM posts for the NPCs; the deadline passes and the server's sweeper closes posting on its
   own; the GM resolves; both players see the results; each player was mailed as each turn
   opened. The turn's forum export (BBCode and Markdown, the players' version) is compared with
   the checked files in tests/browser/d100_expected/ (D100_WRITE_EXPECTED=1 writes them anew).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from combat.rules.d100.odds import attack_odds
from combat.rules.d100.settings import DEFAULT_SETTINGS
from tests.browser.conftest import (
    D100_HEROES,
    D100_HIDDEN,
    D100_NPC,
    D100_NPC_PZ,
    D100_POST,
    PHONE,
    SCREENSHOTS,
    D100Server,
    sign_in,
)

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
DOBROGOST, JAGA = D100_HEROES["gracz1"], D100_HEROES["gracz2"]
ZBOJ, LUCZNIK = D100_NPC, D100_HIDDEN
EXPECTED = Path(__file__).parent / "d100_expected"
WRITE_EXPECTED = os.environ.get("D100_WRITE_EXPECTED") == "1"
AT_LEAST = "s => Number(document.getElementById('table').dataset.seq) >= s"
SECONDS = re.compile(r"^(\d+) s$")
HOUR = 3600.0
# Every roll's summary in the log: "próg 70 · OoP 51 · zwykły sukces".
LEVEL = r"(krytyczne szczęście|zwykły sukces|minimalny sukces|porażka|krytyczny pech)"


def summary(label: str, threshold: int) -> re.Pattern[str]:
    return re.compile(rf"^{label}: próg {threshold} · OoP -?\d+ · {LEVEL}")


@dataclass
class Seat:
    """One browser at the table (its page may be closed and opened again)."""

    user: str
    page: Page
    touch: bool = False

    def press(self, target: Locator) -> None:
        if self.touch:
            target.tap()
        else:
            target.click()

    def open(self, url: str) -> None:
        self.page.goto(url)
        expect(self.page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
        self.page.wait_for_function("() => window.eleoraSwaps.length > 0")

    def reopen(self, url: str) -> None:
        """A new page in the same browser (the same signed-in user) on `url`."""
        self.page = self.page.context.new_page()
        self.open(url)

    def seq(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-seq") or "0")

    def log(self, text: str | re.Pattern[str]) -> Locator:
        return self.page.locator("#table-log .log-line", has_text=text)

    def status(self) -> Locator:
        return self.page.locator("#table-status")

    def row(self, name: str) -> Locator:
        return self.page.locator("#table-order .combatant", has_text=name)

    def unfold(self, details: Locator) -> Locator:
        """Open a <details> form (swaps keep an open one open)."""
        if not details.evaluate("d => d.open"):
            self.press(details.locator(":scope > summary"))
        expect(details.locator("form").first).to_be_visible()
        return details

    def shot(self, name: str, *, whole: bool = True) -> None:
        if whole:
            self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(path=SCREENSHOTS / f"d100-{name}.png", full_page=whole)


@dataclass
class Table:
    gm: Seat
    p1: Seat
    p2: Seat

    @property
    def seats(self) -> tuple[Seat, Seat, Seat]:
        return (self.gm, self.p1, self.p2)

    @property
    def players(self) -> tuple[Seat, Seat]:
        return (self.p1, self.p2)

    def open(self, url: str, seats: tuple[Seat, ...] | None = None) -> None:
        for seat in seats or self.seats:
            seat.open(url)

    def settle(self, seats: tuple[Seat, ...] | None = None) -> int:
        """Every page shows the newest entry of the log (the highest seq any page has)."""
        seats = seats or self.seats
        seq = max(s.seq() for s in seats)
        for seat in seats:
            seat.page.wait_for_function(AT_LEAST, arg=seq)
        seqs = {s.user: s.seq() for s in seats}
        assert len(set(seqs.values())) == 1, seqs
        return seq

    def all_show(self, text: str | re.Pattern[str], count: int = 1, timeout: float = 10) -> None:
        for seat in self.seats:
            expect(seat.log(text)).to_have_count(count, timeout=timeout * 1000)

    def same_line(self, text: str | re.Pattern[str]) -> Locator:
        """The one log line matching `text`, worded alike (its rolls too) on all three screens;
        the GM's line."""
        self.all_show(text)
        seen = {s.user: " ".join(s.log(text).inner_text().split()) for s in self.seats}
        assert len(set(seen.values())) == 1, seen
        return self.gm.log(text)

    def logs(self, seats: tuple[Seat, ...]) -> dict[str, list[str]]:
        return {
            s.user: [
                " ".join(line.split())
                for line in s.page.locator("#table-log .log-line:not(.secret)").all_inner_texts()
            ]
            for s in seats
        }

    def logs_agree(self, seats: tuple[Seat, ...] | None = None) -> None:
        """These logs tell the same story (the GM's has only its secret lines more)."""
        seats = seats or self.seats
        self.settle(seats)
        told = self.logs(seats)
        assert len({tuple(lines) for lines in told.values()}) == 1, told


@pytest.fixture
def table(new_context: Callable[..., BrowserContext], d100_server: D100Server) -> Iterator[Table]:
    seats = []
    for user, options in (("mistrz", DESKTOP), ("gracz1", DESKTOP), ("gracz2", PHONE)):
        page = new_context(**options).new_page()
        sign_in(page, d100_server.url, user)
        seats.append(Seat(user, page, touch=options is PHONE))
    yield Table(*seats)


def rolls_of(line: Locator) -> list[str]:
    """The summaries of a log line's rolls ("Trafienie: próg 70 · OoP 51 · zwykły sukces [19]
    #4.1"), in order."""
    return [" ".join(s.split()) for s in line.locator("details.roll > summary").all_inner_texts()]


def assert_rolls(line: Locator, *expected: tuple[str, int]) -> None:
    """The line's rolls are these tests (label, threshold), in this order, each with its OoP
    and level."""
    found = rolls_of(line)
    assert len(found) == len(expected), found
    for text, (label, threshold) in zip(found, expected, strict=True):
        assert summary(label, threshold).match(text), (text, label, threshold)


def odds_text(probability: float) -> str:
    """A probability as the odds chip shows it (combat/templatetags/table.percent)."""
    return f"{round(100 * probability)}%"


def damage_text(expected: float) -> str:
    """An expected damage as the chip shows it: "śr. 32,0 obr." (floatformat:1, Polish)."""
    value = Decimal(repr(expected)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"śr. {str(value).replace('.', ',')} obr."


def seconds(countdown: Locator) -> int:
    expect(countdown).to_have_text(SECONDS)
    shown = SECONDS.match(countdown.inner_text().strip())
    assert shown, countdown.inner_text()
    return int(shown.group(1))


# --- 1. a live round --------------------------------------------------------------------------


def test_a_live_round_with_an_unik_prompt_told_alike_on_every_screen(
    d100_server: D100Server, table: Table
) -> None:
    t = table
    url = d100_server.table(d100_server.live)
    t.open(url)
    for seat in t.seats:
        expect(seat.status()).to_contain_text("Przygotowanie")
        expect(seat.page.locator("#table-order .combatant")).to_have_count(3)
    t.gm.press(t.gm.page.locator("#table-gm").get_by_role("button", name="Rozpocznij walkę"))
    for seat in t.seats:
        expect(seat.status()).to_contain_text(f"Tura bojowa 1 · tura: {DOBROGOST}")
    t.same_line(f"Kolejność: {DOBROGOST}, {JAGA}, {ZBOJ}.")

    dobrogost_attacks_the_bandit(t)
    end_turn(t, t.p1, DOBROGOST)
    end_turn(t, t.p2, JAGA)
    for seat in t.seats:
        expect(seat.status()).to_contain_text(f"tura: {ZBOJ}")
    the_bandit_attacks_jaga_who_answers_unik(t)
    t.logs_agree()

    # The GM ends the fight: its seed is revealed and every roll checks out for a player.
    gm_panel = t.gm.page.locator("#table-gm")
    t.gm.press(gm_panel.get_by_role("button", name="Zakończ walkę"))
    for seat in t.seats:
        expect(seat.status()).to_contain_text("Starcie zakończone")
    page = t.p1.page
    page.goto(f"{d100_server.url}/encounters/{d100_server.live}/rolls/")
    expect(page.locator(".verify-verdict")).to_contain_text(
        "✓ Każdy sprawdzony rzut zgadza się z ziarnem."
    )
    rolls = page.locator(".verify-roll")
    expect(rolls.first).to_be_visible()
    total = rolls.count()
    assert total == 8, total  # Dobrogost's attack and the bandit's: four tests each
    expect(page.locator(".verify-roll.verify-ok")).to_have_count(total)
    expect(page.locator(".verify-tally")).to_contain_text(f"Sprawdzono {total} z {total} rzutów.")
    t.p1.shot("rolls-verified")


def end_turn(t: Table, seat: Seat, who: str) -> None:
    seat.press(seat.page.locator("#table-turn").get_by_role("button", name="Zakończ turę"))
    t.all_show(f"{who} kończy turę.")


def dobrogost_attacks_the_bandit(t: Table) -> None:
    p1 = t.p1
    attack = p1.unfold(p1.page.locator("#table-turn li.action-atak details"))
    form = attack.locator("form.d100-attack")
    form.get_by_label("Cel").select_option(label=ZBOJ)
    form.get_by_label(re.compile(r"^Czym")).select_option(label="Szabla — 70 / 80")

    # The odds first: the exact chance to hit against each defence the bandit has (Unik 45 on
    # his Zwinność, Blok 55 on his Krzepa), with Dobrogost's Trafienie 70 and Obrażenia 80.
    p1.press(form.get_by_role("button", name="Pokaż szanse"))
    preview = attack.locator("#odds-preview")
    for label, defence in (("cel: Unik", 45), ("cel: Blok", 55), ("cel bez obrony", None)):
        odds = attack_odds(DEFAULT_SETTINGS, hit=70, damage=80, defence=defence, resistance=50)
        row = preview.locator(".odds-row", has_text=label)
        expect(row.locator(".odds-value")).to_have_text(odds_text(odds.lands))
        expect(row.locator(".odds-dmg")).to_have_text(damage_text(odds.expected_damage))
    p1.press(form.get_by_role("button", name="Atakuj"))

    # The bandit (GM-run, "najlepsza obrona") answers with Blok at once: the attack rolls, and
    # the log claims no time for a reaction nobody waits for (issue 22, point 6d).
    t.same_line(f"{DOBROGOST} atakuje: {ZBOJ} (Szabla).")
    result = t.same_line(re.compile(rf"^\s*{DOBROGOST} trafia: {ZBOJ} \(Szabla\) — \d+ obrażeń"))
    assert_rolls(result, ("Trafienie", 70), ("Blok", 55), ("Obrażenia", 80), ("Odporność", 50))
    expect(t.gm.page.locator("#table-prompts .prompt")).to_have_count(0)

    # The bandit's health: numbers for the GM, the same wound level as a word for the players.
    gm_hp = t.gm.row(ZBOJ).locator(".hp")
    expect(gm_hp).to_have_text(re.compile(rf"^(Zdrowie: )?\d+/{D100_NPC_PZ}$"))
    level = gm_hp.get_attribute("title")
    assert level and level != "Bez ran", level
    assert f"{ZBOJ}: {level}." in result.inner_text()
    for seat in t.players:
        expect(seat.row(ZBOJ).locator(".hp")).to_have_text(level)
        expect(seat.row(ZBOJ)).not_to_contain_text(f"/{D100_NPC_PZ}")
    t.settle()


def the_bandit_attacks_jaga_who_answers_unik(t: Table) -> None:
    gm = t.gm
    attack = gm.unfold(gm.page.locator("#table-turn li.action-atak details"))
    form = attack.locator("form.d100-attack")
    form.get_by_label("Cel").select_option(label=JAGA)
    form.get_by_label(re.compile(r"^Czym")).select_option(label="Topór — 35 / 90")
    gm.press(form.get_by_role("button", name="Atakuj"))
    t.same_line(f"{ZBOJ} atakuje: {JAGA} (Topór) — czas na reakcję celu.")

    # Jaga's prompt on the phone: every answer she has, with its threshold and exact odds
    # (Topór: Trafienie 35, Obrażenia 90; her Odporność 45, Unik 65, Blok 40).
    prompt = t.p2.page.locator("[data-my-prompt]")
    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text("Twoja reakcja")
    expect(prompt).to_contain_text(f"Atak: {ZBOJ} → {JAGA}")
    expect(prompt).to_contain_text("Topór: Trafienie 35, Obrażenia 90. Twoja Odporność 45.")
    assert 0 < seconds(prompt.locator(".countdown-text")) <= DEFAULT_SETTINGS.reaction_seconds
    answers = prompt.locator("button.btn-answer")
    expect(answers).to_have_count(3)
    for name, defence in (("Unik (próg 65)", 65), ("Blok (próg 40)", 40), ("Bez obrony", None)):
        odds = attack_odds(DEFAULT_SETTINGS, hit=35, damage=90, defence=defence, resistance=45)
        answer = prompt.get_by_role("button", name=re.compile(rf"^{re.escape(name)}"))
        expect(answer.locator(".odds-what")).to_have_text("szansa, że cię trafi")
        expect(answer.locator(".odds-num")).to_have_text(odds_text(odds.lands))
        expect(answer).to_contain_text(damage_text(odds.expected_damage))
    unik = prompt.get_by_role("button", name=re.compile(r"^Unik \(próg 65\)"))
    expect(unik).to_have_class(re.compile(r"\bis-best\b"))  # the least expected damage
    expect(t.gm.page.locator("#table-prompts .prompt")).to_contain_text(f"Czekamy na: {JAGA}")
    expect(t.p1.page.locator("[data-my-prompt]")).to_have_count(0)
    t.p2.shot("unik-prompt-phone", whole=False)
    t.p2.press(unik)

    # The whole attack rolls at her answer: the hit, her Unik, the damage, her Odporność.
    result = t.same_line(re.compile(rf"^\s*{ZBOJ} trafia: {JAGA} \(Topór\) — \d+ obrażeń"))
    assert_rolls(result, ("Trafienie", 35), ("Unik", 65), ("Obrażenia", 90), ("Odporność", 45))
    for seat in t.seats:
        expect(seat.page.locator("#table-prompts .prompt")).to_have_count(0)
        expect(seat.log("Czas na obronę minął")).to_have_count(0)  # answered in time
    # Jaga's PŻ: the same numbers on every screen, and in the line that told the blow.
    hp = t.gm.row(JAGA).locator(".hp")
    numbers = re.compile(r"^(Zdrowie: )?(\d+/160)$")
    expect(hp).to_have_text(numbers)
    found = numbers.match(" ".join(hp.inner_text().split()))
    assert found and found.group(2) != "160/160", hp.inner_text()
    shown = found.group(2)
    assert f"{JAGA}: {shown} PŻ." in result.inner_text()
    for seat in t.players:
        expect(seat.row(JAGA).locator(".hp")).to_have_text(re.compile(rf"(^|\s){shown}$"))
    expect(t.p2.page.locator("#table-me .hp")).to_have_text(re.compile(rf"(^|\s){shown}$"))
    t.gm.shot("live-round")


# --- 2. a by-post turn, its mails and its export ----------------------------------------------


def mails_about(server: D100Server, encounter: str) -> list[tuple[str, str, str]]:
    """(recipient, subject, body) of every mail the server sent about this encounter."""
    found = server.mail.mails()
    return [(m.to[0], m.subject, m.body) for m in found if f"„{encounter}”" in m.body]


def wait_for_mails(
    server: D100Server,
    encounter: str,
    ready: Callable[[list[tuple[str, str, str]]], bool],
    timeout: float = 10,
) -> list[tuple[str, str, str]]:
    """The encounter's mails once `ready` holds for them (the server sends them after its
    commit, or at its sweep)."""
    end = time.monotonic() + timeout
    while True:
        found = mails_about(server, encounter)
        if ready(found) or time.monotonic() > end:
            return found
        time.sleep(0.2)


def count(mails: list[tuple[str, str, str]], to: str, subject: str) -> int:
    return sum(1 for rcpt, subj, _body in mails if rcpt == to and subj.startswith(subject))


POST_ENCOUNTER = D100_POST
TURN_OPEN = "Twój ruch: "
REMINDER = "Przypomnienie: "
GRACZ1, GRACZ2 = "gracz1@eleora.test", "gracz2@eleora.test"
DOBROGOST_TEXT = "Dobrogost przeskakuje strumień i tnie zbója szablą."
JAGA_TEXT = "Jaga zachodzi zbója od tyłu, ze sztyletem nisko."
ZBOJ_TEXT = "Zbój z rykiem zamachuje się toporem na Jagę."
DOBROGOST_POSTS = f"atak → {ZBOJ} (Szabla) · obrona: Unik"
JAGA_POSTS = f"atak → {ZBOJ} (Sztylet) · obrona: Unik"


def post_form(seat: Seat, who: str) -> Locator:
    return seat.page.locator("#table-turn").get_by_role("form", name=f"Wpis: {who}")


def send_post(seat: Seat, who: str, action: str, defence: str | None, text: str) -> None:
    form = post_form(seat, who)
    label = f"Wpis: {who}"
    folded = seat.page.locator(f'#table-turn details.together-seat:has(form[aria-label="{label}"])')
    if folded.count():  # the GM's forms for the seats it acts for are folded away
        seat.unfold(folded)
    expect(form).to_be_visible()
    form.get_by_label("Akcja pełna").select_option(label=action)
    if defence is not None:
        form.get_by_label("Obrona, jeśli ktoś cię zaatakuje").select_option(label=defence)
    form.get_by_label("Opis (wpis fabularny)").fill(text)
    seat.press(form.get_by_role("button", name="Wyślij wpis"))


def deadline_of(seat: Seat) -> float:
    """The by-post deadline the status bar shows, as a date; its epoch seconds."""
    shown = seat.status().locator("time.deadline-time")
    expect(shown).to_have_text(re.compile(r"\d{1,2}\D+.*\d{1,2}:\d{2}"))  # day, month, time
    iso = shown.get_attribute("datetime") or ""
    return datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


def test_a_by_post_turn_with_the_page_closed_a_deadline_mails_and_its_export(
    d100_server: D100Server, table: Table, move_clock: Callable[[float], float]
) -> None:
    t = table
    url = d100_server.table(d100_server.post)
    t.open(url, (t.gm, t.p1))

    # The GM switches the table to posts and starts: turn 1 is open to everyone at once.
    panel = t.gm.page.locator("#table-gm")
    t.gm.press(panel.get_by_role("button", name="Tempo: przez posty"))
    expect(panel).to_contain_text("Tempo walki: przez posty")
    t.gm.press(panel.get_by_role("button", name="Rozpocznij walkę"))
    started = time.time()
    for seat in (t.gm, t.p1):
        expect(seat.status()).to_contain_text("Tura bojowa 1")
        expect(seat.log("Tura bojowa 1: czas na wpisy.")).to_have_count(1)
    deadline = deadline_of(t.p1)
    hours = DEFAULT_SETTINGS.post_turn_hours
    assert started + hours * HOUR - 120 < deadline < started + hours * HOUR + 120, deadline
    waiting = t.p1.status().locator(".waiting-name")
    expect(waiting.filter(has_text=DOBROGOST)).to_have_count(1)
    expect(waiting.filter(has_text=LUCZNIK)).to_have_count(0)  # hidden: never named to them
    mails = wait_for_mails(
        d100_server,
        POST_ENCOUNTER,
        lambda m: len([x for x in m if x[1].startswith(TURN_OPEN)]) >= 2,
    )
    assert count(mails, GRACZ1, TURN_OPEN) == count(mails, GRACZ2, TURN_OPEN) == 1, mails
    assert all("Tura bojowa 1" in subject for _to, subject, _body in mails), mails

    # Dobrogost posts his attack, his defence and his text, sees it back, and closes the page.
    send_post(
        t.p1, DOBROGOST, f"atak → {ZBOJ}: Szabla (Trafienie 70, Obrażenia 80)", "Unik (próg 70)",
        DOBROGOST_TEXT,
    )  # fmt: skip
    mine = t.p1.page.locator("#table-turn .d100-mine")
    expect(mine).to_contain_text(f"Twój wpis: {DOBROGOST_POSTS}")
    expect(mine).to_contain_text(DOBROGOST_TEXT)
    expect(waiting.filter(has_text=DOBROGOST)).to_have_count(0)
    expect(t.gm.page.locator(".d100-posts")).to_contain_text(f"{DOBROGOST} ✓ {DOBROGOST_POSTS}")
    t.p1.shot("post-sent")
    t.p1.page.close()

    # The reminder time passes (6 h before the deadline): Jaga, still awaited, is reminded by
    # the server's sweep; Dobrogost, who posted, is not.
    move_clock(hours * HOUR - DEFAULT_SETTINGS.post_reminder_hours * HOUR + HOUR)
    mails = wait_for_mails(d100_server, POST_ENCOUNTER, lambda m: count(m, GRACZ2, REMINDER) > 0)
    assert count(mails, GRACZ2, REMINDER) == 1, mails
    assert count(mails, GRACZ1, REMINDER) == 0, mails

    # Jaga posts on her phone; she never sees what Dobrogost posted.
    t.p2.open(url)
    expect(t.p2.status()).to_contain_text("Tura bojowa 1")
    send_post(
        t.p2, JAGA, f"atak → {ZBOJ}: Sztylet (Trafienie 70, Obrażenia 50)", "Unik (próg 65)",
        JAGA_TEXT,
    )  # fmt: skip
    expect(t.p2.page.locator("#table-turn .d100-mine")).to_contain_text(f"Twój wpis: {JAGA_POSTS}")
    t.p2.shot("post-sent-phone")

    # The GM posts for the bandit (at Jaga) and for the hidden archer (at Dobrogost).
    send_post(t.gm, ZBOJ, f"atak → {JAGA}: Topór (Trafienie 35, Obrażenia 90)", None, ZBOJ_TEXT)
    expect(t.gm.log(f"Mistrz Gry wpisuje za: {ZBOJ}")).to_have_count(1)
    send_post(t.gm, LUCZNIK, f"atak → {DOBROGOST}: Łuk (Trafienie 60, Obrażenia 65)", None, "")
    expect(t.gm.log(f"Mistrz Gry wpisuje za: {LUCZNIK}")).to_have_count(1)
    for name in (DOBROGOST, JAGA, ZBOJ, LUCZNIK):
        named = t.gm.page.locator("strong").get_by_text(name, exact=True)
        expect(t.gm.page.locator(".d100-posts li").filter(has=named)).to_contain_text("✓")

    # Dobrogost comes back: his own post is there, Jaga's is not (posts stay hidden until the
    # resolve), and the deadline is still a date.
    t.p1.reopen(url)
    mine = t.p1.page.locator("#table-turn .d100-mine")
    expect(mine).to_contain_text(f"Twój wpis: {DOBROGOST_POSTS}")
    expect(mine).to_contain_text(DOBROGOST_TEXT)
    expect(t.p1.page.locator("#table-me")).to_contain_text(f"Twój wpis: {DOBROGOST_POSTS}")
    for seat, other in ((t.p1, (JAGA_TEXT, JAGA_POSTS)), (t.p2, (DOBROGOST_TEXT, DOBROGOST_POSTS))):
        for text in (*other, ZBOJ_TEXT, LUCZNIK):
            assert text not in seat.page.content(), (seat.user, text)
        expect(seat.page.locator("#table-log .secret")).to_have_count(0)
    assert deadline_of(t.p1) == deadline
    t.settle()

    # The deadline passes: the sweeper closes posting with nobody at the GM's table acting.
    before = t.gm.seq()
    move_clock(DEFAULT_SETTINGS.post_reminder_hours * HOUR)  # an hour past the deadline
    closed = "Termin minął: tura 1 zamknięta dla wpisów."
    t.all_show(closed)
    assert t.gm.seq() == before + 1
    for seat in t.players:
        expect(seat.page.locator("#table-me")).to_contain_text(
            "Termin minął: wpisy do tej tury są zamknięte."
        )
        expect(seat.page.locator("#table-turn form.d100-post")).to_have_count(0)
    expect(panel.locator(".d100-posts")).to_contain_text("termin minął")

    # The GM resolves the turn: every post in initiative order, then turn 2 opens.
    t.gm.press(panel.get_by_role("button", name="Rozstrzygnij turę teraz"))
    t.all_show("Koniec tury bojowej 1.")
    t.all_show("Tura bojowa 2: czas na wpisy.")
    revealed = t.same_line(re.compile(r"^\s*Wpisy tury 1:")).inner_text()
    for part in (f"{DOBROGOST}: atak → {ZBOJ} (Szabla); obrona: Unik", f"{JAGA}: atak → {ZBOJ}"):
        assert part in revealed, revealed
    assert LUCZNIK not in revealed, revealed
    for who, means in ((DOBROGOST, "Szabla"), (JAGA, "Sztylet")):
        hit = t.same_line(re.compile(rf"^\s*{who} trafia: {ZBOJ} \({means}\)"))
        assert rolls_of(hit)[0].startswith("Trafienie: próg 70 · OoP"), rolls_of(hit)
    blow = t.same_line(re.compile(rf"^\s*{ZBOJ} trafia: {JAGA} \(Topór\)"))
    assert_rolls(blow, ("Trafienie", 35), ("Unik", 65), ("Obrażenia", 90), ("Odporność", 45))
    t.same_line(re.compile(rf"^\s*{ZBOJ} krwawi: −\d+ PŻ"))  # Dobrogost's crit: Krwawienie
    for seat in t.seats:
        expect(seat.row(ZBOJ)).to_contain_text("Krwawienie")
    # The archer's shot is the GM's to see; the players' logs agree with each other.
    expect(t.gm.log(re.compile(rf"^\s*{LUCZNIK} (trafia|atakuje): {DOBROGOST}"))).to_have_count(2)
    for seat in t.players:
        assert LUCZNIK not in seat.page.content(), seat.user
    t.logs_agree(t.players)
    t.p2.shot("turn-resolved-phone")

    # Each player was mailed as turn 2 opened, as for turn 1.
    mails = wait_for_mails(
        d100_server, POST_ENCOUNTER, lambda m: count(m, GRACZ1, TURN_OPEN + POST_ENCOUNTER) >= 2
    )
    mails = wait_for_mails(
        d100_server, POST_ENCOUNTER, lambda m: count(m, GRACZ2, TURN_OPEN + POST_ENCOUNTER) >= 2
    )
    for to in (GRACZ1, GRACZ2):
        opened = [s for rcpt, s, _b in mails if rcpt == to and s.startswith(TURN_OPEN)]
        assert opened == [f"{TURN_OPEN}{POST_ENCOUNTER} (Tura bojowa {n})" for n in (1, 2)], mails
    reminded = [body for rcpt, s, body in mails if s.startswith(REMINDER)]
    assert len(reminded) == 1 and f"Postacie: {JAGA}" in reminded[0], mails

    check_export(d100_server, t)


# --- 3. the by-post turn's export -------------------------------------------------------------


def normalised(text: str, server: D100Server) -> str:
    """The export with what legitimately varies made fixed: the server's address and the
    encounter's id in every link."""
    text = text.replace(server.url, "http://eleora.test")
    return text.replace(f"/encounters/{server.post}/", "/encounters/ID/")


def check_export(server: D100Server, t: Table) -> None:
    """Turn 1 as a player exports it, BBCode and Markdown, is the checked text; the GM's own
    version names the hidden archer, the players' does not."""
    page = t.p1.page
    base = f"{server.url}/encounters/{server.post}/export/"
    for fmt, name in (("bbcode", "turn1.bbcode"), ("markdown", "turn1.md")):
        page.goto(f"{base}?format={fmt}&turn=1")
        area = page.locator("#export-text")
        expect(area).to_be_visible()
        text = normalised(area.input_value(), server)
        expected = EXPECTED / name
        if WRITE_EXPECTED:
            expected.parent.mkdir(exist_ok=True)
            expected.write_text(text, encoding="utf-8")
        assert text == expected.read_text(encoding="utf-8"), f"{name} changed:\n{text}"
        assert LUCZNIK not in text
    t.p1.shot("export")
    gm = t.gm.page
    gm.goto(f"{base}?format=bbcode&turn=1&version=gm")
    gm_text = gm.locator("#export-text").input_value()
    assert f"{LUCZNIK} trafia: {DOBROGOST}" in gm_text, gm_text
