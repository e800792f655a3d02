"""The GM's commands on one combatant: damage, healing, conditions, falls, the fallen NPC,
and the GM's own d100 roll."""

from __future__ import annotations

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.d100 import conditions as cond
from combat.rules.d100.check import injury_penalty, roll_test
from combat.rules.d100.commands import (
    AddCondition,
    Damage,
    DecideFallen,
    Fall,
    GMRoll,
    Heal,
    RemoveCondition,
)
from combat.rules.d100.engine.common import INJURIES, combatant, harm, ignored_injuries
from combat.rules.d100.events import (
    ConditionAdded,
    ConditionRemoved,
    Damaged,
    Event,
    FallenDecided,
    FallRolled,
    GMRolled,
    Healed,
)
from combat.rules.d100.falls import roll_fall
from combat.rules.d100.settings import ATTRIBUTE_KEYS
from combat.rules.d100.state import Combatant, Effect, EncounterState

GM_ROLL = gettext_noop("Rzut MG")
MAX_AMOUNT = 99999


def _alive(state: EncounterState, target: str) -> Combatant:
    c = combatant(state, target)
    if c.dead:
        raise RuleViolation("martwy", gettext_noop("%(name)s nie żyje."), name=c.name)
    return c


def _amounts(*values: int) -> None:
    if any(not 0 <= v <= MAX_AMOUNT for v in values):
        raise RuleViolation("liczba", gettext_noop("Podaj liczbę od 0 do %(max)s."), max=MAX_AMOUNT)


def damage(state: EncounterState, command: Damage) -> list[Event]:
    """PŻ off (at most what it has; the blow to 0 adds an Uraz) and Urazy added."""
    c = _alive(state, command.target)
    _amounts(command.amount, command.injuries)
    return [Damaged(harm(state, c, command.amount, command.injuries), "gm", command.note)]


def heal(state: EncounterState, command: Heal) -> list[Event]:
    """PŻ back up to the maximum; any PŻ wakes one out of the fight (not the dead)."""
    c = _alive(state, command.target)
    _amounts(command.amount, command.injuries)
    amount = min(command.amount, c.max_pz - c.pz)
    bleeding = command.stop_bleeding and any(e.key == cond.KRWAWIENIE for e in c.effects)
    return [
        Healed(
            c.id,
            amount,
            injuries=min(command.injuries, c.injuries),
            woke=c.out and amount > 0,
            stopped_bleeding=bleeding,
            note=command.note,
        )
    ]


def add_condition(state: EncounterState, command: AddCondition) -> list[Event]:
    """A condition for `turns` turns from this one (0: until removed)."""
    c = _alive(state, command.target)
    if command.condition not in cond.GM_CONDITIONS:
        raise RuleViolation(
            "stan", gettext_noop("Nie ma takiego stanu: %(key)s."), key=command.condition
        )
    if not 0 <= command.turns <= 99:
        raise RuleViolation("tury", gettext_noop("Liczba tur od 0 do 99."))
    _amounts(command.value)
    start = max(state.turn, 1)
    value = command.value
    if command.condition == cond.KRWAWIENIE and value < 1:
        raise RuleViolation(
            "krwawienie", gettext_noop("Krwawienie: podaj PŻ tracone co turę (co najmniej 1).")
        )
    if command.condition == cond.ZACHWIANIE and value <= 0:
        value = state.settings.stagger_penalty
    effect = Effect(
        key=command.condition,
        start=start,
        until=start + command.turns - 1 if command.turns else 0,
        value=value,
    )
    return [ConditionAdded(c.id, effect)]


def remove_condition(state: EncounterState, command: RemoveCondition) -> list[Event]:
    c = combatant(state, command.target)
    if not any(e.key == command.condition for e in c.effects):
        raise RuleViolation(
            "brak_stanu",
            gettext_noop("%(name)s nie ma stanu %(key)s."),
            name=c.name,
            key=command.condition,
        )
    return [ConditionRemoved(c.id, command.condition)]


def fall(state: EncounterState, command: Fall, rng: RNG) -> list[Event]:
    """A fall (falls.roll_fall) with the Akrobatyka test when asked, heavy armour from the
    sheet; its damage and Urazy as a blow."""
    c = _alive(state, command.target)
    penalty = injury_penalty(c.injuries, ignored_injuries(state, c), state.settings)
    result = roll_fall(
        rng,
        state.settings,
        height=command.height,
        max_pz=c.max_pz,
        acrobatics=c.skill("akrobatyka") if command.acrobatics else None,
        acrobatics_mods=((INJURIES, -penalty),) if penalty else (),
        ground=command.ground,
        heavy_armour=c.sheet.get("armour") == "heavy",
        slope=command.slope,
    )
    return [FallRolled(c.id, result, harm(state, c, result.damage, result.injuries))]


def gm_roll(state: EncounterState, command: GMRoll, rng: RNG) -> list[Event]:
    """The GM's d100 against a threshold, or a combatant's attribute."""
    base, attribute = command.threshold, ""
    if command.target is not None or command.attribute:
        c = combatant(state, command.target)
        if command.attribute not in ATTRIBUTE_KEYS:
            raise RuleViolation(
                "atrybut", gettext_noop("Nie ma takiego atrybutu: %(key)s."), key=command.attribute
            )
        base, attribute = c.attribute(command.attribute), command.attribute
    if not -999 <= base <= 999 or len(command.label) > 80:
        raise RuleViolation("rzut_mg", gettext_noop("Próg od −999 do 999, nazwa do 80 znaków."))
    label = command.label or GM_ROLL
    roll = roll_test(
        rng,
        state.settings,
        label=label,
        attribute=attribute,
        base=base,
        modifiers=command.modifiers,
    )
    return [GMRolled(label, roll, command.secret, command.target)]


def decide_fallen(state: EncounterState, command: DecideFallen) -> list[Event]:
    c = combatant(state, command.target)
    if c.status != "pokonany":
        raise RuleViolation(
            "nie_pokonany",
            gettext_noop("%(name)s nie czeka na decyzję MG (nie ma 0 PŻ)."),
            name=c.name,
        )
    if command.outcome not in ("martwy", "nieprzytomny"):
        raise RuleViolation("los", gettext_noop("Los pokonanego: martwy albo nieprzytomny."))
    return [FallenDecided(c.id, command.outcome)]  # type: ignore[arg-type]
