"""The GM's table-settings form: the ruleset's settings in the groups it declares.

Field types follow the ruleset's default values (a flag, a number, a choice, a list of faces),
so a setting the rules add later still appears (under "Inne") before the ruleset groups and
labels it (`settings_groups`). The ruleset validates the result (`validate_settings`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from combat.rules.base import Ruleset
from combat.rules.schema import Setting


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
        for group in rules.settings_groups():
            present = [s for s in group.settings if s.key in defaults]
            names = [n for s in present for n in self._add(s, values)]
            self.groups.append((_(group.title), names))
            placed.update(s.key for s in present)
        editable = (bool, int, str, type(None))
        rest = [
            Setting(key, key)
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
            label = _translated(setting.label)
            if setting.parts:
                label = f"{label}: {_translated(setting.parts[index])}"
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


def _setting_field(setting: Setting, value: Any, label: str) -> forms.Field:
    """The input for a setting (or one part of it), by how the ruleset describes it."""
    help_text = _translated(setting.help)
    if setting.faces:
        return forms.MultipleChoiceField(
            label=label,
            choices=[(str(face), str(face)) for face in range(1, 7)],
            widget=forms.CheckboxSelectMultiple,
            help_text=help_text,
        )
    if setting.choices:
        choices = [(key, _translated(choice)) for key, choice in setting.choices]
        return forms.ChoiceField(label=label, choices=choices, help_text=help_text)
    if isinstance(value, bool):
        return forms.BooleanField(label=label, required=False, help_text=help_text)
    if isinstance(value, str):
        return forms.CharField(label=label, max_length=100, help_text=help_text)
    low, high = setting.bounds
    return forms.IntegerField(
        label=label,
        min_value=max(low, 1) if setting.optional else low,
        max_value=high,
        required=not setting.optional,
        help_text=help_text,
    )


def _translated(msgid: str) -> str:
    """A ruleset's msgid in the active language; "" stays "" (gettext("") is the header)."""
    return _(msgid) if msgid else ""


def _initial(setting: Setting, value: Any) -> Any:
    if setting.faces:
        return [str(face) for face in value]
    return value
