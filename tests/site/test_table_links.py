"""The table page knows each viewer's own sheets, and the GM's simulator for its sides
(issue #11, point 9): `my_sheets` and `simulator_url` in the page's context."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from combat import services as tables
from tests.characters.helpers import client_for, make_campaign, make_character, make_member

pytestmark = pytest.mark.django_db


def test_each_viewer_gets_links_to_their_own_sheets_only() -> None:
    campaign = make_campaign()
    ola, jan = make_member(campaign, "ola"), make_member(campaign, "jan")
    mine = make_character(campaign, "Milena", owner=ola)
    second = make_character(campaign, "Alda", owner=ola)
    make_character(campaign, "Radosław", owner=jan)
    make_character(campaign, "Wilk 1", kind=Character.Kind.NPC)
    encounter = tables.create_encounter(campaign=campaign, name="Starcie", by=campaign.gm)
    url = reverse("encounter", args=[encounter.pk])

    context = client_for(ola).get(url).context
    assert context["my_sheets"] == [
        ("Alda", second.get_absolute_url()),
        ("Milena", mine.get_absolute_url()),
    ]
    assert "simulator_url" not in context
    gm = client_for(campaign.gm).get(url).context
    assert gm["my_sheets"] == []
    simulator = reverse("simulator", args=[campaign.pk])
    assert gm["simulator_url"] == f"{simulator}?encounter={encounter.pk}"
