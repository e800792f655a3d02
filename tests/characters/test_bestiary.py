"""The bestiary: own creatures, the read-only shared library, NPCs made from entries."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from characters.models import Campaign, Character, CreatureTemplate

from .helpers import (
    client_for,
    make_campaign,
    make_character,
    make_creature,
    make_sheet,
    sheet_post,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    return make_campaign()


def wolf() -> CreatureTemplate:
    return CreatureTemplate.objects.get(campaign=None, name="Wilk")


def instantiate(campaign: Campaign, creature: CreatureTemplate, count: object, **extra: str) -> Any:
    url = reverse("creature-instantiate", args=[campaign.pk, creature.pk])
    return client_for(campaign.gm).post(url, {"count": count, "base_name": "", **extra})


def npc_names(campaign: Campaign) -> list[str]:
    return list(
        campaign.characters.filter(kind="npc").order_by("pk").values_list("name", flat=True)
    )


def test_it_lists_own_creatures_and_the_shared_library(campaign: Campaign) -> None:
    make_creature(campaign, "Upiór")
    make_creature(make_campaign(name="Cudza"), "Cudzy stwór")
    html = client_for(campaign.gm).get(reverse("bestiary", args=[campaign.pk])).content.decode()
    for name in ["Upiór", "Wilk", "Dzik", "Bandyta", "Niedźwiedź"]:
        assert name in html
    assert "Cudzy stwór" not in html


def test_it_makes_wolf_1_to_3_then_continues(campaign: Campaign) -> None:
    response = instantiate(campaign, wolf(), 3)
    assert response["Location"].endswith("#npcs")
    assert npc_names(campaign) == ["Wilk 1", "Wilk 2", "Wilk 3"]
    instantiate(campaign, wolf(), 2)
    assert npc_names(campaign)[3:] == ["Wilk 4", "Wilk 5"]


def test_it_numbers_after_the_highest_existing(campaign: Campaign) -> None:
    make_character(campaign, "Wilk 7", kind="npc")
    instantiate(campaign, wolf(), 1)
    assert "Wilk 8" in npc_names(campaign)


def test_it_uses_a_given_name(campaign: Campaign) -> None:
    instantiate(campaign, wolf(), 2, base_name="Basior")
    assert npc_names(campaign) == ["Basior 1", "Basior 2"]
    assert all(c.source_creature == wolf() for c in campaign.characters.all())


def test_it_answers_htmx_with_the_new_names(campaign: Campaign) -> None:
    url = reverse("creature-instantiate", args=[campaign.pk, wolf().pk])
    response = client_for(campaign.gm).post(
        url, {"count": 2, "base_name": "Wilk"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.strip().startswith(f'<p id="instantiated-{wolf().pk}"')
    assert "Wilk 1" in html and "Wilk 2" in html


@pytest.mark.parametrize("count", [0, 21, "dużo"])
def test_it_refuses_a_bad_count(campaign: Campaign, count: object) -> None:
    response = instantiate(campaign, wolf(), count)
    assert response["Location"] == reverse("bestiary", args=[campaign.pk])
    assert not campaign.characters.exists()


def test_it_refuses_npcs_outside_the_campaign_ranges(campaign: Campaign) -> None:
    campaign.settings = {**campaign.settings, "attribute_max": 1}
    campaign.save(update_fields=["settings"])
    url = reverse("creature-instantiate", args=[campaign.pk, wolf().pk])
    response = client_for(campaign.gm).post(url, {"count": 1}, headers={"HX-Request": "true"})
    assert "attributes.sila: musi być ≤ 1" in response.content.decode()
    assert not campaign.characters.exists()


def test_it_copies_a_shared_creature_into_the_campaign(campaign: Campaign) -> None:
    url = reverse("creature-copy", args=[campaign.pk, wolf().pk])
    response = client_for(campaign.gm).post(url)
    copy = CreatureTemplate.objects.get(campaign=campaign)
    assert response["Location"] == reverse("creature-edit", args=[campaign.pk, copy.pk])
    assert (copy.name, copy.sheet) == ("Wilk", wolf().sheet)
    assert CreatureTemplate.objects.filter(campaign=None, name="Wilk").count() == 1


def test_it_creates_and_edits_a_creature(campaign: Campaign) -> None:
    client = client_for(campaign.gm)
    data = sheet_post(make_sheet(attributes={"wola": 4}), name="Upiór", description="Zimny.")
    response = client.post(reverse("creature-create", args=[campaign.pk]), data)
    creature = CreatureTemplate.objects.get(campaign=campaign)
    assert response["Location"] == reverse("creature-detail", args=[campaign.pk, creature.pk])
    assert (creature.ruleset, creature.sheet["attributes"]["wola"]) == ("eleora", 4)

    data = sheet_post(make_sheet(attributes={"wola": -1}), name="Upiór 2", description="")
    response = client.post(reverse("creature-edit", args=[campaign.pk, creature.pk]), data)
    assert response.status_code == 200
    creature.refresh_from_db()
    assert (creature.name, creature.sheet["attributes"]["wola"]) == ("Upiór", 4)


def test_it_deletes_an_own_creature_but_keeps_its_npcs(campaign: Campaign) -> None:
    creature = make_creature(campaign, "Upiór")
    instantiate(campaign, creature, 1)
    url = reverse("creature-delete", args=[campaign.pk, creature.pk])
    assert client_for(campaign.gm).post(url)["Location"] == reverse("bestiary", args=[campaign.pk])
    assert not CreatureTemplate.objects.filter(pk=creature.pk).exists()
    assert Character.objects.get(name="Upiór 1").source_creature is None


def test_it_shows_a_creatures_derived_values(campaign: Campaign) -> None:
    url = reverse("creature-detail", args=[campaign.pk, wolf().pk])
    html = client_for(campaign.gm).get(url).content.decode()
    start = html.index('data-key="obrona"')
    assert "<dd>4<" in html[start : html.index("</div>", start)]


def test_it_keeps_numbered_names_within_the_name_limit(campaign: Campaign) -> None:
    creature = make_creature(campaign, "W" * 80)
    instantiate(campaign, creature, 2)
    instantiate(campaign, creature, 1)
    names = npc_names(campaign)
    assert [name.rsplit(" ", 1)[1] for name in names] == ["1", "2", "3"]
    assert all(len(name) <= 80 for name in names)
