"""A stored sheet labelled for display: rule terms from the ruleset, equipment labels from
`characters.sheets`. Only labels and lookups here; every number shown is stored or comes
from the ruleset's `derived_values`.
"""

from __future__ import annotations

from typing import Any

from characters.models import Campaign
from characters.sheets import DAMAGE_TYPES, WEAPON_FIELDS, WEAPON_KINDS, custom_skills
from combat.rules.base import DerivedValue

TRAITS = [(f.key, f.label) for f in WEAPON_FIELDS if f.type == "bool"]


def sheet_context(
    sheet: dict[str, Any], derived: list[DerivedValue], *, campaign: Campaign
) -> dict[str, Any]:
    rules, settings = campaign.rules(), campaign.settings
    attributes = dict(sheet.get("attributes") or {})
    skills = dict(sheet.get("skills") or {})
    return {
        "derived": derived,
        "attributes": [
            (s.label, attributes.get(s.key, s.minimum)) for s in rules.attributes(settings)
        ],
        "skills": [(s.label, skills.get(s.key, s.minimum)) for s in rules.skills(settings)],
        "custom_skills": list(custom_skills(sheet, rules=rules, settings=settings).items()),
        "weapons": [_weapon(w) for w in sheet.get("weapons") or []],
        "armour": list(sheet.get("armour") or []),
        "shields": list(sheet.get("shields") or []),
    }


def _weapon(weapon: dict[str, Any]) -> dict[str, Any]:
    return {
        **weapon,
        "kind_label": WEAPON_KINDS.get(weapon.get("kind", ""), weapon.get("kind", "")),
        "damage_type_label": DAMAGE_TYPES.get(
            weapon.get("damage_type", ""), weapon.get("damage_type", "")
        ),
        "traits": [label for key, label in TRAITS if weapon.get(key)],
    }
