"""Suite-wide settings and markers.

Hypothesis measures correctness here, not speed (speed has `make bench`).

`database`: every test that reaches the configured database (a Django database fixture or
marker) or channel layer (marked by hand). `make test` runs these a second time on PostgreSQL
and Redis; the rest (pure rules, templates without data, the `services` tests with their own
private PostgreSQL database and redis-server) would only repeat the same code there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from tests.smtp import SmtpServer

hypothesis_settings.register_profile("eleora", deadline=None)
hypothesis_settings.load_profile("eleora")

_DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server", "client",
                      "admin_client", "django_user_model", "admin_user"}  # fmt: skip


@pytest.fixture(autouse=True)
def no_ruleset_terms_left_behind() -> Iterator[None]:
    """What `RulesetTermsMiddleware` does for each request, for each test: a test that calls
    an access function outside a request (which sets the ruleset whose terms are shown) leaves
    no terms behind for the next test its worker runs."""
    from combat.terms import ruleset_terms

    with ruleset_terms(""):
        yield


@pytest.fixture(autouse=True)
def no_language_left_behind() -> Iterator[None]:
    """Each test starts in the site's language, as a request without a choice does: a test
    that asked for English pages leaves no English behind for the next test of its worker."""
    from django.utils import translation

    with translation.override(None):
        yield


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or fixtures & _DATABASE_FIXTURES:
            item.add_marker(pytest.mark.database)


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[SmtpServer]:
    """One real SMTP server on loopback for the worker's tests (tests/smtp.py)."""
    server = SmtpServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def smtp(smtp_server: SmtpServer, settings: Any) -> Iterator[SmtpServer]:
    """Django's SMTP backend pointed at the real server, which starts the test empty."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp_server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    smtp_server.clear()
    smtp_server.gate.set()
    yield smtp_server
    smtp_server.gate.set()
