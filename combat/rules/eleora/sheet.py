"""An Eleora character sheet as pure data, and the values the rules derive from it.

The Django models convert to a `Sheet`; templates show `derive(sheet)`. Nothing here or in
the models repeats these formulas.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from combat.rules.dice import Modifier
from combat.rules.eleora.settings import DEFAULT_SETTINGS, TableSettings

ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("sila", "Siła"),
    ("krzepa", "Krzepa"),
    ("zrecznosc", "Zręczność"),
    ("intuicja", "Intuicja"),
    ("intelekt", "Intelekt"),
    ("charyzma", "Charyzma"),
    ("wola", "Wola"),
)
ATTRIBUTE_LABELS = dict(ATTRIBUTES)
PHYSICAL_ATTRIBUTES = frozenset({"sila", "krzepa", "zrecznosc"})

SKILLS: tuple[tuple[str, str], ...] = (
    ("walka_wrecz", "Walka Wręcz"),
    ("bron_lekka", "Broń Lekka"),
    ("bron_ciezka", "Broń Ciężka"),
    ("bieganie", "Bieganie"),
    ("plywanie", "Pływanie"),
    ("atletyka", "Atletyka"),
    ("jezdziectwo", "Jeździectwo"),
    ("akrobatyka", "Akrobatyka"),
    ("medycyna", "Medycyna"),
    ("percepcja", "Percepcja"),
)


SKILL_LABELS = dict(SKILLS)


class WeaponKind(StrEnum):
    """Weapon class; it picks the attack skill."""

    UNARMED = "wrecz"
    LIGHT = "lekka"
    HEAVY = "ciezka"


ATTACK_SKILL = {
    WeaponKind.UNARMED: "walka_wrecz",
    WeaponKind.LIGHT: "bron_lekka",
    WeaponKind.HEAVY: "bron_ciezka",
}


class DamageType(StrEnum):
    PHYSICAL = "fizyczne"
    STUN = "ogluszajace"


@dataclass(frozen=True)
class Weapon:
    name: str
    kind: WeaponKind
    damage: int
    damage_type: DamageType = DamageType.PHYSICAL
    short: bool = False  # cecha "krótka"
    ranged: bool = False
    thrown: bool = False
    improvised: bool = False
    two_handed: bool = False
    reload_actions: int = 0  # Przeładowanie actions needed after each shot (most ranged: 2)


@dataclass(frozen=True)
class Armour:
    name: str
    defence_bonus: int = 0  # added to the Obrona pool
    armour_points: int = 0  # Pancerz: each point stops 1 physical damage


@dataclass(frozen=True)
class Shield:
    name: str
    bonus: int = DEFAULT_SETTINGS.shield_bonus


@dataclass(frozen=True)
class Sheet:
    name: str
    attributes: Mapping[str, int]
    skills: Mapping[str, int] = field(default_factory=dict)
    weapons: tuple[Weapon, ...] = ()
    armour: tuple[Armour, ...] = ()
    shields: tuple[Shield, ...] = ()

    def attribute(self, key: str) -> int:
        return int(self.attributes.get(key, 0))

    def skill(self, key: str) -> int:
        return int(self.skills.get(key, 0))


@dataclass(frozen=True)
class Derived:
    """Values the rules derive from a sheet, each a plain number."""

    obrona: int  # dice in the Defence pool: Zręczność + Intuicja + armour bonus
    zdrowie: int  # 9 + Krzepa²
    pancerz: int  # physical damage stopped per hit
    odpornosc: int  # stun damage stopped per hit (Wola)
    inicjatywa: int  # added to 2d6 when rolling initiative (Intuicja)
    ruch: int  # metres per Ruch action
    unarmed_damage: int  # Walka Wręcz deals Siła stun damage


def max_health(krzepa: int) -> int:
    """Zdrowie = 9 + Krzepa² (Krzepa 2 → 13, Krzepa 3 → 18)."""
    return 9 + krzepa * krzepa


def derive(sheet: Sheet, settings: TableSettings = DEFAULT_SETTINGS) -> Derived:
    return Derived(
        obrona=sheet.attribute("zrecznosc")
        + sheet.attribute("intuicja")
        + sum(a.defence_bonus for a in sheet.armour),
        zdrowie=max_health(sheet.attribute("krzepa")),
        pancerz=sum(a.armour_points for a in sheet.armour),
        odpornosc=sheet.attribute("wola"),
        inicjatywa=sheet.attribute("intuicja"),
        ruch=settings.base_movement,
        unarmed_damage=sheet.attribute("sila"),
    )


def attack_base(sheet: Sheet, kind: WeaponKind, settings: TableSettings) -> tuple[Modifier, ...]:
    """The sheet's part of an attack pool: the table's attribute for this class + its skill."""
    attribute = settings.attack_attribute(kind.value)
    skill = ATTACK_SKILL[kind]
    return (
        Modifier(sheet.attribute(attribute), ATTRIBUTE_LABELS[attribute]),
        Modifier(sheet.skill(skill), SKILL_LABELS[skill]),
    )


def sheet_from_dict(data: Mapping[str, object]) -> Sheet:
    """A Sheet from the JSON shape used by storage, import and export.

    Shape: {"name", "attributes": {key: int}, "skills": {key: int}, "weapons": [{"name",
    "kind", "damage", "damage_type", "short", "ranged", "thrown", "improvised", "two_handed",
    "reload_actions"}], "armour": [{"name", "defence_bonus", "armour_points"}],
    "shields": [{"name", "bonus"}]}. Validation with readable errors is the caller's job
    (the characters app validates before storing); this only converts.
    """

    def items(key: str) -> list[Mapping[str, object]]:
        value = data.get(key) or []
        return list(value) if isinstance(value, list) else []

    return Sheet(
        name=str(data.get("name", "")),
        attributes={str(k): int(v) for k, v in dict(data.get("attributes") or {}).items()},  # type: ignore[call-overload]
        skills={str(k): int(v) for k, v in dict(data.get("skills") or {}).items()},  # type: ignore[call-overload]
        weapons=tuple(
            Weapon(
                name=str(w.get("name", "")),
                kind=WeaponKind(str(w.get("kind", WeaponKind.LIGHT))),
                damage=int(w.get("damage", 0)),  # type: ignore[call-overload]
                damage_type=DamageType(str(w.get("damage_type", DamageType.PHYSICAL))),
                short=bool(w.get("short", False)),
                ranged=bool(w.get("ranged", False)),
                thrown=bool(w.get("thrown", False)),
                improvised=bool(w.get("improvised", False)),
                two_handed=bool(w.get("two_handed", False)),
                reload_actions=int(w.get("reload_actions", 0)),  # type: ignore[call-overload]
            )
            for w in items("weapons")
        ),
        armour=tuple(
            Armour(
                name=str(a.get("name", "")),
                defence_bonus=int(a.get("defence_bonus", 0)),  # type: ignore[call-overload]
                armour_points=int(a.get("armour_points", 0)),  # type: ignore[call-overload]
            )
            for a in items("armour")
        ),
        shields=tuple(
            Shield(name=str(s.get("name", "")), bonus=int(s.get("bonus", 2)))  # type: ignore[call-overload]
            for s in items("shields")
        ),
    )
