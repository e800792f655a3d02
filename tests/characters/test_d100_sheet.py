"""A Kroniki Fallathanu (d100) campaign's sheets in the characters app: the stored shape (a
single "profile" beside the attributes, skills, weapons and spells), the shared bestiary's d100
creatures, the character form and the demo campaign with its two encounters.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping
from io import StringIO
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from characters import services
from characters.models import Campaign, Character, CreatureTemplate
from characters.sheets import blank_sheet, clean_sheet
from combat.rules import registry
from combat.rules.d100.sheet import validate_sheet
from combat.snapshots import load_table

from .helpers import client_for, make_user

pytestmark = pytest.mark.django_db

KEY = "d100"
CREATURES = {
    "Bandyta z traktu",
    "Szary wilk",
    "Ghul",
    "Jaszczuroczłek",
    "Wampir",
    "Strażnik w kolczudze",
}
CAMPAIGN = "Kroniki Fallathanu: Mgła nad Brodem"


def flat(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The stored sheet in the rules' own shape: the profile's keys at the top level."""
    return {**{k: v for k, v in sheet.items() if k != "profile"}, **dict(sheet["profile"])}


@pytest.fixture
def rules() -> Any:
    """The registered ruleset: the tests reach it through the characters app."""
    return registry.get_ruleset(KEY)


@pytest.fixture
def campaign(rules: Any) -> Campaign:
    gm = make_user("mistrz-kroniki")
    return services.create_campaign(gm=gm, name="Bród", description="", ruleset=KEY)


def test_the_sheet_has_a_single_profile_beside_the_weapons_and_spells(rules: Any) -> None:
    sections = rules.sheet_sections()
    assert [(s.key, s.single) for s in sections] == [
        ("profile", True),
        ("weapons", False),
        ("spells", False),
    ]
    profile = sections[0]
    assert [f.key for f in profile.fields] == ["pz", "race", "transformation", "armour", "shield"]
    blank = blank_sheet(rules=rules, settings=None)
    assert blank["profile"] == {
        "pz": None,
        "race": "czlowiek",
        "transformation": "",
        "armour": "",
        "shield": False,
    }


def test_the_shared_bestiary_has_d100_creatures_with_valid_sheets(rules: Any) -> None:
    shared = CreatureTemplate.objects.filter(campaign=None, ruleset=KEY)
    assert set(shared.values_list("name", flat=True)) == CREATURES
    defaults = rules.default_settings()
    for creature in shared:
        assert clean_sheet(creature.sheet, rules=rules, settings=defaults) == creature.sheet
        validate_sheet(flat(creature.sheet), defaults)  # the rules read it too
        values = {v.key: v.value for v in rules.derived_values(creature.sheet, defaults)}
        assert 40 <= values["pz"] <= 150 and creature.sheet["weapons"] and creature.description
        assert all(20 <= value <= 70 for value in creature.sheet["attributes"].values())
    profiles = {c.name: c.sheet["profile"] for c in shared}
    assert profiles["Wampir"]["transformation"] == "wampir"
    assert profiles["Jaszczuroczłek"]["race"] == "jaszczur"
    assert (
        profiles["Strażnik w kolczudze"]["armour"],
        profiles["Strażnik w kolczudze"]["shield"],
    ) == (
        "heavy",
        True,
    )
    # Eleora's Wilk stays the only shared creature of its name.
    assert CreatureTemplate.objects.get(campaign=None, name="Wilk").ruleset != KEY


def test_a_d100_campaigns_bestiary_offers_its_own_creatures(campaign: Campaign) -> None:
    page = client_for(campaign.gm).get(reverse("bestiary", args=[campaign.pk])).content.decode()
    for name in CREATURES:
        assert name in page
    assert "Niedźwiedź" not in page and "Troll" not in page
    ghoul = CreatureTemplate.objects.get(campaign=None, ruleset=KEY, name="Ghul")
    made = services.instantiate_creature(creature=ghoul, campaign=campaign, count=2)
    assert [c.name for c in made] == ["Ghul 1", "Ghul 2"]
    page = client_for(campaign.gm).get(made[0].get_absolute_url()).content.decode()
    title = campaign.rules().sheet_sections(campaign.settings)[0].title
    assert f'<h2 id="profile-h">{title}</h2>' in page
    assert "<dt>Rasa</dt><dd>Inna rasa</dd>" in page


@pytest.fixture
def default_language_after() -> Iterator[None]:
    """A request activates its language for the whole thread; later tests expect the default."""
    yield
    translation.deactivate()


def test_the_sheet_page_explains_each_value_in_the_viewers_language(
    campaign: Campaign, default_language_after: None
) -> None:
    """How a threshold was computed is a msgid and params (issue 22, point 10): the attributes
    and the equipment's modifiers inside it read in English on an English page, and the Polish
    page reads as it always has."""
    sheet = {
        "attributes": dict.fromkeys(
            ("zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada"), 40
        ),
        "skills": {"akrobatyka": 0, "medycyna": 0},
        "profile": {
            "pz": 75,
            "race": "czlowiek",
            "transformation": "wilkolak",
            "armour": "light",
            "shield": True,
        },
        "weapons": [{"name": "Szabla", "kind": "traditional"}],
        "spells": [],
    }
    character = Character.objects.create(campaign=campaign, name="Borys", sheet=sheet)
    pages = {}
    for language in ("en", "pl"):
        client = client_for(campaign.gm)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        content = client.get(character.get_absolute_url()).content.decode()
        pages[language] = html.unescape(content)
    for english, polish in [
        (
            "Agility 40 −10 (Light armour) −10 (Shield) = 20",
            "Zwinność 40 −10 (Lekka zbroja) −10 (Tarcza) = 20",
        ),
        (
            "Brawn 40 +20 (Traditional weapon) = 60; a success deals margin × 5",
            "Krzepa 40 +20 (Broń tradycyjna) = 60; sukces zadaje OoP × 5",
        ),
        ("Light armour 10% + Shield 20%; Putting armour on", "Lekka zbroja 10% + Tarcza 20%; "),
        ("<dt>Brawn (Werewolf)</dt>", "<dt>Krzepa (Wilkołak)</dt>"),
        ("Brawn 40 +20 (Werewolf) = 60", "Krzepa 40 +20 (Wilkołak) = 60"),
        ("<dt>Hit: Claws (Werewolf)</dt>", "<dt>Trafienie: Pazury (Wilkołak)</dt>"),
        ("<dt>Ignored Injuries (Werewolf)</dt>", "<dt>Ignorowane Urazy (Wilkołak)</dt>"),
    ]:
        assert english in pages["en"] and polish in pages["pl"]
        assert polish not in pages["en"]


def test_the_gm_creates_a_d100_character_through_the_form(campaign: Campaign) -> None:
    client = client_for(campaign.gm)
    url = reverse("character-create", args=[campaign.pk])
    page = client.get(url).content.decode()
    assert '<fieldset id="single-profile" class="single">' in page
    assert '<option value="ruan">Ruan</option>' in page
    post: dict[str, Any] = {"name": "Sayra", "kind": "pc"}
    attributes = ("zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada")
    post.update({f"attr_{key}": 50 for key in attributes})
    post.update({"skill_akrobatyka": 30, "skill_medycyna": 0})
    post.update({"profile-pz": 95, "profile-race": "ruan", "profile-armour": "light"})
    post.update({"profile-transformation": ""})
    for prefix, rows in (("custom_skills", 0), ("weapons", 1), ("spells", 0)):
        post.update({f"{prefix}-TOTAL_FORMS": rows, f"{prefix}-INITIAL_FORMS": 0})
    post.update({"weapons-0-name": "Łuk", "weapons-0-kind": "bow"})
    response = client.post(url, post)
    assert response.status_code == 302, response.content.decode()[:3000]
    sheet = Character.objects.get(name="Sayra").sheet
    assert sheet["profile"] == {
        "pz": 95,
        "race": "ruan",
        "transformation": "",
        "armour": "light",
        "shield": False,
    }
    assert sheet["weapons"] == [{"name": "Łuk", "kind": "bow"}]
    validate_sheet(flat(sheet), campaign.settings)


# --- the demo ----------------------------------------------------------------------------------


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_the_demo_has_a_d100_campaign_with_heroes_npcs_and_two_encounters(rules: Any) -> None:
    seed()
    campaign = Campaign.objects.get(ruleset=KEY)
    assert campaign.name == CAMPAIGN and campaign.gm.username == "mistrz"
    roles = dict(campaign.memberships.values_list("user__username", "role"))
    assert roles == {"mistrz": "gm", "gracz1": "player", "gracz2": "player"}
    heroes = campaign.characters.filter(kind="pc")
    owners = sorted((c.owner.username if c.owner else "") for c in heroes)
    assert owners == ["", "", "gracz1", "gracz2"]
    for hero in heroes:
        assert clean_sheet(hero.sheet, rules=rules, settings=campaign.settings) == hero.sheet
        validate_sheet(flat(hero.sheet), campaign.settings)
    transformations = {h.sheet["profile"]["transformation"] for h in heroes}
    assert "wilkolak" in transformations
    assert any(h.sheet["spells"] for h in heroes)
    npcs = sorted(campaign.characters.filter(kind="npc").values_list("name", flat=True))
    assert npcs == [
        "Bandyta z traktu 1",
        "Bandyta z traktu 2",
        "Ghul 1",
        "Ghul 2",
        "Szary wilk 1",
        "Wampir 1",
    ]
    if hasattr(rules, "new_encounter"):
        live = campaign.encounters.get(name="Zasadzka przy brodzie")
        post = campaign.encounters.get(name="Oblężenie wieży (forum)")
        live_view = load_table(live.pk).view
        post_view = load_table(post.pk).view
        assert sorted(s.name for s in live_view.seats.values()) == sorted(
            [*(h.name for h in heroes), "Bandyta z traktu 1", "Bandyta z traktu 2", "Szary wilk 1"]
        )
        assert sorted(s.name for s in post_view.seats.values()) == sorted(
            [*(h.name for h in heroes), "Ghul 1", "Ghul 2", "Wampir 1"]
        )
        assert (live_view.pace, post_view.pace) == ("live", "post")
        assert live_view.stage == "setup" and post_view.stage != "setup"
        assert post_view.deadline is not None
    else:
        assert not campaign.encounters.exists()
    before = [
        list(Character.objects.order_by("pk").values_list("pk", "name", "sheet")),
        list(campaign.encounters.order_by("pk").values_list("pk", "name", "state")),
    ]
    seed()
    assert [
        list(Character.objects.order_by("pk").values_list("pk", "name", "sheet")),
        list(campaign.encounters.order_by("pk").values_list("pk", "name", "state")),
    ] == before


def test_d100_sheet_refuses_what_only_the_whole_sheet_tells() -> None:
    """A shield beside a heavy weapon passes every field's own check; the ruleset's
    whole-sheet rule refuses it at the field the player fixes, and PŻ must be at least 1."""
    from django.core.exceptions import ValidationError

    from characters.sheets import clean_sheet
    from combat.rules.registry import get_ruleset

    rules = get_ruleset("d100")
    base = {
        "attributes": dict.fromkeys(
            ("zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada"), 40
        ),
        "skills": {"akrobatyka": 0, "medycyna": 0},
        "profile": {
            "pz": 60,
            "race": "czlowiek",
            "transformation": "",
            "armour": "",
            "shield": True,
        },
        "weapons": [{"name": "Młot bojowy", "kind": "heavy"}],
        "spells": [],
    }
    with pytest.raises(ValidationError) as caught:
        clean_sheet(base, rules=rules, settings=None)
    assert any(m.startswith("profile.shield:") for m in caught.value.messages)
    fine = {**base, "weapons": [{"name": "Szabla", "kind": "traditional"}]}
    assert clean_sheet(fine, rules=rules, settings=None)["profile"]["shield"] is True
    with pytest.raises(ValidationError) as caught:
        clean_sheet({**fine, "profile": {**fine["profile"], "pz": 0}}, rules=rules, settings=None)
    assert any(m.startswith("profile.pz:") for m in caught.value.messages)


def test_d100_sheet_page_values_read_the_stored_profile() -> None:
    from combat.rules.registry import get_ruleset

    rules = get_ruleset("d100")
    sheet = {
        "attributes": dict.fromkeys(
            ("zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada"), 40
        ),
        "skills": {"akrobatyka": 0, "medycyna": 0},
        "profile": {
            "pz": 75,
            "race": "czlowiek",
            "transformation": "",
            "armour": "heavy",
            "shield": False,
        },
        "weapons": [{"name": "Szabla", "kind": "traditional"}],
        "spells": [],
    }
    values = {v.key: v.value for v in rules.derived_values(sheet, None)}
    flat = {k: v for k, v in sheet.items() if k != "profile"} | sheet["profile"]
    assert values == {v.key: v.value for v in rules.derived_values(flat, None)}
    assert 75 in values.values()
