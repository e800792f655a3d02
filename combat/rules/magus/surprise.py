"""Zaskoczenie: the surprise test, its difficulty, Podkradanie się and Brosza ostrzeżenia.

Pure functions over sheets and settings; every roll comes back as data (StepRoll), nothing
touches the encounter. The engine, at the start of a fight the GM marks as a surprise:

1. `surprise_dn(met, conditions, settings, sneak=…, base=…) -> Difficulty`: the DN of the
   side that did not expect the meeting. Default base: the lowest Zręczność step among the
   creatures met (`lowest_dexterity`); with sneakers, the lowest of their Podkradanie się
   results (`sneak_test` rolls one: "wynik testu jest trudnością wykrycia"); the GM may set
   the base instead. The GM's `Conditions` (zmierzch/świt, zaciemnienie, pogoda, kamuflaż)
   add their settings' values to whichever base applies.
2. `surprise_test(rng, watcher, difficulty, attackers, settings) -> SurpriseOutcome` for each
   character of that side (`surprise_tests` for all, in order): a Percepcja test vs the DN;
   a `Watcher` marked `unaware` (neither hears nor sees the attackers) is surprised without
   a test. A character who would be surprised and wears a Brosza ostrzeżenia (item kind
   `sheet.BROOCH`) then makes the brooch's test (`brooch_test`).
3. The engine applies `outcome.surprised` (Zaskoczony for round 1: no actions, defences
   −surprise_defence_penalty, no shield), `outcome.brooch_damage` (damage to the wearer) and
   `outcome.ignores_blindside` (the warned wearer suffers no Atak z tyłu penalty either).

`brooch_test(rng, wearer, attackers, settings, distance_m=…) -> BroochTest | None` may also
be called on its own when a brooch wearer is attacked unawares mid-fight (e.g. a blindside
attack): Percepcja of the wearer vs the attackers' lowest Obrona Magiczna, only for an attack
from at most brooch_range_m metres; each detection deals brooch_damage to the wearer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus.check import action_test
from combat.rules.magus.dice import Adjustment, StepRoll, roll_step
from combat.rules.magus.levels import Level
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import BROOCH, Sheet

Darkness = Literal["none", "partial", "full", "complete"]
Rain = Literal["none", "light", "downpour"]
# The GM's choices, as the form lists them (key, Polish label).
DARKNESS: tuple[tuple[Darkness, str], ...] = (
    ("none", gettext_noop("Brak zaciemnienia")),
    ("partial", gettext_noop("Zaciemnienie częściowe")),
    ("full", gettext_noop("Zaciemnienie całkowite")),
    ("complete", gettext_noop("Zaciemnienie kompletne")),
)
RAIN: tuple[tuple[Rain, str], ...] = (
    ("none", gettext_noop("Bez opadów")),
    ("light", gettext_noop("Lekki deszcz")),
    ("downpour", gettext_noop("Ulewa")),
)

# Where the DN's base came from (msgids).
FROM_DEXTERITY = gettext_noop("Najniższy stopień Zręczności napotkanych")
FROM_SNEAK = gettext_noop("Wynik testu Podkradania się")
FROM_GM = gettext_noop("Trudność ustalona przez MG")

# Why a character is surprised or not (msgids).
UNAWARE = gettext_noop("Nie słyszy i nie widzi napastników: zaskoczenie bez testu")
NOTICED = gettext_noop("Test zaskoczenia udany: dostrzega napastników")
SURPRISED = gettext_noop("Test zaskoczenia nieudany: zaskoczenie")
WARNED = gettext_noop("Brosza ostrzeżenia wykryła atak: bez kar za zaskoczenie")
BROOCH_FAILED = gettext_noop("Brosza ostrzeżenia nie wykryła ataku")
BROOCH_OUT_OF_RANGE = gettext_noop("Atak spoza zasięgu broszy (%(range)s m): niewykryty")


@dataclass(frozen=True)
class Conditions:
    """The circumstances of a meeting the GM chooses; each adds to the surprise test's DN."""

    dusk: bool = False  # pora dnia: zmierzch lub świt
    darkness: Darkness = "none"  # zaciemnienie
    rain: Rain = "none"  # pogoda
    camouflage: bool = False  # kamuflaż napastników

    def __post_init__(self) -> None:
        if self.darkness not in {key for key, _ in DARKNESS}:
            raise ValueError(f"darkness must be one of {[key for key, _ in DARKNESS]}")
        if self.rain not in {key for key, _ in RAIN}:
            raise ValueError(f"rain must be one of {[key for key, _ in RAIN]}")


@dataclass(frozen=True)
class Difficulty:
    """A surprise test's DN: its base (and where it came from) plus the conditions."""

    base: int
    source: str  # FROM_DEXTERITY | FROM_SNEAK | FROM_GM
    modifiers: tuple[Adjustment, ...] = ()

    @property
    def value(self) -> int:
        return self.base + sum(m.value for m in self.modifiers)


@dataclass(frozen=True)
class Watcher:
    """One character of the side taken unawares, as the GM describes it."""

    sheet: Sheet
    unaware: bool = False  # neither hears nor sees the attackers: surprised without a test
    distance_m: float = 0  # to the nearest attacker (the brooch detects within its range)
    reasons: tuple[Adjustment, ...] = ()  # the engine's modifiers to its tests (Wounds …)


@dataclass(frozen=True)
class BroochTest:
    """The Brosza ostrzeżenia's detection: wearer's Percepcja vs the lowest Obrona Magiczna."""

    dn: int
    roll: StepRoll | None  # None: the attack comes from beyond the brooch's range
    level: Level | None
    detected: bool
    damage: int  # dealt to the wearer by the brooch (brooch_damage on each detection)
    reason: str


@dataclass(frozen=True)
class SurpriseOutcome:
    """One character's surprise test: whether it is Zaskoczony in round 1, and every roll."""

    surprised: bool
    reason: str
    dn: int
    perception: StepRoll | None  # None: unaware, surprised without a test
    level: Level | None
    brooch: BroochTest | None = None  # None: no brooch, or no need of it

    @property
    def brooch_damage(self) -> int:
        return self.brooch.damage if self.brooch else 0

    @property
    def ignores_blindside(self) -> bool:
        """A warned brooch wearer also takes no Atak z tyłu penalty from this attack."""
        return bool(self.brooch and self.brooch.detected)


def lowest_dexterity(met: Iterable[Sheet]) -> int:
    """The usual base of the DN: the lowest Zręczność step among the creatures met."""
    steps = [sheet.step("zrecznosc") for sheet in met]
    if not steps:
        raise RuleViolation(
            "surprise_nobody_met", gettext_noop("Test zaskoczenia: nie ma kogo napotkać")
        )
    return min(steps)


def condition_modifiers(conditions: Conditions, settings: MagusSettings) -> tuple[Adjustment, ...]:
    """The conditions' additions to the DN, each with its reason (only those that apply)."""
    out: list[Adjustment] = []
    if conditions.dusk:
        out.append(Adjustment(settings.surprise_dusk, gettext_noop("Zmierzch lub świt")))
    darkness = [key for key, _ in DARKNESS].index(conditions.darkness)
    if darkness:
        out.append(Adjustment(settings.surprise_darkness[darkness - 1], DARKNESS[darkness][1]))
    rain = [key for key, _ in RAIN].index(conditions.rain)
    if rain:
        out.append(Adjustment(settings.surprise_rain[rain - 1], RAIN[rain][1]))
    if conditions.camouflage:
        out.append(Adjustment(settings.surprise_camouflage, gettext_noop("Kamuflaż")))
    return tuple(out)


def sneak_test(
    rng: RNG, sneaker: Sheet, settings: MagusSettings, reasons: Iterable[Adjustment] = ()
) -> StepRoll:
    """A Podkradanie się test (talent step, or Zręczność untrained): its result is the DN to
    detect the sneaker."""
    return roll_step(
        rng,
        sneaker.talent_step("podkradanie"),
        settings.table,
        reasons=reasons,
        minimum=settings.test_result_floor,
    )


def surprise_dn(
    met: Iterable[Sheet],
    conditions: Conditions,
    settings: MagusSettings,
    *,
    sneak: Sequence[StepRoll] = (),
    base: int | None = None,
) -> Difficulty:
    """The surprise test's DN. Base: the GM's `base` if given, else the lowest Podkradanie się
    result among the sneakers (the easiest to detect gives the party away), else the lowest
    Zręczność step of `met`; plus the conditions' modifiers."""
    modifiers = condition_modifiers(conditions, settings)
    if base is not None:
        return Difficulty(base, FROM_GM, modifiers)
    if sneak:
        return Difficulty(min(roll.total for roll in sneak), FROM_SNEAK, modifiers)
    return Difficulty(lowest_dexterity(met), FROM_DEXTERITY, modifiers)


def brooch_test(
    rng: RNG,
    wearer: Sheet,
    attackers: Sequence[Sheet],
    settings: MagusSettings,
    *,
    distance_m: float = 0,
    reasons: Iterable[Adjustment] = (),
) -> BroochTest | None:
    """Brosza ostrzeżenia: None if the wearer has none; an attack from beyond brooch_range_m
    goes undetected (no roll); else Percepcja vs the attackers' lowest Obrona Magiczna, and a
    detection deals brooch_damage to the wearer."""
    if not wearer.has_item(BROOCH):
        return None
    if not attackers:
        raise RuleViolation(
            "brooch_no_attackers", gettext_noop("Brosza ostrzeżenia: brak napastników")
        )
    dn = min(attacker.stat("obrona_magiczna") for attacker in attackers)
    if distance_m > settings.brooch_range_m:
        return BroochTest(dn, None, None, False, 0, BROOCH_OUT_OF_RANGE)
    roll, level = _perception(rng, wearer, dn, settings, reasons)
    if level.success:
        return BroochTest(dn, roll, level, True, settings.brooch_damage, WARNED)
    return BroochTest(dn, roll, level, False, 0, BROOCH_FAILED)


def surprise_test(
    rng: RNG,
    watcher: Watcher,
    difficulty: Difficulty,
    attackers: Sequence[Sheet],
    settings: MagusSettings,
) -> SurpriseOutcome:
    """Test zaskoczenia of one character: Percepcja vs the DN (none when unaware); a character
    who would be surprised and wears a brooch then tests the brooch, which may warn it."""
    dn = difficulty.value
    roll: StepRoll | None = None
    level: Level | None = None
    if watcher.unaware:
        reason = UNAWARE
    else:
        roll, level = _perception(rng, watcher.sheet, dn, settings, watcher.reasons)
        if level.success:
            return SurpriseOutcome(False, NOTICED, dn, roll, level)
        reason = SURPRISED
    brooch = brooch_test(
        rng,
        watcher.sheet,
        attackers,
        settings,
        distance_m=watcher.distance_m,
        reasons=watcher.reasons,
    )
    if brooch and brooch.detected:
        return SurpriseOutcome(False, WARNED, dn, roll, level, brooch)
    return SurpriseOutcome(True, reason, dn, roll, level, brooch)


def surprise_tests(
    rng: RNG,
    watchers: Sequence[Watcher],
    difficulty: Difficulty,
    attackers: Sequence[Sheet],
    settings: MagusSettings,
) -> tuple[SurpriseOutcome, ...]:
    """Every watcher's surprise test, in the order given (rolls drawn in that order)."""
    return tuple(surprise_test(rng, w, difficulty, attackers, settings) for w in watchers)


def _perception(
    rng: RNG, sheet: Sheet, dn: int, settings: MagusSettings, reasons: Iterable[Adjustment]
) -> tuple[StepRoll, Level]:
    return action_test(rng, sheet.step("percepcja"), dn, settings, reasons)


__all__ = [
    "DARKNESS",
    "RAIN",
    "BroochTest",
    "Conditions",
    "Difficulty",
    "SurpriseOutcome",
    "Watcher",
    "brooch_test",
    "condition_modifiers",
    "lowest_dexterity",
    "sneak_test",
    "surprise_dn",
    "surprise_test",
    "surprise_tests",
]
