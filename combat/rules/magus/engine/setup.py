"""Setup and the GM's commands: the combatants, starting and ending the fight, health,
conditions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from combat.rules import vocabulary
from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.magus import conditions as cond
from combat.rules.magus import recovery
from combat.rules.magus.commands import (
    AddCondition,
    EditHealth,
    RemoveCondition,
    StartCombat,
)
from combat.rules.magus.engine.common import (
    combatant,
    require_stage,
)
from combat.rules.magus.events import (
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    Event,
    HealthEdited,
    RoundStarted,
)
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import Sheet
from combat.rules.magus.state import Combatant, EncounterState

# --- setup ------------------------------------------------------------------------------------


def combatant_from_dict(data: Mapping[str, Any]) -> Combatant:
    """A combatant from the table's dict (`vocabulary.seat` and its sheet); ValueError when
    malformed."""
    fields = vocabulary.seat(data)
    sheet = Sheet.from_dict(data.get("sheet") or {}, name=fields["name"])
    return Combatant(**fields, sheet=sheet, recovery=recovery.initial_state(sheet))


def new_encounter(
    settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
) -> EncounterState:
    """The setup state; ValueError for malformed settings or combatants, or a repeated id."""
    parsed = [combatant_from_dict(c) for c in combatants]
    by_id = {c.id: c for c in parsed}
    if len(by_id) != len(parsed):
        raise ValueError("combatants: every id once")
    return EncounterState(settings=MagusSettings.from_dict(dict(settings or {})), combatants=by_id)


def start(state: EncounterState, command: StartCombat) -> list[Event]:
    """Round 1 begins; `surprised` are Zaskoczony in it (the surprise test's result)."""
    require_stage(state, "setup")
    if len({c.side for c in state.combatants.values()}) < 2:
        raise RuleViolation("za_malo", gettext_noop("Do walki potrzeba co najmniej dwóch stron."))
    for cid in command.surprised:
        combatant(state, cid)
    tested = (cid for cid, c in state.combatants.items() if c.has(cond.ZASKOCZONY))
    surprised = tuple(dict.fromkeys((*command.surprised, *tested)))
    return [CombatStarted(surprised), round_started(state, 1, command.now)]


def round_started(state: EncounterState, n: int, now: float) -> RoundStarted:
    return RoundStarted(n, now + state.settings.declaration_timeout_s)


def edit_health(state: EncounterState, command: EditHealth) -> list[Event]:
    c = combatant(state, command.target)
    values = {
        "damage": c.damage if command.damage is None else command.damage,
        "stun": c.stun if command.stun is None else command.stun,
        "wounds": c.wounds if command.wounds is None else command.wounds,
    }
    if any(v < 0 for v in values.values()):
        raise RuleViolation("ujemne", gettext_noop("Obrażenia i Rany nie mogą być ujemne."))
    return [HealthEdited(c.id, **values)]


def add_condition(state: EncounterState, command: AddCondition) -> list[Event]:
    c = combatant(state, command.target)
    if command.condition not in cond.SPECS:
        raise RuleViolation(
            "stan", gettext_noop("Nie ma takiego stanu: %(key)s."), key=command.condition
        )
    if command.rounds < 0:
        raise RuleViolation("rundy", gettext_noop("Liczba rund nie może być ujemna."))
    until = max(state.round, 1) + command.rounds - 1 if command.rounds else 0
    return [ConditionAdded(c.id, command.condition, until, by_gm=True)]


def remove_condition(state: EncounterState, command: RemoveCondition) -> list[Event]:
    c = combatant(state, command.target)
    if not c.has(command.condition):
        raise RuleViolation(
            "brak_stanu",
            gettext_noop("%(name)s nie ma stanu %(key)s."),
            name=c.name,
            key=command.condition,
        )
    return [ConditionRemoved(c.id, command.condition, by_gm=True)]
