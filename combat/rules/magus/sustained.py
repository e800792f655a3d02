"""Działanie podtrzymywane: a sustained action spanning several rounds.

The GM sets how many rounds it takes (the seed's examples are `PRESETS`) and may require an
attribute (or talent) test at the end of each round it lasts, until the goal is reached. The
record is frozen; `advance` never rolls, so the engine's `evolve` may call it. The engine:

- starts one with `start(label, rounds, test=…)` or `from_preset(key, rounds=…, test=…)`
  (the character's standard action each round while it lasts);
- at each round's end, for each sustained action in progress: when `action.test` is None,
  `advance(action)`; otherwise the GM either has the test rolled, `round_test(rng, action,
  sheet, settings)` -> `RoundTest`, then `advance(action, passed=t.passed)`, or records the
  result of a test rolled at the table, `advance(action, passed=True/False)`;
- reads `action.complete` (the goal reached: the engine logs it and frees the character's
  standard action), `action.progress` / `action.rounds` for the display.

A round whose test fails adds no progress (the round is spent, `elapsed` counts it) unless
the action was started with `failure_stalls=False` (the test is then only recorded).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus.check import action_test
from combat.rules.magus.dice import Adjustment, StepRoll
from combat.rules.magus.levels import Level
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import ATTRIBUTES, TALENT_ATTRIBUTE, Sheet

MAX_ROUNDS = 1000


@dataclass(frozen=True)
class Preset:
    """One of the seed's examples: its key, Polish label and rounds (from–to)."""

    key: str
    label: str
    low: int
    high: int


PRESETS: tuple[Preset, ...] = (
    Preset("plecak", gettext_noop("Odszukanie przedmiotu w plecaku"), 3, 4),
    Preset("przeszukiwanie", gettext_noop("Przeszukiwanie obszaru (ściana, drzwi)"), 9, 10),
    Preset("pancerz_skorzany", gettext_noop("Założenie lub zdjęcie skórzanego pancerza"), 9, 10),
    Preset("zamek", gettext_noop("Zamknięcie zamka drzwi"), 2, 3),
)
PRESET = {preset.key: preset for preset in PRESETS}


@dataclass(frozen=True)
class RoundCheck:
    """The GM's test at each round's end: an attribute or talent key and its DN."""

    skill: str  # an ATTRIBUTES key, or a talent key (tested at rank + its attribute)
    dn: int

    def __post_init__(self) -> None:
        known = {key for key, _ in ATTRIBUTES} | set(TALENT_ATTRIBUTE)
        if self.skill not in known:
            raise RuleViolation(
                "sustained_unknown_skill",
                gettext_noop("Nieznany atrybut lub talent testu: %(skill)s"),
                skill=self.skill,
            )

    def step(self, sheet: Sheet) -> int:
        if self.skill in TALENT_ATTRIBUTE:
            return sheet.talent_step(self.skill)
        return sheet.step(self.skill)


@dataclass(frozen=True)
class Sustained:
    """A sustained action in progress: rounds needed, rounds of progress, rounds spent."""

    label: str
    rounds: int
    progress: int = 0
    elapsed: int = 0
    test: RoundCheck | None = None
    failure_stalls: bool = True
    preset: str = ""

    @property
    def complete(self) -> bool:
        return self.progress >= self.rounds

    @property
    def remaining(self) -> int:
        return max(0, self.rounds - self.progress)


@dataclass(frozen=True)
class RoundTest:
    """The GM's round-end test, rolled: the roll, its DN and level."""

    roll: StepRoll
    dn: int
    level: Level

    @property
    def passed(self) -> bool:
        return self.level.success


def start(
    label: str,
    rounds: int,
    *,
    test: RoundCheck | None = None,
    failure_stalls: bool = True,
    preset: str = "",
) -> Sustained:
    """A new sustained action of `rounds` rounds (the GM's choice, 1 to MAX_ROUNDS)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise RuleViolation(
            "sustained_rounds",
            gettext_noop("Działanie podtrzymywane trwa od 1 do %(max)s rund"),
            max=MAX_ROUNDS,
        )
    return Sustained(label, rounds, test=test, failure_stalls=failure_stalls, preset=preset)


def from_preset(
    key: str,
    *,
    rounds: int | None = None,
    test: RoundCheck | None = None,
    failure_stalls: bool = True,
) -> Sustained:
    """One of the seed's examples; `rounds` defaults to the top of its range."""
    preset = PRESET.get(key)
    if preset is None:
        raise RuleViolation(
            "sustained_unknown_preset",
            gettext_noop("Nieznany przykład działania podtrzymywanego: %(key)s"),
            key=key,
        )
    return start(
        preset.label,
        preset.high if rounds is None else rounds,
        test=test,
        failure_stalls=failure_stalls,
        preset=key,
    )


def round_test(
    rng: RNG,
    action: Sustained,
    sheet: Sheet,
    settings: MagusSettings,
    reasons: Iterable[Adjustment] = (),
) -> RoundTest:
    """Roll the GM's test at the round's end (an action test vs its DN)."""
    if action.test is None:
        raise RuleViolation(
            "sustained_no_test", gettext_noop("MG nie wymaga testu dla tego działania")
        )
    roll, level = action_test(rng, action.test.step(sheet), action.test.dn, settings, reasons)
    return RoundTest(roll, action.test.dn, level)


def advance(action: Sustained, passed: bool | None = None) -> Sustained:
    """One more round of the action: progress unless its test failed (and failures stall).
    `passed` is None exactly when no test is required."""
    if action.complete:
        raise RuleViolation(
            "sustained_complete", gettext_noop("Działanie podtrzymywane jest już zakończone")
        )
    if (passed is None) != (action.test is None):
        raise RuleViolation(
            "sustained_test_mismatch",
            gettext_noop("Wynik testu podaje się tylko, gdy MG wymaga testu"),
        )
    gains = passed is not False or not action.failure_stalls
    return replace(action, progress=action.progress + int(gains), elapsed=action.elapsed + 1)


__all__ = [
    "PRESET",
    "PRESETS",
    "Preset",
    "RoundCheck",
    "RoundTest",
    "Sustained",
    "advance",
    "from_preset",
    "round_test",
    "start",
]
