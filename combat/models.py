"""The live encounter: one row per table and its append-only log.

The log is the truth: `EncounterEntry` rows numbered 1, 2, 3… per encounter (unique together),
each holding the events one command produced (dice included), or an undo back to an earlier
entry. The encounter's state is the fold of its log onto `initial`; `Encounter.state` keeps that
fold at `state_seq` (the head, or at most `snapshots.HEAD_EVERY` entries behind it) only so a
page or a socket need not replay the whole log on a load: `snapshots.head_state` folds the
entries after it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from characters.models import Campaign
from combat.rules.base import Ruleset
from combat.rules.registry import get_ruleset


class Encounter(models.Model):
    class Phase(models.TextChoices):
        SETUP = "setup", _("Przygotowanie")
        ACTIVE = "active", _("Walka trwa")
        ENDED = "ended", _("Zakończone")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="encounters")
    name = models.CharField(_("nazwa"), max_length=120)
    ruleset = models.CharField(max_length=20)
    initial = models.JSONField()
    seq = models.PositiveIntegerField(default=0)
    state = models.JSONField()
    # The seq `state` is the fold at: the append path writes the whole state only every few
    # entries (and at an undo or a change of phase), not on every command.
    state_seq = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=8, choices=Phase.choices, default=Phase.SETUP)
    # How the GM's NPCs answer reaction prompts: combatant id -> policy key ("ask" by default).
    npc_policies = models.JSONField(default=dict, blank=True)
    # Rolls anyone can verify (combat/verify.py): every die comes from `seed` (and a secret GM
    # roll's from `gm_seed`) keyed by the entry's slot; the hashes are shown from the start,
    # the seeds once the fight has ended (the GM's only if the GM reveals it).
    seed = models.CharField(max_length=64, blank=True, default="")
    seed_hash = models.CharField(max_length=64, blank=True, default="")
    gm_seed = models.CharField(max_length=64, blank=True, default="")
    gm_seed_hash = models.CharField(max_length=64, blank=True, default="")
    gm_seed_revealed = models.BooleanField(default=False)
    # The slot of the last entry in force at the head (undo takes it back with the entries).
    slot = models.PositiveIntegerField(default=0)
    # When something waits at the head (a deadline, a by-post reminder): any process sweeps
    # the tables that are due, with or without sockets open on them (combat/posts.py).
    due = models.FloatField(null=True, blank=True, db_index=True)
    # The deadline whose reminder e-mails went out (sent once per deadline).
    reminded_for = models.FloatField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("starcie")
        verbose_name_plural = _("starcia")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("encounter", args=[self.pk])

    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset)


class EncounterEntry(models.Model):
    """One appended step of the log: a command's events, or an undo to entry `undo_to`."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="entries")
    seq = models.PositiveIntegerField()
    command_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (NULL = no id; unique skips it)
    command = models.JSONField(null=True, blank=True)
    events = models.JSONField(default=list)
    undo_to = models.PositiveIntegerField(null=True, blank=True)
    # Which dice the entry drew: the encounter's seed keyed by this slot (None: no dice of a
    # seed, an entry older than the seeds or an undo). An entry undo brought back to redo gets
    # the undone one's slot, so its dice are the same: undo never rolls an entry again.
    slot = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["encounter", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "seq"], name="entry_seq_unique"),
            models.UniqueConstraint(
                fields=["encounter", "command_id"],
                condition=models.Q(command_id__isnull=False),
                name="entry_command_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.encounter_id}#{self.seq}"
