"""A single sheet section (`SheetSection(single=True)`): one dict of fields under its key, not a
list. A test-only ruleset with one (a profile: hit points, race, transformation, nickname,
shield) beside a list of weapons drives the validator, the GM's forms, the sheet page a player
reads and the import and export, through the real views."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.urls import reverse

from characters import services
from characters.forms import SheetEditor, reshape_rows
from characters.models import Campaign, Character, CreatureTemplate
from characters.sheets import blank_sheet, clean_sheet
from combat.rules import registry
from combat.rules.base import DerivedValue, StatSpec
from combat.rules.schema import ItemField, SettingsGroup, SheetSection

from .helpers import client_for, make_member, make_user

pytestmark = pytest.mark.django_db

KEY = "kronika-test"
PROFILE = SheetSection(
    "profile",
    "Profil",
    "",
    (
        ItemField("pz", "Punkty Życia", "int", None, 9999),
        ItemField(
            "race", "Rasa", "choice", "czlowiek", choices=(("czlowiek", "Człowiek"), ("elf", "Elf"))
        ),
        ItemField(
            "transformation",
            "Przemiana",
            "choice",
            "",
            choices=(("", "brak"), ("wampir", "Wampir"), ("wilkolak", "Wilkołak")),
        ),
        ItemField("nickname", "Przydomek", "text", "", 40),
        ItemField("shield", "tarcza", "bool", False),
    ),
    single=True,
)
WEAPONS = SheetSection(
    "weapons",
    "Broń",
    "Dodaj broń",
    (
        ItemField("name", "Nazwa", "text", maximum=80),
        ItemField("kind", "Rodzaj", "choice", "small", choices=(("small", "mała"), ("bow", "łuk"))),
    ),
    "Bez broni.",
)


class ProfileRuleset:
    """Just enough of a ruleset for the sheet pages: two attributes, a profile, weapons."""

    key = KEY
    label = "Kronika (test)"

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return (StatSpec("zwinnosc", "Zwinność", 0, 150), StatSpec("krzepa", "Krzepa", 0, 150))

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return (StatSpec("medycyna", "Medycyna", 0, 150),)

    def default_settings(self) -> dict[str, Any]:
        return {}

    def validate_settings(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)

    def derived_values(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]:
        pz = dict(sheet.get("profile") or {}).get("pz") or 0
        return [DerivedValue("pz", "PŻ", pz, "z karty")]

    def sheet_sections(self, settings: Mapping[str, Any] | None = None) -> tuple[SheetSection, ...]:
        return (PROFILE, WEAPONS)

    def settings_groups(self) -> tuple[SettingsGroup, ...]:
        return ()


RULES: Any = ProfileRuleset()


@pytest.fixture(autouse=True)
def rules(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The test ruleset, registered as a plugin would be, for this test only."""
    monkeypatch.setattr(registry, "_rulesets", dict(registry._rulesets))  # noqa: SLF001
    yield registry.register(RULES)


@pytest.fixture
def campaign() -> Campaign:
    gm = make_user("mistrz-kroniki")
    return services.create_campaign(gm=gm, name="Bród", description="", ruleset=KEY)


def profile(**fields: Any) -> dict[str, Any]:
    return {
        "pz": 120,
        "race": "czlowiek",
        "transformation": "",
        "nickname": "",
        "shield": False,
        **fields,
    }


def make_sheet(**changes: Any) -> dict[str, Any]:
    """A valid, normalised sheet of the test ruleset."""
    sheet: dict[str, Any] = {
        "attributes": {"zwinnosc": 45, "krzepa": 50},
        "skills": {"medycyna": 10},
        "profile": profile(),
        "weapons": [{"name": "Szabla", "kind": "small"}],
    }
    sheet.update(changes)
    return sheet


def problems(data: object) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        clean_sheet(data, rules=RULES, settings=None)
    return list(refused.value.messages)


def sheet_post(sheet: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """What the character form posts for a sheet: the profile as one fieldset, rows for lists."""
    data: dict[str, Any] = {f"attr_{k}": v for k, v in sheet["attributes"].items()}
    data.update({f"skill_{k}": v for k, v in sheet["skills"].items()})
    for key, value in sheet["profile"].items():
        if value is True:
            data[f"profile-{key}"] = "on"
        elif value is not False and value is not None:
            data[f"profile-{key}"] = value
    for prefix, rows in (("custom_skills", []), ("weapons", sheet["weapons"])):
        data[f"{prefix}-TOTAL_FORMS"] = len(rows)
        data[f"{prefix}-INITIAL_FORMS"] = 0
        for index, row in enumerate(rows):
            data.update({f"{prefix}-{index}-{k}": v for k, v in row.items()})
    data.update(fields)
    return data


# --- the validator -----------------------------------------------------------------------------


def test_it_stores_a_single_section_as_one_dict_with_the_defaults_filled() -> None:
    sheet = make_sheet(profile={"pz": 80, "nickname": " Kruk "})
    cleaned = clean_sheet(sheet, rules=RULES, settings=None)
    assert cleaned["profile"] == profile(pz=80, nickname="Kruk")
    assert cleaned["weapons"] == [{"name": "Szabla", "kind": "small"}]
    assert clean_sheet(cleaned, rules=RULES, settings=None) == cleaned


def test_it_reports_each_field_of_a_single_section_by_its_path() -> None:
    bad = {"pz": 10000, "race": "ork", "transformation": "smok", "shield": "tak", "kolor": 1}
    assert problems(make_sheet(profile=bad)) == [
        "profile.kolor: nieznane pole",
        "profile.pz: musi być ≤ 9999",
        "profile.race: musi być jednym z: czlowiek, elf",
        "profile.transformation: musi być jednym z: , wampir, wilkolak",
        "profile.shield: musi być true albo false",
    ]
    assert problems(make_sheet(profile={"pz": "dużo"})) == ["profile.pz: musi być liczbą całkowitą"]


def test_a_required_field_of_a_single_section_must_be_given() -> None:
    sheet = make_sheet()
    del sheet["profile"]
    assert problems(sheet) == ["profile.pz: brak wartości"]
    assert problems(make_sheet(profile=[profile()])) == ["profile: musi być obiektem JSON"]


def test_a_text_with_a_default_may_be_empty_and_one_without_may_not() -> None:
    cleaned = clean_sheet(make_sheet(profile=profile(nickname="  ")), rules=RULES, settings=None)
    assert cleaned["profile"]["nickname"] == ""
    assert problems(make_sheet(weapons=[{"name": " ", "kind": "bow"}])) == [
        "weapons[0].name: nie może być puste"
    ]


def test_a_blank_sheet_has_the_single_section_at_its_defaults() -> None:
    blank = blank_sheet(rules=RULES, settings=None)
    assert blank["profile"] == profile(pz=None)
    assert blank["weapons"] == []


def test_a_single_section_has_no_rows_to_add() -> None:
    assert reshape_rows(QueryDict(mutable=True), "add profile", rules=RULES) is None
    assert reshape_rows(QueryDict(mutable=True), "add weapons", rules=RULES) is not None


# --- the forms ---------------------------------------------------------------------------------


def test_the_gm_creates_a_character_with_a_profile(campaign: Campaign) -> None:
    client = client_for(campaign.gm)
    url = reverse("character-create", args=[campaign.pk])
    page = client.get(url).content.decode()
    fieldset = page.split('<fieldset id="single-profile" class="single">')[1].split("</fieldset>")[
        0
    ]
    assert "<legend>Profil</legend>" in fieldset
    assert 'name="profile-pz"' in fieldset and 'name="profile-shield"' in fieldset
    assert "profile-TOTAL_FORMS" not in page and 'value="add profile"' not in page
    assert page.index("single-profile") < page.index("rows-weapons")  # the ruleset's order
    sheet = make_sheet(profile=profile(race="elf", transformation="wampir", shield=True))
    response = client.post(url, sheet_post(sheet, name="Iwa", kind="pc"))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Character.objects.get(name="Iwa").sheet == sheet


def test_the_gm_edits_a_characters_profile(campaign: Campaign) -> None:
    character = Character.objects.create(campaign=campaign, name="Iwa", sheet=make_sheet())
    client = client_for(campaign.gm)
    url = reverse("character-edit", args=[character.pk])
    page = client.get(url).content.decode()
    assert 'name="profile-pz" value="120"' in page
    changed = make_sheet(profile=profile(pz=95, nickname="Kruk"))
    response = client.post(url, sheet_post(changed, name="Iwa", kind="npc"))
    assert response.status_code == 302, response.content.decode()[:3000]
    character.refresh_from_db()
    assert character.sheet["profile"] == profile(pz=95, nickname="Kruk")


def test_a_bad_profile_value_is_refused_with_its_place_and_nothing_is_saved(
    campaign: Campaign,
) -> None:
    character = Character.objects.create(campaign=campaign, name="Iwa", sheet=make_sheet())
    url = reverse("character-edit", args=[character.pk])
    post = sheet_post(make_sheet(), name="Iwa", kind="npc")
    post["profile-pz"] = "10000"
    response = client_for(campaign.gm).post(url, post)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nie zapisano — popraw zaznaczone pola." in page
    assert "<li>Profil, Punkty Życia: " in page
    del post["profile-pz"]
    page = client_for(campaign.gm).post(url, post).content.decode()
    assert "<li>Profil, Punkty Życia: " in page
    character.refresh_from_db()
    assert character.sheet == make_sheet()


def test_the_editor_has_the_fieldset_between_the_rows_in_the_rulesets_order() -> None:
    data = QueryDict(mutable=True)
    data.update(sheet_post(make_sheet(profile=profile(pz=None))))
    editor = SheetEditor(data, rules=RULES, settings={}, initial={})
    assert [getattr(part, "prefix", "") for part in editor.parts()] == [
        "custom_skills",
        "profile",
        "weapons",
    ]
    assert list(editor.formsets) == ["custom_skills", "weapons"]
    assert not editor.is_valid()
    assert [p for p in editor.summary() if p.startswith("Profil, Punkty Życia: ")]


def test_adding_a_weapon_row_keeps_the_profile_typed_so_far(campaign: Campaign) -> None:
    url = reverse("character-create", args=[campaign.pk])
    post = sheet_post(make_sheet(profile=profile(pz=77)), name="Iwa", kind="pc", row="add weapons")
    page = client_for(campaign.gm).post(url, post).content.decode()
    assert 'name="profile-pz" value="77"' in page and 'name="weapons-1-name"' in page
    assert not Character.objects.filter(name="Iwa").exists()


def test_a_player_sees_the_profile_on_the_sheet_page(campaign: Campaign) -> None:
    player = make_member(campaign, "gracz-kroniki")
    sheet = make_sheet(profile=profile(race="elf", nickname="Kruk", shield=True))
    character = Character.objects.create(
        campaign=campaign, name="Iwa", owner=player, kind="pc", sheet=sheet
    )
    page = client_for(player).get(character.get_absolute_url()).content.decode()
    section = page.split('<h2 id="profile-h">Profil</h2>')[1].split("</section>")[0]
    for label, value in [
        ("Punkty Życia", "120"),
        ("Rasa", "Elf"),
        ("Przemiana", "brak"),
        ("Przydomek", "Kruk"),
        ("tarcza", "tak"),
    ]:
        assert f"<dt>{label}</dt><dd>{value}</dd>" in section
    assert "<td>Szabla</td>" in page  # the list beside it, as a table


def test_an_empty_text_shows_a_dash_on_the_sheet_page(campaign: Campaign) -> None:
    character = Character.objects.create(campaign=campaign, name="Iwa", sheet=make_sheet())
    page = client_for(campaign.gm).get(character.get_absolute_url()).content.decode()
    assert "<dt>Przydomek</dt><dd>—</dd>" in page and "<dt>tarcza</dt><dd>nie</dd>" in page


# --- import and export -------------------------------------------------------------------------


def test_a_character_goes_out_and_back_in_with_its_profile(campaign: Campaign) -> None:
    sheet = make_sheet(profile=profile(pz=64, transformation="wilkolak"))
    character = Character.objects.create(campaign=campaign, name="Iwa", kind="npc", sheet=sheet)
    client = client_for(campaign.gm)
    exported = client.get(reverse("character-export", args=[character.pk])).json()
    assert exported["ruleset"] == KEY
    assert exported["characters"][0]["sheet"]["profile"] == sheet["profile"]
    target = services.create_campaign(gm=campaign.gm, name="Wieża", description="", ruleset=KEY)
    url = reverse("character-import", args=[target.pk])
    response = client.post(url, {"text": json.dumps(exported)})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert target.characters.get(name="Iwa").sheet == sheet


def test_an_import_with_a_bad_profile_says_where_and_saves_nothing(campaign: Campaign) -> None:
    good = {"name": "Iwa", "sheet": make_sheet()}
    bad = {"name": "Zły", "sheet": make_sheet(profile={"pz": 0.5, "race": "elf"})}
    url = reverse("character-import", args=[campaign.pk])
    page = client_for(campaign.gm).post(url, {"text": json.dumps([good, bad])}).content.decode()
    assert "characters[1] (Zły).sheet.profile.pz: musi być liczbą całkowitą" in page
    assert not campaign.characters.exists()


def test_a_creature_keeps_its_profile_through_the_bestiary(campaign: Campaign) -> None:
    sheet = make_sheet(profile=profile(pz=40, race="elf"))
    creature = CreatureTemplate.objects.create(
        campaign=campaign, ruleset=KEY, name="Upiór", sheet=sheet
    )
    exported = client_for(campaign.gm).get(reverse("bestiary-export", args=[campaign.pk])).json()
    assert exported["creatures"][0]["sheet"] == sheet
    (made,) = services.instantiate_creature(creature=creature, campaign=campaign, count=1)
    assert made.sheet["profile"] == profile(pz=40, race="elf")
    page = client_for(campaign.gm).get(reverse("creature-detail", args=[campaign.pk, creature.pk]))
    assert "<dt>Rasa</dt><dd>Elf</dd>" in page.content.decode()
