"""Setup and the fight as a whole: the combatants, starting and ending, the order, the pace."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from combat.rules import vocabulary
from combat.rules.base import RuleViolation, SheetErrors, gettext_noop
from combat.rules.codec import canonical
from combat.rules.d100.commands import JoinCombat, SetOrder, SetPace, StartCombat
from combat.rules.d100.engine.common import (
    combatant,
    initiative_order,
    require_no_prompt,
    require_stage,
)
from combat.rules.d100.engine.evolve import replay
from combat.rules.d100.events import (
    CombatStarted,
    Event,
    Joined,
    OrderSet,
    PaceSet,
    TurnStarted,
)
from combat.rules.d100.settings import PACES, D100Settings
from combat.rules.d100.sheet import validate_sheet
from combat.rules.d100.state import Combatant, EncounterState


def combatant_from_dict(data: Mapping[str, Any], settings: D100Settings) -> Combatant:
    """A combatant from the table's dict (`vocabulary.seat`, no "~" in its id, `position` not
    used, and its sheet); ValueError when malformed."""
    fields = vocabulary.seat(data, reserved="~", placed=False)
    try:
        sheet = validate_sheet(data.get("sheet") or {}, settings)
    except SheetErrors as errors:
        raise ValueError(f"combatant {fields['id']}: {errors}") from None
    return Combatant(
        **fields,
        sheet=canonical(sheet),  # as a replay decodes it (combat.rules.codec)
        max_pz=int(sheet["pz"]),
        pz=int(sheet["pz"]),
    )


def new_encounter(
    settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
) -> EncounterState:
    """The setup state; ValueError for malformed settings or combatants, or a repeated id."""
    s = D100Settings.from_dict(dict(settings or {}))
    parsed = [combatant_from_dict(c, s) for c in combatants]
    by_id = {c.id: c for c in parsed}
    if len(by_id) != len(parsed):
        raise ValueError("combatants: every id once")
    return EncounterState(settings=s, combatants=by_id, pace=s.pace)  # type: ignore[arg-type]


def join(state: EncounterState, command: JoinCombat) -> list[Event]:
    read = partial(combatant_from_dict, settings=state.settings)
    return [Joined(vocabulary.joining(state, command, read))]


def start(state: EncounterState, command: StartCombat) -> list[Event]:
    """Combat turn 1 opens in the table's pace; the order by Zwinność."""
    require_stage(state, "setup")
    if len({c.side for c in state.combatants.values()}) < 2:
        raise RuleViolation("za_malo", gettext_noop("Do walki potrzeba co najmniej dwóch stron."))
    started = CombatStarted(state.pace)
    order = OrderSet(initiative_order(replay(state, [started])))
    return [started, order, turn_started(state, 1, command.now)]


def turn_started(state: EncounterState, n: int, now: float) -> TurnStarted:
    deadline = now + state.settings.post_turn_hours * 3600 if state.pace == "post" else None
    return TurnStarted(n, deadline)


def set_order(state: EncounterState, command: SetOrder) -> list[Event]:
    """The GM's order: every combatant once; kept in later turns."""
    for cid in command.order:
        combatant(state, cid)
    if len(set(command.order)) != len(command.order) or set(command.order) != set(state.combatants):
        raise RuleViolation(
            "kolejnosc", gettext_noop("Kolejność: każda postać walki dokładnie raz.")
        )
    return [OrderSet(tuple(command.order), fixed=True)]


def set_pace(state: EncounterState, command: SetPace) -> list[Event]:
    """Live ↔ post between actions: not while a prompt waits; back to live only when the
    by-post turn has no posts left to resolve."""
    if command.pace not in PACES:
        raise RuleViolation("tempo", gettext_noop("Nieznane tempo: %(pace)s."), pace=command.pace)
    if state.stage == "ended":
        raise RuleViolation("koniec", gettext_noop("Walka już się skończyła."))
    if command.pace == state.pace:
        raise RuleViolation("to_samo_tempo", gettext_noop("Walka już toczy się w tym tempie."))
    if state.stage == "setup":
        return [PaceSet(command.pace)]
    require_no_prompt(state)
    if command.pace == "live":
        if state.posts:
            raise RuleViolation(
                "posty_czekaja",
                gettext_noop("Najpierw rozstrzygnij turę: czekają w niej posty."),
            )
        return [PaceSet("live")]
    return [PaceSet("post", command.now + state.settings.post_turn_hours * 3600)]
