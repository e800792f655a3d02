"""A d100 character sheet: validation into its one stored shape (spec "Sheet JSON").

{"attributes": {6 keys: 0..attribute_max}, "skills": {"akrobatyka", "medycyna", custom…},
 "pz": 1..pz_max, "race": key of settings.races ("" none: a summon), "transformation": "" | key of
 settings.transformations, "weapons": [{"name", "kind"}], "armour": "" | key of
 settings.armours, "shield": bool, "spells": [{"name", "kind", …}]}

A spell's kind is damage | negative | positive | summon; effect and summoning spells have
"turns" (DEFAULT 1 for an effect, 3 for a summon), a summon {"summon": {"name", "pz",
"attack", "damage"}} (also read from the flat "summon_name", "summon_pz", … an item form
gives). Every problem is a `SheetError` with a dotted path ("weapons.0.kind").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import SheetError, SheetErrors, fill, gettext_noop
from combat.rules.d100.equipment import shield_allowed
from combat.rules.d100.settings import ATTRIBUTES, SKILLS, D100Settings, settings_of

SPELL_KINDS: tuple[tuple[str, str], ...] = (
    ("damage", gettext_noop("zadaje obrażenia")),
    ("negative", gettext_noop("efekt negatywny")),
    ("positive", gettext_noop("efekt pozytywny")),
    ("summon", gettext_noop("przywołanie")),
)
SPELL_KIND_KEYS = tuple(key for key, _label in SPELL_KINDS)
EFFECT_TURNS = 1
SUMMON_TURNS = 3
MAX_TURNS = 99
MAX_ITEMS = 20
MAX_NAME = 80
MAX_SKILL_NAME = 40
SUMMON_FIELDS = ("name", "pz", "attack", "damage")
TOP_LEVEL = (
    "name",
    "attributes",
    "skills",
    "pz",
    "race",
    "transformation",
    "weapons",
    "armour",
    "shield",
    "spells",
)
DEFAULT_RACE = "czlowiek"


PROFILE = "profile"  # the sheet's single values as the characters app stores them
PROFILE_KEYS = ("pz", "race", "transformation", "armour", "shield")


def flattened(sheet: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stored sheet with its "profile" values at the top level, as the rules read it (a
    malformed profile is left for `validate_sheet` to report)."""
    profile = sheet.get(PROFILE)
    if not isinstance(profile, Mapping):
        return sheet
    rest = {key: value for key, value in sheet.items() if key != PROFILE}
    return {**rest, **profile}


def sheet_problems(
    sheet: Mapping[str, Any], settings: Mapping[str, Any] | D100Settings | None = None
) -> tuple[tuple[str, str], ...]:
    """What `validate_sheet` finds wrong with a sheet, as (path, msgid) pairs: the app asks
    after its own field checks (a shield with a heavy weapon; a summon without its creature),
    with the profile's values under "profile." as the app shows them."""
    try:
        validate_sheet(sheet, settings)
    except SheetErrors as found:
        profiled = PROFILE in sheet
        return tuple(
            (f"{PROFILE}.{e.path}" if profiled and e.path in PROFILE_KEYS else e.path, e.message)
            for e in found.errors
        )
    return ()


def _flattened(sheet: Mapping[str, Any], errors: _Errors) -> Mapping[str, Any]:
    """A stored sheet keeps PŻ, race, transformation, armour and shield in one "profile"
    dict (a single section of the forms): the rules read them at the top level."""
    if PROFILE not in sheet:
        return sheet
    profile = errors.mapping(sheet[PROFILE], PROFILE)
    unknown = set(profile) - set(PROFILE_KEYS)
    for key in sorted(unknown, key=str):
        errors.add(f"{PROFILE}.{key}", gettext_noop("nieznane pole"))
    rest = {key: value for key, value in sheet.items() if key != PROFILE}
    return {**rest, **{key: value for key, value in profile.items() if key not in unknown}}


class _Errors:
    def __init__(self) -> None:
        self.errors: list[SheetError] = []

    def add(self, path: str, message: str) -> None:
        self.errors.append(SheetError(path, message))

    def number(self, value: object, path: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(path, gettext_noop("musi być liczbą całkowitą"))
            return low
        if not low <= value <= high:
            self.add(path, fill(gettext_noop("od %(low)s do %(high)s"), {"low": low, "high": high}))
        return value

    def text(self, value: Any, path: str, maximum: int = MAX_NAME) -> str:
        if not isinstance(value, str):
            self.add(path, gettext_noop("musi być tekstem"))
            return ""
        if len(value) > maximum:
            self.add(path, fill(gettext_noop("najwyżej %(max)s znaków"), {"max": maximum}))
        return value.strip()

    def choice(self, value: Any, path: str, options: tuple[str, ...] | list[str]) -> str:
        if value not in options:
            shown = ", ".join(f"„{option}”" for option in options)
            self.add(path, fill(gettext_noop("jedno z: %(choices)s"), {"choices": shown}))
            return ""
        return str(value)

    def mapping(self, value: Any, path: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.add(path, gettext_noop("musi być obiektem JSON"))
            return {}
        return value

    def items(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.add(path, gettext_noop("musi być listą"))
            return []
        if len(value) > MAX_ITEMS:
            self.add(path, fill(gettext_noop("najwyżej %(max)s pozycji"), {"max": MAX_ITEMS}))
            return []
        return value


def validate_sheet(
    data: Any, settings: Mapping[str, Any] | D100Settings | None = None
) -> dict[str, Any]:
    """The sheet normalised for storage (every key present), or SheetErrors listing every
    problem by its dotted path."""
    s = settings_of(settings)
    errors = _Errors()
    sheet = _flattened(errors.mapping(data, "sheet"), errors)
    if errors.errors:
        raise SheetErrors(errors.errors)
    for key in sorted(set(sheet) - set(TOP_LEVEL), key=str):
        errors.add(str(key), gettext_noop("nieznane pole"))
    cleaned: dict[str, Any] = {
        "attributes": _attributes(sheet.get("attributes"), s, errors),
        "skills": _skills(sheet.get("skills", {}), s, errors),
        "pz": errors.number(sheet.get("pz"), "pz", 1, s.pz_max),
        "race": errors.choice(sheet.get("race", DEFAULT_RACE), "race", ["", *s.races]),
        "transformation": errors.choice(
            sheet.get("transformation", ""), "transformation", ["", *s.transformations]
        ),
        "weapons": _weapons(sheet.get("weapons", []), s, errors),
        "armour": errors.choice(sheet.get("armour", ""), "armour", ["", *s.armours]),
        "shield": _flag(sheet.get("shield", False), "shield", errors),
        "spells": _spells(sheet.get("spells", []), s, errors),
    }
    if "name" in sheet:
        cleaned["name"] = errors.text(sheet["name"], "name")
    if cleaned["shield"] and not errors.errors and not shield_allowed(cleaned, s):
        errors.add("shield", gettext_noop("tarcza tylko z bronią małą albo tradycyjną"))
    if errors.errors:
        raise SheetErrors(errors.errors)
    return cleaned


def _flag(value: Any, path: str, errors: _Errors) -> bool:
    if not isinstance(value, bool):
        errors.add(path, gettext_noop("musi być true albo false"))
        return False
    return value


def _attributes(raw: Any, s: D100Settings, errors: _Errors) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        errors.add("attributes", gettext_noop("musi być obiektem JSON"))
        return {}
    values = raw
    known = {key for key, _label in ATTRIBUTES}
    for key in sorted(set(values) - known, key=str):
        errors.add(f"attributes.{key}", gettext_noop("nieznany atrybut"))
    cleaned = {}
    for key, _label in ATTRIBUTES:
        if key not in values:
            errors.add(f"attributes.{key}", gettext_noop("brak wartości"))
            continue
        cleaned[key] = errors.number(values[key], f"attributes.{key}", 0, s.attribute_max)
    return cleaned


def _skills(raw: Any, s: D100Settings, errors: _Errors) -> dict[str, int]:
    """The two rule skills (missing: 0) and custom skills named by their key."""
    values = errors.mapping(raw, "skills")
    cleaned = {key: 0 for key, _label in SKILLS}
    for key, value in values.items():
        path = f"skills.{key}"
        if not isinstance(key, str) or not key.strip() or len(key) > MAX_SKILL_NAME:
            errors.add(
                path,
                fill(
                    gettext_noop("nazwa umiejętności: od 1 do %(max)s znaków"),
                    {"max": MAX_SKILL_NAME},
                ),
            )
            continue
        cleaned[key] = errors.number(value, path, 0, s.attribute_max)
    return cleaned


def _weapons(raw: Any, s: D100Settings, errors: _Errors) -> list[dict[str, Any]]:
    cleaned = []
    for index, item in enumerate(errors.items(raw, "weapons")):
        path = f"weapons.{index}"
        weapon = errors.mapping(item, path)
        for key in sorted(set(weapon) - {"name", "kind"}, key=str):
            errors.add(f"{path}.{key}", gettext_noop("nieznane pole"))
        cleaned.append(
            {
                "name": errors.text(weapon.get("name", ""), f"{path}.name"),
                "kind": errors.choice(weapon.get("kind"), f"{path}.kind", list(s.weapons)),
            }
        )
    return cleaned


def _spells(raw: Any, s: D100Settings, errors: _Errors) -> list[dict[str, Any]]:
    cleaned = []
    for index, item in enumerate(errors.items(raw, "spells")):
        path = f"spells.{index}"
        spell = errors.mapping(item, path)
        flat = {f"summon_{key}" for key in SUMMON_FIELDS}
        for key in sorted(set(spell) - {"name", "kind", "turns", "mind", "summon", *flat}, key=str):
            errors.add(f"{path}.{key}", gettext_noop("nieznane pole"))
        kind = errors.choice(spell.get("kind"), f"{path}.kind", SPELL_KIND_KEYS)
        entry: dict[str, Any] = {
            "name": errors.text(spell.get("name", ""), f"{path}.name"),
            "kind": kind,
        }
        if kind in ("negative", "positive", "summon"):
            default = SUMMON_TURNS if kind == "summon" else EFFECT_TURNS
            entry["turns"] = errors.number(
                spell.get("turns", default), f"{path}.turns", 1, MAX_TURNS
            )
        if kind == "negative":  # a spell on the mind: resisted with mind_attribute (Ogłada)
            entry["mind"] = _flag(spell.get("mind", False), f"{path}.mind", errors)
        if kind == "summon":
            entry["summon"] = _summon(spell, path, s, errors)
        cleaned.append(entry)
    return cleaned


def _summon(
    spell: Mapping[str, Any], path: str, s: D100Settings, errors: _Errors
) -> dict[str, Any]:
    """The summoned creature: nested {"summon": {...}} or the flat summon_* fields."""
    if "summon" in spell:
        raw = errors.mapping(spell["summon"], f"{path}.summon")
        where = f"{path}.summon."
        for key in sorted(set(raw) - set(SUMMON_FIELDS), key=str):
            errors.add(f"{where}{key}", gettext_noop("nieznane pole"))
    else:
        raw = {key: spell[f"summon_{key}"] for key in SUMMON_FIELDS if f"summon_{key}" in spell}
        where = f"{path}.summon_"
    for key in SUMMON_FIELDS:
        if key not in raw:
            errors.add(f"{where}{key}", gettext_noop("brak wartości"))
    return {
        "name": errors.text(raw.get("name", ""), f"{where}name"),
        "pz": errors.number(raw.get("pz", 1), f"{where}pz", 1, s.pz_max),
        "attack": errors.number(raw.get("attack", 0), f"{where}attack", 0, s.attribute_max),
        "damage": errors.number(raw.get("damage", 0), f"{where}damage", 0, s.attribute_max),
    }


__all__ = ["SPELL_KINDS", "SPELL_KIND_KEYS", "validate_sheet"]
