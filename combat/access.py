"""Who may reach a table: one lookup for the pages (404) and the socket (close)."""

from __future__ import annotations

from django.http import Http404

from characters.access import AnyUser, campaigns_for, role_in
from characters.models import Membership
from combat.models import Encounter
from combat.services import Viewer


def find_encounter_for(user: AnyUser, pk: int) -> tuple[Encounter, Viewer] | None:
    """The encounter and the user as its viewer, if they belong to its campaign; else None."""
    encounter = (
        Encounter.objects.filter(pk=pk, campaign__in=campaigns_for(user))
        .select_related("campaign")
        .first()
    )
    if encounter is None:
        return None
    role = role_in(user, encounter.campaign)
    if role is None or user.pk is None:
        return None
    return encounter, Viewer(user_id=user.pk, is_gm=role == Membership.Role.GM)


def viewer_at(user: AnyUser, pk: int) -> Viewer | None:
    """The user as a viewer of table `pk`, or None, in one query: the socket asks again on
    every message (the two queries of `find_encounter_for` were 4 ms of a command's CPU)."""
    if user.pk is None or not user.is_active:
        return None
    if user.is_superuser:
        found = Encounter.objects.filter(pk=pk).exists()
        return Viewer(user_id=user.pk, is_gm=True) if found else None
    role = (
        Membership.objects.filter(user_id=user.pk, campaign__encounters__pk=pk)
        .values_list("role", flat=True)
        .first()
    )
    return None if role is None else Viewer(user_id=user.pk, is_gm=role == Membership.Role.GM)


def get_encounter_for(user: AnyUser, pk: int) -> tuple[Encounter, Viewer]:
    found = find_encounter_for(user, pk)
    if found is None:
        raise Http404("No such encounter")
    return found
