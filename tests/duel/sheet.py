"""Pojedynek's sheet: Atak, Obrona and Życie, one list of weapons, and the GM's one setting.

A sheet is `{"attributes": {"atak", "obrona", "zycie"}, "skills": {}, "bron": [...]}`, the shape
the characters app stores for any ruleset (attributes by key, skills, then each equipment
section by its key). A combatant dict (as `Ruleset.new_encounter` takes it) becomes a
`Fighter` here, with `ValueError` for anything malformed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import DerivedValue, StatSpec, gettext_noop
from combat.rules.schema import ItemField, Setting, SettingsGroup, SheetSection
from tests.duel.model import ANSWER_S, POST_HOURS, TO_HIT, Fighter

ATTRIBUTES = (
    StatSpec("atak", "Atak", 1, 10),
    StatSpec("obrona", "Obrona", 1, 10),
    StatSpec("zycie", "Życie", 1, 30),
)
MAX_BONUS = 3
WEAPONS = SheetSection(
    key="bron",
    title=gettext_noop("Broń"),
    add_label=gettext_noop("Dodaj broń"),
    fields=(
        ItemField("name", gettext_noop("Nazwa"), "text", maximum=80),
        ItemField("premia", gettext_noop("Premia do obrażeń"), "int", 0, MAX_BONUS),
    ),
    empty=gettext_noop("Bez broni: obrażenia k6."),
)
SETTINGS = (
    SettingsGroup(
        gettext_noop("Pojedynek"),
        (
            Setting(
                "answer_s",
                gettext_noop("Czas na odpowiedź (s)"),
                help=gettext_noop("Ile sekund obrońca ma na decyzję, czy parować."),
                bounds=ANSWER_S,
            ),
            Setting(
                "pace",
                gettext_noop("Tempo"),
                choices=(("live", gettext_noop("na żywo")), ("post", gettext_noop("przez posty"))),
            ),
            Setting(
                "post_hours",
                gettext_noop("Czas na rundę przez posty (godziny)"),
                bounds=POST_HOURS,
            ),
            Setting(
                "reminder_hours",
                gettext_noop("Przypomnienie przed terminem (godziny, 0: bez)"),
                bounds=(0, POST_HOURS[1] - 1),
            ),
        ),
    ),
)
COMBATANT_KEYS = frozenset({"id", "name", "side", "sheet", "controller", "position", "hidden"})


def fighter_from_dict(data: Mapping[str, Any]) -> Fighter:
    """A combatant dict (id, name, side, sheet, controller, hidden) as a fighter."""
    if not isinstance(data, Mapping):
        raise ValueError("combatant: an object")
    unknown = sorted(set(data) - COMBATANT_KEYS)
    if unknown:
        raise ValueError(f"combatant: unknown field {unknown[0]!r}")
    for key in ("id", "name", "side"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ValueError(f"combatant.{key}: a non-empty text")
    controller = data.get("controller")
    if controller is not None and not isinstance(controller, str):
        raise ValueError("combatant.controller: a text or null")
    if not isinstance(data.get("hidden", False), bool):
        raise ValueError("combatant.hidden: true or false")
    values = attributes_of(data.get("sheet"))
    return Fighter(
        id=data["id"],
        name=data["name"],
        side=data["side"],
        controller=controller,
        atak=values["atak"],
        obrona=values["obrona"],
        zycie=values["zycie"],
        weapon_bonus=weapon_bonus(data.get("sheet") or {}),
        hidden=data.get("hidden", False),
    )


def attributes_of(sheet: Any) -> dict[str, int]:
    """Atak, Obrona and Życie of a sheet, each within its range."""
    raw = sheet.get("attributes") if isinstance(sheet, Mapping) else None
    if not isinstance(raw, Mapping):
        raise ValueError("sheet.attributes: an object")
    values = {}
    for spec in ATTRIBUTES:
        value = raw.get(spec.key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"sheet.attributes.{spec.key}: a whole number")
        if not spec.minimum <= value <= spec.maximum:
            raise ValueError(f"sheet.attributes.{spec.key}: {spec.minimum}–{spec.maximum}")
        values[spec.key] = value
    return values


def weapon_bonus(sheet: Mapping[str, Any]) -> int:
    """The best Premia among the sheet's weapons (0 without one)."""
    weapons = sheet.get(WEAPONS.key) or []
    if not isinstance(weapons, list):
        raise ValueError(f"sheet.{WEAPONS.key}: a list")
    bonuses = [w.get("premia", 0) for w in weapons if isinstance(w, Mapping)]
    if any(type(b) is not int or not 0 <= b <= MAX_BONUS for b in bonuses):
        raise ValueError(f"sheet.{WEAPONS.key}: premia 0–{MAX_BONUS}")
    return max(bonuses, default=0)


def hit_chance(atak: int) -> int:
    """P(d20 + Atak ≥ TO_HIT), in per cent."""
    faces = min(20, max(0, 21 - (TO_HIT - atak)))
    return 5 * faces


def derived_values(sheet: Mapping[str, Any]) -> list[DerivedValue]:
    values = attributes_of(sheet)
    bonus = weapon_bonus(sheet)
    return [
        DerivedValue("trafienie", "Trafienie (%)", hit_chance(values["atak"]), "k20 + Atak ≥ 11"),
        DerivedValue("parowanie", "Parowanie", 10 * values["obrona"], "k100 ≤ 10 × Obrona"),
        DerivedValue("obrazenia", "Premia do obrażeń", bonus, "k6 + najlepsza broń"),
        DerivedValue("inicjatywa", "Inicjatywa", values["atak"], "k20 + Atak, co rundę"),
    ]
