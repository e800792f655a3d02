"""Campaigns, their members, their characters and the bestiary.

A character's statistics live in one JSON column, `sheet`, in the shape the campaign's ruleset
reads (its attributes, skills and `sheet_sections`); `characters.sheets.clean_sheet` validates
it before anything is stored. Values derived from a sheet are never stored: they come from the
ruleset each time they are shown.
"""

from __future__ import annotations

import secrets
import uuid
from pathlib import PurePosixPath
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from combat.rules.base import DerivedValue, Ruleset, simulator_of
from combat.rules.registry import default_key, get_ruleset, ruleset_choices

# No 0/O, 1/I/L: a code read out at the table or typed on a phone is not misread.
INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 10
# The time zone of a new account (the groups the site is for play in Poland).
DEFAULT_TIME_ZONE = "Europe/Warsaw"


def new_invite_code() -> str:
    """A random invite code: 10 characters from 31 symbols, about 49 bits."""
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


def normalise_invite_code(typed: str) -> str:
    """The code as stored, from what a person typed (any case, spaces or dashes)."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())


class Campaign(models.Model):
    name = models.CharField(_("nazwa"), max_length=120)
    description = models.TextField(_("opis"), blank=True, max_length=5000)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="campaigns_run",
        verbose_name=_("mistrz gry"),
    )
    ruleset = models.CharField(
        _("system"), max_length=20, choices=ruleset_choices, default=default_key
    )
    settings = models.JSONField(_("ustawienia stołu"), default=dict, blank=True)
    invite_code = models.CharField(
        _("kod zaproszenia"), max_length=16, unique=True, default=new_invite_code
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("kampania")
        verbose_name_plural = _("kampanie")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign-detail", args=[self.pk])

    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset)

    @property
    def has_simulator(self) -> bool:
        """Whether the campaign's ruleset offers the encounter simulator (a capability)."""
        return simulator_of(self.rules()) is not None

    def regenerate_invite_code(self) -> None:
        """Replace the code, so links and codes handed out before stop working."""
        self.invite_code = new_invite_code()
        self.save(update_fields=["invite_code", "updated"])


# The fields of a Membership saying which of its campaign's by-post mails the member wants.
MAIL_CHOICES = ("mail_turn_open", "mail_reminder", "mail_resolved")


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", _("Mistrz gry")
        PLAYER = "player", _("Gracz")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("rola"), max_length=10, choices=Role.choices, default=Role.PLAYER)
    # Which of the campaign's by-post mails the member wants (characters/outbox.py sends them).
    mail_turn_open = models.BooleanField(_("tura się otworzyła"), default=True)
    mail_reminder = models.BooleanField(_("przypomnienie przed terminem"), default=True)
    mail_resolved = models.BooleanField(_("tura została rozstrzygnięta"), default=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]
        verbose_name = _("członkostwo")
        verbose_name_plural = _("członkostwa")

    def __str__(self) -> str:
        return f"{self.user} @ {self.campaign} ({self.role})"


class CreatureTemplate(models.Model):
    """A bestiary entry. Without a campaign it belongs to the shared, read-only library."""

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="creatures",
        verbose_name=_("kampania"),
    )
    # A campaign's creatures follow its ruleset; the shared library holds entries for each.
    ruleset = models.CharField(
        _("system"), max_length=20, choices=ruleset_choices, default=default_key
    )
    name = models.CharField(_("nazwa"), max_length=80)
    description = models.TextField(_("opis"), blank=True, max_length=5000)
    sheet = models.JSONField(_("karta"), default=dict)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("stwór")
        verbose_name_plural = _("bestiariusz")

    def __str__(self) -> str:
        return self.name

    @property
    def is_shared(self) -> bool:
        return self.campaign_id is None


def portrait_path(instance: Character, filename: str) -> str:
    """A random name under the campaign's folder: nothing about the file is guessable."""
    suffix = PurePosixPath(filename).suffix.lower()
    return f"portraits/{instance.campaign_id}/{uuid.uuid4().hex}{suffix}"


class Character(models.Model):
    class Kind(models.TextChoices):
        PC = "pc", _("Postać gracza")
        NPC = "npc", _("Bohater niezależny")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    kind = models.CharField(_("rodzaj"), max_length=3, choices=Kind.choices, default=Kind.PC)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
        verbose_name=_("gracz"),
    )
    name = models.CharField(_("imię"), max_length=80)
    sheet = models.JSONField(_("karta"), default=dict)
    notes = models.TextField(_("notatki"), blank=True, max_length=10000)
    portrait = models.ImageField(_("portret"), upload_to=portrait_path, blank=True)
    source_creature = models.ForeignKey(
        CreatureTemplate,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="instances",
        verbose_name=_("z bestiariusza"),
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "name", "pk"]
        verbose_name = _("postać")
        verbose_name_plural = _("postacie")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("character-detail", args=[self.pk])

    @property
    def is_npc(self) -> bool:
        return self.kind == self.Kind.NPC

    def sheet_data(self) -> dict[str, Any]:
        """The sheet in the ruleset's shape, name included."""
        return {**self.sheet, "name": self.name}

    def derived_values(self) -> list[DerivedValue]:
        """Obrona, Zdrowie and the rest, computed by the campaign's ruleset."""
        return self.campaign.rules().derived_values(self.sheet_data(), self.campaign.settings)


class Profile(models.Model):
    """What a person picked for their account: the language of the pages ("" = not picked,
    so the language cookie or Polish decides), the time zone their mails give times in, and
    the address they confirmed (`characters.account`: mail goes to `User.email` only while it
    is the confirmed one; no two accounts confirm the same address)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    language = models.CharField(_("język"), max_length=8, blank=True, choices=settings.LANGUAGES)
    time_zone = models.CharField(_("strefa czasowa"), max_length=64, default=DEFAULT_TIME_ZONE)
    confirmed_email = models.EmailField(_("potwierdzony adres"), blank=True)

    class Meta:
        verbose_name = _("profil")
        verbose_name_plural = _("profile")
        constraints = [
            models.UniqueConstraint(
                Lower("confirmed_email"),
                condition=~models.Q(confirmed_email=""),
                name="one_account_per_confirmed_email",
            )
        ]

    def __str__(self) -> str:
        return str(self.user)


class Mail(models.Model):
    """One e-mail of the site: queued in the transaction that causes it, sent after commit by
    `characters.outbox`, and kept as the record of what went out (the body of an account
    mail, whose link is a credential, is blanked once sent)."""

    class Kind(models.TextChoices):
        CONFIRM = "confirm", _("potwierdzenie adresu")
        RESET = "reset", _("reset hasła")
        TURN_OPEN = "turn_open", _("tura się otworzyła")
        REMINDER = "reminder", _("przypomnienie")
        RESOLVED = "resolved", _("tura rozstrzygnięta")

    kind = models.CharField(_("rodzaj"), max_length=16, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="mails",
        verbose_name=_("odbiorca"),
    )
    to = models.EmailField(_("adres"))
    subject = models.CharField(_("temat"), max_length=255)
    body = models.TextField(_("treść"), blank=True)
    encounter_id = models.IntegerField(_("starcie"), null=True, blank=True)
    created = models.DateTimeField(_("utworzony"), auto_now_add=True)
    # When to try next (None: nothing left to do, sent or given up); a sender leases a mail
    # by moving it on, so two processes never send it twice.
    next_try = models.DateTimeField(_("następna próba"), null=True, blank=True, db_index=True)
    attempts = models.PositiveSmallIntegerField(_("próby"), default=0)
    sent = models.DateTimeField(_("wysłany"), null=True, blank=True)
    error = models.TextField(_("ostatni błąd"), blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("e-mail")
        verbose_name_plural = _("e-maile")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} → {self.to}"
