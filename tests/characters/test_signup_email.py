"""An address given at signup: checked, mailed its link over real SMTP, confirmed by the link;
and the links that confirm nothing (used, expired, for an address since changed)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from types import SimpleNamespace
from unittest import mock
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from characters import account, outbox
from characters.models import Mail
from tests.characters.helpers import make_user
from tests.smtp import SmtpServer

pytestmark = pytest.mark.django_db

PASSWORD = "Kr0k-w-lesie"


def sign_up(client: Client, username: str = "nowy", email: str = "") -> int:
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("signup"), data).status_code


def mailed_link(smtp: SmtpServer, to: str) -> str:
    """Send the queued mails; the path of the confirmation link the last one to `to` holds."""
    outbox.deliver()
    mail = smtp.wait(to=to)[-1]
    return urlsplit(mail.link("/account/confirm/")).path


@contextmanager
def signing_clock_moved(seconds: float) -> Iterator[None]:
    """The signed links' clock (django.core.signing's) `seconds` on from now; nothing else's."""
    later = SimpleNamespace(time=lambda: time.time() + seconds)
    with mock.patch.object(signing, "time", later):
        yield


def test_it_mails_a_link_that_confirms_the_address_given_at_signup(
    client: Client, smtp: SmtpServer
) -> None:
    assert sign_up(client, email="Ala@Example.COM") == 302
    user = User.objects.get(username="nowy")
    assert user.email == "Ala@example.com"
    assert not account.is_confirmed(user)

    link = mailed_link(smtp, "Ala@example.com")
    page = client.get(link)
    assert page.status_code == 200
    assert "Potwierdź adres" in page.content.decode()
    assert not account.is_confirmed(user)  # opening the link confirms nothing

    response = client.post(link, follow=True)
    assert response.redirect_chain[-1][0] == reverse("account")
    assert "Adres Ala@example.com jest potwierdzony" in response.content.decode()
    assert account.is_confirmed(user)


def test_it_signs_up_without_an_address_and_mails_nothing(client: Client, smtp: SmtpServer) -> None:
    assert sign_up(client) == 302
    assert User.objects.get(username="nowy").email == ""
    assert outbox.deliver() == 0
    assert not Mail.objects.exists()


@pytest.mark.parametrize(
    "typed", ["zajety@example.com", "ZAJETY@EXAMPLE.COM", "Zajety@example.com"]
)
def test_it_refuses_an_address_another_account_has_in_any_case(client: Client, typed: str) -> None:
    make_user("zajety", email="zajety@example.com")
    response = client.post(
        reverse("signup"),
        {"username": "nowy", "email": typed, "password1": PASSWORD, "password2": PASSWORD},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Ten adres jest już używany przez inne konto." in page
    assert ">zajety<" not in page and "zajety@" not in page.replace(typed, "")
    assert not User.objects.filter(username="nowy").exists()
    assert not Mail.objects.exists()


def test_it_refuses_an_address_another_account_confirmed(client: Client) -> None:
    account.mark_confirmed(make_user("stary"), "stary@example.com")
    assert sign_up(client, email="STARY@example.com") == 200
    assert not User.objects.filter(username="nowy").exists()


def test_it_refuses_a_malformed_address(client: Client) -> None:
    assert sign_up(client, email="to-nie-adres@") == 200
    assert not User.objects.filter(username="nowy").exists()
    assert not Mail.objects.exists()


def test_it_says_a_link_was_used_already_and_changes_nothing(
    client: Client, smtp: SmtpServer
) -> None:
    sign_up(client, email="ala@example.com")
    link = mailed_link(smtp, "ala@example.com")
    client.post(link)

    for again in (client.get(link), client.post(link)):
        assert again.status_code == 400
        assert "Ten link został już użyty" in again.content.decode()
    assert User.objects.get(username="nowy").profile.confirmed_email == "ala@example.com"


def test_it_says_a_link_expired_and_confirms_nothing(client: Client, smtp: SmtpServer) -> None:
    sign_up(client, email="ala@example.com")
    link = mailed_link(smtp, "ala@example.com")

    with signing_clock_moved(account.CONFIRM_DAYS * 24 * 3600 + 60):
        page, posted = client.get(link), client.post(link)
    for response in (page, posted):
        assert response.status_code == 400
        assert "Ten link wygasł" in response.content.decode()
    assert not account.is_confirmed(User.objects.get(username="nowy"))

    with signing_clock_moved(account.CONFIRM_DAYS * 24 * 3600 - 60):  # a minute before
        assert client.get(link).status_code == 200


def test_it_says_a_link_is_for_an_address_no_longer_on_the_account(
    client: Client, smtp: SmtpServer
) -> None:
    sign_up(client, email="stary@example.com")
    old_link = mailed_link(smtp, "stary@example.com")
    Mail.objects.update(created=timezone.now() - timedelta(seconds=61))  # a minute later
    form = {"display_name": "", "email": "nowy@example.com", "language": "pl"}
    response = client.post(reverse("account-profile"), {**form, "time_zone": "Europe/Warsaw"})
    assert response.status_code == 302
    new_link = mailed_link(smtp, "nowy@example.com")
    assert new_link != old_link

    refused = client.post(old_link)
    assert refused.status_code == 400
    assert "adresu, którego nie ma już na koncie" in refused.content.decode()
    user = User.objects.get(username="nowy")
    assert user.email == "nowy@example.com"
    assert user.profile.confirmed_email == ""

    client.post(new_link)
    assert account.is_confirmed(User.objects.get(username="nowy"))
