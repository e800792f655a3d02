"""The declaration phase: a declaration checked (its options by `options.check_options`),
Strain paid once per option and round, and the reveal."""

from __future__ import annotations

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.magus import options as opt
from combat.rules.magus.commands import (
    Declare,
)
from combat.rules.magus.engine import sustain
from combat.rules.magus.engine.common import (
    combatant,
    is_player,
    must_declare,
    must_roll,
    require_can_act,
    require_phase,
)
from combat.rules.magus.events import (
    Announced,
    Declared,
    Event,
    Revealed,
    StrainPaid,
)
from combat.rules.magus.state import (
    ACTION_KINDS,
    Combatant,
    Declaration,
    EncounterState,
)
from combat.rules.records import replace

# --- declarations -----------------------------------------------------------------------------


def declare(state: EncounterState, command: Declare) -> list[Event]:
    """A declaration (or its replacement, until the reveal); Strain of each option not yet
    paid this round is paid now as damage."""
    require_phase(state, "declare")
    c = combatant(state, command.actor)
    require_can_act(state, c)
    declaration = check_declaration(state, c, command)
    events: list[Event] = [Announced(c.id), Declared(c.id, declaration)]
    for key in declaration.options:
        points = opt.strain(key, state.settings)
        if key not in c.paid and points:
            damage = opt.strain_damage(points, state.settings)
            events.append(StrainPaid(c.id, key, points, damage))
    return events


def check_declaration(state: EncounterState, c: Combatant, command: Declare) -> Declaration:
    if command.action not in ACTION_KINDS:
        raise RuleViolation(
            "akcja", gettext_noop("Nie ma takiej akcji: %(action)s."), action=command.action
        )
    if command.action == "attack" and command.weapon and c.weapon(command.weapon) is None:
        raise RuleViolation(
            "bron", gettext_noop("%(name)s nie ma broni %(weapon)s."), name=c.name,
            weapon=command.weapon,
        )  # fmt: skip
    if command.action == "spell" and c.spell(command.spell) is None:
        raise RuleViolation(
            "czar", gettext_noop("%(name)s nie zna czaru %(spell)s."), name=c.name,
            spell=command.spell,
        )  # fmt: skip
    if command.target is not None:
        target = combatant(state, command.target)
        if target.id == c.id:
            raise RuleViolation("sam_siebie", gettext_noop("Nie można zaatakować samego siebie."))
    if command.action == "sustained" and command.rounds < 1 and not command.preset:
        raise RuleViolation(
            "rundy_podtrzymania",
            gettext_noop("Działanie podtrzymywane trwa co najmniej 1 rundę."),
        )
    if min(command.simple, command.move, command.ground) < 0:
        raise RuleViolation(
            "ujemne_liczby", gettext_noop("Liczby w deklaracji nie mogą być ujemne.")
        )
    options = opt.check_options(
        command.options,
        sheet=c.sheet,
        action=command.action,
        weapon=command.weapon,
        ground=command.ground,
        knocked_down=c.knocked_down,
        settings=state.settings,
    )
    if opt.OMINIECIE in options:
        _check_inside_shield(state, command.target)
    declaration = Declaration(
        action=command.action,
        options=options,
        weapon=command.weapon,
        spell=command.spell,
        target=command.target,
        simple=command.simple,
        move=command.move,
        ground=command.ground if opt.ODDAWANIE in options else 0,
        rounds=command.rounds if command.action == "sustained" else 0,
        note=command.note[:200],
    )
    if command.action != "sustained":
        return declaration
    declaration = replace(
        declaration,
        preset=command.preset,
        test_skill=command.test_skill,
        test_dn=command.test_dn,
        failure_stalls=command.failure_stalls,
    )
    if command.test_skill and command.test_dn < 1:
        raise RuleViolation(
            "trudnosc", gettext_noop("Trudność testu: co najmniej 1."), dn=command.test_dn
        )
    sustain.from_declaration(declaration)  # RuleViolation for a bad preset, length or test
    return declaration


def _check_inside_shield(state: EncounterState, target_id: str | None) -> None:
    target = state.combatants.get(target_id or "")
    if target is None or target.shield is None:
        raise RuleViolation(
            "ominiecie_cel",
            gettext_noop("Ominięcie tarczy: wskaż cel, który ma tarczę."),
        )


def reveal(state: EncounterState, now: float, *, expired: bool) -> list[Event]:
    """Show every declaration; who did not declare gets the empty one; initiative begins."""
    missing = tuple(
        cid for cid, c in state.combatants.items() if must_declare(state, c) and not c.declared
    )
    players = (
        any(must_roll(state, c) and is_player(c) for c in state.combatants.values())
        and state.settings.players_roll_initiative
    )
    deadline = now + state.settings.initiative_timeout_s if players else None
    return [Revealed(defaulted=missing, expired=expired, deadline=deadline)]
