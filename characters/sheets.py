"""The one validator for character and creature sheets (forms, imports and the bestiary).

A sheet is JSON in the ruleset's shape: attributes, skills and the sections the ruleset
declares (`Ruleset.sheet_sections`: equipment lists, and single sets of fields stored as one
dict; each field described as data, so the forms, the validator and the sheet page share one
list). Attribute and skill keys and ranges come from the campaign's ruleset and table settings.
Every problem is reported with the path of the field it concerns, e.g.
"<list>[2].<field>: musi być ≥ 0" or "<section>.<field>: brak wartości".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from combat.rules.base import Ruleset, StatSpec, sheet_check_of
from combat.rules.schema import ItemField

MAX_SHEET_BYTES = 64 * 1024
MAX_ITEMS = 20
MAX_NAME = 80
MAX_SKILL_NAME = 40


class _Problems:
    """Collects "path: problem" messages so one pass reports every mistake at once."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def add(self, path: str, problem: str) -> None:
        self.messages.append(f"{path}: {problem}")

    def raise_if_any(self) -> None:
        if self.messages:
            raise ValidationError([ValidationError(m, code="sheet") for m in self.messages])


def clean_sheet(
    data: object, *, rules: Ruleset, settings: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The sheet normalised for storage, or ValidationError listing every problem by path.

    Normalised means: every attribute, every ruleset skill (missing ones at the minimum), custom
    skills after them, every equipment field present, every single section present with its
    defaults. A "name" key is accepted and dropped: the name lives on the character or creature.
    """
    problems = _Problems()
    if not isinstance(data, dict):
        problems.add("sheet", _("musi być obiektem JSON"))
        problems.raise_if_any()
    assert isinstance(data, dict)
    size = len(json.dumps(data, ensure_ascii=False).encode())
    if size > MAX_SHEET_BYTES:
        problems.add(
            "sheet",
            _("jest za duża (%(size)d bajtów, najwyżej %(max)d)")
            % {"size": size, "max": MAX_SHEET_BYTES},
        )
        problems.raise_if_any()
    sections = rules.sheet_sections(settings)
    for key in sorted(set(data) - {"name", "attributes", "skills", *(s.key for s in sections)}):
        problems.add(str(key), _("nieznane pole"))
    if "name" in data:
        _check_text(data["name"], "name", MAX_NAME, problems)
    cleaned: dict[str, Any] = {
        "attributes": _clean_attributes(
            data.get("attributes"), rules.attributes(settings), problems
        ),
        "skills": _clean_skills(data.get("skills", {}), rules.skills(settings), problems),
    }
    for section in sections:
        if section.single:
            cleaned[section.key] = _clean_single(
                data.get(section.key, {}), section.key, section.fields, problems
            )
        else:
            cleaned[section.key] = _clean_items(
                data.get(section.key, []), section.key, section.fields, problems
            )
    problems.raise_if_any()
    # What only the whole sheet tells (a shield beside a two-handed weapon): the ruleset's.
    check = sheet_check_of(rules)
    for path, problem in check.sheet_problems(cleaned, settings) if check else ():
        problems.add(path, _(problem))
    problems.raise_if_any()
    return cleaned


def _clean_attributes(
    raw: object, specs: tuple[StatSpec, ...], problems: _Problems
) -> dict[str, int]:
    if not isinstance(raw, dict):
        problems.add("attributes", _("musi być obiektem JSON"))
        return {}
    known = {spec.key for spec in specs}
    for key in sorted(set(raw) - known, key=str):
        problems.add(f"attributes.{key}", _("nieznany atrybut"))
    cleaned: dict[str, int] = {}
    for spec in specs:
        path = f"attributes.{spec.key}"
        if spec.key not in raw:
            problems.add(path, _("brak wartości (%(label)s)") % {"label": spec.label})
            continue
        value = _check_int(raw[spec.key], path, spec.minimum, spec.maximum, problems)
        if value is not None:
            cleaned[spec.key] = value
    return cleaned


def _clean_skills(raw: object, specs: tuple[StatSpec, ...], problems: _Problems) -> dict[str, int]:
    """Ruleset skills by key; any other key is a custom skill named by the key itself."""
    if not isinstance(raw, dict):
        problems.add("skills", _("musi być obiektem JSON"))
        return {}
    cleaned = {spec.key: spec.minimum for spec in specs}
    by_key = {spec.key: spec for spec in specs}
    labels = {name.casefold(): spec.label for spec in specs for name in (spec.key, spec.label)}
    low = min((s.minimum for s in specs), default=0)
    high = max((s.maximum for s in specs), default=10)
    custom = [key for key in raw if key not in by_key]
    if len(custom) > MAX_ITEMS:
        problems.add("skills", _("najwyżej %(max)d własnych umiejętności") % {"max": MAX_ITEMS})
        return cleaned
    for key, value in raw.items():
        path = f"skills.{key}"
        spec = by_key.get(key)
        if spec is None and not _custom_skill_name_ok(key, path, labels, problems):
            continue
        number = _check_int(
            value, path, spec.minimum if spec else low, spec.maximum if spec else high, problems
        )
        if number is not None:
            cleaned[key.strip() if spec is None else key] = number
    return cleaned


def _custom_skill_name_ok(key: str, path: str, labels: dict[str, str], problems: _Problems) -> bool:
    name = key.strip()
    if not name:
        problems.add(path, _("nazwa umiejętności nie może być pusta"))
    elif len(name) > MAX_SKILL_NAME:
        problems.add(
            path,
            _("nazwa umiejętności może mieć najwyżej %(max)d znaków") % {"max": MAX_SKILL_NAME},
        )
    elif name.casefold() in labels:
        problems.add(
            path, _("to umiejętność z listy: %(label)s") % {"label": labels[name.casefold()]}
        )
    else:
        return True
    return False


def _clean_items(
    raw: object, section: str, fields: tuple[ItemField, ...], problems: _Problems
) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        problems.add(section, _("musi być listą"))
        return []
    if len(raw) > MAX_ITEMS:
        problems.add(section, _("może mieć najwyżej %(max)d pozycji") % {"max": MAX_ITEMS})
        return []
    cleaned = []
    for index, item in enumerate(raw):
        path = f"{section}[{index}]"
        if not isinstance(item, dict):
            problems.add(path, _("musi być obiektem JSON"))
            continue
        known = {f.key for f in fields}
        for key in sorted(set(item) - known, key=str):
            problems.add(f"{path}.{key}", _("nieznane pole"))
        cleaned.append({f.key: _clean_item_field(item, f, path, problems) for f in fields})
    return cleaned


def _clean_single(
    raw: object, section: str, fields: tuple[ItemField, ...], problems: _Problems
) -> dict[str, Any]:
    """A single section: one dict, fields left out take their defaults."""
    if not isinstance(raw, dict):
        problems.add(section, _("musi być obiektem JSON"))
        return _blank(fields)
    for key in sorted(set(raw) - {f.key for f in fields}, key=str):
        problems.add(f"{section}.{key}", _("nieznane pole"))
    return {f.key: _clean_item_field(raw, f, section, problems) for f in fields}


def _clean_item_field(
    item: dict[str, Any], field: ItemField, path: str, problems: _Problems
) -> Any:
    path = f"{path}.{field.key}"
    if field.key not in item:
        if field.default is None:
            problems.add(path, _("brak wartości"))
        return field.default
    value = item[field.key]
    if field.type == "text":
        return _check_text(value, path, field.maximum, problems, required=field.default is None)
    if field.type == "int":
        return _check_int(value, path, field.minimum, field.maximum, problems)
    if field.type == "bool":
        if not isinstance(value, bool):
            problems.add(path, _("musi być true albo false"))
        return value
    keys = [key for key, _label in field.choices]
    if value not in keys:
        problems.add(path, _("musi być jednym z: %(choices)s") % {"choices": ", ".join(keys)})
    return value


def _check_int(
    value: object, path: str, minimum: int, maximum: int, problems: _Problems
) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(path, _("musi być liczbą całkowitą"))
        return None
    if value < minimum:
        problems.add(path, _("musi być ≥ %(min)d") % {"min": minimum})
    elif value > maximum:
        problems.add(path, _("musi być ≤ %(max)d") % {"max": maximum})
    return value


def _check_text(
    value: object, path: str, maximum: int, problems: _Problems, *, required: bool = True
) -> str:
    """A text field, stripped; one with a default (not required) may be left empty."""
    if not isinstance(value, str):
        problems.add(path, _("musi być tekstem"))
        return ""
    text = value.strip()
    if not text and required:
        problems.add(path, _("nie może być puste"))
    elif len(text) > maximum:
        problems.add(path, _("może mieć najwyżej %(max)d znaków") % {"max": maximum})
    return text


def blank_sheet(*, rules: Ruleset, settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """A new sheet to start the editor from: every attribute and skill at its minimum, no
    equipment, single sections at their defaults (a field without one None, to be filled in:
    until then the sheet is not valid)."""
    return {
        "attributes": {spec.key: spec.minimum for spec in rules.attributes(settings)},
        "skills": {spec.key: spec.minimum for spec in rules.skills(settings)},
        **{
            section.key: _blank(section.fields) if section.single else []
            for section in rules.sheet_sections(settings)
        },
    }


def _blank(fields: tuple[ItemField, ...]) -> dict[str, Any]:
    return {f.key: f.default for f in fields}


def stat_groups(specs: tuple[StatSpec, ...]) -> list[tuple[str, list[StatSpec]]]:
    """Stats by their `group` (a msgid, "" for none), the groups in the order they first appear."""
    groups: dict[str, list[StatSpec]] = {}
    for spec in specs:
        groups.setdefault(spec.group, []).append(spec)
    return list(groups.items())


def custom_skills(
    sheet: Mapping[str, Any], *, rules: Ruleset, settings: Mapping[str, Any] | None
) -> dict[str, int]:
    """The skills of a sheet that are not on the ruleset's list, by name."""
    known = {spec.key for spec in rules.skills(settings)}
    return {k: v for k, v in dict(sheet.get("skills") or {}).items() if k not in known}
