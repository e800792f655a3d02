"""The GM's table-settings form: the ruleset's settings in the groups it declares.

Field types follow the ruleset's default values (a flag, a number, a choice, a list of faces,
a list or a mapping of numbers with a label per part, a mapping as "key: value" lines), so a
setting the rules add later still appears (under "Inne") before the ruleset groups and labels
it (`settings_groups`). The ruleset validates the result (`validate_settings`); a mapping it
refuses is reported at its own input. Nothing is stored unless every input is valid.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from combat.rules.base import Ruleset
from combat.rules.schema import Setting
from combat.terms import rules_gettext


class TableSettingsForm(forms.Form):
    """One input per setting; `cleaned_data["settings"]` is the ruleset-validated dict."""

    def __init__(
        self, *args: Any, rules: Ruleset, current: Mapping[str, Any], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        defaults = self.defaults = rules.default_settings()
        values = {**defaults, **current}
        self.values = values
        self.settings: list[tuple[Setting, list[str]]] = []
        self.groups: list[tuple[Any, list[str]]] = []
        placed: set[str] = set()
        for group in rules.settings_groups():
            present = [s for s in group.settings if s.key in defaults]
            names = [n for s in present for n in self._add(s, values)]
            self.groups.append((_translated(group.title), names))
            placed.update(s.key for s in present)
        editable = (bool, int, str, type(None))
        rest = [
            Setting(key, key)
            for key, value in defaults.items()
            if key not in placed and (isinstance(value, editable) or _is_flat_mapping(value))
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
        # A mapping with parts: one number per key, in the order of the default's keys.
        keys = list(self.defaults[setting.key]) if setting.parts else []
        for index, name in enumerate(names):
            if setting.parts and isinstance(value, Mapping):
                part_value = value.get(keys[index])
            else:
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
        defaults = self.defaults
        mappings: list[tuple[str, str]] = []  # (setting key, the input that reports it)
        for setting, names in self.settings:
            default = defaults[setting.key]
            if setting.parts and isinstance(default, Mapping):
                data[setting.key] = {k: cleaned[n] for k, n in zip(default, names, strict=True)}
                mappings.append((setting.key, names[0]))
            elif setting.parts:
                data[setting.key] = [cleaned[name] for name in names]
            elif setting.faces:
                data[setting.key] = sorted(int(face) for face in cleaned[setting.key])
            else:
                data[setting.key] = cleaned[setting.key]
                if isinstance(default, Mapping):
                    mappings.append((setting.key, names[0]))
        # A mapping the rules refuse is told at its own input, each on its own.
        for key, name in mappings:
            try:
                self.rules.validate_settings({**self.values, key: data[key]})
            except (ValueError, TypeError) as error:
                self.add_error(name, _("Odrzucone: %(why)s") % {"why": error})
        if self.errors:
            return cleaned
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
    if isinstance(value, Mapping):
        numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())
        return MappingField(label=label, help_text=help_text, numbers=numbers)
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


MAX_MAPPING_TEXT = 20000
WHOLE_NUMBER = re.compile(r"-?\d+")


class MappingField(forms.CharField):
    """A mapping typed as "key: value" lines (a step table: "9: d8+d6"); blank lines are
    skipped. Each line must have a key, a colon and a value, no key twice; with `numbers` the
    values are whole numbers. The rules judge the values themselves."""

    widget = forms.Textarea(attrs={"rows": 12, "spellcheck": "false"})

    def __init__(self, *, numbers: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.widget.attrs["maxlength"] = str(MAX_MAPPING_TEXT)
        self.numbers = numbers

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            return "\n".join(f"{key}: {item}" for key, item in value.items())
        return value

    def to_python(self, value: Any) -> dict[str, Any]:  # type: ignore[override]
        text = super().to_python(value) or ""
        if len(text) > MAX_MAPPING_TEXT:
            raise ValidationError(
                _("Najwyżej %(max)d znaków.") % {"max": MAX_MAPPING_TEXT}, code="max_length"
            )
        problems: list[str] = []
        parsed: dict[str, Any] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            key, colon, item = (part.strip() for part in line.partition(":"))
            where = _("wiersz %(n)d") % {"n": number}
            if not colon or not key or not item:
                problems.append(
                    _("%(where)s: oczekiwano „klucz: wartość”, jest „%(line)s”")
                    % {"where": where, "line": line.strip()}
                )
            elif key in parsed:
                problems.append(
                    _("%(where)s: „%(key)s” już było wyżej") % {"where": where, "key": key}
                )
            elif self.numbers and not WHOLE_NUMBER.fullmatch(item):
                problems.append(
                    _("%(where)s: „%(item)s” nie jest liczbą całkowitą")
                    % {"where": where, "item": item}
                )
            else:
                parsed[key] = int(item) if self.numbers else item
        if problems:
            raise ValidationError(problems)
        if not parsed and self.required:
            raise ValidationError(self.error_messages["required"], code="required")
        return parsed

    def validate(self, value: Any) -> None:
        pass  # to_python checked it


def _is_flat_mapping(value: Any) -> bool:
    """A mapping of text or numbers, which the "key: value" lines can show."""
    return isinstance(value, Mapping) and all(
        isinstance(item, str | int) for item in value.values()
    )


def _translated(msgid: str) -> str:
    """A ruleset's msgid in the active language and its terms; "" stays "" (the header)."""
    return rules_gettext(msgid)


def _initial(setting: Setting, value: Any) -> Any:
    if setting.faces:
        return [str(face) for face in value]
    return value
