"""A Magus campaign's sheets in the characters app: the editor's inputs and rows, the one sheet
validator (every problem with its path), the derived values with their explanations, the sheet
page, import and export, the shared bestiary's Magus creatures, the GM's settings form (the
step table and the success-level thresholds included) and the demo campaign.
"""

from __future__ import annotations

import dataclasses
import html
import json
from collections.abc import Iterator, Mapping
from io import StringIO
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.http import QueryDict
from django.urls import reverse
from django.utils import translation

from characters import services
from characters.forms import SheetEditor, reshape_rows
from characters.models import Campaign, Character, CreatureTemplate
from characters.settings_form import TableSettingsForm
from characters.sheets import blank_sheet, clean_sheet
from characters.transfer import (
    check_characters,
    check_creatures,
    export_bestiary,
    export_characters,
)
from combat import snapshots
from combat.rules import registry
from combat.rules.base import DerivedValue
from combat.rules.magus import MagusRuleset, derived, forms
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import ATTRIBUTES, STATS, TALENTS, Armour, Item, Sheet, Shield
from combat.rules.magus.sheet import Spell as SpellRecord
from combat.rules.magus.sheet import Weapon as WeaponRecord
from combat.rules.schema import SettingsGroup

from .helpers import client_for, make_campaign, make_user

pytestmark = pytest.mark.django_db

KEY = "magus"
CREATURES = {"Ork", "Wilk górski", "Szkielet", "Troll", "Rozbójnik"}


@pytest.fixture
def rules() -> Any:
    """The registered ruleset: the tests reach it through the characters app."""
    return registry.get_ruleset(KEY)


@pytest.fixture
def campaign(rules: Any) -> Campaign:
    gm = make_user("mistrz-magus")
    return services.create_campaign(gm=gm, name="Przełęcz", description="", ruleset=KEY)


def weapon(name: str = "Miecz", **fields: Any) -> dict[str, Any]:
    return {**dataclasses.asdict(WeaponRecord(name, damage=4, size=2)), **fields}


def shield(name: str = "Tarcza", **fields: Any) -> dict[str, Any]:
    record = Shield(name, physical=2, mystic=1, initiative_penalty=1, destruction=12)
    return {**dataclasses.asdict(record), **fields}


def magus_sheet(**changes: Any) -> dict[str, Any]:
    """A valid, normalised Magus sheet: a swordsman with mail and a shield."""
    attributes = dict.fromkeys([key for key, _label in ATTRIBUTES], 5)
    attributes.update({"zrecznosc": 6, "obrona_fizyczna": 8, "obrona_magiczna": 7})
    attributes.update({"obrona_spoleczna": 6, "prog_ran": 10, "prog_przytomnosci": 30})
    attributes.update({"prog_smierci": 38, "testy_zdrowienia": 2, "ruch": 12, "ruch_pelny": 24})
    for key, _label in STATS:
        attributes.setdefault(key, 0)
    skills = dict.fromkeys([key for key, _label, _attribute in TALENTS], 0)
    skills.update({"bron_biala": 3, "unik": 2, "riposta": 1})
    sheet: dict[str, Any] = {
        "attributes": attributes,
        "skills": skills,
        "weapons": [weapon()],
        "armour": [dataclasses.asdict(Armour("Kolczuga", 5, 1, 1))],
        "shields": [shield()],
        "spells": [],
        "items": [dataclasses.asdict(Item("Eliksir zdrowienia", "eliksir_zdrowienia", 2))],
    }
    for key, value in changes.items():
        if isinstance(value, dict):
            sheet[key] = {**sheet[key], **value}
        else:
            sheet[key] = value
    return sheet


def problems(campaign: Campaign, data: object) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        clean_sheet(data, rules=campaign.rules(), settings=campaign.settings)
    return list(refused.value.messages)


def by_key(values: list[DerivedValue]) -> dict[str, DerivedValue]:
    return {v.key: v for v in values}


# --- the sheet's shape -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "record"),
    [
        ("weapons", WeaponRecord),
        ("armour", Armour),
        ("shields", Shield),
        ("spells", SpellRecord),
        ("items", Item),
    ],
)
def test_each_list_has_exactly_the_fields_and_defaults_of_its_dataclass(
    key: str, record: type
) -> None:
    section = {s.key: s for s in forms.sheet_sections()}[key]
    declared = {f.key: f.default for f in section.fields}
    wanted = {
        f.name: None if f.default is dataclasses.MISSING else f.default
        for f in dataclasses.fields(record)
    }
    assert declared == wanted
    for field in section.fields:
        assert field.label and (field.type != "choice" or field.default in dict(field.choices))


def test_the_stats_are_attribute_steps_and_recorded_values_and_talent_ranks() -> None:
    specs = derived.attribute_specs({"step_max": 20})
    assert [s.key for s in specs] == [k for k, _l in ATTRIBUTES] + [k for k, _l in STATS]
    assert {(s.minimum, s.maximum, s.group) for s in specs[: len(ATTRIBUTES)]} == {(1, 20, "Cechy")}
    assert {(s.minimum, s.maximum, s.group) for s in specs[len(ATTRIBUTES) :]} == {
        (0, 99, "Obrony i progi")
    }
    talents = derived.skill_specs({"rank_max": 10})
    assert [s.key for s in talents] == [k for k, _l, _a in TALENTS]
    assert {(s.minimum, s.maximum) for s in talents} == {(0, 10)}


def test_a_sheet_the_app_stores_is_one_the_rules_read(campaign: Campaign) -> None:
    cleaned = clean_sheet(magus_sheet(), rules=campaign.rules(), settings=campaign.settings)
    assert cleaned == magus_sheet()
    parsed = Sheet.from_dict(cleaned)
    assert parsed.weapons == (WeaponRecord("Miecz", damage=4, size=2),)
    assert parsed.talent_step("bron_biala") == 9
    blank = blank_sheet(rules=campaign.rules(), settings=campaign.settings)
    assert blank["attributes"]["zrecznosc"] == 1 and blank["attributes"]["prog_ran"] == 0
    assert Sheet.from_dict(clean_sheet(blank, rules=campaign.rules(), settings=None)).shield is None


def test_the_validator_reports_every_problem_with_its_path(campaign: Campaign) -> None:
    sheet = magus_sheet(
        attributes={"zrecznosc": 31, "prog_ran": -1},
        skills={"unik": 16},
        weapons=[weapon(kind="laser", magic="tak")],
        shields=[shield(destruction=100)],
        spells=[{"name": "Płomień", "effect_step": 8, "defence": "obrona_wlasna"}],
        items=[{"name": "Brosza", "kind": "pierscien", "count": 1}],
    )
    assert problems(campaign, sheet) == [
        "attributes.zrecznosc: musi być ≤ 30",
        "attributes.prog_ran: musi być ≥ 0",
        "skills.unik: musi być ≤ 15",
        "weapons[0].kind: musi być jednym z: melee, unarmed, missile, thrown",
        "weapons[0].magic: musi być true albo false",
        "shields[0].destruction: musi być ≤ 99",
        "spells[0].defence: musi być jednym z: obrona_magiczna, obrona_fizyczna, obrona_spoleczna",
        "items[0].kind: musi być jednym z: other, brosza_ostrzezenia, eliksir_zdrowienia, siodlo",
    ]


def test_the_table_settings_bound_the_steps(campaign: Campaign) -> None:
    settings = {**campaign.settings, "step_max": 8, "rank_max": 2}
    found = problems_with(campaign, magus_sheet(weapons=[weapon(damage=9)]), settings)
    assert "attributes.zrecznosc" not in " ".join(found)  # 6 ≤ 8
    assert "skills.bron_biala: musi być ≤ 2" in found
    assert "weapons[0].damage: musi być ≤ 8" in found


def problems_with(campaign: Campaign, data: object, settings: Mapping[str, Any]) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        clean_sheet(data, rules=campaign.rules(), settings=settings)
    return list(refused.value.messages)


# --- derived values ----------------------------------------------------------------------------


def test_a_talents_test_step_is_its_rank_plus_its_attribute_with_the_tables_dice() -> None:
    values = by_key(derived.derived_values(magus_sheet()))
    melee = values["test-bron_biala"]
    assert (melee.label, melee.value) == ("Test: Broń Biała", 9)
    assert melee.explanation == "Broń Biała 3 + Zręczność 6 = stopień 9 (k8+k6)"
    assert values["test-unik"].explanation == "Unik 2 + Zręczność 6 = stopień 8 (2k6)"
    assert "test-strzelectwo" not in values  # no rank, no test of its own


def test_the_step_table_setting_gives_the_dice() -> None:
    table = {**MagusSettings().step_table, "9": "d12+d4"}
    values = by_key(derived.derived_values(magus_sheet(), {"step_table": table}))
    assert values["test-bron_biala"].explanation.endswith("= stopień 9 (k12+k4)")
    short = {str(step): "d6" for step in range(1, 6)}
    values = by_key(derived.derived_values(magus_sheet(), {"step_table": short}))
    assert values["test-bron_biala"].explanation.endswith("stopień 9 (poza tabelą stopni (1–5))")
    parsed = MagusSettings.from_dict({"step_table": short})
    assert derived.settings_of(parsed) is parsed
    assert derived.dice(0, parsed) == "stopień 0: brak kości"
    assert derived.dice(5, parsed) == "k6"


def test_a_weapons_damage_step_is_sila_plus_the_weapon_capped_at_three_times() -> None:
    sheet = magus_sheet(
        weapons=[weapon(), weapon("Ognisty miecz", magic=True), weapon("Łuk", kind="missile")]
    )
    values = by_key(derived.derived_values(sheet))
    sword = values["obrazenia-0"]
    assert (sword.label, sword.value) == ("Obrażenia: Miecz", 9)
    assert sword.explanation == (
        "Siła 5 + Miecz 4 = stopień 9 (k8+k6); broń niemagiczna: najwyżej 9 × 3 = 27; "
        "atak: Broń Biała, stopień 9 (k8+k6)"
    )
    assert "broń magiczna: bez górnej granicy obrażeń" in values["obrazenia-1"].explanation
    assert "atak: Strzelectwo, stopień 6 (k10)" in values["obrazenia-2"].explanation
    capped = by_key(derived.derived_values(sheet, {"max_damage_multiplier": 2}))
    assert "najwyżej 9 × 2 = 18" in capped["obrazenia-0"].explanation


def test_initiative_is_zrecznosc_minus_the_armour_and_shield_penalties() -> None:
    values = by_key(derived.derived_values(magus_sheet()))
    assert values["inicjatywa"].value == 4
    assert values["inicjatywa"].explanation == (
        "Zręczność 6 − 1 (Kolczuga) − 1 (Tarcza) = stopień 4 (k6)"
    )
    bare = by_key(derived.derived_values(magus_sheet(armour=[], shields=[])))
    assert bare["inicjatywa"].explanation == "Zręczność 6 = stopień 6 (k10)"


def test_armour_totals_are_given_with_and_without_the_shield() -> None:
    sheet = magus_sheet(armour=[*magus_sheet()["armour"], dataclasses.asdict(Armour("Hełm", 1))])
    values = by_key(derived.derived_values(sheet))
    assert (values["pancerz_fizyczny"].value, values["pancerz_duchowy"].value) == (6, 1)
    assert values["pancerz_fizyczny"].explanation == "Kolczuga 5 + Hełm 1"
    with_shield = values["pancerz_fizyczny_z_tarcza"]
    assert (with_shield.label, with_shield.value) == ("Pancerz fizyczny z tarczą", 8)
    assert with_shield.explanation == (
        "Kolczuga 5 + Hełm 1 + Tarcza 2; przebicie wymaga Ogromnego sukcesu o 2 wyżej"
    )
    assert values["pancerz_duchowy_z_tarcza"].value == 2
    bare = by_key(derived.derived_values(magus_sheet(armour=[], shields=[])))
    assert bare["pancerz_fizyczny"].explanation == "bez pancerza"
    assert "pancerz_fizyczny_z_tarcza" not in bare
    flat = by_key(derived.derived_values(sheet, {"shield_raises_penetration": False}))
    assert flat["pancerz_fizyczny_z_tarcza"].explanation == "Kolczuga 5 + Hełm 1 + Tarcza 2"


def test_defences_ratings_recovery_and_movement_are_as_recorded() -> None:
    values = by_key(derived.derived_values(magus_sheet()))
    recorded = {
        key: values[key].value
        for key in ("obrona_fizyczna", "obrona_magiczna", "obrona_spoleczna", "prog_ran")
    }
    assert recorded == {
        "obrona_fizyczna": 8,
        "obrona_magiczna": 7,
        "obrona_spoleczna": 6,
        "prog_ran": 10,
    }
    assert (values["prog_przytomnosci"].value, values["prog_smierci"].value) == (30, 38)
    assert values["prog_ran"].explanation.startswith("z karty; rana, gdy obrażenia")
    assert values["testy_zdrowienia"].value == 2
    recovery = values["stopien_zdrowienia"]
    assert (recovery.value, recovery.explanation) == (
        5,
        "Żywotność 5 = stopień 5 (k8); wynik co najmniej 1",
    )
    assert (values["ruch"].value, values["bieg"].value) == (12, 24)
    assert values["bieg"].explanation == "Szybkość ruchu 12 × 2; zużywa akcję standardową"
    assert values["ruch_pelny"].value == 24


def test_a_spells_effect_step_and_its_defence() -> None:
    sheet = magus_sheet(
        spells=[{"name": "Płomień", "effect_step": 8, "defence": "obrona_magiczna"}],
        skills={"rzucanie_czarow": 2},
    )
    spell = by_key(derived.derived_values(sheet))["czar-0"]
    assert (spell.label, spell.value) == ("Efekt: Płomień", 8)
    assert spell.explanation == (
        "stopień 8 (2k6); test Rzucania czarów stopień 7 (k12) przeciw: Obrona Magiczna"
    )


# --- the forms and the sheet page --------------------------------------------------------------


def sheet_post(sheet: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """What the character or creature form posts for a Magus sheet."""
    data: dict[str, Any] = {f"attr_{k}": v for k, v in sheet["attributes"].items()}
    data.update({f"skill_{k}": v for k, v in sheet["skills"].items()})
    sections = {
        "custom_skills": [],
        **{s.key: sheet.get(s.key, []) for s in forms.sheet_sections()},
    }
    for prefix, rows in sections.items():
        data[f"{prefix}-TOTAL_FORMS"] = len(rows)
        data[f"{prefix}-INITIAL_FORMS"] = 0
        for index, row in enumerate(rows):
            for key, value in row.items():
                if value is True:
                    data[f"{prefix}-{index}-{key}"] = "on"
                elif value is not False:
                    data[f"{prefix}-{index}-{key}"] = value
    data.update(fields)
    return data


def test_the_gm_creates_a_character_with_a_magus_sheet(campaign: Campaign) -> None:
    client = client_for(campaign.gm)
    url = reverse("character-create", args=[campaign.pk])
    page = client.get(url).content.decode()
    for legend in ["Cechy", "Obrony i progi", "Talenty i umiejętności", "Tarcze", "Przedmioty"]:
        assert f"<legend>{legend}</legend>" in page
    sheet = magus_sheet(weapons=[weapon(), weapon("Kopia", lance=True, two_handed=True)])
    response = client.post(url, sheet_post(sheet, name="Thorgrim", kind="pc"))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Character.objects.get(name="Thorgrim").sheet == sheet


def test_the_editor_reports_a_bad_row_by_its_lists_title(campaign: Campaign) -> None:
    data = QueryDict(mutable=True)
    data.update(sheet_post(magus_sheet(shields=[shield(destruction=120)])))
    editor = SheetEditor(data, rules=campaign.rules(), settings=campaign.settings, initial={})
    assert not editor.is_valid()
    assert any(p.startswith("Tarcze 1, Próg zniszczenia: ") for p in editor.summary())


def test_a_new_row_takes_the_magus_defaults_and_an_eleora_row_its_own(
    campaign: Campaign,
) -> None:
    added = reshape_rows(QueryDict(mutable=True), "add weapons", rules=campaign.rules())
    assert added is not None
    assert (added["weapons-0-kind"], added["weapons-0-size"]) == ("melee", "1")
    items = reshape_rows(QueryDict(mutable=True), "add items", rules=campaign.rules())
    assert items is not None and (items["items-0-kind"], items["items-0-count"]) == ("other", "1")
    # The editor's page reshapes with its own campaign's lists, whatever else is registered.
    other = make_campaign(make_user("mg-eleory"))
    data = {"row": "add weapons", "weapons-TOTAL_FORMS": "0", "weapons-INITIAL_FORMS": "0"}
    url = reverse("character-create", args=[other.pk])
    page = client_for(other.gm).post(url, data).content.decode()
    select = page.split('name="weapons-0-kind"')[1].split("</select>")[0]
    assert '<option value="lekka" selected>' in select


def test_the_sheet_page_shows_the_groups_and_the_explanations(campaign: Campaign) -> None:
    character = Character.objects.create(campaign=campaign, name="Thorgrim", sheet=magus_sheet())
    page = client_for(campaign.gm).get(character.get_absolute_url()).content.decode()
    for heading in ["Cechy", "Obrony i progi", "Talenty i umiejętności", "Broń", "Przedmioty"]:
        assert f">{heading}</h2>" in page
    assert "Broń Biała 3 + Zręczność 6 = stopień 9 (k8+k6)" in page
    assert "Stopień obrażeń broni" in page and "Eliksir zdrowienia" in page
    assert "Próg Śmierci" in page


@pytest.fixture
def default_language_after() -> Iterator[None]:
    """A request activates its language for the whole thread; later tests expect the default."""
    yield
    translation.deactivate()


def test_the_english_sheet_page_explains_each_value_in_the_magus_books_terms(
    campaign: Campaign, default_language_after: None
) -> None:
    """How a value was computed is a msgid and params (issue 22, point 10): in English the
    talents, attributes and defences inside it read as the Magus books name them, the names
    the players typed as they are."""
    spell = {"name": "Płomień", "effect_step": 8, "defence": "obrona_magiczna"}
    sheet = magus_sheet(spells=[spell], skills={"rzucanie_czarow": 2})
    character = Character.objects.create(campaign=campaign, name="Thorgrim", sheet=sheet)
    client = client_for(campaign.gm)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = html.unescape(client.get(character.get_absolute_url()).content.decode())
    for text in [
        "Avoid Blow 2 + Dexterity 6 = step 8 (2k6)",
        "Dexterity 6 − 1 (Kolczuga) − 1 (Tarcza) = step 4 (k6)",
        "Strength 5 + Miecz 4 = step 9 (k8+k6); non-magic weapon: at most 9 × 3 = 27; "
        "attack: Melee Weapons, step 9 (k8+k6)",
        "step 8 (2k6); Spellcasting test step 7 (k12) against: Spell Defense",
        "Kolczuga 5 + Tarcza 2; armour is defeated only by an Excellent success 2 higher",
        "Toughness 5 = step 5 (k8); result at least 1",
        "Movement Rate 12 × 2; uses the standard action",
        "<dt>Effect: Płomień</dt>",
    ]:
        assert text in page
    for polish in ["stopień", "Zręczność", "Unik", "Obrona Magiczna", "najwyżej", "Efekt"]:
        assert polish not in page


# --- import and export -------------------------------------------------------------------------


def test_characters_and_creatures_go_out_and_back_unchanged(campaign: Campaign) -> None:
    sheet = magus_sheet(
        spells=[{"name": "Płomień", "effect_step": 8, "defence": "obrona_magiczna"}]
    )
    Character.objects.create(campaign=campaign, name="Ilsa", kind="npc", sheet=sheet, notes="x")
    CreatureTemplate.objects.create(campaign=campaign, ruleset=KEY, name="Upiór", sheet=sheet)
    exported = json.loads(json.dumps(export_characters(campaign, campaign.characters.all())))
    assert exported["ruleset"] == KEY
    target = services.create_campaign(
        gm=campaign.gm, name="Druga przełęcz", description="", ruleset=KEY
    )
    entries = check_characters(exported, campaign=target)
    services.import_characters(campaign=target, entries=entries)
    assert target.characters.get(name="Ilsa").sheet == sheet
    bestiary = json.loads(json.dumps(export_bestiary(campaign, campaign.creatures.all())))
    created = services.import_creatures(
        campaign=target, entries=check_creatures(bestiary, campaign=target)
    )
    assert [(c.name, c.ruleset, c.sheet) for c in created] == [("Upiór", KEY, sheet)]


def test_an_import_says_where_each_problem_is(campaign: Campaign) -> None:
    bad = magus_sheet(weapons=[weapon(size=11)])
    data = {"characters": [{"name": "Zły", "sheet": bad}]}
    with pytest.raises(ValidationError) as refused:
        check_characters(data, campaign=campaign)
    assert refused.value.messages == ["characters[0] (Zły).sheet.weapons[0].size: musi być ≤ 10"]
    eleora = make_campaign(make_user("mg-e"))
    exported = export_characters(campaign, [Character(name="Ilsa", sheet=magus_sheet())])
    with pytest.raises(ValidationError) as wrong:
        check_characters(exported, campaign=eleora)
    assert any(m.startswith("ruleset: plik jest dla systemu magus") for m in wrong.value.messages)


# --- the shared bestiary -----------------------------------------------------------------------


def test_the_shared_bestiary_has_magus_creatures_with_valid_sheets(rules: Any) -> None:
    shared = CreatureTemplate.objects.filter(campaign=None, ruleset=KEY)
    assert set(shared.values_list("name", flat=True)) == CREATURES
    defaults = rules.default_settings()
    for creature in shared:
        assert clean_sheet(creature.sheet, rules=rules, settings=defaults) == creature.sheet
        values = by_key(rules.derived_values(creature.sheet, defaults))
        assert values["prog_smierci"].value >= values["prog_przytomnosci"].value > 0
        assert creature.sheet["weapons"] and creature.description
    # Eleora's Wilk stays the only shared creature of its name.
    assert CreatureTemplate.objects.get(campaign=None, name="Wilk").ruleset != KEY


def test_a_magus_campaigns_bestiary_offers_its_own_creatures(campaign: Campaign) -> None:
    page = client_for(campaign.gm).get(reverse("bestiary", args=[campaign.pk])).content.decode()
    for name in CREATURES:
        assert name in page
    assert "Niedźwiedź" not in page
    troll = CreatureTemplate.objects.get(campaign=None, ruleset=KEY, name="Troll")
    made = services.instantiate_creature(creature=troll, campaign=campaign, count=2)
    assert [c.name for c in made] == ["Troll 1", "Troll 2"]


# --- the GM's table settings -------------------------------------------------------------------


def test_every_magus_setting_has_a_labelled_place_in_one_group() -> None:
    placed = [s.key for group in forms.settings_groups() for s in group.settings]
    assert sorted(placed) == sorted(f.name for f in dataclasses.fields(MagusSettings))
    assert len(placed) == len(set(placed))
    defaults = MagusSettings().to_dict()
    for group in forms.settings_groups():
        assert group.title
        for setting in group.settings:
            assert setting.label
            value = defaults[setting.key]
            if isinstance(value, list) or setting.key == "thresholds":
                assert len(setting.parts) == len(value), setting.key


def settings_post(campaign: Campaign, **changes: object) -> dict[str, object]:
    """What the settings form posts for the campaign's settings, with changes."""
    data: dict[str, object] = {}
    for key, value in campaign.settings.items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        elif key == "step_table":
            data[key] = "\n".join(f"{step}: {dice}" for step, dice in value.items())
        elif isinstance(value, dict):
            for index, part in enumerate(value.values()):
                data[f"{key}__{index}"] = part
        elif isinstance(value, list):
            for index, part in enumerate(value):
                data[f"{key}__{index}"] = part
        else:
            data[key] = value
    data.update(changes)
    return data


def test_the_settings_page_shows_the_step_table_and_the_thresholds(campaign: Campaign) -> None:
    url = reverse("campaign-settings", args=[campaign.pk])
    page = client_for(campaign.gm).get(url).content.decode()
    assert "<legend>Inne</legend>" not in page
    assert "Tabela stopni (kości akcji)" in page and "9: d8+d6\n10: d10+d6" in page
    for label in ["Duży sukces", "Ogromny sukces", "Nadzwyczajny sukces"]:
        assert f"Poziomy sukcesu: punkty ponad Stopień trudności: {label}" in page
    form = TableSettingsForm(rules=campaign.rules(), current=campaign.settings)
    assert [form.initial[f"thresholds__{i}"] for i in range(3)] == [5, 10, 15]


def test_the_gm_edits_the_step_table_and_the_thresholds(campaign: Campaign) -> None:
    table = "\n".join(f"{step}: {dice}" for step, dice in campaign.settings["step_table"].items())
    table = table.replace("9: d8+d6", "9: k12 + k4") + "\n\n"
    data = settings_post(
        campaign, step_table=table, thresholds__0=4, thresholds__1=8, thresholds__2=12
    )
    url = reverse("campaign-settings", args=[campaign.pk])
    response = client_for(campaign.gm).post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign.refresh_from_db()
    assert campaign.settings["step_table"]["9"] == "d12+d4"
    assert campaign.settings["thresholds"] == {"good": 4, "excellent": 8, "extraordinary": 12}
    character = Character.objects.create(campaign=campaign, name="T", sheet=magus_sheet())
    melee = by_key(character.derived_values())["test-bron_biala"]
    assert melee.explanation.endswith("stopień 9 (k12+k4)")


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"step_table": "1: d4-2\n2 d4-1"},
            "step_table",
            "wiersz 2: oczekiwano „klucz: wartość”, jest „2 d4-1”",
        ),
        ({"step_table": "1: d4\n1: d6"}, "step_table", "wiersz 2: „1” już było wyżej"),
        ({"step_table": "1: d4\n2: d6+x"}, "step_table", "Odrzucone: stopień 2: "),
        ({"step_table": "1: d4\n3: d6"}, "step_table", "Odrzucone: brak stopnia 2"),
        ({"step_table": ""}, "step_table", ""),
        (
            {"thresholds__0": 10, "thresholds__1": 5, "thresholds__2": 15},
            "thresholds__0",
            "Odrzucone: progi poziomów sukcesu muszą rosnąć",
        ),
    ],
)
def test_a_bad_step_table_or_thresholds_is_refused_at_its_input_and_nothing_is_saved(
    campaign: Campaign, changes: dict[str, object], field: str, message: str
) -> None:
    before = dict(campaign.settings)
    data = settings_post(campaign, aggressive_bonus=5, **changes)
    form = TableSettingsForm(data, rules=campaign.rules(), current=campaign.settings)
    assert not form.is_valid()
    assert any(error.startswith(message) for error in form.errors[field]), form.errors
    response = client_for(campaign.gm).post(reverse("campaign-settings", args=[campaign.pk]), data)
    assert response.status_code == 200
    campaign.refresh_from_db()
    assert campaign.settings == before  # not even the valid change


def test_the_settings_refuse_ranges_a_sheet_falls_outside(campaign: Campaign) -> None:
    Character.objects.create(campaign=campaign, name="Thorgrim", sheet=magus_sheet())
    data = settings_post(campaign, step_max=5)
    response = client_for(campaign.gm).post(reverse("campaign-settings", args=[campaign.pk]), data)
    assert "Thorgrim: attributes.zrecznosc: musi być ≤ 5" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.settings["step_max"] == 30


# --- the demo ----------------------------------------------------------------------------------


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_the_demo_has_a_magus_campaign_with_heroes_npcs_and_an_encounter(rules: Any) -> None:
    seed()
    campaign = Campaign.objects.get(ruleset=KEY)
    assert campaign.gm.username == "mistrz"
    roles = dict(campaign.memberships.values_list("user__username", "role"))
    assert roles == {"mistrz": "gm", "gracz1": "player", "gracz2": "player"}
    heroes = campaign.characters.filter(kind="pc")
    assert {c.owner.username if c.owner else None for c in heroes} == {"gracz1", "gracz2", None}
    for hero in heroes:
        assert clean_sheet(hero.sheet, rules=rules, settings=campaign.settings) == hero.sheet
    ranks = [(h.sheet["skills"]["unik"], h.sheet["skills"]["riposta"]) for h in heroes]
    assert any(unik for unik, _r in ranks) and any(riposta for _u, riposta in ranks)
    npcs = sorted(campaign.characters.filter(kind="npc").values_list("name", flat=True))
    assert npcs == ["Ork 1", "Rozbójnik 1", "Rozbójnik 2"]
    if hasattr(rules, "new_encounter"):
        encounter = campaign.encounters.get()
        assert encounter.name == "Zasadzka w wąwozie"
        seats = rules.table_view(snapshots.load_table(encounter.pk).state).seats.values()
        assert sorted(seat.name for seat in seats) == sorted(
            campaign.characters.values_list("name", flat=True)
        )
        assert len(seats) == 6
    else:
        assert not campaign.encounters.exists()
    before = list(Character.objects.order_by("pk").values_list("pk", "name", "sheet"))
    seed()
    assert list(Character.objects.order_by("pk").values_list("pk", "name", "sheet")) == before
    assert Campaign.objects.filter(ruleset=KEY).count() == 1


def test_the_demo_skips_the_magus_campaign_while_the_ruleset_is_unknown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(registry._rulesets, KEY, raising=False)  # noqa: SLF001 - undone after
    output = seed()
    assert "Pomijam kampanię „Cienie nad Wronią Przełęczą”: system magus nieznany." in output
    assert not Campaign.objects.filter(ruleset=KEY).exists()
    assert Campaign.objects.filter(name="Wilki z Czarnego Lasu").exists()


class NumbersRuleset(MagusRuleset):
    """A ruleset with a mapping of numbers it does not group: it appears under "Inne"."""

    def default_settings(self) -> dict[str, Any]:
        return {"costs": {"bieg": 1, "unik": 2}}

    def validate_settings(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if any(v > 9 for v in data["costs"].values()):
            raise ValueError("a cost above 9")
        return dict(data)

    def settings_groups(self) -> tuple[SettingsGroup, ...]:
        return ()


def test_a_mapping_of_numbers_is_typed_as_lines_with_whole_numbers() -> None:
    rules: Any = NumbersRuleset()
    form = TableSettingsForm(rules=rules, current={})
    assert [str(title) for title, _fields in form.grouped()] == ["Inne"]
    assert form["costs"].value() == "bieg: 1\nunik: 2"
    assert "bieg: 1\nunik: 2</textarea>" in str(form["costs"])
    good = TableSettingsForm({"costs": "bieg: 3\n unik : 0 "}, rules=rules, current={})
    assert good.is_valid(), good.errors
    assert good.cleaned_data["settings"] == {"costs": {"bieg": 3, "unik": 0}}
    bad = TableSettingsForm({"costs": "bieg: 3\nunik: dwa\n: 4"}, rules=rules, current={})
    assert not bad.is_valid()
    assert bad.errors["costs"] == [
        "wiersz 2: „dwa” nie jest liczbą całkowitą",
        "wiersz 3: oczekiwano „klucz: wartość”, jest „: 4”",
    ]
    refused = TableSettingsForm({"costs": "bieg: 12"}, rules=rules, current={})
    assert not refused.is_valid()
    assert refused.errors["costs"] == ["Odrzucone: a cost above 9"]
    long = TableSettingsForm({"costs": "x: 1\n" * 5000}, rules=rules, current={})
    assert not long.is_valid() and long.errors["costs"] == ["Najwyżej 20000 znaków."]
