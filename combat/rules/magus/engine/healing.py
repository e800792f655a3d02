"""Testy zdrowienia at the table, on the encounter's game clock (`state.time_s`: round_seconds
a round, plus the time the GM lets pass): the test, waking from unconsciousness (at once when
someone revives), healing a Wound after a night's rest (`magus.recovery`)."""

from __future__ import annotations

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus import recovery
from combat.rules.magus.commands import HealWound, PassTime, RecoveryTest
from combat.rules.magus.engine.common import combatant
from combat.rules.magus.events import Event, RecoveryTested, TimePassed, WoundHealed
from combat.rules.magus.state import Combatant, EncounterState

MINUTE = 60
HOUR = 3600
HEALS = ("damage", "stun")


def _alive(state: EncounterState, actor: str) -> Combatant:
    c = combatant(state, actor)
    if c.dead:
        raise RuleViolation("martwy", gettext_noop("%(name)s nie żyje."), name=c.name)
    return c


def availability(
    state: EncounterState, c: Combatant, heals: str = "damage", revived: bool = False
) -> recovery.Availability:
    return recovery.can_test(
        c.recovery, c.sheet, state.time_s, state.settings, damage=c.damage, stun=c.stun,
        heals="stun" if heals == "stun" else "damage", revived=revived,
    )  # fmt: skip


def next_at(state: EncounterState, c: Combatant, heals: str = "damage") -> int | None:
    return recovery.next_test_at(
        c.recovery, c.sheet, state.time_s, state.settings, damage=c.damage, stun=c.stun,
        heals="stun" if heals == "stun" else "damage",
    )  # fmt: skip


def recovery_test(state: EncounterState, command: RecoveryTest, rng: RNG) -> list[Event]:
    c = _alive(state, command.actor)
    if command.heals not in HEALS:
        raise RuleViolation(
            "leczy", gettext_noop("Test zdrowienia leczy obrażenia albo ogłuszenie.")
        )
    heals: recovery.Heals = "stun" if command.heals == "stun" else "damage"
    done = recovery.recovery_test(
        rng, c.recovery, c.sheet, state.time_s, state.settings, damage=c.damage,
        wounds=c.wounds, stun=c.stun, heals=heals, revived=command.revived,
    )  # fmt: skip
    return [RecoveryTested(c.id, heals, done.roll, done.healed, command.revived)]


def heal_wound(state: EncounterState, command: HealWound) -> list[Event]:
    c = _alive(state, command.actor)
    recovery.heal_wound(c.recovery, state.time_s, damage=c.damage, wounds=c.wounds)
    return [WoundHealed(c.id)]


def pass_time(state: EncounterState, command: PassTime) -> list[Event]:
    """The GM lets time pass; a night's rest only outside a fight."""
    if command.night:
        if state.stage == "running":
            raise RuleViolation(
                "noc_w_walce", gettext_noop("Całonocny odpoczynek nie w trakcie walki.")
            )
        return [TimePassed(state.settings.night_rest_s, night=True)]
    if not 1 <= command.seconds <= 30 * 24 * HOUR:
        raise RuleViolation(
            "czas", gettext_noop("Czas: od 1 sekundy do 30 dni."), seconds=command.seconds
        )
    return [TimePassed(command.seconds)]
