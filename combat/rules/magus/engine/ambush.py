"""Zaskoczenie at the table: the GM's surprise test of the side taken unawares, before the
fight (`surprise.surprise_tests`); the failures are Zaskoczony in round 1, a Brosza
ostrzeżenia's detection deals its damage and spares its wearer the Atak z tyłu penalty."""

from __future__ import annotations

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus import surprise
from combat.rules.magus.commands import SurpriseTest
from combat.rules.magus.dice import Adjustment, StepRoll
from combat.rules.magus.engine.common import combatant, require_stage, state_adjustments
from combat.rules.magus.events import (
    BroochRolled,
    Event,
    SurpriseDifficulty,
    SurpriseRolled,
)
from combat.rules.magus.state import Combatant, EncounterState


def wounds(c: Combatant, state: EncounterState) -> tuple[Adjustment, ...]:
    return tuple(a for a in state_adjustments(c, state) if a.reason == gettext_noop("Rany"))


def sides(state: EncounterState, side: str) -> tuple[list[Combatant], list[Combatant]]:
    """(the side's living combatants, the living ones it meets)."""
    living = [c for c in state.combatants.values() if not c.dead]
    return [c for c in living if c.side == side], [c for c in living if c.side != side]


def surprise_test(state: EncounterState, command: SurpriseTest, rng: RNG) -> list[Event]:
    require_stage(state, "setup")
    watchers, met = sides(state, command.side)
    if not watchers:
        raise RuleViolation(
            "strona", gettext_noop("Nie ma takiej strony: %(side)s."), side=command.side
        )
    if command.side in state.surprise_sides:
        raise RuleViolation(
            "zaskoczenie_juz",
            gettext_noop("Test zaskoczenia strony %(side)s już rozstrzygnięty."),
            side=command.side,
        )
    for cid in (*command.sneakers, *command.unaware, *command.distances):
        combatant(state, cid)
    if any(state.get(cid).side == command.side for cid in command.sneakers):
        raise RuleViolation(
            "podkradanie_strona",
            gettext_noop("Podkradają się napastnicy, nie strona zaskakiwana."),
        )
    if any(state.get(cid).side != command.side for cid in command.unaware):
        raise RuleViolation(
            "nieswiadomi_strona",
            gettext_noop("Nieświadomi napastników mogą być tylko ze strony zaskakiwanej."),
        )
    if (command.base is not None and command.base < 1) or any(
        d < 0 for d in command.distances.values()
    ):
        raise RuleViolation(
            "zaskoczenie_liczby", gettext_noop("Trudność i odległości nie mogą być ujemne.")
        )
    try:
        conditions = surprise.Conditions(
            dusk=command.dusk,
            darkness=command.darkness,  # type: ignore[arg-type]  # checked by Conditions
            rain=command.rain,  # type: ignore[arg-type]
            camouflage=command.camouflage,
        )
    except ValueError:
        raise RuleViolation(
            "warunki", gettext_noop("Nieznane warunki: zaciemnienie lub pogoda.")
        ) from None
    settings = state.settings
    sneaks: list[tuple[str, StepRoll]] = []
    for cid in dict.fromkeys(command.sneakers):
        sneaker = state.get(cid)
        sneaks.append(
            (cid, surprise.sneak_test(rng, sneaker.sheet, settings, wounds(sneaker, state)))
        )
    sheets = [c.sheet for c in met]
    difficulty = surprise.surprise_dn(
        sheets, conditions, settings, sneak=[r for _, r in sneaks], base=command.base
    )
    looking = [
        surprise.Watcher(
            c.sheet,
            unaware=c.id in command.unaware,
            distance_m=command.distances.get(c.id, 0),
            reasons=wounds(c, state),
        )
        for c in watchers
    ]
    outcomes = surprise.surprise_tests(rng, looking, difficulty, sheets, settings)
    events: list[Event] = [
        SurpriseDifficulty(
            command.side,
            difficulty.value,
            difficulty.base,
            difficulty.source,
            tuple((m.reason, m.value) for m in difficulty.modifiers),
            tuple(sneaks),
        )
    ]
    for c, o in zip(watchers, outcomes, strict=True):
        brooch = None
        if o.brooch is not None:
            b = o.brooch
            level = b.level.key if b.level else ""
            brooch = BroochRolled(b.dn, b.roll, level, b.detected, b.damage, b.reason)
        level = o.level.key if o.level else ""
        events.append(
            SurpriseRolled(c.id, o.dn, o.surprised, o.reason, o.perception, level, brooch)
        )
    return events
