"""Falls (digest §5): a d100 is the percent of max PŻ lost, modified by the height band, the
ground, heavy armour and a slope that cushions; an Akrobatyka test (falls up to
`acrobatics_max_height` m) halves the damage on a success; every full `fall_injury_percent` %
of max PŻ lost is one Uraz.

DEFAULTs: a fall below the lowest band (under 2 m) rolls nothing and hurts no one; the fall
modifiers are not held by the ±`modifier_cap` of tests (the roll is a percent, not a test);
the Akrobatyka test is the skill value with the modifiers the caller gives (Urazy…).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.d100.check import ACROBATICS, TestRoll, roll_test
from combat.rules.d100.settings import GROUNDS, D100Settings, FallBand

FALL = gettext_noop("Upadek")
HEIGHT = gettext_noop("Wysokość upadku")
GROUND_LABELS = {
    "soft": gettext_noop("Miękkie podłoże"),
    "normal": gettext_noop("Zwykłe podłoże"),
    "hard": gettext_noop("Twarde podłoże"),
}
HEAVY_ARMOUR = gettext_noop("Ciężka zbroja")
SLOPE = gettext_noop("Nachylenie terenu")
MAX_HEIGHT = 10000


@dataclass(frozen=True)
class FallResult:
    """One fall: the d100 (0 when the fall is too low to roll), its modifiers (the height
    band's first, shown even at +0), the percent of max PŻ lost (at least 0), the Akrobatyka
    test if one was made, the damage (rounded down, halved by a successful test) and the
    Urazy."""

    height: int
    roll: int
    modifiers: tuple[tuple[str, int], ...]
    percent: int
    acrobatics: TestRoll | None
    halved: bool
    damage: int
    injuries: int


def band_of(height: int, settings: D100Settings) -> FallBand | None:
    """The fall table's band of a height (None below the lowest band)."""
    for band in settings.fall_bands:
        if height >= band.low and (band.high is None or height <= band.high):
            return band
    return None


def fall_modifiers(
    height: int,
    settings: D100Settings,
    *,
    ground: str = "normal",
    heavy_armour: bool = False,
    slope: int = 0,
) -> tuple[tuple[str, int], ...]:
    """The modifiers of the fall's d100 (the band's first); RuleViolation on bad input."""
    if not 0 <= height <= MAX_HEIGHT:
        raise RuleViolation(
            "bad_height", gettext_noop("Wysokość upadku od 0 do %(max)s m"), max=MAX_HEIGHT
        )
    if ground not in GROUNDS:
        raise RuleViolation(
            "bad_ground", gettext_noop("Nieznane podłoże: %(ground)s"), ground=ground
        )
    if slope < 0:
        raise RuleViolation(
            "bad_slope", gettext_noop("Nachylenie terenu łagodzi upadek: podaj liczbę ≥ 0")
        )
    band = band_of(height, settings)
    modifiers = [(HEIGHT, band.modifier if band else 0)]
    modifiers.append((GROUND_LABELS[ground], settings.fall_ground[ground]))
    if heavy_armour:
        modifiers.append((HEAVY_ARMOUR, settings.fall_heavy_armour))
    modifiers.append((SLOPE, -slope))
    return tuple(pair for index, pair in enumerate(modifiers) if index == 0 or pair[1])


def roll_fall(
    rng: RNG,
    settings: D100Settings,
    *,
    height: int,
    max_pz: int,
    acrobatics: int | None = None,
    acrobatics_mods: Iterable[tuple[str, int]] = (),
    ground: str = "normal",
    heavy_armour: bool = False,
    slope: int = 0,
) -> FallResult:
    """Roll a fall from `height` metres for a character of `max_pz` (its Akrobatyka value,
    or None for no test)."""
    modifiers = fall_modifiers(
        height, settings, ground=ground, heavy_armour=heavy_armour, slope=slope
    )
    if max_pz < 1:
        raise RuleViolation("bad_max_pz", gettext_noop("Maksymalne PŻ muszą być dodatnie"))
    if band_of(height, settings) is None:
        return FallResult(height, 0, modifiers, 0, None, False, 0, 0)
    roll = rng.randint(1, 100)
    percent = max(0, roll + sum(value for _reason, value in modifiers))
    test = None
    if acrobatics is not None and height <= settings.acrobatics_max_height:
        test = roll_test(
            rng,
            settings,
            label=ACROBATICS,
            attribute="akrobatyka",
            base=acrobatics,
            modifiers=acrobatics_mods,
        )
    damage = percent * max_pz // 100
    halved = test is not None and test.success
    if halved:
        damage //= 2
    injuries = damage * 100 // max_pz // settings.fall_injury_percent
    return FallResult(height, roll, modifiers, percent, test, halved, damage, injuries)


__all__ = ["FALL", "FallResult", "band_of", "fall_modifiers", "roll_fall"]
