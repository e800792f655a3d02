from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from characters import password_reset
from characters import views as characters

urlpatterns = [
    # The language switch and sign-in keep the person's language on their account.
    path("i18n/setlang/", characters.set_language, name="set_language"),
    path("accounts/login/", characters.SignIn.as_view(), name="login"),
    path("admin/", admin.site.urls),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's reset pages at Django's addresses; who gets a link: characters/password_reset.py.
    # (No password_change: the account page changes the password.)
    path("accounts/password_reset/", password_reset.AskForLink.as_view(), name="password_reset"),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include("combat.urls")),
    path("", include("characters.urls")),
]
