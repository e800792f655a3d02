"""Writes: typed functions named by verbs, each one transaction, callers check access first.

Validation of what a person typed happens in forms and `characters.sheets`; these functions
receive cleaned data. Files are removed only after the database change has committed, so a
rolled-back save never loses a portrait that is still referenced. Every change to the characters
or creatures a table can bring in tells the open tables after commit (`tell_tables`), so the
GM's add list at the table is never stale.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.storage import Storage
from django.db import transaction
from django.utils.translation import gettext as _

from characters import account
from characters.models import (
    MAIL_CHOICES,
    Campaign,
    Character,
    CreatureTemplate,
    Membership,
    Profile,
)
from characters.portraits import shrink_portrait
from characters.sheets import MAX_NAME, clean_sheet
from characters.transfer import CharacterEntry, CreatureEntry
from combat import services as tables

MAX_INSTANCES = 20
CHARACTER_FIELDS = ["name", "kind", "owner", "notes", "portrait"]  # what the form may change


@transaction.atomic
def create_campaign(*, gm: User, name: str, description: str, ruleset: str) -> Campaign:
    """A campaign with its GM as the first member and the ruleset's default table settings."""
    campaign = Campaign(gm=gm, name=name, description=description, ruleset=ruleset)
    campaign.settings = campaign.rules().default_settings()
    campaign.save()
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    return campaign


@transaction.atomic
def update_settings(*, campaign: Campaign, settings: Mapping[str, Any]) -> None:
    """Store new table settings unless a sheet of the campaign would fall outside them."""
    owners: list[Character | CreatureTemplate] = [
        *campaign.characters.all(),
        *campaign.creatures.all(),
    ]
    problems = [
        f"{owner.name}: {message}"
        for owner in owners
        for message in _sheet_problems(owner.sheet, campaign.rules(), settings)
    ]
    if problems:
        raise ValidationError(problems)
    campaign.settings = dict(settings)
    campaign.save(update_fields=["settings", "updated"])


def _sheet_problems(sheet: object, rules: Any, settings: Mapping[str, Any]) -> list[str]:
    try:
        clean_sheet(sheet, rules=rules, settings=settings)
    except ValidationError as error:
        return list(error.messages)
    return []


def join_campaign(*, campaign: Campaign, user: User) -> bool:
    """Make the user a player of the campaign; False if they already belonged to it."""
    _, created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": Membership.Role.PLAYER}
    )
    return created


@transaction.atomic
def remove_member(*, membership: Membership) -> None:
    """Remove a player; their characters stay in the campaign without an owner."""
    if membership.role == Membership.Role.GM:
        raise ValidationError(_("Mistrza gry nie można usunąć z kampanii."))
    Character.objects.filter(campaign=membership.campaign_id, owner=membership.user_id).update(
        owner=None
    )
    campaign_id, user_id = membership.campaign_id, membership.user_id
    membership.delete()
    transaction.on_commit(
        lambda: tables.cut_off(campaign_id=campaign_id, user_id=user_id), robust=True
    )


def save_character(*, character: Character, sheet: dict[str, Any], old_portrait: str) -> None:
    """Save a character with its sheet; a new portrait is stored shrunk, the old one removed."""
    portrait = character.portrait
    if portrait and not getattr(portrait, "_committed", True):
        small = shrink_portrait(portrait.file)
        portrait.save(small.name or "portrait.png", small, save=False)
    character.sheet = sheet
    if character.pk:
        character.save(update_fields=[*CHARACTER_FIELDS, "sheet", "updated"])
    else:
        character.save()
    tell_tables(character.campaign_id)
    if old_portrait and old_portrait != character.portrait.name:
        _delete_file_on_commit(character.portrait.storage, old_portrait)


@transaction.atomic
def delete_character(*, character: Character) -> None:
    if character.portrait:
        _delete_file_on_commit(character.portrait.storage, character.portrait.name)
    tell_tables(character.campaign_id)
    character.delete()


@transaction.atomic
def delete_campaign(*, campaign: Campaign) -> None:
    for character in campaign.characters.exclude(portrait=""):
        _delete_file_on_commit(character.portrait.storage, character.portrait.name)
    campaign.delete()


def _delete_file_on_commit(storage: Storage, name: str) -> None:
    transaction.on_commit(lambda: storage.delete(name))


def tell_tables(campaign_id: int | None, ruleset: str = "") -> None:
    """After commit (at once outside a transaction: call it after the write), the open tables
    of the campaign (of the ruleset, for a shared creature) render again."""
    transaction.on_commit(
        lambda: tables.roster_changed(campaign_id=campaign_id, ruleset=ruleset), robust=True
    )


def save_creature(*, creature: CreatureTemplate, sheet: dict[str, Any]) -> None:
    creature.sheet = sheet
    if creature.pk:
        creature.save(update_fields=["name", "description", "sheet", "updated"])
    else:
        creature.save()
    tell_tables(creature.campaign_id, creature.ruleset)


@transaction.atomic
def delete_creature(*, creature: CreatureTemplate) -> None:
    """Remove a bestiary entry; the NPCs made from it stay."""
    tell_tables(creature.campaign_id, creature.ruleset)
    creature.delete()


def copy_creature(*, creature: CreatureTemplate, campaign: Campaign) -> CreatureTemplate:
    """A campaign-owned copy of a (shared) creature, checked against the campaign's settings."""
    sheet = clean_sheet(creature.sheet, rules=campaign.rules(), settings=campaign.settings)
    copy = CreatureTemplate.objects.create(
        campaign=campaign,
        ruleset=campaign.ruleset,
        name=creature.name,
        description=creature.description,
        sheet=sheet,
    )
    tell_tables(campaign.pk)
    return copy


@transaction.atomic
def instantiate_creature(
    *, creature: CreatureTemplate, campaign: Campaign, count: int, base_name: str = ""
) -> list[Character]:
    """NPCs from a bestiary entry: "Wilk ×3" makes Wilk 1–3, or Wilk 4–6 if 1–3 exist."""
    if not 1 <= count <= MAX_INSTANCES:
        raise ValidationError(_("Liczba musi być od 1 do %(max)d.") % {"max": MAX_INSTANCES})
    sheet = clean_sheet(creature.sheet, rules=campaign.rules(), settings=campaign.settings)
    base = (base_name or creature.name).strip()[: MAX_NAME - 6]  # room for " 12345"
    # Lock the campaign so two GMs' tabs clicking at once do not both create "Wilk 4".
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    first = next_number(base, campaign.characters.values_list("name", flat=True))
    tell_tables(campaign.pk)
    return Character.objects.bulk_create(
        Character(
            campaign=campaign,
            kind=Character.Kind.NPC,
            name=f"{base} {number}",
            sheet=sheet,
            notes=creature.description,
            source_creature=creature,
        )
        for number in range(first, first + count)
    )


def next_number(base: str, names: Iterable[str]) -> int:
    """1 + the highest n among names "<base> n" (1 when there is none)."""
    pattern = re.compile(rf"{re.escape(base)} (\d+)")
    numbers = [int(m.group(1)) for name in names if (m := pattern.fullmatch(name))]
    return max(numbers, default=0) + 1


@transaction.atomic
def import_characters(*, campaign: Campaign, entries: list[CharacterEntry]) -> list[Character]:
    """All the checked entries as characters without owners (the GM assigns players)."""
    tell_tables(campaign.pk)
    return Character.objects.bulk_create(
        Character(campaign=campaign, name=e.name, kind=e.kind, notes=e.notes, sheet=e.sheet)
        for e in entries
    )


@transaction.atomic
def import_creatures(*, campaign: Campaign, entries: list[CreatureEntry]) -> list[CreatureTemplate]:
    tell_tables(campaign.pk)
    return CreatureTemplate.objects.bulk_create(
        CreatureTemplate(
            campaign=campaign,
            ruleset=campaign.ruleset,
            name=e.name,
            description=e.description,
            sheet=e.sheet,
        )
        for e in entries
    )


def save_language(*, user: User, language: str) -> None:
    """Keep the language the person picked on their account."""
    Profile.objects.update_or_create(user=user, defaults={"language": language})


@transaction.atomic
def sign_up(*, username: str, password: str, address: str, language: str) -> User:
    """A new account; a given address is mailed its confirmation link after commit, a
    language picked before signing up ("" for none) is kept on it."""
    user = User.objects.create_user(username=username, password=password)
    if language:
        save_language(user=user, language=language)
    account.set_address(user, address)
    return user


@transaction.atomic
def update_profile(
    *, user: User, display_name: str, address: str, language: str, time_zone: str
) -> bool:
    """Save the account page's profile section; whether a new address's link was queued."""
    user.first_name = display_name
    user.save(update_fields=["first_name"])
    Profile.objects.update_or_create(
        user=user, defaults={"language": language, "time_zone": time_zone}
    )
    return account.set_address(user, address)


@transaction.atomic
def save_mail_choices(*, user: User, choices: Mapping[int, Mapping[str, bool]]) -> None:
    """Which by-post mails the person wants, per membership id: only their own memberships
    as a player change; any other id is left alone."""
    own = Membership.objects.filter(user=user, role=Membership.Role.PLAYER)
    for pk, wanted in choices.items():
        fields = {name: bool(wanted[name]) for name in MAIL_CHOICES}
        own.filter(pk=pk).update(**fields)
