"""Polish unless the person picks English, whatever the browser asks for; the pick is kept on
their account and comes back when they sign in elsewhere (issue #11, point 9)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from characters.models import Profile
from tests.characters.helpers import PASSWORD, client_for, make_user

pytestmark = pytest.mark.django_db

ENGLISH_BROWSER = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """A request activates its language for the whole thread; later tests expect the default."""
    yield
    translation.deactivate()


def page_language(client: Client, url: str | None = None) -> str:
    html = client.get(url or reverse("login"), **ENGLISH_BROWSER).content.decode()
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def switch(client: Client, language: str) -> None:
    response = client.post(reverse("set_language"), {"language": language, "next": "/"})
    assert response.status_code == 302


def sign_in(client: Client, username: str) -> None:
    data = {"username": username, "password": PASSWORD}
    response = client.post(reverse("login"), data, **ENGLISH_BROWSER)
    assert response.status_code == 302, response.content.decode()


def test_it_is_polish_on_a_browser_set_to_english() -> None:
    client = Client()
    assert page_language(client) == "pl"
    response = client.get(reverse("login"), **ENGLISH_BROWSER)
    assert response["Content-Language"] == "pl"
    assert "Zaloguj się" in response.content.decode()


def test_it_is_english_once_picked_and_polish_again_when_picked() -> None:
    client = Client()
    switch(client, "en")
    assert page_language(client) == "en"
    switch(client, "pl")
    assert page_language(client) == "pl"


def test_a_language_the_site_has_not_falls_back_to_polish() -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert page_language(client) == "pl"


def test_it_keeps_the_pick_on_the_account_and_brings_it_to_another_browser() -> None:
    user = make_user("ola")
    switch(client_for(user), "en")
    assert Profile.objects.get(user=user).language == "en"

    elsewhere = Client()  # a new browser: Polish until she signs in
    assert page_language(elsewhere) == "pl"
    sign_in(elsewhere, "ola")
    assert page_language(elsewhere, reverse("campaign-list")) == "en"

    switch(elsewhere, "pl")
    assert Profile.objects.get(user=user).language == "pl"
    third = Client()
    third.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # an earlier pick in that browser
    sign_in(third, "ola")
    assert page_language(third, reverse("campaign-list")) == "pl"  # the account's pick wins


def test_signing_in_without_a_saved_pick_keeps_the_browsers_language() -> None:
    make_user("jan")
    client = Client()
    switch(client, "en")
    sign_in(client, "jan")
    assert page_language(client, reverse("campaign-list")) == "en"
    assert not Profile.objects.exists()  # an anonymous pick stays in the browser


def test_a_pick_made_before_signing_up_is_kept_on_the_new_account() -> None:
    client = Client()
    switch(client, "en")
    data = {"username": "nowa", "password1": "Zupelnie-Nowe-77", "password2": "Zupelnie-Nowe-77"}
    assert client.post(reverse("signup"), data).status_code == 302
    assert Profile.objects.get(user__username="nowa").language == "en"


def test_it_saves_no_language_the_site_has_not() -> None:
    user = make_user("ewa")
    client_for(user).post(reverse("set_language"), {"language": "de", "next": "/"})
    assert not Profile.objects.filter(user=user).exists()
