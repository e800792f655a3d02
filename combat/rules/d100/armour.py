"""Putting armour on and taking it off (digest §2, the seed's table): minutes, and whether a
second person's help is useful, needed or required. It takes at least one non-combat turn, so
armour cannot be changed mid-fight (`can_change_in_combat`, shown on the sheet).

The table is `settings.armour_donning` (GM-editable); `donning_minutes` reads one row. DEFAULT:
an armour whose help is "required" cannot be put on or taken off alone (None minutes).
"""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.d100.settings import DEFAULT_SETTINGS, D100Settings

can_change_in_combat = False
CHANGE_IN_COMBAT = gettext_noop(
    "Założenie lub zdjęcie pancerza wymaga co najmniej 1 tury niebojowej: w walce to "
    "praktycznie niemożliwe."
)
DONNING_LABELS = {
    "leather": gettext_noop("Skórzany / pikowany (przeszywanica)"),
    "mail": gettext_noop("Kolczuga"),
    "lamellar": gettext_noop("Lamelkowy / łuskowy / brygantyna"),
    "partial_plate": gettext_noop("Pancerz płytowy częściowy"),
    "full_plate": gettext_noop("Pełna zbroja płytowa"),
}
HELP_LABELS = {
    "no": gettext_noop("Nie"),
    "useful": gettext_noop("Przydatna"),
    "needed": gettext_noop("Tak"),
    "required": gettext_noop("Konieczna"),
}


@dataclass(frozen=True)
class Donning:
    """One row of the table as the sheet shows it (minutes; None: not alone)."""

    key: str
    label: str  # msgid (a row the GM added: its key)
    on_helped: int
    on_alone: int | None
    off_helped: int
    off_alone: int | None
    help: str  # no | useful | needed | required
    help_label: str


def donning_minutes(
    kind: str, helped: bool, settings: D100Settings = DEFAULT_SETTINGS
) -> tuple[int | None, int | None, str]:
    """(minutes to put on, minutes to take off, help) of an armour kind, with or without help;
    None minutes when it cannot be done alone; RuleViolation for an unknown kind."""
    row = settings.donning_rows.get(kind)
    if row is None:
        raise RuleViolation(
            "unknown_armour", gettext_noop("Nieznany rodzaj pancerza: %(kind)s"), kind=kind
        )
    if helped:
        return row.on_helped, row.off_helped, row.help
    return row.on_alone, row.off_alone, row.help


def donning_table(settings: D100Settings = DEFAULT_SETTINGS) -> tuple[Donning, ...]:
    """Every row of the table, in the settings' order."""
    return tuple(
        Donning(
            key,
            DONNING_LABELS.get(key, key),
            row.on_helped,
            row.on_alone,
            row.off_helped,
            row.off_alone,
            row.help,
            HELP_LABELS[row.help],
        )
        for key, row in settings.donning_rows.items()
    )


__all__ = [
    "CHANGE_IN_COMBAT",
    "Donning",
    "can_change_in_combat",
    "donning_minutes",
    "donning_table",
]
