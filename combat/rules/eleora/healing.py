"""Naturalne Leczenie, Magiczne Leczenie (its running total) and the recovery of stun damage.

Pure functions over `HealthTrack`; each returns the new track and a Polish explanation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import Modifier, PoolRoll
from combat.rules.eleora.settings import DEFAULT_SETTINGS, TableSettings

FLAT_WEEKLY_HEALING = 2  # the optional rule: two points a week instead of the Krzepa test


@dataclass(frozen=True)
class HealthTrack:
    """Max Zdrowie, physical and stun damage taken, and the Magiczne Leczenie total."""

    max_zdrowie: int
    physical: int = 0
    stun: int = 0
    magic_total: int = 0

    def __post_init__(self) -> None:
        if self.max_zdrowie < 1:
            raise ValueError("max Zdrowie must be at least 1")
        if min(self.physical, self.stun, self.magic_total) < 0:
            raise ValueError("damage and the Magic Healing total cannot be negative")
        if self.magic_total > self.max_zdrowie:
            raise ValueError("the Magic Healing total cannot exceed max Zdrowie")

    @property
    def zdrowie(self) -> int:
        return self.max_zdrowie - self.physical - self.stun

    @property
    def fully_healed(self) -> bool:
        """All Zdrowie recovered (ends effects lasting "do całkowitego wyzdrowienia")."""
        return self.physical == 0 and self.stun == 0


@dataclass(frozen=True)
class Healing:
    """A healing outcome: the new track, points that took effect, and why."""

    track: HealthTrack
    healed: int
    explanation: str


def natural_healing_pool(
    krzepa: int, care_dice: int = 0, alchemy_dice: int = 0
) -> tuple[Modifier, ...]:
    """The Krzepa test pool; expert care and alchemical medicine add dice."""
    mods = [Modifier(krzepa, "Krzepa")]
    if care_dice:
        mods.append(Modifier(care_dice, gettext_noop("Fachowa kuracja")))
    if alchemy_dice:
        mods.append(Modifier(alchemy_dice, gettext_noop("Alchemiczne medykamenty")))
    return tuple(mods)


def natural_healing(
    track: HealthTrack,
    roll: PoolRoll | None = None,
    settings: TableSettings = DEFAULT_SETTINGS,
    *,
    flat_points: int = FLAT_WEEKLY_HEALING,
) -> Healing:
    """A week's (or, optionally, a session's) healing: +1 per Krzepa success, or flat 2.

    Points first fade the Magic Healing total (blue scars); only the rest restores lost Zdrowie.
    """
    if settings.natural_heal_mode == "flat2":
        points, source = flat_points, f"zasada opcjonalna: {flat_points} pkt"
    elif roll is None:
        raise ValueError("natural healing by Krzepa test needs the rolled test")
    else:
        points, source = roll.successes, f"test Krzepy: {roll.successes} sukces(y)"
    faded = min(points, track.magic_total)
    restored = min(points - faded, track.physical)
    new = replace(track, magic_total=track.magic_total - faded, physical=track.physical - restored)
    why = (
        f"Naturalne Leczenie ({source}): {faded} pkt rozjaśnia niebieskie blizny "
        f"(Magiczne Leczenie {track.magic_total} → {new.magic_total}), "
        f"{restored} pkt przywraca Zdrowie"
    )
    return Healing(new, faded + restored, why)


def magic_healing(track: HealthTrack, points: int) -> Healing:
    """Heal by magic up to the cap: the Magic Healing total may not pass max Zdrowie.

    DEFAULT: magic mends physical damage first, then stun; every point healed adds to the total.
    """
    if points < 0:
        raise ValueError("healing cannot be negative")
    allowance = track.max_zdrowie - track.magic_total
    if allowance == 0:
        raise RuleViolation(
            "magiczne_leczenie_wyczerpane",
            gettext_noop(
                "Magiczne Leczenie osiągnęło poziom Zdrowia: magia nie może już leczyć tej postaci."
            ),
        )
    healed = min(points, allowance, track.physical + track.stun)
    from_physical = min(healed, track.physical)
    new = replace(
        track,
        physical=track.physical - from_physical,
        stun=track.stun - (healed - from_physical),
        magic_total=track.magic_total + healed,
    )
    why = f"Magiczne Leczenie: {healed} z {points} pkt (suma {new.magic_total}/{track.max_zdrowie})"
    return Healing(new, healed, why)


def recover_stun_hours(track: HealthTrack, hours: int, per_hour: int = 1) -> Healing:
    """Stun damage fades by one point per hour of rest."""
    if hours < 0 or per_hour < 0:
        raise ValueError("hours and the hourly rate cannot be negative")
    gone = min(track.stun, hours * per_hour)
    return Healing(
        replace(track, stun=track.stun - gone), gone, f"Odpoczynek {hours} h: −{gone} ogłuszenia"
    )


def recover_stun_next_day(track: HealthTrack) -> Healing:
    """All stun damage is gone the next day."""
    return Healing(replace(track, stun=0), track.stun, "Następny dzień: ogłuszenie znika")
