"""The character sheet page: values from the ruleset, escaped text, every section."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from characters.models import Campaign
from combat.rules.base import DerivedValue
from combat.rules.registry import get_ruleset

from .helpers import client_for, make_campaign, make_character, make_sheet, make_weapon

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    return make_campaign()


def sheet_html(campaign: Campaign, **sheet: Any) -> str:
    character = make_character(campaign, "Radosław", sheet=make_sheet(**sheet))
    response = client_for(campaign.gm).get(reverse("character-detail", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def stat(html: str, key: str) -> str:
    start = html.index(f'data-key="{key}"')
    return html[start : html.index("</div>", start)]


def test_it_shows_zdrowie_18_for_krzepa_3(campaign: Campaign) -> None:
    html = sheet_html(campaign, attributes={"krzepa": 3})
    assert "<dd>18<" in stat(html, "zdrowie")
    assert "9 + Krzepa² (3²)" in stat(html, "zdrowie")


def test_it_shows_obrona_with_the_armour_bonus(campaign: Campaign) -> None:
    armour = [{"name": "Kolczuga", "defence_bonus": 1, "armour_points": 2}]
    html = sheet_html(campaign, armour=armour)
    assert "<dd>5<" in stat(html, "obrona")
    assert "<dd>2<" in stat(html, "pancerz")


def test_it_shows_the_attack_pool_of_each_weapon(campaign: Campaign) -> None:
    html = sheet_html(
        campaign,
        attributes={"zrecznosc": 2},
        skills={"bron_lekka": 4},
        weapons=[make_weapon("Szabla", kind="lekka")],
    )
    assert "<dd>6<" in stat(html, "atak-Szabla")
    assert "Zręczność 2 + Broń Lekka 4" in stat(html, "atak-Szabla")


def test_it_shows_every_derived_value_of_the_ruleset(campaign: Campaign) -> None:
    html = sheet_html(campaign)
    for value in get_ruleset("eleora").derived_values(make_sheet(), campaign.settings):
        assert value.label in stat(html, value.key)
        assert f"<dd>{value.value}<" in stat(html, value.key)


def test_it_takes_derived_values_only_from_the_ruleset(
    campaign: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page that recomputed Zdrowie itself would not show the ruleset's answer."""
    rules = type(get_ruleset("eleora"))

    def fake(self: Any, sheet: Any, settings: Any = None) -> list[DerivedValue]:
        return [DerivedValue("zdrowie", "Zdrowie", 777, "z zasad")]

    monkeypatch.setattr(rules, "derived_values", fake)
    html = sheet_html(campaign, attributes={"krzepa": 3})
    assert "<dd>777<" in stat(html, "zdrowie")
    assert "18" not in stat(html, "zdrowie")


def test_it_follows_the_campaigns_movement_setting(campaign: Campaign) -> None:
    campaign.settings = {**campaign.settings, "base_movement": 5}
    campaign.save(update_fields=["settings"])
    assert "<dd>5<" in stat(sheet_html(campaign), "ruch")


def test_it_lists_attributes_skills_and_equipment(campaign: Campaign) -> None:
    html = sheet_html(
        campaign,
        skills={"bron_lekka": 4, "Tropienie": 2},
        weapons=[make_weapon("Łuk", ranged=True, two_handed=True, reload_actions=2)],
        shields=[{"name": "Puklerz", "bonus": 1}],
    )
    for text in [
        "Zręczność",
        "Broń Lekka",
        "Tropienie",
        "Łuk",
        "dystansowa",
        "dwuręczna",
        "Przeładowanie: 2",
        "Puklerz",
        "Bez pancerza.",
    ]:
        assert text in html


def test_it_escapes_what_people_typed(campaign: Campaign) -> None:
    evil = "<script>alert(1)</script>"
    html = sheet_html(campaign, weapons=[make_weapon(evil)], skills={evil[:40]: 1})
    assert evil not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_it_shows_a_players_own_sheet_without_gm_links(campaign: Campaign) -> None:
    from .helpers import make_member

    player = make_member(campaign, "gracz")
    character = make_character(campaign, "Milena", owner=player)
    html = client_for(player).get(reverse("character-detail", args=[character.pk])).content.decode()
    assert "Milena" in html
    assert reverse("bestiary", args=[campaign.pk]) not in html
