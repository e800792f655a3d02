"""The account's pages: the account page and its sections, and confirming an address.

The account page shows every section; each section is its own form posting to its own view,
which saves and redirects back with a message, or shows the page again with the section's
errors (400) and nothing saved.

The confirmation link's GET shows what it would confirm (or why it cannot) and a button; the
POST confirms. A mail reader that opens links to preview them confirms nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from characters import account, services
from characters.forms import MailChoicesForm, ProfileForm
from characters.language import remember_in_cookie
from characters.models import Membership


class AccountRequest(HttpRequest):
    user: User  # every account view requires login


@login_required
def account_page(request: AccountRequest) -> HttpResponse:
    """The person's account: profile, password and the mails they want."""
    return _page(request)


@login_required
@require_POST
def account_profile(request: AccountRequest) -> HttpResponse:
    """Name shown, address (a new one is mailed its link), language and time zone."""
    form = ProfileForm(request.POST, user=request.user)
    if not form.is_valid():
        return _page(request, profile_form=form)
    language = form.cleaned_data["language"]
    queued = services.update_profile(
        user=request.user,
        display_name=form.cleaned_data["display_name"],
        address=form.cleaned_data["email"],
        language=language,
        time_zone=form.cleaned_data["time_zone"],
    )
    with translation.override(language):  # the next page is in the language just picked
        messages.success(request, _("Zapisano profil."))
        if queued:
            note = _("Wysłaliśmy link na %(address)s. Otwórz go, żeby potwierdzić adres.")
            messages.info(request, note % {"address": request.user.email})
    response = redirect("account")
    remember_in_cookie(response, language)
    return response


@login_required
@require_POST
def account_resend(request: AccountRequest) -> HttpResponse:
    """The confirmation link once more (at most once a minute)."""
    try:
        account.resend_confirmation(request.user)
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    else:
        note = _("Wysłaliśmy link ponownie na %(address)s.")
        messages.success(request, note % {"address": request.user.email})
    return redirect("account")


@login_required
@require_POST
def account_password(request: AccountRequest) -> HttpResponse:
    """Django's password change; the person stays signed in here (other sessions end)."""
    form = _password_form(request.user, request.POST)
    if not form.is_valid():
        return _page(request, password_form=form)
    form.save()
    update_session_auth_hash(request, form.user)
    messages.success(request, _("Hasło zostało zmienione."))
    return redirect("account")


@login_required
@require_POST
def account_mails(request: AccountRequest) -> HttpResponse:
    """The by-post mails wanted, for every campaign the person plays in."""
    form = MailChoicesForm(request.POST, memberships=_playing(request.user))
    if not form.is_valid():
        return _page(request, mails_form=form)
    services.save_mail_choices(user=request.user, choices=form.choices())
    messages.success(request, _("Zapisano wybór maili."))
    return redirect("account")


def _playing(user: User) -> QuerySet[Membership]:
    """The person's memberships as a player: the only ones whose mails they choose here."""
    return (
        Membership.objects.filter(user=user, role=Membership.Role.PLAYER)
        .select_related("campaign")
        .order_by("campaign__name", "pk")
    )


def _password_form(user: User, data: Any = None) -> PasswordChangeForm:
    """Django's form, without its autofocus: the page opens at its top, not at this section."""
    form = PasswordChangeForm(user, data)
    form.fields["old_password"].widget.attrs.pop("autofocus", None)
    return form


def _page(request: AccountRequest, **bound: Any) -> HttpResponse:
    """The account page with fresh forms, except the one section posted with errors (400)."""
    user = request.user
    profile = account.profile_of(user)
    initial = {
        "display_name": user.first_name,
        "email": user.email,
        "language": profile.language or translation.get_language(),
        "time_zone": profile.time_zone,
    }
    context = {
        "profile_form": ProfileForm(initial=initial, user=user),
        "password_form": _password_form(user),
        "mails_form": MailChoicesForm(memberships=_playing(user)),
        "confirmed": account.is_confirmed(user),
        **bound,
    }
    return render(request, "characters/account.html", context, status=400 if bound else 200)


def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a new address: a button that confirms it."""
    try:
        user = account.confirm(token) if request.method == "POST" else account.check(token)
    except account.LinkRefused as refusal:
        context = {"problem": refusal.message}
        return render(request, "registration/confirm_email.html", context, status=400)
    if request.method != "POST":
        return render(request, "registration/confirm_email.html", {"address": user.email})
    messages.success(request, _("Adres %(address)s jest potwierdzony.") % {"address": user.email})
    signed_in = request.user.is_authenticated and request.user.pk == user.pk
    return redirect(reverse("account") if signed_in else reverse("login"))
