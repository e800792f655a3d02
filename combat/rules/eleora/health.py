"""Zdrowie: the one place damage and healing change a character, with every check that follows.

`change_health` is the only function that writes the damage counters. After each change
`settle` runs the checks in the document's order: Zdrowie at or below the maiming trigger →
Okaleczenie roll due (or death when the table plays without maiming); at or below
`unconscious_at` (or Zmęczenie at its maximum) → Nieprzytomność, and Krwawienie when physical
damage did it; back above → awake again.
"""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.eleora import conditions as cond
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.maiming import MaimingResult
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import Combatant, Injury
from combat.rules.records import replace

KNOCKOUT_BLEED = "nieprzytomnosc"  # source of the Krwawienie that starts with unconsciousness


@dataclass(frozen=True)
class HealthChange:
    """What a change did: the new combatant and which thresholds it crossed."""

    combatant: Combatant
    physical: int  # applied (after stun→physical conversion and the stun_cannot_kill cap)
    stun: int
    knocked_out: bool = False
    woke_up: bool = False
    maiming_due: bool = False
    died: bool = False


def change_health(
    combatant: Combatant,
    settings: TableSettings,
    *,
    physical: int = 0,
    stun: int = 0,
    bleed: bool = True,
    magic: bool = False,
) -> HealthChange:
    """Apply damage (positive) or healing (negative) and run the status checks; pure.

    Stun damage on an Oszołomiony character is physical. With `stun_cannot_kill` stun damage
    stops at Zdrowie 1. Negative amounts heal that counter (never below 0); magic healing is
    added to the Magiczne Leczenie total. A dead character does not change.
    """
    if combatant.status == "dead":
        return HealthChange(combatant, 0, 0)
    if stun > 0 and combatant.has("oszolomienie"):
        physical, stun = physical + stun, 0
    if stun > 0 and settings.stun_cannot_kill:
        stun = max(0, min(stun, combatant.health - physical - 1))
    after = _apply_amounts(combatant, physical, stun, magic)
    return settle(combatant, after, settings, bleed=bleed and physical > 0)


def _apply_amounts(c: Combatant, physical: int, stun: int, magic: bool) -> Combatant:
    """Each counter moves on its own; healing never takes a counter below 0."""
    new_physical = max(0, c.damage_physical + physical)
    new_stun = max(0, c.damage_stun + stun)
    healed = max(0, c.damage_physical - new_physical) + max(0, c.damage_stun - new_stun)
    return replace(
        c,
        damage_physical=new_physical,
        damage_stun=new_stun,
        magic_healing=c.magic_healing + (healed if magic else 0),
    )


def split_healing(combatant: Combatant, amount: int) -> tuple[int, int]:
    """Healing of `amount` as (physical, stun) changes: physical first, as magic (healing.py)."""
    from_physical = min(amount, combatant.damage_physical)
    from_stun = min(amount - from_physical, combatant.damage_stun)
    return -from_physical, -from_stun


def settle(
    before: Combatant, after: Combatant, settings: TableSettings, *, bleed: bool = False
) -> HealthChange:
    """Unconsciousness, bleeding, maiming and death checks between two versions of a character."""
    physical = after.damage_physical - before.damage_physical
    stun = after.damage_stun - before.damage_stun
    if after.status == "dead":
        return HealthChange(after, physical, stun)
    # „Zawsze gdy postać spadnie poniżej 0”: by default every further loss at or below the
    # trigger rolls again; a table may roll only when Zdrowie first crosses it.
    below = after.health <= settings.maiming_trigger
    if settings.maiming_on_every_loss:
        crossed = below and after.health < before.health
    else:
        crossed = below and before.health > settings.maiming_trigger
    if crossed and not settings.maiming_enabled:
        dead = replace(after, status="dead", maiming_pending=False)
        return HealthChange(dead, physical, stun, knocked_out=before.conscious, died=True)
    down = after.health <= settings.unconscious_at or after.fatigue >= settings.fatigue_max
    if down:
        return _knock_out(before, after, settings, physical, stun, bleed, crossed)
    if after.status == "unconscious" and not after.maiming_pending:
        woke = replace(after, status="active", conditions=_bleed_resumes(after, settings))
        return HealthChange(woke, physical, stun, woke_up=True)
    return HealthChange(after, physical, stun)


def _knock_out(
    before: Combatant,
    after: Combatant,
    settings: TableSettings,
    physical: int,
    stun: int,
    bleed: bool,
    crossed: bool,
) -> HealthChange:
    knocked_out = before.conscious
    conditions = after.conditions
    if knocked_out and bleed:
        conditions = _add_knockout_bleed(conditions, settings)
    down = replace(
        after,
        status="unconscious",
        conditions=conditions,
        maiming_pending=after.maiming_pending or crossed,
        actions_left=0,
        reactions_left=0,
    )
    return HealthChange(down, physical, stun, knocked_out=knocked_out, maiming_due=crossed)


def _add_knockout_bleed(
    conditions: tuple[ConditionInstance, ...], settings: TableSettings
) -> tuple[ConditionInstance, ...]:
    """DEFAULT: the bleed of a knock-out does not run out while the character is unconscious.

    It is never lost to the Krwawienie limit: at the limit it takes the oldest ordinary stack's
    place (the stack count stays within the limit).
    """
    wound = ConditionInstance("krwawienie", remaining=None, source=KNOCKOUT_BLEED)
    if cond.room(conditions, "krwawienie", settings) <= 0:
        oldest = next(
            (x for x in conditions if x.key == "krwawienie" and x.source != KNOCKOUT_BLEED), None
        )
        if oldest is None:
            return conditions
        conditions = tuple(x for x in conditions if x is not oldest)
    return cond.add(conditions, wound, settings)


def _bleed_resumes(c: Combatant, settings: TableSettings) -> tuple[ConditionInstance, ...]:
    """Waking up, the knock-out bleed becomes an ordinary one (it runs out after 3 own turns)."""
    return tuple(
        replace(x, remaining=settings.bleeding_turns)
        if x.key == "krwawienie" and x.remaining is None and x.source == KNOCKOUT_BLEED
        else x
        for x in c.conditions
    )


def maim(combatant: Combatant, result: MaimingResult, zdrowie: int) -> Combatant:
    """Apply an Okaleczenie roll: death, or an injury (the character stays unconscious)."""
    c = replace(combatant, maiming_pending=False, last_maiming=result, maiming_zdrowie=zdrowie)
    if result.death:
        return replace(c, status="dead", actions_left=0, reactions_left=0)
    return replace(c, injuries=(*c.injuries, _injury(result)))


def first_aid(combatant: Combatant, revised: MaimingResult) -> Combatant:
    """First aid re-reads the table: the earlier result (injury or death) is replaced."""
    earlier = combatant.last_maiming
    kept = combatant.injuries if earlier is None or earlier.death else combatant.injuries[:-1]
    c = replace(combatant, first_aid_given=True, last_maiming=revised, injuries=kept)
    if revised.death:
        return replace(c, status="dead", actions_left=0, reactions_left=0)
    # Saved from death by the medic: alive again, and unconscious (Zdrowie is still ≤ 0).
    status = "unconscious" if c.status == "dead" else c.status
    return replace(c, status=status, injuries=(*kept, _injury(revised)))


def _injury(result: MaimingResult) -> Injury:
    return Injury(result.location.name, result.effect.name, result.effect.penalty)
