"""A stored sheet labelled for display: rule terms and equipment lists from the ruleset. Only
labels and lookups here; every number shown is stored or comes from the ruleset's
`derived_values`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.utils.translation import gettext as _

from characters.models import Campaign
from characters.sheets import custom_skills, stat_groups
from combat.rules.base import DerivedValue, StatSpec
from combat.rules.schema import ItemField, SheetSection
from combat.terms import rules_gettext, rules_text


def sheet_context(
    sheet: dict[str, Any], derived: list[DerivedValue], *, campaign: Campaign
) -> dict[str, Any]:
    rules, settings = campaign.rules(), campaign.settings
    attributes = dict(sheet.get("attributes") or {})
    skills = dict(sheet.get("skills") or {})
    attribute_specs, skill_specs = rules.attributes(settings), rules.skills(settings)
    return {
        "derived": [
            replace(
                d,
                label=rules_text(d.label_template, d.label_params) or rules_gettext(d.label),
                explanation=rules_text(d.explanation_template, d.explanation_params)
                or rules_gettext(d.explanation),
            )
            for d in derived
        ],
        "attributes": [
            (rules_gettext(s.label), attributes.get(s.key, s.minimum)) for s in attribute_specs
        ],
        "skills": [(rules_gettext(s.label), skills.get(s.key, s.minimum)) for s in skill_specs],
        "attribute_groups": [
            (title, [(rules_gettext(s.label), attributes.get(s.key, s.minimum)) for s in specs])
            for title, specs in _titled(attribute_specs, _("Atrybuty"))
        ],
        "skill_groups": [
            (title, [(rules_gettext(s.label), skills.get(s.key, s.minimum)) for s in specs])
            for title, specs in _titled(skill_specs, _("Umiejętności"))
        ],
        "custom_skills": list(custom_skills(sheet, rules=rules, settings=settings).items()),
        "sections": [
            _single(s, sheet.get(s.key) or {}) if s.single else _section(s, sheet.get(s.key) or [])
            for s in rules.sheet_sections(settings)
        ],
    }


def _titled(specs: tuple[StatSpec, ...], heading: str) -> list[tuple[str, list[StatSpec]]]:
    """The stats' groups under their translated headings; `heading` for those without one
    (and alone, with no stats, when there are none)."""
    groups = stat_groups(specs) or [("", [])]
    return [(rules_gettext(key) if key else heading, found) for key, found in groups]


def _is_trait(field: ItemField) -> bool:
    """Flags and badge fields are shown beside an item's first column, not in their own."""
    return field.type == "bool" or bool(field.badge)


def _section(section: SheetSection, items: list[dict[str, Any]]) -> dict[str, Any]:
    """One equipment list as a table: a column per field, traits as badges in the first."""
    columns = [f for f in section.fields if not _is_trait(f)]
    traits = [f for f in section.fields if _is_trait(f)]
    return {
        "key": section.key,
        "title": rules_gettext(section.title),
        "empty": rules_gettext(section.empty) if section.empty else _("Brak."),
        "columns": [(rules_gettext(f.label), f.type == "int") for f in columns],
        "rows": [
            {
                "cells": [(_cell(f, item.get(f.key, "")), f.type == "int") for f in columns],
                "badges": [_badge(f, item[f.key]) for f in traits if item.get(f.key)],
            }
            for item in items
        ],
    }


def _single(section: SheetSection, values: dict[str, Any]) -> dict[str, Any]:
    """A single section as a short list of label: value, in the fields' order."""
    return {
        "key": section.key,
        "title": rules_gettext(section.title),
        "single": True,
        "items": [
            (rules_gettext(f.label), _value(f, values.get(f.key, f.default)))
            for f in section.fields
        ],
    }


def _value(field: ItemField, value: Any) -> Any:
    """Yes or no for a flag, a choice's label, a dash for nothing entered."""
    if field.type == "bool":
        return _("tak") if value else _("nie")
    if value is None or value == "":
        labels = dict(field.choices)
        return rules_gettext(labels[""]) if "" in labels else "—"
    return _cell(field, value)


def _cell(field: ItemField, value: Any) -> Any:
    """A choice shows its label; anything else as stored."""
    labels = dict(field.choices)
    return rules_gettext(labels[value]) if isinstance(value, str) and value in labels else value


def _badge(field: ItemField, value: Any) -> str:
    if field.badge:
        return rules_gettext(field.badge) % {"n": value}
    return rules_gettext(field.label)
