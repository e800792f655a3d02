"""The simulator starts from real sides (issue #11, point 9): the encounter's own, else the
campaign's player characters as the party, preselected; NPCs are offered on the other side."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Campaign, Character, CreatureTemplate
from combat import services as tables
from combat.roster import PARTY, lineup_of
from tests.characters.helpers import client_for, make_campaign, make_character

pytestmark = pytest.mark.django_db


def wolf() -> CreatureTemplate:
    return CreatureTemplate.objects.get(campaign=None, name="Wilk")


def checked(page: str, name: str) -> set[int]:
    """The pks preselected in a checkbox list."""
    inputs = re.findall(rf'<input type="checkbox" name="{name}" value="(\d+)"([^>]*)>', page)
    return {int(pk) for pk, rest in inputs if "checked" in rest}


def offered(page: str, name: str) -> set[int]:
    return {int(pk) for pk in re.findall(rf'name="{name}" value="(\d+)"', page)}


def creature_count(page: str, creature: CreatureTemplate) -> str:
    match = re.search(rf'<input type="number" name="creature_{creature.pk}" value="(\d+)"', page)
    assert match, f"no field for {creature}"
    return match.group(1)


@pytest.fixture
def campaign() -> Campaign:
    return make_campaign()


def page(client: Client, campaign: Campaign, query: str = "") -> str:
    response = client.get(reverse("simulator", args=[campaign.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def test_it_offers_pcs_for_the_party_preselected_and_npcs_against_them(
    campaign: Campaign,
) -> None:
    hero = make_character(campaign, "Radosław")
    archer = make_character(campaign, "Milena")
    wolves = [make_character(campaign, f"Wilk {n}", kind=Character.Kind.NPC) for n in (1, 2)]
    html = page(client_for(campaign.gm), campaign)
    assert offered(html, "party") == checked(html, "party") == {hero.pk, archer.pk}
    assert offered(html, "foes") == {w.pk for w in wolves}
    assert checked(html, "foes") == set()


def test_it_starts_from_the_encounters_own_sides(campaign: Campaign) -> None:
    hero = make_character(campaign, "Radosław")
    benched = make_character(campaign, "Milena")
    ally = make_character(campaign, "Borys", kind=Character.Kind.NPC)
    bandit = make_character(campaign, "Bandyta", kind=Character.Kind.NPC)
    encounter = tables.create_encounter(campaign=campaign, name="Zasadzka", by=campaign.gm)
    gm = tables.Viewer(user_id=campaign.gm_id, is_gm=True)
    tables.add_combatants(encounter.pk, viewer=gm, characters=[hero.pk, bandit.pk])
    tables.add_combatants(encounter.pk, viewer=gm, characters=[ally.pk], side=PARTY)
    tables.add_combatants(encounter.pk, viewer=gm, creatures={wolf().pk: 3})

    html = page(client_for(campaign.gm), campaign, f"?encounter={encounter.pk}")
    assert "Zasadzka" in html
    assert checked(html, "party") == {hero.pk, ally.pk}
    assert offered(html, "party") == {hero.pk, benched.pk, ally.pk}  # the ally on its side
    assert checked(html, "foes") == {bandit.pk}
    assert creature_count(html, wolf()) == "3"
    assert f"?encounter={encounter.pk}" in html  # the form posts back to the same start


def test_another_campaigns_encounter_is_ignored(campaign: Campaign) -> None:
    hero = make_character(campaign, "Radosław")
    other = make_campaign(name="Inna")
    foreign = tables.create_encounter(campaign=other, name="Cudze", by=other.gm)
    html = page(client_for(campaign.gm), campaign, f"?encounter={foreign.pk}")
    assert "Cudze" not in html
    assert checked(html, "party") == {hero.pk}


def test_a_lineup_reads_the_tables_ids() -> None:
    lineup = lineup_of(
        [("c1", PARTY), ("c2", "przeciwnicy"), ("t7-1", "przeciwnicy"), ("t7-2", PARTY), ("x", "")]
    )
    assert (lineup.party, lineup.foes, lineup.creatures) == ([1], [2], {7: 2})
