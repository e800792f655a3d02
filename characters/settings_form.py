"""The GM's table-settings form: the ruleset's settings, grouped, with Polish labels.

Field types follow the ruleset's default values (a flag, a number, a choice, a list of faces),
so a setting the rules add later still appears (under "Inne") before it gets a label here.
The ruleset validates the result (`validate_settings`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from combat.rules import Ruleset


@dataclass(frozen=True)
class Setting:
    key: str
    label: Any
    help: Any = ""
    choices: Mapping[str, Any] | None = None
    parts: tuple[Any, ...] = ()  # one number input per part, for a fixed-length list
    optional: bool = False  # blank means None ("no limit")
    bounds: tuple[int, int] = (0, 99)
    faces: bool = field(default=False)  # a set of d6 faces


S = Setting
ELEORA_GROUPS: tuple[tuple[Any, tuple[Setting, ...]], ...] = (
    (
        _l("Kości i testy"),
        (
            S("success_faces", _l("Ścianki k6 dające sukces"), faces=True),
            S("critical_failure_needs_one", _l("Krytyczna porażka wymaga choć jednej jedynki")),
            S(
                "tie_goes_to",
                _l("Remis w ataku wygrywa"),
                choices={"defender": _l("obrońca (pudło)"), "attacker": _l("atakujący")},
            ),
            S(
                "przebicia_mode",
                _l("Przebicia do obrażeń"),
                choices={
                    "margin": _l("cała przewaga sukcesów"),
                    "margin_minus_one": _l("przewaga minus jeden"),
                },
            ),
            S("heroism_max", _l("Najwięcej Kostek Heroizmu")),
        ),
    ),
    (
        _l("Zdrowie, obrażenia, leczenie"),
        (
            S(
                "maiming_enabled",
                _l("Tabela Okaleczeń i Śmierci"),
                _l("Wyłączona: śmierć od razu."),
            ),
            S("maiming_trigger", _l("Okaleczenie przy Zdrowiu ≤")),
            S("unconscious_at", _l("Nieprzytomność przy Zdrowiu ≤")),
            S("stun_cannot_kill", _l("Ogłuszenie nie zbija Zdrowia poniżej 1")),
            S(
                "natural_heal_mode",
                _l("Naturalne Leczenie"),
                choices={"test": _l("test Krzepy"), "flat2": _l("stałe 2 na tydzień")},
            ),
            S("bleeding_max", _l("Krwawienie: najwięcej stosów")),
            S("bleeding_turns", _l("Krwawienie: tury")),
            S("burning_turns", _l("Podpalenie: tury")),
            S("fatigue_max", _l("Zmęczenie: maksimum")),
        ),
    ),
    (
        _l("Akcje i ruch"),
        (
            S("actions_per_turn", _l("Akcje na turę")),
            S("reactions_per_turn", _l("Reakcje na turę")),
            S("aim_cap", _l("Celowanie: najwięcej kości")),
            S("charge_cap", _l("Szarża: najwięcej kości"), _l("Puste: bez limitu."), optional=True),
            S("base_movement", _l("Podstawowy Ruch (m)")),
            S("prone_movement", _l("Ruch powalonego (m)")),
            S("grab_base_bonus", _l("Schwytanie: dodatek do trudności")),
            S("immobilized_max", _l("Unieruchomienie: najwięcej stosów")),
            S("reaction_timeout_s", _l("Czas na reakcję (s)"), bounds=(3, 600)),
        ),
    ),
    (
        _l("Broń i tarcze (domyślne)"),
        (
            S("light_weapon_damage", _l("Obrażenia Broni Lekkiej")),
            S("heavy_weapon_damage", _l("Obrażenia Broni Ciężkiej")),
            S("shield_bonus", _l("Premia tarczy")),
        ),
    ),
    (
        _l("Kary i premie (kości)"),
        (
            S("ranged_cover_penalty", _l("Strzał w zasłonięty cel")),
            S("blind_attack_penalty", _l("Oślepienie (atak)")),
            S("flat_attack_penalty", _l("Atak Płazem")),
            S("improvised_penalty", _l("Broń improwizowana")),
            S("unarmed_vs_armed_penalty", _l("Bez broni na uzbrojonego")),
            S("blinded_penalty", _l("Oślepiony")),
            S("blinded_defence_floor", _l("Oślepiony: Obrona co najmniej")),
            S("frenzy_attack_bonus", _l("Szał: premia do ataku")),
            S("frenzy_defence_penalty", _l("Szał: kara do Obrony")),
            S("surrounded_threshold", _l("Otoczenie: od ilu wrogów")),
            S("surrounded_penalty", _l("Otoczenie: kara")),
            S("full_flank_bonus", _l("Pełna flanka")),
            S("half_flank_bonus", _l("Półflanka")),
            S(
                "darkness_penalties",
                _l("Ciemność"),
                parts=(_l("półmrok"), _l("mrok"), _l("ciemność")),
            ),
        ),
    ),
    (
        _l("Karty postaci"),
        (
            S("attribute_min", _l("Atrybuty: minimum")),
            S("attribute_max", _l("Atrybuty: maksimum")),
            S("skill_min", _l("Umiejętności: minimum")),
            S("skill_max", _l("Umiejętności: maksimum")),
        ),
    ),
)
GROUPS = {"eleora": ELEORA_GROUPS}


class TableSettingsForm(forms.Form):
    """One input per setting; `cleaned_data["settings"]` is the ruleset-validated dict."""

    def __init__(
        self, *args: Any, rules: Ruleset, current: Mapping[str, Any], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        defaults = rules.default_settings()
        values = {**defaults, **current}
        self.values = values
        self.settings: list[tuple[Setting, list[str]]] = []
        self.groups: list[tuple[Any, list[str]]] = []
        placed: set[str] = set()
        for title, settings in GROUPS.get(rules.key, ()):
            present = [s for s in settings if s.key in defaults]
            self.groups.append((title, [n for s in present for n in self._add(s, values)]))
            placed.update(s.key for s in present)
        editable = (bool, int, str, type(None))
        rest = [
            S(key, key)
            for key, value in defaults.items()
            if key not in placed and isinstance(value, editable)
        ]
        if rest:
            self.groups.append((_l("Inne"), [n for s in rest for n in self._add(s, values)]))

    def _add(self, setting: Setting, values: Mapping[str, Any]) -> list[str]:
        """Add the input(s) for one setting with its current value; their field names."""
        value = values[setting.key]
        names = [f"{setting.key}__{i}" for i in range(len(setting.parts))] or [setting.key]
        self.settings.append((setting, names))
        for index, name in enumerate(names):
            part_value = value[index] if setting.parts else value
            label = f"{setting.label}: {setting.parts[index]}" if setting.parts else setting.label
            self.fields[name] = _setting_field(setting, part_value, label)
            self.initial[name] = _initial(setting, part_value)
        return names

    def grouped(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in self.groups]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        data = dict(self.values)  # settings without an input keep their value
        for setting, names in self.settings:
            if setting.parts:
                data[setting.key] = [cleaned[name] for name in names]
            elif setting.faces:
                data[setting.key] = sorted(int(face) for face in cleaned[setting.key])
            else:
                data[setting.key] = cleaned[setting.key]
        try:
            cleaned["settings"] = self.rules.validate_settings(data)
        except (ValueError, TypeError) as error:
            raise ValidationError(_("Ustawienia odrzucone: %(why)s") % {"why": error}) from None
        return cleaned


def _setting_field(setting: Setting, value: Any, label: Any) -> forms.Field:
    if setting.faces:
        return forms.MultipleChoiceField(
            label=label,
            choices=[(str(face), str(face)) for face in range(1, 7)],
            widget=forms.CheckboxSelectMultiple,
            help_text=setting.help,
        )
    if setting.choices:
        return forms.ChoiceField(
            label=label, choices=list(setting.choices.items()), help_text=setting.help
        )
    if isinstance(value, bool):
        return forms.BooleanField(label=label, required=False, help_text=setting.help)
    if isinstance(value, str):
        return forms.CharField(label=label, max_length=100, help_text=setting.help)
    low, high = setting.bounds
    return forms.IntegerField(
        label=label,
        min_value=max(low, 1) if setting.optional else low,
        max_value=high,
        required=not setting.optional,
        help_text=setting.help,
    )


def _initial(setting: Setting, value: Any) -> Any:
    if setting.faces:
        return [str(face) for face in value]
    return value
