"""Walka jeździecka: the rider's initiative, split move, the mount's speed, the charge, the
test after a charge hit (lance: stay mounted; other weapons: keep the weapon) and staying in
the saddle after a Wound.

Pure functions over sheets and settings; every roll comes back as data. What the engine calls:

- Initiative: `initiative_step(rider, mount)` — the rider's step; the mount does not roll, it
  acts on the rider's result ("inicjatywę zawsze wyznacza test jeźdźca").
- Ruch dzielony of a rider: `split_move_penalty(settings)` — an Adjustment (−2) to every
  defence of the rider and of its mount for the round.
- Movement: `mount_move_limit(mount, attacks=…)` — combat speed when the mount attacks this
  round, full speed when it does not (`combat_speed`, `full_speed`).
- Szarża: `charge(rider, mount, weapon, distance_m)` validates the distance (at least the
  mount's combat speed, at most its full speed; RuleViolation otherwise) and returns the
  attack talent and step (Broń Biała or the Szarża talent, the higher) and the damage step
  with the mount's Siła step added.
- After a charge hit: `impact_test(rng, rider, target, weapon, settings)` — the rider's Siła
  step (or Szarża talent step if higher) vs the target's Żywotność step. Failure with a lance:
  the rider falls (`falls`, fall damage rolled at mounted_fall_step); with another weapon:
  it loses the weapon (`loses_weapon`).
- A rider that takes a Wound: `saddle_test(rng, rider, dn, settings)` instead of the knockdown
  test — Siła step + Pewny dosiad rank vs the knockdown DN the damage rules give
  (3 + damage over the Wound Threshold); failure: the rider falls (fall damage rolled).

A fall's damage (`fall_damage`) is an effect test, no armour; the engine adds it to the
rider's damage and, by default, leaves the rider Powalony on the ground.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus.check import action_test, effect_test
from combat.rules.magus.dice import Adjustment, StepRoll
from combat.rules.magus.levels import Level
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import CLOSE_COMBAT, Sheet, Weapon

# The sheet stat of a full Movement Rate, when one is recorded; else twice the combat one.
FULL_SPEED_STAT = "ruch_pelny"
FULL_SPEED_FACTOR = 2


@dataclass(frozen=True)
class Charge:
    """A valid charge: the distance the mount covers, the rider's attack and damage steps."""

    distance_m: float
    talent: str  # "bron_biala" or "szarza", whichever gives the higher step
    attack_step: int
    damage_step: int  # rider's Siła + weapon + the mount's Siła step
    mount_bonus: int  # the mount's Siła step, included in damage_step


@dataclass(frozen=True)
class ImpactTest:
    """The rider's test after a charge hit: Siła (or Szarża) vs the target's Żywotność."""

    roll: StepRoll
    dn: int
    level: Level
    lance: bool
    falls: bool  # lance, failed: the rider falls from the mount
    loses_weapon: bool  # other weapon, failed: the rider loses the weapon
    fall: StepRoll | None  # the fall's damage (effect test), when it falls


@dataclass(frozen=True)
class SaddleTest:
    """The balance test of a wounded rider: Siła + Pewny dosiad vs the knockdown DN."""

    roll: StepRoll
    dn: int
    level: Level
    falls: bool
    fall: StepRoll | None


def initiative_step(rider: Sheet, mount: Sheet) -> int:
    """The initiative of a rider and its mount: the rider's test, never the mount's."""
    del mount  # named for the call site's clarity: the mount's Zręczność does not count
    return rider.initiative_step


def split_move_penalty(settings: MagusSettings) -> Adjustment:
    """A rider's Ruch dzielony: this to every defence of the rider and of its mount."""
    return Adjustment(-settings.mounted_split_move_penalty, gettext_noop("Ruch dzielony jeźdźca"))


def combat_speed(mount: Sheet) -> int:
    """The mount's combat Movement Rate in metres (sheet stat "ruch")."""
    return mount.stat("ruch")


def full_speed(mount: Sheet) -> int:
    """The mount's full speed: the sheet's "ruch_pelny", else twice its combat speed."""
    return mount.stat(FULL_SPEED_STAT) or FULL_SPEED_FACTOR * combat_speed(mount)


def mount_move_limit(mount: Sheet, *, attacks: bool) -> int:
    """How far the mount may move this round: full speed unless it attacks."""
    return combat_speed(mount) if attacks else full_speed(mount)


def charge(rider: Sheet, mount: Sheet, weapon: Weapon, distance_m: float) -> Charge:
    """Szarża: the mount covers at least its combat speed and at most its full speed; the
    rider attacks with Broń Biała or the Szarża talent; the mount's Siła step adds to damage."""
    if weapon.kind not in CLOSE_COMBAT:
        raise RuleViolation(
            "charge_weapon",
            gettext_noop("Szarża: %(weapon)s nie jest bronią do walki wręcz"),
            weapon=weapon.name,
        )
    low, high = combat_speed(mount), full_speed(mount)
    if distance_m < low:
        raise RuleViolation(
            "charge_too_short",
            gettext_noop("Szarża: wierzchowiec musi pokonać co najmniej %(m)s m"),
            m=low,
        )
    if distance_m > high:
        raise RuleViolation(
            "charge_too_long",
            gettext_noop("Szarża: wierzchowiec pokona najwyżej %(m)s m"),
            m=high,
        )
    options = [("bron_biala", rider.talent_step("bron_biala"))]
    if rider.rank("szarza") > 0:
        options.append(("szarza", rider.talent_step("szarza")))
    talent, step = max(options, key=lambda option: option[1])  # a tie keeps Broń Biała
    bonus = mount.step("sila")
    return Charge(
        distance_m=distance_m,
        talent=talent,
        attack_step=step,
        damage_step=rider.damage_step(weapon) + bonus,
        mount_bonus=bonus,
    )


def impact_step(rider: Sheet) -> int:
    """The step of the test after a charge hit: Siła, or the Szarża talent if higher."""
    step = rider.step("sila")
    if rider.rank("szarza") > 0:
        step = max(step, rider.talent_step("szarza"))
    return step


def impact_test(
    rng: RNG,
    rider: Sheet,
    target: Sheet,
    weapon: Weapon,
    settings: MagusSettings,
    reasons: Iterable[Adjustment] = (),
) -> ImpactTest:
    """After a charge hit: the rider's Siła (or Szarża) vs the target's Żywotność step; with a
    lance a failure throws the rider (fall damage rolled), with another weapon it loses it."""
    dn = target.step("zywotnosc")
    roll, level = action_test(rng, impact_step(rider), dn, settings, reasons)
    failed = not level.success
    fall = fall_damage(rng, settings) if failed and weapon.lance else None
    return ImpactTest(
        roll=roll,
        dn=dn,
        level=level,
        lance=weapon.lance,
        falls=failed and weapon.lance,
        loses_weapon=failed and not weapon.lance,
        fall=fall,
    )


def saddle_step(rider: Sheet) -> int:
    """A wounded rider's balance test: Siła step + Pewny dosiad rank."""
    return rider.talent_step("pewny_dosiad")


def saddle_test(
    rng: RNG,
    rider: Sheet,
    dn: int,
    settings: MagusSettings,
    reasons: Iterable[Adjustment] = (),
) -> SaddleTest:
    """A rider that takes a Wound: Siła + Pewny dosiad vs the knockdown DN (replacing the
    knockdown test); failure: it falls from the saddle (fall damage rolled)."""
    roll, level = action_test(rng, saddle_step(rider), dn, settings, reasons)
    if level.success:
        return SaddleTest(roll, dn, level, falls=False, fall=None)
    return SaddleTest(roll, dn, level, falls=True, fall=fall_damage(rng, settings))


def fall_damage(rng: RNG, settings: MagusSettings) -> StepRoll:
    """A fall from the mount: damage at mounted_fall_step (d8 by default), an effect test."""
    return effect_test(rng, settings.mounted_fall_step, settings)


__all__ = [
    "Charge",
    "ImpactTest",
    "SaddleTest",
    "charge",
    "combat_speed",
    "fall_damage",
    "full_speed",
    "impact_step",
    "impact_test",
    "initiative_step",
    "mount_move_limit",
    "saddle_step",
    "saddle_test",
    "split_move_penalty",
]
