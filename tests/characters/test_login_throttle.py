"""Sign-in throttling through the real sign-in form: 5 failures lock the account (from any
address) and the address (for any account) for 15 minutes, with a page that says so."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.characters.helpers import PASSWORD, make_user

pytestmark = pytest.mark.django_db

LOCKED = "Zbyt wiele nieudanych prób logowania"


def sign_in(username: str, password: str, address: str = "203.0.113.1", **extra: str) -> Any:
    """One POST of the sign-in form from `address`, in a fresh browser."""
    return Client(REMOTE_ADDR=address, **extra).post(
        reverse("login"), {"username": username, "password": password}
    )


def fail(username: str, times: int = 5, address: str = "203.0.113.1") -> None:
    for _ in range(times):
        sign_in(username, "zle-haslo", address)


def signed_in(response: Any) -> bool:
    return response.status_code == 302


def test_it_locks_an_account_after_five_bad_passwords_even_with_the_right_one() -> None:
    make_user("ala")
    for _ in range(4):
        assert sign_in("ala", "zle-haslo").status_code == 200  # the form again, with its error
    assert signed_in(sign_in("ala", PASSWORD, address="198.51.100.7"))  # four are forgiven
    fifth = sign_in("ala", "zle-haslo")
    assert fifth.status_code == 429 and LOCKED in fifth.content.decode()
    response = sign_in("ala", PASSWORD)
    assert response.status_code == 429 and not signed_in(response)
    assert LOCKED in response.content.decode() and "15 min" in response.content.decode()


def test_the_account_lock_holds_from_another_address() -> None:
    make_user("ala")
    fail("ala", address="203.0.113.1")
    response = sign_in("ala", PASSWORD, address="198.51.100.7")
    assert response.status_code == 429


def test_an_address_is_locked_for_every_account() -> None:
    make_user("ala")
    make_user("ola")
    for name in ("x1", "x2", "x3", "x4", "x5"):
        fail(name, times=1, address="203.0.113.9")
    response = sign_in("ala", PASSWORD, address="203.0.113.9")
    assert response.status_code == 429
    assert signed_in(sign_in("ola", PASSWORD, address="198.51.100.7"))


def test_behind_the_proxy_the_forwarded_address_is_the_one_locked() -> None:
    """nginx appends the address it saw; what a client wrote before it is not believed."""
    make_user("ala")
    for name in ("x1", "x2", "x3", "x4", "x5"):
        sign_in(name, "zle", "127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.9")
    assert (
        sign_in("ala", PASSWORD, "127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 429
    )
    assert signed_in(sign_in("ala", PASSWORD, "127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7"))


def test_the_lock_ends_after_fifteen_minutes() -> None:
    from axes.models import AccessAttempt  # the throttle's record of failures

    make_user("ala")
    fail("ala")
    assert sign_in("ala", PASSWORD).status_code == 429
    # 14 minutes later: still locked; 16: the failures have expired.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=14))
    assert sign_in("ala", PASSWORD, address="198.51.100.7").status_code == 429
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=16))
    assert signed_in(sign_in("ala", PASSWORD))


def test_the_lock_page_reads_in_english() -> None:
    make_user("ala")
    fail("ala")
    try:
        response = sign_in("ala", PASSWORD, HTTP_COOKIE="django_language=en")
    finally:
        translation.deactivate()  # a request activates its language for the whole thread
    assert "Too many failed sign-in attempts" in response.content.decode()
