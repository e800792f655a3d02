"""The account's pages: confirming an address from its link.

The link's GET shows what it would confirm (or why it cannot) and a button; the POST
confirms. A mail reader that opens links to preview them confirms nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from characters import account


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
