"""Testy zdrowienia: when a character may make a recovery test, the test itself, a night's
rest and healing a Wound.

A character's recovery clock is a frozen `RecoveryState`, game time in whole seconds (the
engine counts rounds × settings.round_seconds); these functions never roll inside `note_*`,
`spend_test` or `night_rest`, so the engine's `evolve` may call them. The engine:

- starts each character with `initial_state(sheet)` (today's tests = sheet stat
  "testy_zdrowienia"; no night's rest assumed) and keeps it up to date with
  `note_damage(state, at)` (new damage), `note_activity(state, at)` (physical activity),
  `note_unconscious(state, at)` / `note_conscious(state)`, `note_combat_start(state)` /
  `note_combat_end(state, at)`;
- asks `can_test(state, sheet, now, settings, damage=…, stun=…, heals=…, revived=…)` ->
  `Availability(allowed, reason)` before offering the test (`next_test_at(...)` tells when it
  will be allowed, None if not by waiting);
- rolls with `recovery_test(rng, state, sheet, now, settings, damage=…, wounds=…, …)` ->
  `Recovery` (the roll, what it healed, the new state; RuleViolation when not allowed), or
  replays a recorded one with `recovery_step`/`recovery_reasons` and `dice.replay_step`
  and applies `spend_test(state, now)`;
- `night_rest(state, sheet, at, damage=…)` after a full night's rest: the day's tests back,
  and `must_test` when the character has damage (it MUST test at once);
- `can_heal_wound(...)` / `heal_wound(state, now, damage=…, wounds=…)`: a Wound heals after a
  night's rest by spending a test, when the character has no current damage.

The rules (seed "Obrażenia w walce"): a test heals its result (minimum 1 whatever the
modifiers), lowered by wound_penalty per Wound after the first; with one test a day, only
after a full night's rest; with more, at least recovery_interval_s between tests and
recovery_quiet_s without physical activity or new damage; after combat after_combat_wait_s of rest;
an unconscious character may test revive_wait_s after falling (at once if someone revives
it), the next test only recovery_interval_s later whatever the result. Stun damage (Atak by
ogłuszyć) heals by the same tests, the Siła Woli step added to the test's step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, NamedTuple

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus.dice import Adjustment, StepRoll, roll_step
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import Sheet

# "Bez względu na modyfikacje minimalny wynik testu zdrowienia to 1".
MINIMUM_RESULT = 1

Heals = Literal["damage", "stun"]

# Every reason a test is allowed or refused, by its code (msgids); the constants below name
# the same texts for callers.
REASONS = {
    "allowed": gettext_noop("Można wykonać test zdrowienia"),
    "must_test": gettext_noop("Po przebudzeniu z obrażeniami test zdrowienia jest obowiązkowy"),
    "no_tests": gettext_noop("Brak testów zdrowienia na dziś"),
    "nothing_to_heal": gettext_noop("Brak obrażeń do wyleczenia"),
    "one_test_after_rest": gettext_noop(
        "Jedyny test zdrowienia można wykonać tylko po całonocnym odpoczynku"
    ),
    "in_combat": gettext_noop("W trakcie walki test zdrowienia może wykonać tylko nieprzytomny"),
    "after_combat": gettext_noop(
        "Po walce musi upłynąć godzina odpoczynku przed testem zdrowienia"
    ),
    "interval": gettext_noop("Między testami zdrowienia musi upłynąć godzina"),
    "quiet": gettext_noop("Test zdrowienia po minucie bez wysiłku i bez nowych obrażeń"),
    "unconscious_wait": gettext_noop("Nieprzytomny może wykonać test zdrowienia minutę po utracie"),
    "wound_needs_rest": gettext_noop("Ranę można wyleczyć tylko po całonocnym odpoczynku"),
    "wound_has_damage": gettext_noop("Ranę można wyleczyć dopiero bez aktualnych obrażeń"),
    "no_wounds": gettext_noop("Brak Ran do wyleczenia"),
}
ALLOWED = REASONS["allowed"]
MUST_TEST = REASONS["must_test"]
NO_TESTS = REASONS["no_tests"]
NOTHING_TO_HEAL = REASONS["nothing_to_heal"]
ONE_TEST_AFTER_REST = REASONS["one_test_after_rest"]
IN_COMBAT = REASONS["in_combat"]
AFTER_COMBAT = REASONS["after_combat"]
INTERVAL = REASONS["interval"]
QUIET = REASONS["quiet"]
UNCONSCIOUS_WAIT = REASONS["unconscious_wait"]
WOUND_NEEDS_REST = REASONS["wound_needs_rest"]
WOUND_HAS_DAMAGE = REASONS["wound_has_damage"]
NO_WOUNDS = REASONS["no_wounds"]
CODE = {text: code for code, text in REASONS.items()}


@dataclass(frozen=True)
class RecoveryState:
    """A character's recovery clock; times are game seconds, None: never (or not now)."""

    tests_left: int  # today's recovery tests left
    last_test_at: int | None = None
    unconscious_since: int | None = None  # fell unconscious at (None: conscious)
    last_damage_at: int | None = None
    last_active_at: int | None = None  # last physical activity
    in_combat: bool = False
    combat_ended_at: int | None = None
    rested_at: int | None = None  # woke from a full night's rest (None: damaged since)
    must_test: bool = False  # woke from a night's rest with damage: must test at once


class Availability(NamedTuple):
    """Whether a test may be made now, and the Polish reason (a msgid) either way."""

    allowed: bool
    reason: str


@dataclass(frozen=True)
class Recovery:
    """One recovery test: the roll, what it healed and the clock after it."""

    roll: StepRoll
    heals: Heals
    healed: int  # min(result, the damage or stun it heals)
    remaining: int  # that damage or stun after the test
    state: RecoveryState


def initial_state(sheet: Sheet) -> RecoveryState:
    """A character entering play: today's tests from its sheet, no night's rest assumed."""
    return RecoveryState(tests_left=tests_per_day(sheet))


def tests_per_day(sheet: Sheet) -> int:
    return max(0, sheet.stat("testy_zdrowienia"))


def note_damage(state: RecoveryState, at: int) -> RecoveryState:
    """New damage: restarts the quiet minute and ends the "after a night's rest" window."""
    return replace(state, last_damage_at=at, last_active_at=at, rested_at=None)


def note_activity(state: RecoveryState, at: int) -> RecoveryState:
    return replace(state, last_active_at=at)


def note_unconscious(state: RecoveryState, at: int) -> RecoveryState:
    if state.unconscious_since is not None:
        return state
    return replace(state, unconscious_since=at)


def note_conscious(state: RecoveryState) -> RecoveryState:
    return replace(state, unconscious_since=None)


def note_combat_start(state: RecoveryState) -> RecoveryState:
    return replace(state, in_combat=True)


def note_combat_end(state: RecoveryState, at: int) -> RecoveryState:
    return replace(state, in_combat=False, combat_ended_at=at, last_active_at=at)


def night_rest(state: RecoveryState, sheet: Sheet, at: int, *, damage: int) -> RecoveryState:
    """A full night's rest ending at `at`: the day's tests back; with damage the character
    must test at once."""
    tests = tests_per_day(sheet)
    return RecoveryState(
        tests_left=tests,
        last_test_at=state.last_test_at,
        last_damage_at=state.last_damage_at,
        last_active_at=state.last_active_at,
        combat_ended_at=state.combat_ended_at,
        rested_at=at,
        must_test=damage >= 1 and tests >= 1,
    )


def spend_test(state: RecoveryState, at: int) -> RecoveryState:
    """The clock after a recovery test at `at` (whatever its result)."""
    return replace(state, tests_left=state.tests_left - 1, last_test_at=at, must_test=False)


def can_test(
    state: RecoveryState,
    sheet: Sheet,
    now: int,
    settings: MagusSettings,
    *,
    damage: int,
    stun: int = 0,
    heals: Heals = "damage",
    revived: bool = False,
) -> Availability:
    """May the character make a recovery test now? `revived`: someone tries to bring the
    unconscious character round (no minute's wait)."""
    allowed, reason, _ = _check(state, sheet, now, settings, damage, stun, heals, revived)
    return Availability(allowed, reason)


def next_test_at(
    state: RecoveryState,
    sheet: Sheet,
    now: int,
    settings: MagusSettings,
    *,
    damage: int,
    stun: int = 0,
    heals: Heals = "damage",
    revived: bool = False,
) -> int | None:
    """The earliest game time the test is allowed if nothing else happens (`now` if it is
    already); None when waiting alone does not allow it (no tests, nothing to heal, combat,
    one test a day without a night's rest)."""
    for _ in range(8):  # each wait moves `now` past one reason; there are fewer than 8
        allowed, _reason, ready = _check(state, sheet, now, settings, damage, stun, heals, revived)
        if allowed:
            return now
        if ready is None:
            return None
        now = ready
    return None  # pragma: no cover - the waits are finite


def recovery_step(sheet: Sheet, heals: Heals = "damage") -> int:
    """Żywotność step; healing stun damage (Atak by ogłuszyć) adds the Siła Woli step."""
    step = sheet.step("zywotnosc")
    return step + sheet.step("sila_woli") if heals == "stun" else step


def recovery_reasons(wounds: int, settings: MagusSettings) -> tuple[Adjustment, ...]:
    """The Wounds' penalty to the result: wound_penalty per Wound after the first."""
    penalty = settings.wound_penalty * max(0, wounds - 1)
    return (Adjustment(-penalty, gettext_noop("Rany")),) if penalty else ()


def recovery_test(
    rng: RNG,
    state: RecoveryState,
    sheet: Sheet,
    now: int,
    settings: MagusSettings,
    *,
    damage: int,
    wounds: int = 0,
    stun: int = 0,
    heals: Heals = "damage",
    revived: bool = False,
) -> Recovery:
    """Test zdrowienia (an effect test): heals its result, minimum 1, of the current damage
    (or of the stun damage); RuleViolation when the test is not allowed now."""
    allowed, reason, _ = _check(state, sheet, now, settings, damage, stun, heals, revived)
    if not allowed:
        raise RuleViolation("recovery_not_allowed", REASONS[CODE[reason]])
    roll = roll_step(
        rng,
        recovery_step(sheet, heals),
        settings.table,
        reasons=recovery_reasons(wounds, settings),
        minimum=MINIMUM_RESULT,
    )
    pool = stun if heals == "stun" else damage
    healed = min(roll.total, pool)
    return Recovery(roll, heals, healed, pool - healed, spend_test(state, now))


def can_heal_wound(state: RecoveryState, *, damage: int, wounds: int) -> Availability:
    """A Wound heals after a full night's rest by spending a test, without current damage."""
    if wounds < 1:
        return Availability(False, NO_WOUNDS)
    if state.tests_left < 1:
        return Availability(False, NO_TESTS)
    if state.rested_at is None:
        return Availability(False, WOUND_NEEDS_REST)
    if damage > 0:
        return Availability(False, WOUND_HAS_DAMAGE)
    return Availability(True, ALLOWED)


def heal_wound(state: RecoveryState, now: int, *, damage: int, wounds: int) -> RecoveryState:
    """Spend a test to heal one Wound (the engine takes the Wound off); RuleViolation if not
    allowed."""
    allowed, reason = can_heal_wound(state, damage=damage, wounds=wounds)
    if not allowed:
        raise RuleViolation("heal_wound_not_allowed", REASONS[CODE[reason]])
    return spend_test(state, now)


def _check(
    state: RecoveryState,
    sheet: Sheet,
    now: int,
    settings: MagusSettings,
    damage: int,
    stun: int,
    heals: Heals,
    revived: bool,
) -> tuple[bool, str, int | None]:
    """(allowed, reason, the time a wait ends when that alone blocks the test, else None)."""
    if state.tests_left < 1:
        return False, NO_TESTS, None
    if (stun if heals == "stun" else damage) < 1:
        return False, NOTHING_TO_HEAL, None
    interval_ends = _after(state.last_test_at, settings.recovery_interval_s)
    if state.unconscious_since is not None:
        return _unconscious(state, now, settings, revived, interval_ends)
    if state.rested_at is not None and not _tested_since(state, state.rested_at):
        return True, MUST_TEST if state.must_test else ALLOWED, None
    if tests_per_day(sheet) <= 1:
        return False, ONE_TEST_AFTER_REST, None
    if state.in_combat:
        return False, IN_COMBAT, None
    waits = (
        (_after(state.combat_ended_at, settings.after_combat_wait_s), AFTER_COMBAT),
        (interval_ends, INTERVAL),
        (
            _after(_latest(state.last_damage_at, state.last_active_at), settings.recovery_quiet_s),
            QUIET,
        ),
    )
    for ends, reason in waits:
        if ends is not None and now < ends:
            return False, reason, ends
    return True, ALLOWED, None


def _unconscious(
    state: RecoveryState,
    now: int,
    settings: MagusSettings,
    revived: bool,
    interval_ends: int | None,
) -> tuple[bool, str, int | None]:
    """The exception of regaining consciousness: revive_wait_s after falling (none when
    revived), and the usual interval after a test made since falling unconscious."""
    since = state.unconscious_since
    assert since is not None
    if _tested_since(state, since) and interval_ends is not None and now < interval_ends:
        return False, INTERVAL, interval_ends
    wait_ends = since + settings.revive_wait_s
    if not revived and now < wait_ends:
        return False, UNCONSCIOUS_WAIT, wait_ends
    return True, ALLOWED, None


def _tested_since(state: RecoveryState, at: int) -> bool:
    return state.last_test_at is not None and state.last_test_at >= at


def _after(at: int | None, wait: int) -> int | None:
    return None if at is None else at + wait


def _latest(*times: int | None) -> int | None:
    known = [t for t in times if t is not None]
    return max(known) if known else None


__all__ = [
    "Availability",
    "Recovery",
    "RecoveryState",
    "can_heal_wound",
    "can_test",
    "heal_wound",
    "initial_state",
    "night_rest",
    "next_test_at",
    "note_activity",
    "note_combat_end",
    "note_combat_start",
    "note_conscious",
    "note_damage",
    "note_unconscious",
    "recovery_reasons",
    "recovery_step",
    "recovery_test",
    "spend_test",
]
