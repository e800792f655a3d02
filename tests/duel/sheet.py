"""Pojedynek's sheet: Atak, Obrona and Życie, one list of weapons; the GM's settings form; a
combatant dict (as `Ruleset.new_encounter` takes it) read as a `Fighter`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from combat.rules.base import DerivedValue, StatSpec, gettext_noop
from combat.rules.codec import Codec
from combat.rules.schema import ItemField, Setting, SettingsGroup, SheetSection
from tests.duel.model import ANSWER_S, POST_HOURS, TO_HIT, Fighter

ATTRIBUTES = (
    StatSpec("atak", "Atak", 1, 10),
    StatSpec("obrona", "Obrona", 1, 10),
    StatSpec("zycie", "Życie", 1, 30),
)
MAX_BONUS = 3
WEAPONS = SheetSection(
    "bron",
    gettext_noop("Broń"),
    gettext_noop("Dodaj broń"),
    fields=(
        ItemField("name", gettext_noop("Nazwa"), "text", maximum=80),
        ItemField("premia", gettext_noop("Premia do obrażeń"), "int", 0, MAX_BONUS),
    ),
    empty=gettext_noop("Bez broni: obrażenia k6."),
)
PACES = (("live", gettext_noop("na żywo")), ("post", gettext_noop("przez posty")))
ANSWER = gettext_noop("Ile sekund obrońca ma na decyzję, czy parować.")
SETTINGS = SettingsGroup(
    gettext_noop("Pojedynek"),
    (
        Setting("answer_s", gettext_noop("Czas na odpowiedź (s)"), ANSWER, bounds=ANSWER_S),
        Setting("pace", gettext_noop("Tempo"), choices=PACES),
        Setting(
            "post_hours", gettext_noop("Czas na rundę przez posty (godziny)"), bounds=POST_HOURS
        ),
        Setting(
            "reminder_hours",
            gettext_noop("Przypomnienie przed terminem (godziny, 0: bez)"),
            bounds=(0, POST_HOURS[1] - 1),
        ),
    ),
)


@dataclass(frozen=True)
class Combatant:
    id: str
    name: str
    side: str
    sheet: Mapping[str, Any]
    controller: str | None = None
    position: tuple[int, int] | None = None
    hidden: bool = False


def fighter_from_dict(data: Mapping[str, Any]) -> Fighter:
    """ValueError naming what is malformed."""
    c = Codec().from_data(Combatant, data, "combatant")
    empty = next((key for key in ("id", "name", "side") if not getattr(c, key)), None)
    if empty:
        raise ValueError(f"combatant.{empty}: a non-empty text")
    n, bonus = attributes_of(c.sheet), weapon_bonus(c.sheet)
    return Fighter(c.id, c.name, c.side, c.controller, n["atak"], n["obrona"], n["zycie"], bonus,
                   hidden=c.hidden)  # fmt: skip


def attributes_of(sheet: Mapping[str, Any]) -> dict[str, int]:
    raw = sheet.get("attributes")
    if not isinstance(raw, Mapping):
        raise ValueError("sheet.attributes: an object")
    for spec in ATTRIBUTES:
        value = raw.get(spec.key)
        if type(value) is not int or not spec.minimum <= value <= spec.maximum:
            raise ValueError(f"sheet.attributes.{spec.key}: {spec.minimum}–{spec.maximum}")
    return {spec.key: raw[spec.key] for spec in ATTRIBUTES}


def weapon_bonus(sheet: Mapping[str, Any]) -> int:
    """The best Premia among the sheet's weapons (0 without one)."""
    weapons = sheet.get(WEAPONS.key) or []
    bonuses = [w.get("premia", 0) for w in weapons if isinstance(w, Mapping)]
    if any(type(b) is not int or not 0 <= b <= MAX_BONUS for b in bonuses):
        raise ValueError(f"sheet.{WEAPONS.key}: premia 0–{MAX_BONUS}")
    return max(bonuses, default=0)


def hit_chance(atak: int) -> int:
    """P(d20 + Atak ≥ TO_HIT), in per cent."""
    return 5 * min(20, max(0, 21 - (TO_HIT - atak)))


def derived_values(sheet: Mapping[str, Any]) -> list[DerivedValue]:
    atak, obrona = attributes_of(sheet)["atak"], attributes_of(sheet)["obrona"]
    return [
        DerivedValue("trafienie", "Trafienie (%)", hit_chance(atak), "k20 + Atak ≥ 11"),
        DerivedValue("parowanie", "Parowanie", 10 * obrona, "k100 ≤ 10 × Obrona"),
        DerivedValue("obrazenia", "Premia do obrażeń", weapon_bonus(sheet), "k6 + najlepsza broń"),
        DerivedValue("inicjatywa", "Inicjatywa", atak, "k20 + Atak, co rundę"),
    ]
