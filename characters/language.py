"""The language of the pages: Polish unless the person picks English, the pick kept on their
account.

The browser's Accept-Language is never read: the groups the site is for play in Polish on
browsers set to English. A pick with the PL/EN switch sets the language cookie and, for a
signed-in person, their profile; signing in sets the cookie from the profile, so the pick
follows the account to another browser.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin

from characters.models import Profile


def chosen(code: str | None) -> str:
    """`code` if it is a language of the site, else the default (Polish)."""
    return code if code in dict(settings.LANGUAGES) else str(settings.LANGUAGE_CODE)


def saved_language(user_id: int) -> str:
    """The language saved on the account, "" when none was picked."""
    found = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return found or ""


def remember_in_cookie(response: HttpResponseBase, language: str) -> None:
    """Set the language cookie as Django's own switch does."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class LanguageMiddleware(MiddlewareMixin):
    """In place of Django's LocaleMiddleware: the language cookie, else Polish."""

    def process_request(self, request: HttpRequest) -> None:
        language = chosen(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        translation.activate(language)
        request.LANGUAGE_CODE = language

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", translation.get_language() or "")
        return response
