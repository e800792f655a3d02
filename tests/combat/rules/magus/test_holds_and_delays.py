"""Powstrzymanie działania (hold) and Opóźnienie (delay) in more detail, and the badges the
table shows for them and for conditions."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus import RULESET
from combat.rules.magus.commands import (
    AddCondition,
    Attack,
    Declare,
    Delay,
    EndTurn,
    Hold,
    Interrupt,
    Move,
    StartCombat,
    StepIn,
)
from combat.rules.magus.events import AttackRolled, TurnBegan
from tests.combat.rules.magus.engine_kit import Table, fighter, of, to_act


def three() -> Table:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), fighter("gob", "b"))
    table.do(StartCombat())
    attack = Declare(actor="ala", action="attack", weapon="Miecz", target="ork")
    to_act(table, {"ala": attack})
    return table


def test_hold_interrupts_mid_turn_of_a_charging_foe() -> None:
    table = three()
    table.do(Hold(actor="ala", trigger="gdy ork szarżuje"))
    table.do(Move(actor="ork", metres=6))  # the trigger: Ork charges
    events = table.do(Interrupt(actor="ala"))
    assert of(events, TurnBegan) == [TurnBegan("ala", interrupting="ork")]
    table.do(EndTurn(actor="ala"))
    assert table.state.current == "ork" and table.c["ork"].moved == 6


def test_a_hold_is_used_once_and_its_plus_two_lasts_the_round() -> None:
    table = three()
    table.do(Hold(actor="ala"))
    table.do(Interrupt(actor="ala"))
    table.do(EndTurn(actor="ala"))
    with pytest.raises(RuleViolation, match="nie powstrzymuje"):
        table.do(Interrupt(actor="ala"))
    assert table.c["ala"].held


def test_hold_combines_with_zmiana_akcji() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    to_act(table)  # Ala declared nothing
    table.do(Hold(actor="ala"))
    table.do(Interrupt(actor="ala"))
    events = table.do(Attack(actor="ala", target="ork", weapon="Miecz"), [1, 2])
    rolled = of(events, AttackRolled)[0]
    assert rolled.dn == 7 + 2 + 2  # the hold and the change


def test_a_hold_never_triggered_ends_with_the_round() -> None:
    table = three()
    table.do(Hold(actor="ala"))
    table.do(EndTurn(actor="ork"))
    table.do(EndTurn(actor="gob"))
    assert table.state.round == 2 and not table.c["ala"].holding


def test_delay_is_refused_after_acting_and_step_in_needs_a_delay() -> None:
    table = three()
    table.do(Move(actor="ala", metres=1))
    with pytest.raises(RuleViolation, match="zanim"):
        table.do(Delay(actor="ala"))
    with pytest.raises(RuleViolation, match="nie opóźnia"):
        table.do(StepIn(actor="gob"))


def test_a_delayer_acts_after_the_order_when_it_never_steps_in() -> None:
    table = three()
    table.do(Delay(actor="ala"))
    table.do(EndTurn(actor="ork"))
    table.do(EndTurn(actor="gob"))
    assert table.state.current == "ala"


def test_stunned_and_surprised_characters_are_skipped_in_the_order() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), fighter("gob", "b"))
    table.do(StartCombat(surprised=("gob",)))
    to_act(table)
    assert table.state.order == ("ala", "ork")
    table.do(AddCondition(target="ork", condition="ogluszony", rounds=1))
    table.do(EndTurn(actor="ala"))
    assert table.state.round == 2


def test_condition_badges_show_rounds_left_and_the_gm_may_remove_them() -> None:
    table = three()
    table.do(AddCondition(target="ork", condition="ogluszony", rounds=2))
    table.do(AddCondition(target="ork", condition="krwotok"))
    seat = RULESET.table_view(table.state).seats["ork"]
    badges = {b.key: b for b in seat.badges}
    assert badges["ogluszony"].detail == "rundy: 2" and badges["krwotok"].detail == ""
    assert seat.removable == frozenset({"ogluszony", "krwotok"})
    table.do(Delay(actor="ala", next_round=True))
    assert "opoznia" in {b.key for b in RULESET.table_view(table.state).seats["ala"].badges}
