"""A new password by mail, through the real pages and a real SMTP server: the link goes only
to a confirmed address, in its owner's language, names the site by SITE_URL, works once, and
the form answers the same whoever asks; per address and per client the asks are limited."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import F
from django.test import Client
from django.urls import reverse

from characters import account, outbox, services
from characters.models import Mail
from tests.characters.helpers import PASSWORD, make_user
from tests.smtp import SmtpServer

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "nowe-haslo-456-xyz"
BROKEN_LINK = "Ten link do zmiany hasła nie działa"


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """The per-client count lives in the cache, which outlives a test's database."""
    cache.clear()
    yield
    cache.clear()


def make_confirmed(username: str, address: str, language: str = "") -> User:
    user = make_user(username)
    account.mark_confirmed(user, address)
    if language:
        services.save_language(user=user, language=language)
    return user


def ask(address: str, client: str = "203.0.113.1", **extra: str) -> Any:
    """One POST of the reset form from `client`, in a fresh browser."""
    browser = Client(REMOTE_ADDR=client, **extra)
    return browser.post(reverse("password_reset"), {"email": address})


def signs_in(username: str, password: str) -> bool:
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def set_password_from(link: str, password: str) -> Any:
    """Open the mailed link in a fresh browser and send the new password; the last answer."""
    browser = Client()
    path = urlsplit(link).path
    opened = browser.get(path)
    assert opened.status_code == 302  # Django moves the token out of the address
    form = browser.get(opened["Location"])
    assert form.status_code == 200 and BROKEN_LINK not in form.content.decode()
    return browser.post(opened["Location"], {"new_password1": password, "new_password2": password})


def test_it_mails_a_link_that_sets_a_new_password(smtp: SmtpServer) -> None:
    make_confirmed("ala", "ala@example.org")
    response = ask("ala@example.org")
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert smtp.mails() == []  # queued, not sent on the request
    assert outbox.deliver() == 1
    (mail,) = smtp.wait(to="ala@example.org")
    assert mail.subject == "Nowe hasło do Eleory"
    assert "Twój login: ala" in mail.body
    done = set_password_from(mail.link("/accounts/reset/"), NEW_PASSWORD)
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert signs_in("ala", NEW_PASSWORD)
    assert not signs_in("ala", PASSWORD)


def test_a_used_link_says_so_and_changes_nothing(smtp: SmtpServer) -> None:
    make_confirmed("ala", "ala@example.org")
    ask("ala@example.org")
    outbox.deliver()
    link = urlsplit(smtp.wait(to="ala@example.org")[0].link("/accounts/reset/")).path
    set_password_from(link, NEW_PASSWORD)
    browser = Client()
    again = browser.get(link)
    assert again.status_code == 200 and BROKEN_LINK in again.content.decode()
    assert reverse("password_reset") in again.content.decode()  # ask for a new one
    posted = browser.post(
        link, {"new_password1": "trzecie-haslo-789", "new_password2": "trzecie-haslo-789"}
    )
    assert BROKEN_LINK in posted.content.decode()
    assert signs_in("ala", NEW_PASSWORD)
    assert not signs_in("ala", "trzecie-haslo-789")


def test_the_mail_is_in_its_owner_s_language_and_names_the_site_by_site_url(
    smtp: SmtpServer, settings: Any
) -> None:
    """Asked from a Polish browser under a forged Host header: English, and the real site."""
    settings.SITE_URL = "https://eleora.example"
    settings.ALLOWED_HOSTS = ["*"]
    make_confirmed("bob", "bob@example.org", language="en")
    assert ask("bob@example.org", HTTP_HOST="evil.example").status_code == 302
    outbox.deliver()
    (mail,) = smtp.wait(to="bob@example.org")
    assert mail.subject == "Your new Eleora password"
    assert "Your username: bob" in mail.body
    assert mail.link("/accounts/reset/").startswith("https://eleora.example/accounts/reset/")
    assert "evil.example" not in mail.body


def test_the_mail_is_in_the_owner_s_language_not_the_asker_s(smtp: SmtpServer) -> None:
    make_confirmed("ala", "ala@example.org", language="pl")
    ask("ala@example.org", HTTP_COOKIE="django_language=en")
    outbox.deliver()
    assert smtp.wait(to="ala@example.org")[0].subject == "Nowe hasło do Eleory"


def test_the_address_matches_whatever_its_case_and_the_mail_goes_to_the_stored_one(
    smtp: SmtpServer,
) -> None:
    make_confirmed("ala", "ala@example.org")
    ask("ALA@Example.ORG")
    outbox.deliver()
    assert [m.to for m in smtp.wait()] == [("ala@example.org",)]


def test_the_body_of_a_sent_reset_mail_is_blanked(smtp: SmtpServer) -> None:
    make_confirmed("ala", "ala@example.org")
    ask("ala@example.org")
    queued = Mail.objects.get(kind=Mail.Kind.RESET, to="ala@example.org")
    assert "/accounts/reset/" in queued.body
    outbox.deliver()
    queued.refresh_from_db()
    assert queued.sent is not None and queued.body == ""
    assert "/accounts/reset/" in smtp.wait(to="ala@example.org")[0].body


def without_csrf(page: str) -> str:
    """The page without its CSRF tokens, which differ in each browser."""
    page = re.sub(r'"X-CSRFToken": "[^"]+"', "", page)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)


def unconfirmed_address() -> None:
    make_user("ola", email="ola@example.org")


def changed_address() -> None:
    user = make_confirmed("ola", "stary@example.org")
    user.email = "ola@example.org"  # given, not yet confirmed
    user.save(update_fields=["email"])


def inactive_account() -> None:
    make_confirmed("ola", "ola@example.org")
    User.objects.filter(username="ola").update(is_active=False)


def no_password() -> None:
    user = make_confirmed("ola", "ola@example.org")
    user.set_unusable_password()
    user.save(update_fields=["password"])


@pytest.mark.parametrize(
    "setup",
    [lambda: None, unconfirmed_address, changed_address, inactive_account, no_password],
    ids=["unknown", "unconfirmed", "changed", "inactive", "no password"],
)
def test_an_address_no_link_goes_to_gets_the_same_answer_and_no_mail(
    smtp: SmtpServer, setup: Any
) -> None:
    make_confirmed("ala", "ala@example.org")
    known = ask("ala@example.org")
    setup()
    other = ask("ola@example.org")
    assert (other.status_code, other["Location"]) == (known.status_code, known["Location"])
    page = Client().get(other["Location"]).content.decode()
    assert without_csrf(page) == without_csrf(Client().get(known["Location"]).content.decode())
    assert list(Mail.objects.values_list("to", flat=True)) == ["ala@example.org"]
    assert outbox.deliver() == 1
    assert smtp.wait() and smtp.mails(to="ola@example.org") == []


def test_a_malformed_address_is_a_form_error() -> None:
    response = ask("to-nie-adres")
    body = response.content.decode()
    assert response.status_code == 200
    assert (
        '<ul class="errorlist" id="id_email_error" role="alert"><li>Wprowadź poprawny adres' in body
    )
    assert not Mail.objects.exists()


def test_an_address_gets_three_mails_an_hour(smtp: SmtpServer) -> None:
    make_confirmed("ala", "ala@example.org")
    for client in ("203.0.113.1", "203.0.113.2", "203.0.113.3"):
        assert ask("ala@example.org", client).status_code == 302
    fourth = ask("ALA@example.org", "203.0.113.4")
    assert fourth.status_code == 302 and fourth["Location"] == reverse("password_reset_done")
    assert Mail.objects.filter(kind=Mail.Kind.RESET).count() == 3
    # An hour on, the address may have another.
    Mail.objects.update(created=F("created") - timedelta(minutes=61))
    assert ask("ala@example.org", "203.0.113.5").status_code == 302
    assert Mail.objects.filter(kind=Mail.Kind.RESET).count() == 4
    assert outbox.deliver() == 4
    assert len(smtp.wait(4, to="ala@example.org")) == 4


def test_a_client_may_ask_ten_times_an_hour() -> None:
    make_confirmed("ala", "ala@example.org")
    for n in range(10):
        assert ask(f"nikt{n}@example.org").status_code == 302
    eleventh = ask("ala@example.org")
    assert eleventh.status_code == 429
    assert "Spróbuj ponownie za 60 min" in eleventh.content.decode()
    assert 'role="alert"' in eleventh.content.decode()
    assert not Mail.objects.exists()
    assert ask("ala@example.org", "198.51.100.7").status_code == 302  # another client


def test_behind_the_proxy_the_forwarded_client_is_the_one_counted() -> None:
    for n in range(10):
        ask(f"nikt{n}@example.org", "127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.9")
    forwarded = {"HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    assert ask("x@example.org", "127.0.0.1", **forwarded).status_code == 429
    forwarded = {"HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert ask("x@example.org", "127.0.0.1", **forwarded).status_code == 302


def test_the_sign_in_page_links_to_the_reset_page() -> None:
    page = Client().get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in page and "Nie pamiętasz hasła?" in page


def test_the_reset_form_says_the_link_goes_only_to_a_confirmed_address() -> None:
    page = Client().get(reverse("password_reset")).content.decode()
    assert "tylko na adres potwierdzony" in page


def test_the_reset_pages_read_in_english() -> None:
    english = Client(HTTP_COOKIE="django_language=en")
    form = english.get(reverse("password_reset")).content.decode()
    assert "Forgot your password?" in form and "only to an address confirmed" in form
    assert "Nie pamiętasz" not in form
    done = english.post(reverse("password_reset"), {"email": "x@example.org"}, follow=True)
    assert "Check your inbox" in done.content.decode()
    broken = english.get(reverse("password_reset_confirm", args=["MQ", "zly-token"]))
    assert "This password reset link does not work" in broken.content.decode()
