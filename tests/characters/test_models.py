"""Models, the services that write them and the seeded shared bestiary."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from characters import services
from characters.models import (
    INVITE_ALPHABET,
    Character,
    CreatureTemplate,
    Membership,
    normalise_invite_code,
)
from characters.sheets import clean_sheet
from combat.rules.registry import get_ruleset

from .helpers import make_campaign, make_character, make_member, make_sheet, make_user

pytestmark = pytest.mark.django_db


def test_it_gives_the_gm_a_gm_membership() -> None:
    gm = make_user("mistrz")
    campaign = make_campaign(gm)
    membership = Membership.objects.get(campaign=campaign)
    assert (membership.user, membership.role) == (gm, Membership.Role.GM)


def test_it_stores_the_rulesets_default_settings() -> None:
    campaign = make_campaign()
    assert campaign.settings == get_ruleset("eleora").default_settings()


def test_it_makes_readable_random_invite_codes() -> None:
    first, second = make_campaign(), make_campaign()
    assert first.invite_code != second.invite_code
    assert len(first.invite_code) == 10
    assert set(first.invite_code) <= set(INVITE_ALPHABET)


def test_it_regenerates_the_invite_code() -> None:
    campaign = make_campaign()
    old = campaign.invite_code
    campaign.regenerate_invite_code()
    campaign.refresh_from_db()
    assert campaign.invite_code != old


def test_it_normalises_a_typed_code() -> None:
    assert normalise_invite_code(" ab-cd 23 ") == "ABCD23"


def test_it_allows_one_membership_per_user() -> None:
    campaign = make_campaign()
    with pytest.raises(IntegrityError):
        Membership.objects.create(campaign=campaign, user=campaign.gm, role="player")


def test_it_keeps_a_removed_players_characters_without_owner() -> None:
    campaign = make_campaign()
    player = make_member(campaign, "gracz")
    character = make_character(campaign, owner=player)
    services.remove_member(membership=Membership.objects.get(user=player))
    character.refresh_from_db()
    assert character.owner is None
    assert not Membership.objects.filter(user=player).exists()


def test_it_refuses_to_remove_the_gm() -> None:
    campaign = make_campaign()
    with pytest.raises(ValidationError):
        services.remove_member(membership=Membership.objects.get(user=campaign.gm))
    assert Membership.objects.filter(user=campaign.gm).exists()


def test_it_asks_the_ruleset_for_derived_values() -> None:
    campaign = make_campaign()
    character = make_character(campaign, sheet=make_sheet(attributes={"krzepa": 3}))
    derived = {d.key: d.value for d in character.derived_values()}
    assert derived["zdrowie"] == 18
    assert derived["obrona"] == 4


def test_it_seeds_a_valid_shared_bestiary() -> None:
    shared = CreatureTemplate.objects.filter(campaign=None, ruleset="eleora")
    names = set(shared.values_list("name", flat=True))
    assert {"Wilk", "Dzik", "Bandyta", "Niedźwiedź"} <= names
    rules = get_ruleset("eleora")
    for creature in shared:
        assert clean_sheet(creature.sheet, rules=rules, settings=None) == creature.sheet


def test_it_seeds_the_wolf_of_the_rules_example() -> None:
    wolf = CreatureTemplate.objects.get(campaign=None, name="Wilk")
    derived = {d.key: d.value for d in get_ruleset("eleora").derived_values(wolf.sheet)}
    assert derived["obrona"] == 4
    bite = wolf.sheet["weapons"][0]
    assert (bite["kind"], bite["damage"] > 0) == ("wrecz", True)


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        ([], 1),
        (["Wilk 1", "Wilk 2"], 3),
        (["Wilk 1", "Wilk 7", "Wilkołak 9", "Wilk", "Wilk 2b"], 8),
        (["Wilk (1)"], 1),
    ],
)
def test_it_numbers_on_from_the_highest(names: list[str], expected: int) -> None:
    assert services.next_number("Wilk", names) == expected


def test_it_updates_settings_unless_a_sheet_falls_outside() -> None:
    campaign = make_campaign()
    make_character(campaign, "Olbrzym", sheet=make_sheet(attributes={"sila": 8}))
    settings = get_ruleset("eleora").validate_settings({**campaign.settings, "attribute_max": 6})
    with pytest.raises(ValidationError) as caught:
        services.update_settings(campaign=campaign, settings=settings)
    assert caught.value.messages == ["Olbrzym: attributes.sila: musi być ≤ 6"]
    campaign.refresh_from_db()
    assert campaign.settings["attribute_max"] == 10


def test_it_instantiates_npcs_sharing_the_creatures_sheet() -> None:
    campaign = make_campaign()
    wolf = CreatureTemplate.objects.get(campaign=None, name="Wilk")
    created = services.instantiate_creature(creature=wolf, campaign=campaign, count=2)
    assert [c.name for c in created] == ["Wilk 1", "Wilk 2"]
    stored = Character.objects.get(name="Wilk 2")
    assert (stored.kind, stored.owner, stored.source_creature) == ("npc", None, wolf)
    assert stored.sheet == wolf.sheet
