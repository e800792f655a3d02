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
from django.utils.translation import gettext_lazy

from combat.rules import Ruleset
from combat.rules.eleora.sheet import ATTRIBUTES, SKILLS


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
ATTRIBUTE_CHOICES = dict(ATTRIBUTES)
ELEORA_GROUPS: tuple[tuple[Any, tuple[Setting, ...]], ...] = (
    (
        gettext_lazy("Kości i testy"),
        (
            S("success_faces", gettext_lazy("Ścianki k6 dające sukces"), faces=True),
            S(
                "critical_failure_needs_one",
                gettext_lazy("Krytyczna porażka wymaga choć jednej jedynki"),
            ),
            S(
                "tie_goes_to",
                gettext_lazy("Remis w ataku wygrywa"),
                choices={
                    "defender": gettext_lazy("obrońca (pudło)"),
                    "attacker": gettext_lazy("atakujący"),
                },
            ),
            S(
                "przebicia_mode",
                gettext_lazy("Przebicia do obrażeń"),
                choices={
                    "margin": gettext_lazy("cała przewaga sukcesów"),
                    "margin_minus_one": gettext_lazy("przewaga minus jeden"),
                },
            ),
            S("heroism_max", gettext_lazy("Najwięcej Kostek Heroizmu")),
        ),
    ),
    (
        gettext_lazy("Zdrowie, obrażenia, leczenie"),
        (
            S(
                "maiming_enabled",
                gettext_lazy("Tabela Okaleczeń i Śmierci"),
                gettext_lazy("Wyłączona: śmierć od razu."),
            ),
            S(
                "maiming_on_every_loss",
                gettext_lazy("Okaleczenie przy każdej dalszej utracie Zdrowia"),
                gettext_lazy("Wyłączone: rzut tylko przy pierwszym spadku."),
            ),
            S("maiming_trigger", gettext_lazy("Okaleczenie przy Zdrowiu ≤"), bounds=(-99, 99)),
            S("unconscious_at", gettext_lazy("Nieprzytomność przy Zdrowiu ≤"), bounds=(-99, 99)),
            S("stun_cannot_kill", gettext_lazy("Ogłuszenie nie zbija Zdrowia poniżej 1")),
            S(
                "natural_heal_mode",
                gettext_lazy("Naturalne Leczenie"),
                choices={
                    "test": gettext_lazy("test Krzepy"),
                    "flat2": gettext_lazy("stałe 2 na tydzień"),
                },
            ),
            S("bleeding_max", gettext_lazy("Krwawienie: najwięcej stosów")),
            S("bleeding_turns", gettext_lazy("Krwawienie: tury")),
            S("burning_turns", gettext_lazy("Podpalenie: tury")),
            S("fatigue_max", gettext_lazy("Zmęczenie: maksimum")),
            S("dazed_turns", gettext_lazy("Oszołomienie: tury")),
            S(
                "fall_stun_reduced_by_wola",
                gettext_lazy("Wola zmniejsza obrażenia od upadku i tonięcia"),
            ),
            S(
                "wound_thresholds",
                gettext_lazy("Poziom ran widziany przez graczy (procent pozostałego Zdrowia)"),
                parts=(
                    gettext_lazy("Draśnięcia powyżej"),
                    gettext_lazy("Rany powyżej"),
                    gettext_lazy("Ciężkie rany powyżej"),
                ),
                bounds=(0, 100),
            ),
        ),
    ),
    (
        gettext_lazy("Akcje i ruch"),
        (
            S("actions_per_turn", gettext_lazy("Akcje na turę")),
            S("reactions_per_turn", gettext_lazy("Reakcje na turę")),
            S("aim_cap", gettext_lazy("Celowanie: najwięcej kości")),
            S(
                "charge_cap",
                gettext_lazy("Szarża: najwięcej kości"),
                gettext_lazy("Puste: bez limitu."),
                optional=True,
            ),
            S("base_movement", gettext_lazy("Podstawowy Ruch (m)")),
            S("prone_movement", gettext_lazy("Ruch powalonego (m)")),
            S("grab_base_bonus", gettext_lazy("Schwytanie: dodatek do trudności")),
            S("immobilized_max", gettext_lazy("Unieruchomienie: najwięcej stosów")),
            S("reaction_timeout_s", gettext_lazy("Czas na reakcję (s)"), bounds=(3, 600)),
            S(
                "collision_rounding",
                gettext_lazy("Wymuszone Poruszanie: połowa brakujących metrów przy zderzeniu"),
                choices={
                    "up": gettext_lazy("zaokrąglana w górę"),
                    "down": gettext_lazy("zaokrąglana w dół"),
                },
            ),
        ),
    ),
    (
        gettext_lazy("Broń i tarcze (domyślne)"),
        (
            S("light_weapon_damage", gettext_lazy("Obrażenia Broni Lekkiej")),
            S("heavy_weapon_damage", gettext_lazy("Obrażenia Broni Ciężkiej")),
            S("shield_bonus", gettext_lazy("Premia tarczy")),
        ),
    ),
    (
        gettext_lazy("Kary i premie (kości)"),
        (
            S("ranged_cover_penalty", gettext_lazy("Strzał w zasłonięty cel")),
            S("blind_attack_penalty", gettext_lazy("Oślepienie (atak)")),
            S("flat_attack_penalty", gettext_lazy("Atak Płazem")),
            S("improvised_penalty", gettext_lazy("Broń improwizowana")),
            S("unarmed_vs_armed_penalty", gettext_lazy("Bez broni na uzbrojonego")),
            S("blinded_penalty", gettext_lazy("Oślepiony")),
            S("blinded_defence_floor", gettext_lazy("Oślepiony: Obrona co najmniej")),
            S("frenzy_attack_bonus", gettext_lazy("Szał: premia do ataku")),
            S("frenzy_defence_penalty", gettext_lazy("Szał: kara do Obrony")),
            S("surrounded_threshold", gettext_lazy("Otoczenie: od ilu wrogów")),
            S("surrounded_penalty", gettext_lazy("Otoczenie: kara")),
            S("full_flank_bonus", gettext_lazy("Pełna flanka")),
            S("half_flank_bonus", gettext_lazy("Półflanka")),
            S(
                "darkness_penalties",
                gettext_lazy("Ciemność"),
                parts=(gettext_lazy("półmrok"), gettext_lazy("mrok"), gettext_lazy("ciemność")),
            ),
            S("darkness_on_defence", gettext_lazy("Ciemność obniża też Obronę")),
        ),
    ),
    (
        gettext_lazy("Atrybuty w testach"),
        tuple(
            S(f"attack_attribute_{kind}", label, choices=ATTRIBUTE_CHOICES)
            for kind, label in (
                ("wrecz", gettext_lazy("Atak: Walka Wręcz z")),
                ("lekka", gettext_lazy("Atak: Broń Lekka z")),
                ("ciezka", gettext_lazy("Atak: Broń Ciężka z")),
            )
        )
        + tuple(
            S(f"skill_attribute_{key}", label, choices=ATTRIBUTE_CHOICES)
            for key, label in SKILLS
            if key not in {"walka_wrecz", "bron_lekka", "bron_ciezka"}
        ),
    ),
    (
        gettext_lazy("Karty postaci"),
        (
            S("attribute_min", gettext_lazy("Atrybuty: minimum")),
            S("attribute_max", gettext_lazy("Atrybuty: maksimum")),
            S("skill_min", gettext_lazy("Umiejętności: minimum")),
            S("skill_max", gettext_lazy("Umiejętności: maksimum")),
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
            self.groups.append(
                (gettext_lazy("Inne"), [n for s in rest for n in self._add(s, values)])
            )

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
