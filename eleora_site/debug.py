"""Django's debug pages (`DEBUG=1`, e.g. `make run`) for loopback only.

The debug 404 lists every URL of the site and the debug 500 shows code, settings and
variables: a request from anywhere else (as `clients.client_address` sees it, so through
nginx too) gets the ordinary 404 and 500 pages, as with `DEBUG=0`. Without DEBUG this
middleware is not used at all.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.safestring import SafeString, mark_safe
from django.views.debug import ExceptionReporter
from django.views.defaults import page_not_found, server_error

from eleora_site.clients import client_address, is_loopback


class OrdinaryErrorPage(ExceptionReporter):
    """The debug 500's reporter (`request.exception_reporter_class`) writing the ordinary
    500 page instead of the traceback."""

    def get_traceback_html(self) -> SafeString:
        return self._ordinary()

    def get_traceback_text(self) -> SafeString:
        return self._ordinary()

    def _ordinary(self) -> SafeString:
        assert self.request is not None
        return mark_safe(server_error(self.request).content.decode())  # noqa: S308 - Django's own page


class LoopbackDebugPages:
    """Keeps the debug 404 and 500 pages for requests from this machine."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not settings.DEBUG:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_loopback(client_address(request)):
            return self.get_response(request)
        request.exception_reporter_class = OrdinaryErrorPage  # type: ignore[attr-defined]
        try:
            # The URL resolves before any view, where no middleware sees its 404.
            resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404 as exc:
            return page_not_found(request, exc)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A view's 404, as the ordinary page, for a request from elsewhere."""
        if isinstance(exception, Http404) and not is_loopback(client_address(request)):
            return page_not_found(request, exception)
        return None
