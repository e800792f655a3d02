"""Opowieści Eleory: d6 pools, the primary ruleset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import DerivedValue, StatSpec, register
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import ATTRIBUTES, SKILLS, derive, sheet_from_dict


class EleoraRuleset:
    key = "eleora"
    label = "Opowieści Eleory"

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        s = TableSettings.from_dict(dict(settings or {}))
        return tuple(StatSpec(k, label, s.attribute_min, s.attribute_max) for k, label in ATTRIBUTES)

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        s = TableSettings.from_dict(dict(settings or {}))
        return tuple(StatSpec(k, label, s.skill_min, s.skill_max) for k, label in SKILLS)

    def default_settings(self) -> dict[str, Any]:
        return TableSettings().to_dict()

    def validate_settings(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return TableSettings.from_dict(dict(data)).to_dict()

    def derived_values(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]:
        s = TableSettings.from_dict(dict(settings or {}))
        parsed = sheet_from_dict(sheet)
        d = derive(parsed, s)
        armour_bonus = d.obrona - parsed.attribute("zrecznosc") - parsed.attribute("intuicja")
        return [
            DerivedValue(
                "obrona",
                "Obrona",
                d.obrona,
                f"Zręczność {parsed.attribute('zrecznosc')} + Intuicja "
                f"{parsed.attribute('intuicja')} + pancerz {armour_bonus}",
            ),
            DerivedValue(
                "zdrowie", "Zdrowie", d.zdrowie, f"9 + Krzepa² ({parsed.attribute('krzepa')}²)"
            ),
            DerivedValue("pancerz", "Pancerz", d.pancerz, "suma punktów pancerza"),
            DerivedValue("odpornosc", "Wola (redukcja ogłuszenia)", d.odpornosc, "Wola"),
            DerivedValue("inicjatywa", "Inicjatywa", d.inicjatywa, "2k6 + Intuicja"),
            DerivedValue("ruch", "Podstawowy Ruch", d.ruch, "metry na akcję Ruchu"),
        ]


RULESET = register(EleoraRuleset())
