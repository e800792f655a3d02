"""The other actions of a turn (§3): Odpoczynek, Przemiana, another full action, the free
actions, the end of one's turn. The `*_of` functions hold the rule (used live and by post);
the command functions add the live checks (whose turn it is)."""

from __future__ import annotations

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.d100.commands import EndTurn, FreeAction, FullAction, Rest, Transform
from combat.rules.d100.engine.common import (
    combatant,
    require_current,
    require_full,
    require_no_prompt,
    require_pace,
    require_standing,
    require_turn,
)
from combat.rules.d100.equipment import attack_profile, transformation_mods
from combat.rules.d100.events import (
    Event,
    FreeActed,
    FullActed,
    RestDeclared,
    Transformed,
    TurnEnded,
)
from combat.rules.d100.state import Combatant, EncounterState

FREE_KINDS = ("move", "reload", "change_weapon", "other")
MAX_NOTE = 4000


def require_note(note: str) -> None:
    if len(note) > MAX_NOTE:
        raise RuleViolation(
            "za_dlugi", gettext_noop("Najwyżej %(max)s znaków opisu."), max=MAX_NOTE
        )


def rest_of(state: EncounterState, me: Combatant) -> list[Event]:
    """Odpoczynek: the full action; its Ogłada test comes at the turn's end."""
    require_full(me)
    require_standing(state, me, gettext_noop("Odpoczynek"))
    return [RestDeclared(me.id)]


def transform_of(state: EncounterState, me: Combatant) -> list[Event]:
    """Przemiana into the sheet's form (a full action), or back into one's own."""
    require_full(me)
    require_standing(state, me, gettext_noop("Przemiana"))
    if not me.transformation:
        raise RuleViolation(
            "bez_przemiany", gettext_noop("%(name)s nie potrafi się przemienić."), name=me.name
        )
    form = "" if me.transformed else me.transformation
    mods = tuple(transformation_mods(form, state.settings).items())
    return [Transformed(me.id, form, mods)]


def full_of(state: EncounterState, me: Combatant, note: str) -> list[Event]:
    require_full(me)
    require_standing(state, me, gettext_noop("inna akcja pełna"))
    require_note(note)
    return [FullActed(me.id, note)]


def rest(state: EncounterState, command: Rest) -> list[Event]:
    return rest_of(state, require_turn(state, command.actor))


def transform(state: EncounterState, command: Transform) -> list[Event]:
    return transform_of(state, require_turn(state, command.actor))


def full_action(state: EncounterState, command: FullAction) -> list[Event]:
    return full_of(state, require_turn(state, command.actor), command.note)


def free_action(state: EncounterState, command: FreeAction) -> list[Event]:
    """A free action (not limited in number): move, reload, change the active weapon."""
    me = require_turn(state, command.actor)
    if command.kind not in FREE_KINDS:
        raise RuleViolation(
            "akcja_darmowa", gettext_noop("Nieznana akcja darmowa: %(kind)s."), kind=command.kind
        )
    require_note(command.note)
    choice = ""
    if command.kind == "change_weapon":
        choice = command.choice
        if choice.startswith("spell"):
            raise RuleViolation("atak_czarem", gettext_noop("Czary rzuca się akcją „Czar”."))
        attack_profile(me.sheet, choice, state.settings, transformed=me.transformed)
    return [FreeActed(me.id, command.kind, choice, command.note)]


def end_turn(state: EncounterState, command: EndTurn) -> list[Event]:
    """Live: the acting one's turn ends (the next one's begins by itself)."""
    require_pace(state, "live")
    me = combatant(state, command.actor)
    require_current(state, me)
    require_no_prompt(state)
    return [TurnEnded(me.id)]
