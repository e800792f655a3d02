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


def get_encounter_for(user: AnyUser, pk: int) -> tuple[Encounter, Viewer]:
    found = find_encounter_for(user, pk)
    if found is None:
        raise Http404("No such encounter")
    return found
