"""Sustained actions (działanie podtrzymywane) in the round: one record, `sustained.Sustained`,
started by a declaration, advanced at each round's end (`sustained.advance`), with the GM's
optional end-of-round test rolled (`sustained.round_test`) or recorded."""

from __future__ import annotations

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus import sustained as sus
from combat.rules.magus.commands import SustainedCheck, SustainedTest
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.engine.common import can_act, combatant, state_adjustments
from combat.rules.magus.events import (
    Event,
    SustainedAdvanced,
    SustainedCheckSet,
    SustainedCompleted,
    SustainedRolled,
    SustainedTested,
)
from combat.rules.magus.state import Combatant, Declaration, EncounterState


def from_declaration(d: Declaration) -> sus.Sustained:
    """The sustained action a declaration starts (RuleViolation for a bad preset, length or
    test); `evolve` calls it only on declarations `decide` has checked."""
    test = sus.RoundCheck(d.test_skill, d.test_dn) if d.test_skill else None
    if d.preset:
        rounds = d.rounds or None
        return sus.from_preset(d.preset, rounds=rounds, test=test, failure_stalls=d.failure_stalls)
    return sus.start(d.note, d.rounds, test=test, failure_stalls=d.failure_stalls)


def continued(current: sus.Sustained | None, d: Declaration) -> sus.Sustained:
    """The action declared again goes on (its progress kept); another one starts afresh."""
    new = from_declaration(d)
    if current is not None and (current.label, current.preset) == (new.label, new.preset):
        return current
    return new


def going(c: Combatant) -> bool:
    """Whether `c` spends this round on its sustained action (declared it this round)."""
    return (
        c.sustained is not None
        and c.declaration is not None
        and c.declaration.action == "sustained"
    )


def _wounds(c: Combatant, state: EncounterState) -> list[Adjustment]:
    return [a for a in state_adjustments(c, state) if a.reason == gettext_noop("Rany")]


def rolled(state: EncounterState, c: Combatant, rng: RNG) -> SustainedRolled:
    assert c.sustained is not None
    test = sus.round_test(rng, c.sustained, c.sheet, state.settings, _wounds(c, state))
    return SustainedRolled(c.id, test.roll, test.dn, test.level.key, test.passed)


def round_end(state: EncounterState, c: Combatant, rng: RNG) -> list[Event]:
    """At the round's end, one more round of `c`'s sustained action: its test (rolled now
    unless the GM rolled or recorded it this round), its progress, its completion."""
    s = c.sustained
    if s is None or not going(c) or s.complete or not can_act(state, c):
        return []
    events: list[Event] = []
    passed: bool | None = None
    if s.test is not None:
        passed = c.sustained_result
        if passed is None:
            test = rolled(state, c, rng)
            events.append(test)
            passed = test.passed
    events.append(SustainedAdvanced(c.id, passed))
    if sus.advance(s, passed).complete:
        events.append(SustainedCompleted(c.id))
    return events


def _require(state: EncounterState, target: str) -> tuple[Combatant, sus.Sustained]:
    c = combatant(state, target)
    if c.sustained is None:
        raise RuleViolation(
            "brak_podtrzymania",
            gettext_noop("%(name)s nie prowadzi działania podtrzymywanego."),
            name=c.name,
        )
    return c, c.sustained


def sustained_test(state: EncounterState, command: SustainedTest, rng: RNG) -> list[Event]:
    """The GM's end-of-round test: recorded (`success`) or rolled now (None)."""
    c, s = _require(state, command.target)
    if s.test is None:
        raise RuleViolation(
            "bez_testu",
            gettext_noop("%(name)s: MG nie wymaga testu dla tego działania (ustaw test)."),
            name=c.name,
        )
    if command.success is None:
        return [rolled(state, c, rng)]
    return [SustainedTested(c.id, command.success)]


def sustained_check(state: EncounterState, command: SustainedCheck) -> list[Event]:
    """The GM requires an end-of-round test (an attribute or talent vs a DN), or drops it."""
    c, _ = _require(state, command.target)
    if command.skill:
        sus.RoundCheck(command.skill, command.dn)  # RuleViolation for an unknown skill
        if command.dn < 1:
            raise RuleViolation(
                "trudnosc", gettext_noop("Trudność testu: co najmniej 1."), dn=command.dn
            )
    return [SustainedCheckSet(c.id, command.skill, command.dn, command.failure_stalls)]
