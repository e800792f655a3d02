"""Who may see and change what: the one place that decides, for views and the table socket.

Plain functions taking a user and ids. Lookups answer 404 to anyone who may not know the
object exists (non-members; players asking for NPCs or other players' characters) and 403 to a
member who is recognised but lacks the role (a player on a GM page). Superusers act as the GM
of every campaign; any other GM manages only the campaigns they run.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404

from characters.models import Campaign, Character, CreatureTemplate, Membership
from combat.terms import use_ruleset_terms

AnyUser: TypeAlias = User | AnonymousUser


def _is_superuser(user: AnyUser) -> bool:
    return user.is_authenticated and user.is_active and user.is_superuser


def campaigns_for(user: AnyUser) -> QuerySet[Campaign]:
    """The campaigns a user may open: those they belong to (all of them for a superuser)."""
    if not user.is_authenticated or not user.is_active:
        return Campaign.objects.none()
    if _is_superuser(user):
        return Campaign.objects.all()
    return Campaign.objects.filter(memberships__user=user).distinct()


def role_in(user: AnyUser, campaign: Campaign) -> str | None:
    """ "gm", "player" or None; a superuser counts as the GM everywhere."""
    if _is_superuser(user):
        return Membership.Role.GM
    if not user.is_authenticated or not user.is_active:
        return None
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    return membership.role if membership else None


def is_gm(user: AnyUser, campaign: Campaign) -> bool:
    return role_in(user, campaign) == Membership.Role.GM


def get_campaign_for(user: AnyUser, pk: int) -> Campaign:
    """The campaign if the user belongs to it; 404 otherwise, so its existence is not revealed."""
    try:
        campaign = campaigns_for(user).get(pk=pk)
    except Campaign.DoesNotExist:
        raise Http404("No such campaign") from None
    use_ruleset_terms(campaign.ruleset)
    return campaign


def require_gm(user: AnyUser, campaign: Campaign) -> None:
    """403 for a member who is not this campaign's GM."""
    if not is_gm(user, campaign):
        raise PermissionDenied("Only the campaign's GM may do this")


def get_gm_campaign(user: AnyUser, pk: int) -> Campaign:
    """The campaign for its GM: 404 to outsiders, 403 to its players."""
    campaign = get_campaign_for(user, pk)
    require_gm(user, campaign)
    return campaign


def characters_for(user: AnyUser, campaign: Campaign) -> QuerySet[Character]:
    """The characters of a campaign whose sheets the user may see."""
    characters = campaign.characters.select_related("owner")
    if is_gm(user, campaign):
        return characters.all()
    if not user.is_authenticated:
        return characters.none()
    return characters.filter(kind=Character.Kind.PC, owner=user)


def get_character_for(user: AnyUser, pk: int, *, edit: bool) -> Character:
    """A character the user may see (edit=False) or change (edit=True), else 404.

    The GM may do both to every character of the campaign; a player only to the player
    characters they own. Today both answers agree for every role; `edit` keeps each call
    site explicit, so tightening one of them later (e.g. a sheet locked during a fight) is
    a change here alone.
    """
    character = (
        Character.objects.select_related("campaign", "owner", "source_creature")
        .filter(pk=pk)
        .first()
    )
    if character is None:
        raise Http404("No such character")
    role = role_in(user, character.campaign)
    use_ruleset_terms(character.campaign.ruleset)
    if role == Membership.Role.GM:
        return character
    owns = character.kind == Character.Kind.PC and character.owner_id == user.pk
    if role == Membership.Role.PLAYER and owns:
        return character
    raise Http404("No such character")


def creatures_for(campaign: Campaign) -> QuerySet[CreatureTemplate]:
    """The campaign's own creatures followed by the shared library for its ruleset."""
    return CreatureTemplate.objects.filter(campaign=campaign) | CreatureTemplate.objects.filter(
        campaign__isnull=True, ruleset=campaign.ruleset
    )


def get_creature_for(
    user: AnyUser, campaign_pk: int, pk: int, *, edit: bool
) -> tuple[Campaign, CreatureTemplate]:
    """A bestiary entry seen through one of the user's GM campaigns.

    The campaign's own creatures may be read and changed by its GM; the shared library may
    be read (and copied or instantiated) through any campaign the user runs, never changed
    here. Outsiders get 404, the campaign's players 403, a change to a shared entry 403.
    """
    campaign = get_gm_campaign(user, campaign_pk)
    creature = creatures_for(campaign).filter(pk=pk).first()
    if creature is None:
        raise Http404("No such creature")
    if edit and creature.is_shared:
        raise PermissionDenied("The shared library is read-only")
    return campaign, creature
