"""The Eleora sheet's numbers: the attribute and skill ranges of the table's settings, and the
values derived from a sheet (Obrona, Zdrowie, Pancerz, …, each weapon's attack dice) with how
each was computed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import DerivedValue, StatSpec, gettext_noop
from combat.rules.dice import pool_size
from combat.rules.eleora.environment import improvised_modifier
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import (
    ATTRIBUTES,
    SKILLS,
    Sheet,
    Weapon,
    attack_base,
    derive,
    sheet_from_dict,
)


def attribute_specs(settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
    s = TableSettings.from_dict(dict(settings or {}))
    return tuple(StatSpec(k, label, s.attribute_min, s.attribute_max) for k, label in ATTRIBUTES)


def skill_specs(settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
    s = TableSettings.from_dict(dict(settings or {}))
    return tuple(StatSpec(k, label, s.skill_min, s.skill_max) for k, label in SKILLS)


def derived_values(
    sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
) -> list[DerivedValue]:
    s = TableSettings.from_dict(dict(settings or {}))
    parsed = sheet_from_dict(sheet)
    d = derive(parsed, s)
    armour_bonus = d.obrona - parsed.attribute("zrecznosc") - parsed.attribute("intuicja")
    return [
        DerivedValue.explained(
            "obrona",
            gettext_noop("Obrona"),
            d.obrona,
            gettext_noop("Zręczność %(zr)s + Intuicja %(int)s + pancerz %(armour)s"),
            zr=parsed.attribute("zrecznosc"),
            int=parsed.attribute("intuicja"),
            armour=armour_bonus,
        ),
        DerivedValue(
            "zdrowie", "Zdrowie", d.zdrowie, f"9 + Krzepa² ({parsed.attribute('krzepa')}²)"
        ),
        DerivedValue(
            "pancerz", gettext_noop("Pancerz"), d.pancerz, gettext_noop("suma punktów pancerza")
        ),
        DerivedValue("odpornosc", gettext_noop("Wola (redukcja ogłuszenia)"), d.odpornosc, "Wola"),
        DerivedValue("inicjatywa", gettext_noop("Inicjatywa"), d.inicjatywa, "2k6 + Intuicja"),
        DerivedValue(
            "ruch",
            gettext_noop("Podstawowy Ruch"),
            d.ruch,
            gettext_noop("metry na akcję Ruchu"),
        ),
        *(_attack_value(parsed, weapon, s) for weapon in parsed.weapons),
    ]


def _attack_value(sheet: Sheet, weapon: Weapon, settings: TableSettings) -> DerivedValue:
    """Dice an attack with this weapon starts from (before Celowanie, Szarża, flanks …)."""
    mods = list(attack_base(sheet, weapon.kind, settings))
    if weapon.improvised:
        mods.append(improvised_modifier(settings))
    explained = f"{mods[0].reason} {mods[0].dice}"
    for m in mods[1:]:
        explained += f" + {m.reason} {m.dice}" if m.dice >= 0 else f" − {-m.dice} ({m.reason})"
    value = DerivedValue(f"atak-{weapon.name}", "", pool_size(mods), explained)
    return value.labelled(gettext_noop("Atak: %(weapon)s"), weapon=weapon.name)
