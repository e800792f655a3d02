"""The app takes a sheet's equipment lists from the ruleset: a stub ruleset with one list of
spells drives the validator, the editor, its rows, the sheet page and the settings form."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.template.loader import render_to_string

from characters.forms import SheetEditor, reshape_rows
from characters.settings_form import TableSettingsForm
from characters.sheet_view import sheet_context
from characters.sheets import blank_sheet, clean_sheet
from combat.rules.base import StatSpec
from combat.rules.schema import ItemField, Setting, SettingsGroup, SheetSection

SPELLS = SheetSection(
    "spells",
    "Czary",
    "Dodaj czar",
    (
        ItemField("name", "Nazwa", "text", maximum=30),
        ItemField("circle", "Krąg", "int", 1, 9),
        ItemField(
            "school", "Szkoła", "choice", "ogien", choices=(("ogien", "ogień"), ("woda", "woda"))
        ),
        ItemField("ritual", "rytuał", "bool", False),
        ItemField("casts", "Rzuty", "int", 0, 5, badge="Rzuty: %(n)s"),
    ),
    "Bez czarów.",
)


class StubRuleset:
    """Just enough of a ruleset for the sheet pages: one attribute, no skills, spells."""

    key = "stub"
    label = "Stub"

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return (StatSpec("moc", "Moc", 0, 5),)

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return ()

    def sheet_sections(self, settings: Mapping[str, Any] | None = None) -> tuple[SheetSection, ...]:
        return (SPELLS,)

    def settings_groups(self) -> tuple[SettingsGroup, ...]:
        return (SettingsGroup("Magia", (Setting("mana", "Mana na turę", bounds=(1, 9)),)),)

    def default_settings(self) -> dict[str, Any]:
        return {"mana": 3, "loose": True}

    def validate_settings(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)


RULES: Any = StubRuleset()


def make_spell(**fields: Any) -> dict[str, Any]:
    return {
        "name": "Kula ognia",
        "circle": 3,
        "school": "ogien",
        "ritual": False,
        "casts": 0,
        **fields,
    }


def problems(data: object) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        clean_sheet(data, rules=RULES, settings=None)
    return list(refused.value.messages)


def test_it_validates_the_lists_the_ruleset_declares() -> None:
    sheet = {"attributes": {"moc": 2}, "spells": [{"name": " Iskra ", "circle": 2}]}
    cleaned = clean_sheet(sheet, rules=RULES, settings=None)
    assert cleaned == {
        "attributes": {"moc": 2},
        "skills": {},
        "spells": [make_spell(name="Iskra", circle=2)],
    }


def test_it_refuses_what_the_lists_do_not_allow() -> None:
    spell = make_spell(circle=12, school="ziemia", ritual="tak")
    found = problems({"attributes": {"moc": 1}, "spells": [spell], "weapons": []})
    assert found == [
        "weapons: nieznane pole",
        "spells[0].circle: musi być ≤ 9",
        "spells[0].school: musi być jednym z: ogien, woda",
        "spells[0].ritual: musi być true albo false",
    ]


def test_it_gives_a_blank_sheet_the_rulesets_lists() -> None:
    assert blank_sheet(rules=RULES, settings=None) == {
        "attributes": {"moc": 0},
        "skills": {},
        "spells": [],
    }


def editor_post(**rows: str) -> QueryDict:
    data = QueryDict(mutable=True)
    data.update({"attr_moc": "2", "custom_skills-TOTAL_FORMS": "0"})
    data.update({"custom_skills-INITIAL_FORMS": "0", "spells-INITIAL_FORMS": "0"})
    data.update(rows)
    return data


def test_it_builds_the_editor_rows_from_the_lists() -> None:
    data = editor_post(
        **{"spells-TOTAL_FORMS": "1", "spells-0-name": "Iskra", "spells-0-circle": "2"},
        **{"spells-0-school": "woda", "spells-0-ritual": "on", "spells-0-casts": ""},
    )
    editor = SheetEditor(data, rules=RULES, settings={}, initial={})
    assert list(editor.formsets) == ["custom_skills", "spells"]
    assert str(editor.formsets["spells"].add_label) == "Dodaj czar"
    assert editor.is_valid(), editor.summary()
    assert editor.sheet["spells"] == [
        make_spell(name="Iskra", circle=2, school="woda", ritual=True)
    ]


def test_it_reports_an_editor_row_by_the_lists_title() -> None:
    data = editor_post(
        **{"spells-TOTAL_FORMS": "1", "spells-0-name": "Iskra", "spells-0-circle": "12"},
        **{"spells-0-school": "ogien"},
    )
    editor = SheetEditor(data, rules=RULES, settings={}, initial={})
    assert not editor.is_valid()
    assert any(p.startswith("Czary 1, Krąg: ") for p in editor.summary())


def test_it_adds_a_row_with_the_fields_defaults() -> None:
    added = reshape_rows(QueryDict(mutable=True), "add spells", rules=RULES)
    assert added is not None
    assert added["spells-TOTAL_FORMS"] == "1"
    assert (added["spells-0-circle"], added["spells-0-school"]) == ("1", "ogien")
    assert reshape_rows(QueryDict(mutable=True), "add weapons", rules=RULES) is None


def test_it_shows_the_lists_on_the_sheet_page() -> None:
    campaign: Any = SimpleNamespace(rules=lambda: RULES, settings={})
    sheet = {"attributes": {"moc": 2}, "spells": [make_spell(ritual=True, casts=2)]}
    html = render_to_string("characters/_sheet.html", sheet_context(sheet, [], campaign=campaign))
    assert '<h2 id="spells-h">Czary</h2>' in html
    for text in ["<th>Nazwa</th>", '<th class="num">Krąg</th>', "<td>ogień</td>"]:
        assert text in html
    assert '<span class="badge">rytuał</span>' in html
    assert '<span class="badge">Rzuty: 2</span>' in html
    assert "Rzuty</th>" not in html  # a badge field has no column
    empty = sheet_context({"attributes": {}, "spells": []}, [], campaign=campaign)
    assert "Bez czarów." in render_to_string("characters/_sheet.html", empty)


def test_it_groups_the_settings_as_the_ruleset_says() -> None:
    form = TableSettingsForm(rules=RULES, current={})
    titles = [str(title) for title, _fields in form.grouped()]
    assert titles == ["Magia", "Inne"]
    assert form.fields["mana"].label == "Mana na turę"
    bound = TableSettingsForm({"mana": "5", "loose": "on"}, rules=RULES, current={})
    assert bound.is_valid(), bound.errors
    assert bound.cleaned_data["settings"] == {"mana": 5, "loose": True}
