"""The account page: each section saves on its own, refuses bad input with nothing changed; the
name people chose is shown where they are named; the GM sees who no mail reaches."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from characters import account, outbox
from characters.models import Mail, Membership
from tests.characters.helpers import (
    PASSWORD,
    client_for,
    make_campaign,
    make_character,
    make_member,
    make_user,
)
from tests.smtp import SmtpServer

pytestmark = pytest.mark.django_db

UNREACHABLE = "brak potwierdzonego e-maila"


def profile_post(user: User, **changes: str) -> dict[str, str]:
    """The profile section as the page sends it for this account, with some fields changed."""
    profile = account.profile_of(user)
    data = {
        "display_name": user.first_name,
        "email": user.email,
        "language": profile.language or "pl",
        "time_zone": profile.time_zone,
    }
    return {**data, **changes}


def mails_post(*memberships: Membership, **checked: list[Membership]) -> dict[str, Any]:
    """The mails section: these memberships shown, `checked[field]` ticked for that field."""
    data: dict[str, Any] = {"shown": [m.pk for m in memberships]}
    for field, ticked in checked.items():
        for membership in ticked:
            data[f"{field}-{membership.pk}"] = "on"
    return data


def member_row(html: str, name: str) -> str:
    """The member list's row of the person shown under this name."""
    [row] = [row for row in html.split("<li")[1:] if f'class="member">{name}' in row]
    return row


def page(client: Client) -> str:
    return client.get(reverse("account")).content.decode()


def test_it_asks_to_sign_in_first(client: Client) -> None:
    response = client.get(reverse("account"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert client.post(reverse("account-profile"), {})["Location"].startswith(reverse("login"))


def test_it_links_the_account_from_the_header_under_the_name_shown() -> None:
    user = make_user("ala_k")
    client = client_for(user)
    header = page(client).split("</header>")[0]
    assert f'href="{reverse("account")}"' in header
    assert ">ala_k</a>" in header

    client.post(reverse("account-profile"), profile_post(user, display_name="Ala z Krakowa"))
    header = client.get(reverse("campaign-list")).content.decode().split("</header>")[0]
    assert ">Ala z Krakowa</a>" in header


def test_it_saves_the_profile_and_remembers_the_language_in_the_cookie() -> None:
    user = make_user("ala")
    client = client_for(user)
    data = profile_post(
        user, display_name="  Ala   Kot ", language="en", time_zone="America/New_York"
    )
    response = client.post(reverse("account-profile"), data)
    assert response.status_code == 302
    assert response["Location"] == reverse("account")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    user.refresh_from_db()
    assert user.first_name == "Ala Kot"
    assert (user.profile.language, user.profile.time_zone) == ("en", "America/New_York")
    shown = client.get(reverse("account"))
    assert "Profile saved." in shown.content.decode()  # the message in the language picked
    assert 'value="America/New_York" selected' in shown.content.decode()

    client.post(reverse("account-profile"), profile_post(user, display_name=""))
    user.refresh_from_db()
    assert user.first_name == ""


@pytest.mark.parametrize(
    "changes",
    [
        {"time_zone": "Mars/Olympus_Mons"},
        {"time_zone": ""},
        {"language": "de"},
        {"email": "bez-malpy.example.com"},
        {"display_name": "x" * 151},
    ],
)
def test_it_refuses_a_bad_profile_and_changes_nothing(changes: dict[str, str]) -> None:
    user = make_user("ala", email="ala@example.com", first_name="Ala")
    client = client_for(user)
    data = profile_post(user, **{"display_name": "Inna", "email": "inny@example.com", **changes})
    response = client.post(reverse("account-profile"), data)
    assert response.status_code == 400
    assert "form-errors" in response.content.decode()
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    user.refresh_from_db()
    assert (user.first_name, user.email) == ("Ala", "ala@example.com")
    assert account.profile_of(user).time_zone == "Europe/Warsaw"
    assert not Mail.objects.exists()


@pytest.mark.parametrize("typed", ["bolek@example.com", "BOLEK@Example.com"])
def test_it_refuses_an_address_another_account_has_without_naming_it(typed: str) -> None:
    make_user("bolek", email="bolek@example.com")
    user = make_user("ala", email="ala@example.com")
    response = client_for(user).post(reverse("account-profile"), profile_post(user, email=typed))
    assert response.status_code == 400
    body = response.content.decode()
    assert "Ten adres jest już używany przez inne konto." in body
    assert "bolek<" not in body and "bolek " not in body
    user.refresh_from_db()
    assert user.email == "ala@example.com"
    assert not Mail.objects.exists()


def test_it_mails_a_changed_address_its_link_and_shows_it_unconfirmed(smtp: SmtpServer) -> None:
    user = make_user("ala")
    account.mark_confirmed(user, "ala@example.com")
    client = client_for(user)
    assert "Adres ala@example.com jest potwierdzony" in page(client)

    client.post(reverse("account-profile"), profile_post(user, email="ala@nowy.example.com"))
    outbox.deliver()
    [mail] = smtp.wait(to="ala@nowy.example.com")
    assert "/account/confirm/" in mail.link("/account/confirm/")
    shown = page(client)
    assert "Adres ala@nowy.example.com nie jest jeszcze potwierdzony" in shown
    assert f'action="{reverse("account-resend")}"' in shown

    same = profile_post(User.objects.get(pk=user.pk), display_name="Ala")
    client.post(reverse("account-profile"), same)  # the address unchanged: no second mail
    assert Mail.objects.count() == 1


def test_addresses_typed_one_after_another_get_one_link_a_minute(smtp: SmtpServer) -> None:
    user = make_user("ala")
    client = client_for(user)
    client.post(
        reverse("account-profile"), profile_post(user, email="ala@example.com"), follow=True
    )
    user.refresh_from_db()
    second = client.post(
        reverse("account-profile"), profile_post(user, email="ktos@example.com"), follow=True
    )
    user.refresh_from_db()
    assert user.email == "ktos@example.com"  # saved, but no second link this minute
    assert "Wysłaliśmy link na" not in second.content.decode()
    assert list(Mail.objects.values_list("to", flat=True)) == ["ala@example.com"]
    Mail.objects.update(created=timezone.now() - timedelta(seconds=61))
    client.post(reverse("account-resend"))  # a minute on: the link for the address kept
    outbox.deliver()
    assert [m.to for m in smtp.wait(2)] == [("ala@example.com",), ("ktos@example.com",)]


def test_it_sends_the_link_again_at_most_once_a_minute(smtp: SmtpServer) -> None:
    user = make_user("ala")
    account.set_address(user, "ala@example.com")  # the first link: just now
    client = client_for(user)

    refused = client.post(reverse("account-resend"), follow=True)
    assert "Wysłano link przed chwilą" in refused.content.decode()
    assert Mail.objects.count() == 1

    Mail.objects.update(created=timezone.now() - timedelta(seconds=61))
    sent = client.post(reverse("account-resend"), follow=True)
    assert "Wysłaliśmy link ponownie na ala@example.com" in sent.content.decode()
    outbox.deliver()
    assert len(smtp.wait(2, to="ala@example.com")) == 2

    client.post(reverse("account-resend"))
    assert Mail.objects.count() == 2


def test_it_sends_no_link_for_a_confirmed_address_or_none() -> None:
    user = make_user("ala")
    client = client_for(user)
    response = client.post(reverse("account-resend"), follow=True)
    assert "Na koncie nie ma adresu e-mail." in response.content.decode()
    account.mark_confirmed(user, "ala@example.com")
    response = client.post(reverse("account-resend"), follow=True)
    assert "Ten adres jest już potwierdzony." in response.content.decode()
    assert not Mail.objects.exists()
    assert client.get(reverse("account-resend")).status_code == 405


def test_it_changes_the_password_and_keeps_the_person_signed_in() -> None:
    user = make_user("ala")
    client = client_for(user)
    data = {"old_password": PASSWORD, "new_password1": "Nowe-Haslo-77", "new_password2": ""}
    data["new_password2"] = data["new_password1"]
    response = client.post(reverse("account-password"), data)
    assert response.status_code == 302
    assert client.get(reverse("account")).status_code == 200  # still signed in
    user.refresh_from_db()
    assert user.check_password("Nowe-Haslo-77")


def test_it_refuses_a_wrong_old_password_and_changes_nothing() -> None:
    user = make_user("ala")
    client = client_for(user)
    data = {"old_password": "nie-to", "new_password1": "Nowe-Haslo-77"}
    response = client.post(reverse("account-password"), {**data, "new_password2": "Nowe-Haslo-77"})
    assert response.status_code == 400
    assert 'id="id_old_password"' in response.content.decode()
    assert "field-error" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_it_saves_the_mails_wanted_per_campaign() -> None:
    wolves, bears = make_campaign(name="Wilki"), make_campaign(name="Niedźwiedzie")
    ala = make_member(wolves, "ala")
    Membership.objects.create(campaign=bears, user=ala, role=Membership.Role.PLAYER)
    in_wolves, in_bears = Membership.objects.filter(user=ala).order_by("campaign__name")[::-1]
    client = client_for(ala)
    shown = page(client)
    assert "Wilki" in shown and "Niedźwiedzie" in shown
    assert shown.count('type="checkbox"') == 6

    data = mails_post(
        in_wolves, in_bears, mail_turn_open=[in_wolves, in_bears], mail_resolved=[in_bears]
    )
    response = client.post(reverse("account-mails"), data)
    assert response.status_code == 302
    got = {
        m.campaign.name: (m.mail_turn_open, m.mail_reminder, m.mail_resolved)
        for m in Membership.objects.filter(user=ala)
    }
    assert got == {"Wilki": (True, False, False), "Niedźwiedzie": (True, False, True)}


def test_it_leaves_a_campaign_the_page_did_not_show_as_it_was() -> None:
    wolves, bears = make_campaign(name="Wilki"), make_campaign(name="Niedźwiedzie")
    ala = make_member(wolves, "ala")
    joined_since = Membership.objects.create(campaign=bears, user=ala)
    client_for(ala).post(reverse("account-mails"), mails_post(ala.memberships.get(campaign=wolves)))
    joined_since.refresh_from_db()
    assert joined_since.mail_turn_open and joined_since.mail_reminder and joined_since.mail_resolved
    assert not ala.memberships.get(campaign=wolves).mail_turn_open


def test_it_refuses_to_change_another_persons_mails() -> None:
    wolves = make_campaign(name="Wilki")
    ala, bolek = make_member(wolves, "ala"), make_member(wolves, "bolek")
    mine, theirs = ala.memberships.get(), bolek.memberships.get()
    gm_membership = wolves.memberships.get(role=Membership.Role.GM)
    client = client_for(ala)

    for foreign in (theirs, gm_membership):
        response = client.post(reverse("account-mails"), mails_post(mine, foreign))
        assert response.status_code == 400
        assert "Odśwież stronę" in response.content.decode()
    response = client.post(reverse("account-mails"), {"shown": ["x"]})
    assert response.status_code == 400
    untouched = (True, True, True)
    for membership in (mine, theirs, gm_membership):
        membership.refresh_from_db()
        wants = (membership.mail_turn_open, membership.mail_reminder, membership.mail_resolved)
        assert wants == untouched


def test_it_offers_no_mail_choices_for_a_campaign_the_person_runs() -> None:
    gm = make_user("mistrz")
    make_campaign(gm, name="Moja kampania")
    shown = page(client_for(gm))
    assert "Moja kampania" not in shown
    assert "Nie grasz jeszcze w żadnej kampanii." in shown


def test_it_says_no_mail_arrives_until_the_address_is_confirmed() -> None:
    ala = make_member(make_campaign(), "ala")
    client = client_for(ala)
    assert "nie ma adresu e-mail: żaden mail nie przyjdzie" in page(client)
    account.set_address(ala, "ala@example.com")
    assert "Dopóki adres nie jest potwierdzony, żaden mail nie przyjdzie." in page(client)
    account.mark_confirmed(ala, "ala@example.com")
    assert "żaden mail nie przyjdzie" not in page(client)


def test_it_marks_for_the_gm_the_players_no_mail_reaches() -> None:
    gm = make_user("mistrz")
    campaign = make_campaign(gm)
    reached = make_member(campaign, "ala")
    account.mark_confirmed(reached, "ala@example.com")
    unconfirmed = make_member(campaign, "bolek")
    account.set_address(unconfirmed, "bolek@example.com")
    make_member(campaign, "celina")  # no address at all

    shown = client_for(gm).get(campaign.get_absolute_url()).content.decode()
    assert UNREACHABLE not in member_row(shown, "ala")
    assert UNREACHABLE in member_row(shown, "bolek")
    assert UNREACHABLE in member_row(shown, "celina")
    assert UNREACHABLE not in member_row(shown, "mistrz")

    player_page = client_for(reached).get(campaign.get_absolute_url()).content.decode()
    assert UNREACHABLE not in player_page
    assert "bolek" in player_page


def test_it_asks_once_who_is_reachable_however_many_players() -> None:
    gm = make_user("mistrz")
    campaign = make_campaign(gm)
    client = client_for(gm)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(campaign.get_absolute_url()).status_code == 200
        return len(captured)

    def add_player(n: int) -> None:
        player = make_member(campaign, f"gracz-{n}")
        account.set_address(player, f"gracz-{n}@example.com")  # given, not confirmed
        if n % 2:
            account.mark_confirmed(player, player.email)

    add_player(1)
    one = queries()
    for n in range(2, 6):
        add_player(n)
    assert queries() == one


def test_it_shows_the_name_people_chose_where_they_are_named() -> None:
    gm = make_user("mistrz", first_name="Mistrz Zenon")
    campaign = make_campaign(gm, name="Wilki")
    ala = make_member(campaign, "ala_k")
    ala.first_name = "Ala z Krakowa"
    ala.save()
    character = make_character(campaign, "Kruk", owner=ala)

    gm_page = client_for(gm).get(campaign.get_absolute_url()).content.decode()
    assert "Ala z Krakowa" in gm_page
    assert "(ala_k)" in gm_page  # the GM also sees the login behind a chosen name
    player_page = client_for(ala).get(campaign.get_absolute_url()).content.decode()
    assert "prowadzi Mistrz Zenon" in player_page
    party = player_page.split('id="party-h"')[1]
    assert "Ala z Krakowa" in party and "ala_k" not in party
    sheet = client_for(gm).get(character.get_absolute_url()).content.decode()
    assert "gracz: Ala z Krakowa" in sheet
    listing = client_for(ala).get(reverse("campaign-list")).content.decode()
    assert "prowadzi Mistrz Zenon" in listing
