"""`make run` (DEBUG=1) keeps Django's debug pages (every URL listed, tracebacks) for requests
from loopback; from anywhere else the ordinary 404 and 500 pages answer."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from eleora_site.urls import urlpatterns as site_urlpatterns


def boom(request: HttpRequest) -> HttpResponse:
    secret = "tajne-dane-z-widoku"  # a local the debug 500 would show
    raise RuntimeError(secret)


urlpatterns = [path("boom/", boom), *site_urlpatterns]  # this module is the URLconf here

pytestmark = pytest.mark.django_db

URL_LIST = "Using the URLconf"  # the debug 404's list of the site's URLs


@pytest.fixture
def debug(settings: Any) -> Any:
    settings.DEBUG = True
    settings.ROOT_URLCONF = __name__
    return settings


def get(url: str, address: str, **extra: str) -> Any:
    return Client(REMOTE_ADDR=address, raise_request_exception=False).get(url, **extra)


def test_a_missing_page_lists_the_urls_only_on_loopback(debug: Any) -> None:
    here = get("/nie-ma-takiej-strony/", "127.0.0.1")
    assert here.status_code == 404 and URL_LIST in here.content.decode()
    away = get("/nie-ma-takiej-strony/", "203.0.113.5")
    assert away.status_code == 404
    assert URL_LIST not in away.content.decode() and "accounts/login" not in away.content.decode()


def test_a_views_404_is_the_ordinary_page_from_elsewhere(debug: Any) -> None:
    from tests.characters.helpers import make_user

    client = Client(REMOTE_ADDR="203.0.113.5")
    client.force_login(make_user("ala"))
    away = client.get("/campaigns/999999/")
    assert away.status_code == 404 and "Raised by" not in away.content.decode()


def test_a_crash_shows_its_traceback_only_on_loopback(debug: Any) -> None:
    here = get("/boom/", "::1")
    assert here.status_code == 500 and "tajne-dane-z-widoku" in here.content.decode()
    away = get("/boom/", "203.0.113.5")
    assert away.status_code == 500 and "tajne-dane-z-widoku" not in away.content.decode()
    assert "Traceback" not in away.content.decode()


def test_through_the_proxy_the_forwarded_address_decides(debug: Any) -> None:
    away = get("/nie-ma-takiej-strony/", "127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert away.status_code == 404 and URL_LIST not in away.content.decode()


def test_a_missing_slash_is_still_added_from_elsewhere(debug: Any) -> None:
    away = get("/accounts/login", "203.0.113.5")
    assert away.status_code == 301 and away["Location"] == "/accounts/login/"
