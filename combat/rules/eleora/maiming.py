"""Okaleczenie i Śmierć: the 2d6 roll a character makes instead of dying, and its table as data.

Die 1 is the location, die 2 the effect: −1 per point of Zdrowie below 0, +1 per success of a
medic's first aid within an hour of losing consciousness; clamped to 1–6 (DEFAULT); 1 = death.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from combat.rules.base import gettext_noop
from combat.rules.dice import RNG


class Duration(StrEnum):
    """How long a maiming effect lasts, in the document's words."""

    TRWALE = "trwale (cecha Kalectwo)"
    TRZY_TYGODNIE = "3 tygodnie"
    DO_WYZDROWIENIA = "do całkowitego wyzdrowienia (odzyskania wszystkich punktów życia)"


@dataclass(frozen=True)
class Location:
    """Where the blow landed (die 1) and which part of the table it reads."""

    name: str
    area: str  # "glowa", "tulow", "reka" or "noga"


@dataclass(frozen=True)
class MaimingEffect:
    """One table entry: its name, whether it kills or grants Kalectwo, its penalty and duration."""

    name: str
    death: bool = False
    kalectwo: bool = False
    penalty: str = ""
    dice_penalty: int = 0
    movement_penalty: int = 0
    duration: Duration | None = None
    stated: bool = True  # False: the document gives no effect; this entry is a DEFAULT


LOCATIONS: Mapping[int, Location] = MappingProxyType(
    {
        1: Location(gettext_noop("Głowa"), "glowa"),
        2: Location(gettext_noop("Tułów"), "tulow"),
        3: Location(gettext_noop("Prawa Ręka"), "reka"),
        4: Location(gettext_noop("Lewa Ręka"), "reka"),
        5: Location(gettext_noop("Prawa Noga"), "noga"),
        6: Location(gettext_noop("Lewa Noga"), "noga"),
    }
)

_DEATH = MaimingEffect(gettext_noop("Śmierć"), death=True)
_ARM_PENALTY = "−2 kostki do testów wymagających użycia niesprawnej ręki bądź dwóch rąk"


def _kalectwo(name: str, *, stated: bool = True) -> MaimingEffect:
    return MaimingEffect(
        name,
        kalectwo=True,
        penalty=f"Cecha Kalectwo „{name}”",
        duration=Duration.TRWALE,
        stated=stated,
    )


_TABLE: dict[str, dict[int, MaimingEffect]] = {
    "noga": {
        1: _DEATH,
        # The document names leg results 2–4 without an effect: DEFAULT Kalectwo of that name.
        2: _kalectwo(gettext_noop("Utrata Nogi"), stated=False),
        3: _kalectwo(gettext_noop("Okulawienie"), stated=False),
        4: _kalectwo(gettext_noop("Podcięta stopa"), stated=False),
        5: MaimingEffect(
            gettext_noop("Złamanie"),
            penalty="Podstawowy Ruch −2",
            movement_penalty=2,
            duration=Duration.TRZY_TYGODNIE,
        ),
        6: MaimingEffect(
            gettext_noop("Zwichnięcie"),
            penalty="Podstawowy Ruch −2",
            movement_penalty=2,
            duration=Duration.DO_WYZDROWIENIA,
        ),
    },
    "reka": {
        1: _DEATH,
        2: _kalectwo(gettext_noop("Utrata Ręki")),
        3: _kalectwo(gettext_noop("Niedowład Ręki")),
        4: _kalectwo(gettext_noop("Utrata palców")),
        5: MaimingEffect(
            gettext_noop("Złamanie"),
            penalty=_ARM_PENALTY,
            dice_penalty=2,
            duration=Duration.TRZY_TYGODNIE,
        ),
        6: MaimingEffect(
            gettext_noop("Zwichnięcie"),
            penalty=_ARM_PENALTY,
            dice_penalty=2,
            duration=Duration.DO_WYZDROWIENIA,
        ),
    },
    "tulow": {
        1: _DEATH,
        2: _kalectwo(gettext_noop("Zapadnięte Płuco")),
        3: _kalectwo(gettext_noop("Utrata Nerki")),
        4: _kalectwo(gettext_noop("Pęknięta Śledziona")),
        5: _kalectwo(gettext_noop("Złamane Żebra")),
        6: MaimingEffect(
            gettext_noop("Obicie"),
            penalty="−2 kostki do testów opartych na Sile, Krzepie i Zręczności",
            dice_penalty=2,
            duration=Duration.DO_WYZDROWIENIA,
        ),
    },
    "glowa": {
        1: _DEATH,
        2: _kalectwo(gettext_noop("Uszkodzenie Mózgu")),
        3: _kalectwo(gettext_noop("Utrata Oka")),
        4: _kalectwo(gettext_noop("Utrata Ucha")),
        5: _kalectwo(gettext_noop("Oszpecenie")),
        6: MaimingEffect(
            gettext_noop("Pęknięcie czaszki"),
            penalty="−2 kostki do testów opartych na Charyzmie, Intuicji i Intelekcie",
            dice_penalty=2,
            duration=Duration.TRZY_TYGODNIE,
        ),
    },
}
# Read-only, so a GM edits a copy and passes it in (`table=`) instead of changing everyone's.
MAIMING_TABLE: Mapping[str, Mapping[int, MaimingEffect]] = MappingProxyType(
    {area: MappingProxyType(entries) for area, entries in _TABLE.items()}
)


@dataclass(frozen=True)
class EffectModifier:
    """A change to the effect die, with the rule that made it."""

    amount: int
    reason: str


@dataclass(frozen=True)
class MaimingResult:
    """Both raw dice, the modifiers with reasons, the final effect die and the table entry."""

    location_die: int
    effect_die: int
    modifiers: tuple[EffectModifier, ...]
    final_effect: int
    location: Location
    effect: MaimingEffect

    @property
    def death(self) -> bool:
        return self.effect.death


def roll_maiming(
    rng: RNG,
    zdrowie: int,
    first_aid_successes: int = 0,
    table: Mapping[str, Mapping[int, MaimingEffect]] = MAIMING_TABLE,
) -> MaimingResult:
    """Roll the two dice through the injected RNG and read the table."""
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    return resolve_maiming(dice[0], dice[1], zdrowie, first_aid_successes, table)


def resolve_maiming(
    location_die: int,
    effect_die: int,
    zdrowie: int,
    first_aid_successes: int = 0,
    table: Mapping[str, Mapping[int, MaimingEffect]] = MAIMING_TABLE,
    *,
    low: int = 1,
    high: int = 6,
) -> MaimingResult:
    """Read the table for two given dice; `zdrowie` is the current (≤ 0) Zdrowie.

    First-aid successes count only if given within an hour of losing consciousness (the caller
    passes 0 otherwise). DEFAULT: the modified effect die is clamped to `low`–`high`.
    """
    for die in (location_die, effect_die):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise ValueError(f"a d6 face must be a whole number from 1 to 6, got {die!r}")
    if first_aid_successes < 0:
        raise ValueError("first aid successes cannot be negative")
    modifiers = _modifiers(zdrowie, first_aid_successes)
    final = min(high, max(low, effect_die + sum(m.amount for m in modifiers)))
    location = LOCATIONS[location_die]
    try:
        effect = table[location.area][final]
    except KeyError:
        raise ValueError(f"the maiming table has no entry {location.area} {final}") from None
    return MaimingResult(location_die, effect_die, modifiers, final, location, effect)


def _modifiers(zdrowie: int, first_aid_successes: int) -> tuple[EffectModifier, ...]:
    modifiers: list[EffectModifier] = []
    if zdrowie < 0:
        modifiers.append(EffectModifier(zdrowie, f"Zdrowie {-zdrowie} poniżej 0"))
    if first_aid_successes:
        modifiers.append(
            EffectModifier(first_aid_successes, f"Pierwsza pomoc: {first_aid_successes} sukces(y)")
        )
    return tuple(modifiers)
