"""How people are named on the pages: the name they chose, else their login."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

register = template.Library()


@register.filter
def shown(user: AbstractBaseUser | AnonymousUser | None) -> str:
    """`{{ user|shown }}`: the display name (User.first_name), or the login when it is blank."""
    if user is None:
        return ""
    return getattr(user, "first_name", "") or user.get_username()
