"""A new password by mail: Django's reset pages and tokens, with the site's rules for who
gets a link and how often.

A link goes only to a confirmed address (`account.reachable`) of an active account with a
password, at most `MAILS_PER_ADDRESS` times an hour; it is queued in the outbox, in the
owner's language, and names the site by `SITE_URL`, never by the request's Host header. Whether
or not a link went out, the asker sees the same page, so the form tells no one which addresses
have accounts. One client (as `eleora_site.clients` sees it) may ask `ASKS_PER_CLIENT` times an
hour, counted in Django's cache; after that it gets a 429 page saying how long to wait.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from characters import outbox
from characters.account import reachable
from characters.language import chosen, saved_language
from characters.models import Mail
from eleora_site.clients import client_address

MAILS_PER_ADDRESS = 3  # reset mails to one address in `WINDOW`
ASKS_PER_CLIENT = 10  # reset forms one client may send in `WINDOW`
WINDOW = timedelta(hours=1)


def mailed_enough(address: str) -> bool:
    """Whether this address had its `MAILS_PER_ADDRESS` reset mails in the last `WINDOW`."""
    recent = Mail.objects.filter(
        kind=Mail.Kind.RESET, to__iexact=address, created__gte=timezone.now() - WINDOW
    )
    return recent.count() >= MAILS_PER_ADDRESS


def count_ask(client: str) -> int:
    """Count one reset form sent by this client; the minutes it must wait when that is more
    than `ASKS_PER_CLIENT` in its window, else 0. A window opens with the client's first ask
    and lasts `WINDOW`; the counter is the cache's own increment, so parallel asks all count."""
    seconds = WINDOW.total_seconds()
    now = time.time()
    key = f"password-reset:{client}"
    cache.add(f"{key}:opened", now, seconds)
    opened = float(cache.get(f"{key}:opened", now))
    counter = f"{key}:{opened}"
    cache.add(counter, 0, seconds)
    try:
        asks = cache.incr(counter)
    except ValueError:  # the window closed between the two lines above
        asks = 1
    if asks <= ASKS_PER_CLIENT:
        return 0
    return max(1, math.ceil((opened + seconds - now) / 60))


class ResetForm(PasswordResetForm):
    """Django's form with the site's rules: who gets a link, and a mail queued, not sent."""

    def get_users(self, email: str) -> Iterator[User]:
        """Django's matches (active, with a password, the address case aside) whose address
        is confirmed and has not had its reset mails for the hour."""
        confirmed = set(
            reachable(User.objects.filter(email__iexact=email)).values_list("pk", flat=True)
        )
        for user in super().get_users(email):
            if user.pk in confirmed and not mailed_enough(user.email):
                yield user

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        """Queue the link in the owner's language; its address is built from `SITE_URL`
        (Django's context would take the domain from the request's Host header)."""
        user = context["user"]
        path = reverse(
            "password_reset_confirm",
            kwargs={"uidb64": context["uid"], "token": context["token"]},
        )
        mail_context = {
            "username": user.get_username(),
            "name": user.first_name or user.get_username(),
            "url": settings.SITE_URL.rstrip("/") + path,
            "days": max(1, settings.PASSWORD_RESET_TIMEOUT // (24 * 3600)),
        }
        with translation.override(chosen(saved_language(user.pk))):
            subject = render_to_string(subject_template_name, mail_context)
            body = render_to_string(email_template_name, mail_context).strip() + "\n"
        outbox.queue(Mail.Kind.RESET, to=to_email, subject=subject, body=body, user_id=user.pk)


class AskForLink(auth_views.PasswordResetView):
    """Django's reset form page with `ResetForm`, its mails in the site's templates, and the
    per-client limit on sending it."""

    form_class = ResetForm
    subject_template_name = "registration/password_reset_subject.txt"
    email_template_name = "registration/password_reset_email.txt"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        minutes = count_ask(client_address(request))
        if minutes:
            return too_many_asks(request, minutes)
        return super().post(request, *args, **kwargs)


def too_many_asks(request: HttpRequest, minutes: int) -> HttpResponse:
    """429 Too Many Requests, saying in how many minutes the form works again."""
    context = {"minutes": minutes}
    return render(request, "registration/password_reset_limited.html", context, status=429)
