"""Walka jeździecka at the table: mounting and dismounting (the rider ↔ mount link), the
split move's penalty to both defences, the charge, the test after a charge hit and the
saddle test of a wounded rider (`magus.mounted`)."""

from __future__ import annotations

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus import mounted
from combat.rules.magus import options as opt
from combat.rules.magus.commands import Dismount, MountUp
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.engine.common import (
    combatant,
    require_can_act,
    require_cap,
    require_turn,
)
from combat.rules.magus.events import Dismounted, Event, ImpactRolled, Mounted, SaddleRolled
from combat.rules.magus.sheet import Weapon
from combat.rules.magus.state import Combatant, EncounterState

CHARGE = "szarza"  # flag: the attack is a rider's Szarża (the mount's Siła adds to damage)


def _on_turn(state: EncounterState, actor: str) -> Combatant:
    """Before the fight anyone mounts freely; during it only on its turn, a simple action."""
    if state.stage == "ended":
        raise RuleViolation("koniec", gettext_noop("Walka już się skończyła."))
    if state.stage == "setup":
        return combatant(state, actor)
    me = require_turn(state, actor)
    require_can_act(state, me)
    require_cap(me)
    return me


def mount_up(state: EncounterState, command: MountUp) -> list[Event]:
    rider = _on_turn(state, command.actor)
    steed = combatant(state, command.mount)
    if steed.id == rider.id:
        raise RuleViolation("dosiad_sam", gettext_noop("Nie można dosiąść samego siebie."))
    if rider.mount is not None or rider.rider is not None:
        raise RuleViolation(
            "dosiad_jezdziec",
            gettext_noop("%(name)s już jest w siodle lub niesie jeźdźca."),
            name=rider.name,
        )
    if not steed.sheet.is_mount:
        raise RuleViolation(
            "nie_wierzchowiec",
            gettext_noop("%(name)s nie jest wierzchowcem: nie można go dosiąść."),
            name=steed.name,
        )
    if steed.rider is not None or steed.mount is not None or steed.out:
        raise RuleViolation(
            "dosiad_wierzchowiec",
            gettext_noop("%(name)s nie może teraz nieść jeźdźca."),
            name=steed.name,
        )
    if rider.knocked_down:
        raise RuleViolation("lezy", gettext_noop("Powalona postać musi najpierw wstać."))
    return [Mounted(rider.id, steed.id)]


def dismount(state: EncounterState, command: Dismount) -> list[Event]:
    rider = _on_turn(state, command.actor)
    if rider.mount is None:
        raise RuleViolation(
            "bez_wierzchowca", gettext_noop("%(name)s nie siedzi w siodle."), name=rider.name
        )
    return [Dismounted(rider.id, rider.mount)]


def rider_of(state: EncounterState, c: Combatant) -> Combatant | None:
    """The rider of a pair `c` belongs to (itself if it rides), None if it is in none."""
    if c.mount is not None:
        return c
    if c.rider is not None and c.rider in state.combatants:
        return state.get(c.rider)
    return None


def split_move_defence(state: EncounterState, c: Combatant) -> list[tuple[str, int]]:
    """A rider's Ruch dzielony: −2 to every defence of the rider and of its mount."""
    rider = rider_of(state, c)
    if rider is None or opt.RUCH_DZIELONY not in rider.options:
        return []
    penalty = mounted.split_move_penalty(state.settings)
    return [(penalty.reason, penalty.value)]


def charge(
    state: EncounterState, me: Combatant, weapon: Weapon | None, metres: int
) -> mounted.Charge:
    """A rider's Szarża, validated (the distance by the mount's speeds)."""
    if me.mount is None or me.mount not in state.combatants:
        raise RuleViolation("szarza_pieszo", gettext_noop("Szarża tylko wierzchem."))
    if weapon is None:
        raise RuleViolation("szarza_czar", gettext_noop("Szarża to atak bronią, nie czarem."))
    steed = state.get(me.mount)
    if steed.moves:
        raise RuleViolation(
            "szarza_po_ruchu",
            gettext_noop("%(name)s już się ruszał w tej rundzie: bez szarży."),
            name=steed.name,
        )
    return mounted.charge(me.sheet, steed.sheet, weapon, metres)


def mount_bonus(state: EncounterState, rider: Combatant) -> int:
    """The mount's Siła step a charge adds to the damage step."""
    steed = state.combatants.get(rider.mount or "")
    return steed.sheet.step("sila") if steed is not None else 0


def impact(
    state: EncounterState,
    rider: Combatant,
    target: Combatant,
    weapon: Weapon,
    reasons: list[Adjustment],
    rng: RNG,
) -> list[Event]:
    """After a charge hit: stay mounted (lance) or keep the weapon (any other)."""
    if rider.mount is None:
        return []
    test = mounted.impact_test(rng, rider.sheet, target.sheet, weapon, state.settings, reasons)
    return [
        ImpactRolled(
            rider.id,
            target.id,
            test.roll,
            test.dn,
            test.level.success,
            test.lance,
            test.falls,
            test.loses_weapon,
            test.fall,
        )  # fmt: skip
    ]


def saddle(
    state: EncounterState, rider: Combatant, dn: int, reasons: list[Adjustment], rng: RNG
) -> list[Event]:
    """A rider that takes a Wound: the saddle test instead of the knockdown test."""
    test = mounted.saddle_test(rng, rider.sheet, dn, state.settings, reasons)
    return [SaddleRolled(rider.id, test.roll, dn, not test.falls, test.fall)]
