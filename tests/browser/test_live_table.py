"""The live table with three real browsers: the GM (desktop) and two players, one on a phone.

Initiative and dice are random, so every test plays whatever order the server rolled: a
player ends their character's turn on their own page, the GM runs the wolves. Each command is
timed from the click in one browser to the swap in the other two (all share one clock).
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.conftest import PHONE, ROOT, SCREENSHOTS, sign_in

pytestmark = pytest.mark.browser

CAMPAIGN = "Wilki z Czarnego Lasu"
DEMO_ENCOUNTER = "Zasadzka na leśnym trakcie"
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
HEROES = {"gracz1": "Radosław Szablista", "gracz2": "Milena Łuczniczka"}
OWNER = {name: user for user, name in HEROES.items()}
LATENCY_FILE = ROOT / "build" / "browser-latency.json"
DEFAULT_TIMEOUT_S = 15  # the ruleset's default reaction time (campaign table settings)
SHORT_TIMEOUT_S = 3  # the shortest the table settings allow

# The first swap after `before` in this page: window.eleoraSwaps is recorded by table.js.
SWAPPED_AFTER = "s => window.eleoraSwaps.some(e => e.seq > s)"
FIRST_SWAP_AFTER = "s => window.eleoraSwaps.find(e => e.seq > s).at"
# The clicker's own answer: a swap, or a refusal shown in the toast.
ANSWERED = (
    "s => window.eleoraSwaps.some(e => e.seq > s) || !document.getElementById('table-toast').hidden"
)
AT_LEAST = "s => Number(document.getElementById('table').dataset.seq) >= s"


@dataclass
class Seat:
    """One browser at the table."""

    user: str
    page: Page
    context: BrowserContext
    touch: bool = False

    def press(self, target: Locator) -> None:
        if self.touch:
            target.tap()
        else:
            target.click()

    def unfold(self, details: Locator) -> Locator:
        """Open an action's <details> form (swaps keep an open one open)."""
        if not details.evaluate("d => d.open"):
            self.press(details.locator("summary"))
        expect(details.locator("form")).to_be_visible()
        return details

    def seq(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-seq") or "0")

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.wait_online()

    def wait_online(self) -> None:
        expect(self.page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
        # The socket's first push is swapped in: from now on every push counts.
        self.page.wait_for_function("() => window.eleoraSwaps.length > 0")


@dataclass
class Table:
    """The three seats and the latency of every command they sent."""

    gm: Seat
    p1: Seat
    p2: Seat
    samples: list[float] = field(default_factory=list)

    @property
    def seats(self) -> tuple[Seat, Seat, Seat]:
        return (self.gm, self.p1, self.p2)

    def seat_of(self, hero: str) -> Seat:
        return self.p1 if OWNER[hero] == "gracz1" else self.p2

    def open(self, url: str) -> None:
        for seat in self.seats:
            seat.open(url)

    def send(self, seat: Seat, button: Locator, *, away: Seat | None = None) -> int:
        """Click a command's button; wait until every page (but `away`) shows its result.

        The time from the click to the first swap after it in each other page is a sample."""
        present = [s for s in self.seats if s is not away]
        before = {s.user: s.seq() for s in present}
        clicked = seat.page.evaluate("Date.now()")
        seat.press(button)
        seat.page.wait_for_function(ANSWERED, arg=before[seat.user])
        toast = seat.page.locator("#table-toast")
        assert toast.is_hidden(), f"{seat.user}: command refused: {toast.inner_text()}"
        for other in present:
            if other is seat:
                continue
            other.page.wait_for_function(SWAPPED_AFTER, arg=before[other.user])
            self.samples.append(other.page.evaluate(FIRST_SWAP_AFTER, before[other.user]) - clicked)
        return self.settle(seat.seq(), present)

    def settle(self, seq: int, seats: list[Seat] | None = None) -> int:
        """Wait until the pages show at least `seq`; they must then agree."""
        seats = seats or list(self.seats)
        for seat in seats:
            seat.page.wait_for_function(AT_LEAST, arg=seq)
        seqs = {seat.user: seat.seq() for seat in seats}
        assert len(set(seqs.values())) == 1, seqs
        return seqs[seats[0].user]

    def status(self) -> str:
        return self.gm.page.locator("#table-status").inner_text()

    def current(self) -> str:
        return self.gm.page.locator("#table-status .current-name").inner_text().strip()

    def end_turn(self, seat: Seat, *, away: Seat | None = None) -> int:
        button = seat.page.locator("#table-turn").get_by_role("button", name="Zakończ turę")
        return self.send(seat, button, away=away)

    def answer_npc_prompts(self) -> None:
        """A PC attacking a wolf that has acted asks the GM for the wolf's reaction: none."""
        prompts = self.gm.page.locator("#table-prompts .prompt")
        while prompts.count():
            nothing = prompts.first.get_by_role("button", name=re.compile(r"^Nic\b"))
            self.send(self.gm, nothing)

    def declare_wolf_attack(self, target: str) -> tuple[str, Seat, Locator]:
        """The GM attacks `target` with the current wolf; its player gets the prompt."""
        wolf = self.current()
        attack = self.gm.unfold(self.gm.page.locator("#table-turn #act-atak"))
        attack.locator("select[name='c.target']").select_option(label=target)
        self.send(self.gm, attack.get_by_role("button", name="Atakuj", exact=True))
        seat = self.seat_of(target)
        prompt = seat.page.locator("[data-my-prompt]")
        expect(prompt).to_be_visible()
        expect(prompt).to_contain_text("Twoja reakcja")
        expect(prompt).to_contain_text(f"{wolf} → {target}")
        gm_card = self.gm.page.locator("#table-prompts .prompt")
        expect(gm_card).to_contain_text(f"Czekamy na: {target}")
        # The other player is not asked.
        other = self.p2 if seat is self.p1 else self.p1
        expect(other.page.locator("#table-prompts .prompt")).to_have_count(0)
        return wolf, seat, prompt


def seconds_left(prompt: Locator) -> int:
    text = prompt.locator(".countdown-text").inner_text()
    match = re.fullmatch(r"(\d+) s", text.strip())
    assert match, f"countdown shows {text!r}"
    return int(match.group(1))


@pytest.fixture
def table(live_url: str, new_context: Callable[..., BrowserContext]) -> Iterator[Table]:
    seats = []
    for user, options in (("mistrz", DESKTOP), ("gracz1", DESKTOP), ("gracz2", PHONE)):
        context = new_context(**options)
        page = context.new_page()
        sign_in(page, live_url, user)
        seats.append(Seat(user, page, context, touch=options is PHONE))
    gm, p1, p2 = seats
    yield Table(gm, p1, p2)


def campaign_url(page: Page, base: str) -> str:
    page.goto(f"{base}/")
    page.get_by_role("link", name=CAMPAIGN).first.click()
    expect(page.get_by_role("heading", name=CAMPAIGN)).to_be_visible()
    return page.url


def encounter_url(page: Page, base: str, name: str) -> str:
    page.goto(campaign_url(page, base))
    page.get_by_role("link", name="Starcia", exact=True).first.click()
    href = page.get_by_role("link", name=name, exact=True).first.get_attribute("href")
    assert href
    return f"{base}{href}"


def set_reaction_timeout(page: Page, base: str, seconds: int) -> None:
    page.goto(campaign_url(page, base))
    page.get_by_role("link", name="Ustawienia stołu").click()
    page.get_by_label("Czas na reakcję (s)").fill(str(seconds))
    page.get_by_role("button", name="Zapisz ustawienia").click()
    expect(page.get_by_text("Ustawienia stołu zapisane.")).to_be_visible()


def create_encounter(page: Page, base: str, name: str) -> str:
    """The GM opens a new encounter from the campaign's list of encounters."""
    page.goto(campaign_url(page, base))
    page.get_by_role("link", name="Starcia", exact=True).first.click()
    page.get_by_label("Nazwa starcia").fill(name)
    page.get_by_role("button", name="Otwórz nowe starcie").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    return page.url


def add_party(t: Table, url: str) -> None:
    """Everyone sits down; the GM adds both heroes and one wolf from the bestiary."""
    t.open(url)
    panel = t.gm.page.locator("#table-gm")
    for hero in HEROES.values():
        panel.get_by_label(hero).check()
    panel.get_by_label("Wilk", exact=True).fill("1")
    t.send(t.gm, panel.get_by_role("button", name="Dodaj", exact=True))
    expect(t.gm.page.locator("#table-order .combatant")).to_have_count(3)
    for seat in t.seats:
        for hero in HEROES.values():
            expect(seat.page.locator("#table-order")).to_contain_text(hero)


def new_fight(t: Table, base: str, name: str) -> str:
    url = create_encounter(t.gm.page, base, name)
    add_party(t, url)
    roll_and_start(t)
    return url


def roll_and_start(t: Table) -> None:
    """Each player rolls their own hero's initiative; the GM starts the fight."""
    for seat in (t.p1, t.p2):
        hero = HEROES[seat.user]
        t.send(seat, seat.page.get_by_role("button", name=f"Rzuć inicjatywę: {hero}"))
        expect(seat.page.locator("#table-turn")).to_contain_text(f"{hero}: inicjatywa rzucona")
    t.send(t.gm, t.gm.page.get_by_role("button", name="Rozpocznij walkę"))
    for seat in t.seats:
        expect(seat.page.locator("#table-status")).to_contain_text("Runda 1")


def attack_a_wolf_with_odds(t: Table, hero: str) -> None:
    """The player previews the odds of an attack on a wolf, then attacks (hit or miss)."""
    seat = t.seat_of(hero)
    attack = seat.unfold(seat.page.locator("#table-turn #act-atak"))
    target = attack.locator("select[name='c.target']")
    wolf = target.locator("option").first.inner_text().strip()
    assert wolf.startswith("Wilk"), wolf
    seat.press(attack.get_by_role("button", name="Pokaż szanse"))
    preview = attack.locator("#odds-preview")
    expect(preview).to_contain_text(f"Szanse przeciw: {wolf}")
    expect(preview.locator(".odds-value").first).to_have_text(re.compile(r"^\d{1,3}%$"))
    t.send(seat, attack.get_by_role("button", name="Atakuj", exact=True))
    for s in t.seats:
        expect(s.page.locator("#table-log")).to_contain_text(f"{hero} atakuje: {wolf}")
    t.answer_npc_prompts()
    result = re.compile(rf"{hero} (nie )?trafia: {wolf}")
    for s in t.seats:
        expect(s.page.locator("#table-log")).to_contain_text(result)


def write_latency(samples: list[float]) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "samples_ms": [round(s, 1) for s in samples],
        "median_ms": round(statistics.median(samples), 1),
        "max_ms": round(max(samples), 1),
        "count": len(samples),
    }
    LATENCY_FILE.parent.mkdir(parents=True, exist_ok=True)
    LATENCY_FILE.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def play_until_a_wolf_may_attack(t: Table, hero: str, turns: int = 8) -> None:
    """End turns (each on its controller's page) until a wolf acts after `hero` has acted."""
    acted = False
    for _ in range(turns):
        current = t.current()
        if current in OWNER:
            t.end_turn(t.seat_of(current))
            acted = acted or current == hero
        elif acted:
            return
        else:
            t.end_turn(t.gm)
    pytest.fail(f"no wolf turn after {hero}'s: {t.status()}")


TAKEN: set[str] = set()  # screenshots taken in this session


def screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """A README picture, from the top of the page (a sticky header would land mid-page)."""
    TAKEN.add(name)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)


def test_a_full_round_with_a_parowanie_answered_in_time(live_url: str, table: Table) -> None:
    t = table
    t.open(encounter_url(t.gm.page, live_url, DEMO_ENCOUNTER))
    for seat in t.seats:
        expect(seat.page.locator("#table-status")).to_contain_text("Przygotowanie")
    roll_and_start(t)

    acted: list[str] = []  # heroes whose first turn has begun: only they may react
    previewed = attacked = False
    for _ in range(12):  # five turns a round; the attack may wait for round 2
        round_two = "Runda 2" in t.status()
        if round_two and attacked:
            break
        current = t.current()
        if current in OWNER:
            if not previewed:
                attack_a_wolf_with_odds(t, current)
                previewed = True
            t.end_turn(t.seat_of(current))
            acted.append(current)
            continue
        if acted and not attacked:
            # Milena (the phone) when she can react; the other hero otherwise.
            target = HEROES["gracz2"] if HEROES["gracz2"] in acted else acted[0]
            parry_in_time(t, target)
            attacked = True
        t.end_turn(t.gm)
    else:
        pytest.fail(f"round 2 never came: {t.status()}")

    for seat in t.seats:
        expect(seat.page.locator("#table-status")).to_contain_text("Runda 2")
    summary = write_latency(t.samples)
    print(f"\nlatency click → other screens: {summary | {'samples_ms': '…'}}")
    assert summary["count"] >= 2 * 8


def parry_in_time(t: Table, target: str) -> None:
    wolf, seat, prompt = t.declare_wolf_attack(target)
    left = seconds_left(prompt)
    assert 0 < left <= DEFAULT_TIMEOUT_S
    # The exact odds of every answer, "no reaction" included, on the answer buttons.
    chips = prompt.locator(".odds-chip")
    expect(chips.first).to_have_text(
        re.compile(r"szansa, że cię trafi \d{1,3}% · śr\. \d+,\d obr\.")
    )
    assert chips.count() == prompt.locator("button").count() >= 2
    parry = prompt.get_by_role("button", name=re.compile(r"^Parowanie(?! i Unik)"))
    expect(parry).to_be_enabled()
    if seat is t.p2:
        screenshot(seat.page, "table-player-phone.png", full_page=False)
    t.send(seat, parry)

    chose = f"{target} wybiera reakcję: Parowanie"
    result = re.compile(rf"{wolf} (nie )?trafia: {target}")
    seq = t.settle(t.gm.seq())
    for s in t.seats:
        log = s.page.locator("#table-log")
        expect(log).to_contain_text(chose)
        expect(log).to_contain_text(result)
        expect(s.page.locator("#table-prompts .prompt")).to_have_count(0)
        assert s.seq() == seq
    screenshot(t.gm.page, "table-gm.png")


def test_a_prompt_that_times_out_resolves_as_no_reaction_on_every_screen(
    live_url: str, table: Table
) -> None:
    t = table
    set_reaction_timeout(t.gm.page, live_url, SHORT_TIMEOUT_S)
    try:  # an encounter keeps the campaign's settings of the moment it was opened
        url = create_encounter(t.gm.page, live_url, "Próba refleksu")
    finally:
        set_reaction_timeout(t.gm.page, live_url, DEFAULT_TIMEOUT_S)
    add_party(t, url)
    roll_and_start(t)
    hero = HEROES["gracz2"]  # on the phone
    play_until_a_wolf_may_attack(t, hero)

    wolf, seat, prompt = t.declare_wolf_attack(hero)
    assert 0 < seconds_left(prompt) <= SHORT_TIMEOUT_S
    expect(prompt.get_by_role("button", name=re.compile(r"^Nic\b"))).to_be_enabled()
    if "table-player-phone.png" not in TAKEN:  # round 1 of the first test may not have had it
        screenshot(seat.page, "table-player-phone.png", full_page=False)

    # Nobody answers: the server resolves the attack at the deadline and tells everyone.
    timed_out = f"{hero} nie reaguje (czas minął)."
    result = re.compile(rf"{wolf} (nie )?trafia: {hero}")
    for s in t.seats:
        log = s.page.locator("#table-log")
        expect(log).to_contain_text(timed_out, timeout=SHORT_TIMEOUT_S * 1000 + 5_000)
        expect(log).to_contain_text(result)
        expect(s.page.locator("#table-prompts .prompt")).to_have_count(0)
    t.settle(t.gm.seq())
    assert "wybiera reakcję" not in t.gm.page.locator("#table-log").inner_text()


def test_a_player_reloading_mid_fight_sees_the_current_state(live_url: str, table: Table) -> None:
    t = table
    new_fight(t, live_url, "Powrót do stołu")
    current = t.current()
    t.end_turn(t.seat_of(current) if current in OWNER else t.gm)

    t.p1.page.reload()
    t.p1.wait_online()
    assert t.p1.seq() == t.gm.seq()
    expect(t.p1.page.locator("#table-status .current-name")).to_have_text(t.current())
    gm_log = t.gm.page.locator("#table-log .log-line:not(.secret)").all_inner_texts()
    assert t.p1.page.locator("#table-log .log-line").all_inner_texts() == gm_log

    # The GM ends the current turn (whoever's it is): the reloaded page follows.
    before = t.current()
    t.end_turn(t.gm)
    after = t.current()
    assert after != before
    expect(t.p1.page.locator("#table-status .current-name")).to_have_text(after)
    expect(t.p1.page.locator("#table-log")).to_contain_text(f"Tura: {after}")
    expect(t.p1.page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))


# Test-side only: remember the page's sockets so the test can close them.
TRACK_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.testSockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.testSockets.push(this); }
  };
})();"""


# The badge's every state from now on (a MutationObserver), to see that nothing went offline.
WATCH_BADGE = """() => {
  window.testBadge = [];
  new MutationObserver(() => window.testBadge.push(document.getElementById("table").dataset.conn))
    .observe(document.getElementById("table"), {attributes: true, attributeFilter: ["data-conn"]});
}"""
# What the process holding the socket for the table's home sends (combat/homing.py MOVE).
MOVE = """() => window.testSockets[0].onmessage(
  new MessageEvent("message", {data: JSON.stringify({t: "move"})}))"""


def test_a_page_asked_to_move_opens_its_next_socket_before_it_closes_the_old(
    live_url: str, table: Table
) -> None:
    """Make before break: the page opens its next socket (which the front door would take to
    the table's home), closes the old one only once the new one brought the page, and never
    shows itself offline; the moves that follow reach it on the new socket."""
    t = table
    phone = t.p2
    phone.page.add_init_script(TRACK_SOCKETS)
    new_fight(t, live_url, "Powrót do domu")
    expect(phone.page.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
    phone.page.evaluate(WATCH_BADGE)

    phone.page.evaluate(MOVE)
    phone.page.wait_for_function("() => window.testSockets[0].readyState === WebSocket.CLOSED")
    assert phone.page.evaluate("window.testSockets.map(s => s.readyState)") == [3, 1]
    assert phone.page.evaluate("window.testBadge") == []  # never offline, not even "connecting"

    before = t.current()
    t.end_turn(t.gm)
    after = t.current()
    assert after != before
    phone.page.wait_for_function(AT_LEAST, arg=t.gm.seq())
    expect(phone.page.locator("#table-status .current-name")).to_have_text(after)
    assert phone.page.evaluate("window.testSockets.length") == 2


def test_the_page_reconnects_after_the_socket_closes(live_url: str, table: Table) -> None:
    t = table
    phone = t.p2
    phone.page.add_init_script(TRACK_SOCKETS)
    new_fight(t, live_url, "Zerwane połączenie")
    badge = phone.page.locator("#conn")

    # The phone loses the network and its socket: the badge says so, retries fail.
    phone.context.set_offline(True)
    phone.page.evaluate("window.testSockets.forEach(s => s.close())")
    expect(badge).to_have_class(re.compile(r"\bconn-offline\b"))
    expect(badge).to_have_text("Rozłączono: łączę ponownie…")
    missed = phone.seq()

    # Meanwhile the GM ends the current turn.
    before = t.current()
    t.end_turn(t.gm, away=phone)
    after = t.current()
    assert after != before and phone.seq() == missed

    # Back online: the page reconnects by itself and catches up.
    phone.context.set_offline(False)
    expect(badge).to_have_class(re.compile(r"\bconn-online\b"), timeout=10_000)
    phone.page.wait_for_function(AT_LEAST, arg=t.gm.seq())
    assert phone.seq() == t.gm.seq()
    expect(phone.page.locator("#table-status .current-name")).to_have_text(after)
    expect(phone.page.locator("#table-log")).to_contain_text(f"Tura: {after}")
