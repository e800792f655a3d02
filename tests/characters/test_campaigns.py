"""Campaign pages: create, list, join by link or code, invite codes, members, settings."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from characters.models import Campaign, Membership

from .helpers import PASSWORD, client_for, make_campaign, make_character, make_member, make_user

pytestmark = pytest.mark.django_db


def test_it_creates_a_campaign_with_its_gm() -> None:
    gm = make_user("mistrz")
    data = {"name": "Wilki", "description": "Las.", "ruleset": "eleora"}
    response = client_for(gm).post(reverse("campaign-create"), data)
    campaign = Campaign.objects.get(name="Wilki")
    assert response["Location"] == campaign.get_absolute_url()
    assert Membership.objects.get(campaign=campaign).role == "gm"


def test_it_refuses_an_unknown_ruleset() -> None:
    gm = make_user("mistrz")
    response = client_for(gm).post(reverse("campaign-create"), {"name": "X", "ruleset": "dnd"})
    assert response.status_code == 200
    assert not Campaign.objects.exists()


def test_it_lists_campaigns_run_and_played() -> None:
    gm = make_user("mistrz")
    mine = make_campaign(gm, "Prowadzona")
    theirs = make_campaign(name="Grana")
    Membership.objects.create(campaign=theirs, user=gm, role="player")
    make_campaign(name="Cudza")
    html = client_for(gm).get(reverse("campaign-list")).content.decode()
    assert html.index("Prowadzona") < html.index("Grana")
    assert mine.get_absolute_url() in html
    assert "Cudza" not in html


def test_it_joins_by_invite_link_after_signing_up() -> None:
    campaign = make_campaign(name="Wilki")
    link = reverse("join", args=[campaign.invite_code])
    client = Client()
    response = client.get(link)
    assert response["Location"] == f"{reverse('login')}?next={link}"
    login_page = client.get(response["Location"]).content.decode()
    assert f"{reverse('signup')}?next={link}" in login_page

    data = {
        "username": "nowy",
        "password1": "Kr0k-w-lesie",
        "password2": "Kr0k-w-lesie",
        "next": link,
    }
    response = client.post(reverse("signup"), data)
    assert response["Location"] == link
    assert "Wilki" in client.get(link).content.decode()
    assert client.post(link)["Location"] == campaign.get_absolute_url()
    assert Membership.objects.get(user__username="nowy").role == "player"


def test_it_does_not_follow_a_foreign_next_after_signup() -> None:
    data = {
        "username": "nowy",
        "password1": "Kr0k-w-lesie",
        "password2": "Kr0k-w-lesie",
        "next": "https://example.com/",
    }
    response = Client().post(reverse("signup"), data)
    assert response["Location"] == reverse("campaign-list")


def test_it_explains_signup_errors() -> None:
    make_user("zajety")
    data = {"username": "zajety", "password1": "a", "password2": "b"}
    response = Client().post(reverse("signup"), data)
    assert response.status_code == 200
    assert User.objects.count() == 1
    assert "form-errors" in response.content.decode()


def test_it_joins_by_typed_code() -> None:
    campaign = make_campaign()
    player = make_user("gracz")
    typed = " " + campaign.invite_code.lower()[:5] + "-" + campaign.invite_code.lower()[5:]
    response = client_for(player).post(reverse("join-code"), {"code": typed})
    assert response["Location"] == reverse("join", args=[campaign.invite_code])


def test_it_stops_the_old_link_after_regenerating() -> None:
    campaign = make_campaign()
    old = reverse("join", args=[campaign.invite_code])
    client_for(campaign.gm).post(reverse("invite-regenerate", args=[campaign.pk]))
    player = make_user("gracz")
    response = client_for(player).post(old)
    assert response["Location"] == reverse("join-code")
    assert not Membership.objects.filter(user=player).exists()


def test_it_regenerates_the_code_in_place_for_htmx() -> None:
    campaign = make_campaign()
    old = campaign.invite_code
    url = reverse("invite-regenerate", args=[campaign.pk])
    response = client_for(campaign.gm).post(url, headers={"HX-Request": "true"})
    campaign.refresh_from_db()
    html = response.content.decode()
    assert html.strip().startswith('<section class="card" id="invite"')
    assert campaign.invite_code in html and old not in html


def test_it_sends_members_straight_to_the_campaign() -> None:
    campaign = make_campaign()
    response = client_for(campaign.gm).get(reverse("join", args=[campaign.invite_code]))
    assert response["Location"] == campaign.get_absolute_url()


def test_it_removes_a_member_after_confirmation() -> None:
    campaign = make_campaign()
    player = make_member(campaign, "gracz")
    character = make_character(campaign, owner=player)
    membership = Membership.objects.get(user=player)
    url = reverse("member-remove", args=[campaign.pk, membership.pk])
    client = client_for(campaign.gm)
    assert "gracz" in client.get(url).content.decode()
    assert Membership.objects.filter(pk=membership.pk).exists()
    assert client.post(url)["Location"] == campaign.get_absolute_url()
    assert not Membership.objects.filter(pk=membership.pk).exists()
    character.refresh_from_db()
    assert character.owner is None
    assert client_for(player).get(campaign.get_absolute_url()).status_code == 404


def test_it_keeps_the_gm_in_the_campaign() -> None:
    campaign = make_campaign()
    membership = Membership.objects.get(user=campaign.gm)
    url = reverse("member-remove", args=[campaign.pk, membership.pk])
    client_for(campaign.gm).post(url)
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_it_edits_and_deletes_a_campaign() -> None:
    campaign = make_campaign()
    client = client_for(campaign.gm)
    client.post(reverse("campaign-edit", args=[campaign.pk]), {"name": "Nowa", "description": ""})
    campaign.refresh_from_db()
    assert campaign.name == "Nowa"
    assert client.post(reverse("campaign-delete", args=[campaign.pk]))["Location"] == "/"
    assert not Campaign.objects.filter(pk=campaign.pk).exists()


def test_it_saves_table_settings_from_grouped_inputs() -> None:
    campaign = make_campaign()
    client = client_for(campaign.gm)
    page = client.get(reverse("campaign-settings", args=[campaign.pk])).content.decode()
    for label in ["Kości i testy", "Ścianki k6 dające sukces", "Podstawowy Ruch (m)", "półmrok"]:
        assert label in page
    data = settings_post(campaign, success_faces=["5", "6"], base_movement="4", charge_cap="")
    response = client.post(reverse("campaign-settings", args=[campaign.pk]), data)
    assert response["Location"] == campaign.get_absolute_url()
    campaign.refresh_from_db()
    assert campaign.settings["success_faces"] == [5, 6]
    assert campaign.settings["base_movement"] == 4
    assert campaign.settings["charge_cap"] is None


def test_it_offers_the_documents_readings_as_labelled_settings() -> None:
    campaign = make_campaign()
    client = client_for(campaign.gm)
    page = client.get(reverse("campaign-settings", args=[campaign.pk])).content.decode()
    for label in [
        "Powalony: Unik nie dodaje Zręczności",
        "Krytyczna porażka Obrony daje Atak okazyjny",
        "Oślepiony: dolna granica Obrony tylko dla postaci graczy",
    ]:
        assert label in page
    assert "<legend>Inne</legend>" not in page  # every setting has its place in a group
    data = settings_post(campaign, blinded_floor_players_only="on")
    data.pop("prone_loses_unik", None)  # an unticked box is not posted
    client.post(reverse("campaign-settings", args=[campaign.pk]), data)
    campaign.refresh_from_db()
    assert campaign.settings["blinded_floor_players_only"] is True
    assert campaign.settings["prone_loses_unik"] is False


def test_it_accepts_negative_zdrowie_thresholds() -> None:
    campaign = make_campaign()
    data = settings_post(campaign, maiming_trigger="-1", unconscious_at="-1")
    client_for(campaign.gm).post(reverse("campaign-settings", args=[campaign.pk]), data)
    campaign.refresh_from_db()
    assert (campaign.settings["maiming_trigger"], campaign.settings["unconscious_at"]) == (-1, -1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"success_faces": []}, "To pole jest wymagane."),
        ({"base_movement": "-1"}, "0"),
        ({"reaction_timeout_s": "1"}, "3"),
        ({"tie_goes_to": "nikt"}, "Wybierz poprawną wartość"),
        ({"attribute_min": "5", "attribute_max": "4"}, "Ustawienia odrzucone"),
    ],
)
def test_it_refuses_bad_settings(change: dict[str, object], message: str) -> None:
    campaign = make_campaign()
    before = dict(campaign.settings)
    data = {**settings_post(campaign), **change}
    response = client_for(campaign.gm).post(reverse("campaign-settings", args=[campaign.pk]), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.settings == before


def test_it_saves_the_wound_levels_players_see() -> None:
    campaign = make_campaign()
    client = client_for(campaign.gm)
    url = reverse("campaign-settings", args=[campaign.pk])
    page = client.get(url).content.decode()
    assert "Poziom ran widziany przez graczy" in page and "Ciężkie rany powyżej" in page
    parts = {"wound_thresholds__0": "80", "wound_thresholds__1": "40", "wound_thresholds__2": "10"}
    client.post(url, settings_post(campaign, **parts))
    campaign.refresh_from_db()
    assert campaign.settings["wound_thresholds"] == [80, 40, 10]
    rising = {**parts, "wound_thresholds__2": "90"}
    response = client.post(url, settings_post(campaign, **rising))
    assert "Ustawienia odrzucone" in response.content.decode()
    over = client.post(url, settings_post(campaign, **{**parts, "wound_thresholds__0": "101"}))
    assert "100" in over.content.decode()
    campaign.refresh_from_db()
    assert campaign.settings["wound_thresholds"] == [80, 40, 10]


def test_it_refuses_settings_that_would_break_a_sheet() -> None:
    from .helpers import make_sheet

    campaign = make_campaign()
    make_character(campaign, "Olbrzym", sheet=make_sheet(attributes={"sila": 8}))
    data = settings_post(campaign, attribute_max="6")
    response = client_for(campaign.gm).post(reverse("campaign-settings", args=[campaign.pk]), data)
    assert "Olbrzym: attributes.sila: musi być ≤ 6" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.settings["attribute_max"] == 10


def settings_post(campaign: Campaign, **changes: object) -> dict[str, object]:
    """What the settings form posts for the campaign's current settings, with changes."""
    data: dict[str, object] = {}
    for key, value in campaign.settings.items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        elif key == "success_faces":
            data[key] = [str(v) for v in value]
        elif isinstance(value, list):
            for index, part in enumerate(value):
                data[f"{key}__{index}"] = part
        elif value is not None:
            data[key] = value
    for key, value in changes.items():
        data[key] = value
    return data


def test_it_logs_in_with_a_password() -> None:
    make_user("gracz")
    response = Client().post(reverse("login"), {"username": "gracz", "password": PASSWORD})
    assert response["Location"] == reverse("campaign-list")
