from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from characters import views as characters

urlpatterns = [
    # The language switch and sign-in keep the person's language on their account.
    path("i18n/setlang/", characters.set_language, name="set_language"),
    path("accounts/login/", characters.SignIn.as_view(), name="login"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("combat.urls")),
    path("", include("characters.urls")),
]
