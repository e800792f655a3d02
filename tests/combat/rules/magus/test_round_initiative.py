"""Initiative every round: who rolls, the tie-break, delays into the round, Ominięcie tarczy."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus import RULESET
from combat.rules.magus.codec import command_from_dict
from combat.rules.magus.commands import (
    Advance,
    Declare,
    Delay,
    EndTurn,
    Expire,
    Move,
    RollInitiative,
    RollInitiatives,
    StartCombat,
)
from combat.rules.magus.events import InitiativeRolled, InitiativeSet, OrderSet
from tests.combat.rules.magus.engine_kit import Table, fighter, of, shown, to_act


def declared(table: Table) -> None:
    for cid in table.state.combatants:
        table.do(Declare(actor=cid))


def test_players_roll_their_own_initiative_and_the_gm_rolls_the_rest() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat(now=0.0))
    declared(table)
    assert table.state.phase == "initiative"
    table.do(RollInitiative(actor="ala"), [4])
    with pytest.raises(RuleViolation, match="już ma"):
        table.do(RollInitiative(actor="ala"))
    events = table.do(RollInitiatives(), [7])
    assert [e.roll.total for e in of(events, InitiativeRolled)] == [7]
    assert of(events, OrderSet)[0].order == ("ork", "ala")
    assert table.state.phase == "act" and table.state.current == "ork"


def test_initiative_step_is_zrecznosc_less_armour_and_shield_penalties() -> None:
    armour = [{"name": "Kolczuga", "physical": 5, "initiative_penalty": 2}]
    table = Table(fighter("ala", "a", "u1", armour=armour), fighter("ork", "b"))
    table.do(StartCombat())
    declared(table)
    events = table.do(RollInitiative(actor="ala"), [3])  # step 4 = d6
    assert of(events, InitiativeRolled)[0].roll.step == 4


def test_without_players_rolling_the_server_rolls_everyone_at_the_reveal() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), players_roll_initiative=False)
    table.do(StartCombat())
    table.do(Declare(actor="ala"))
    events = table.do(Declare(actor="ork"), [2, 8])
    assert len(of(events, InitiativeRolled)) == 2
    assert table.state.order == ("ork", "ala")


def test_initiative_deadline_rolls_for_the_missing() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat(now=0.0))
    table.do(Declare(actor="ala", now=10.0))
    table.do(Declare(actor="ork", now=10.0))
    assert table.state.deadline == 40.0
    events = table.do(Expire(now=41.0), [5, 6])
    assert {e.by for e in of(events, InitiativeRolled)} == {""}
    assert table.state.phase == "act"


def test_gm_advance_rolls_the_missing_initiatives() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    declared(table)
    table.do(Advance(), [5, 6])
    assert table.state.phase == "act"


def test_initiative_ties_go_to_the_higher_zrecznosc_step_then_simultaneous() -> None:
    table = Table(
        fighter("ala", "a", "u1"),
        fighter("ork", "b", attributes={"zrecznosc": 7}),  # d12
        fighter("gob", "b"),
    )
    table.do(StartCombat())
    declared(table)
    table.do(RollInitiative(actor="ala"), [5])
    table.do(RollInitiatives(), [5, 5])
    assert table.state.order == ("ork", "ala", "gob")


def test_initiative_ties_simultaneous_setting_keeps_the_joining_order() -> None:
    table = Table(
        fighter("ala", "a", "u1"),
        fighter("ork", "b", attributes={"zrecznosc": 7}),
        initiative_ties="simultaneous",
    )
    table.do(StartCombat())
    declared(table)
    table.do(RollInitiative(actor="ala"), [5])
    table.do(RollInitiatives(), [5])
    assert table.state.order == ("ala", "ork")


def test_delay_into_next_round_skips_the_test_and_counts_as_highest_plus_one() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    to_act(table)
    assert table.state.current == "ala"
    table.do(Delay(actor="ala", next_round=True))
    assert table.state.current == "ork"
    table.do(EndTurn(actor="ork"))
    assert (table.state.round, table.state.phase) == (2, "declare")
    declared(table)
    with pytest.raises(RuleViolation, match="nie testuje"):
        table.do(RollInitiative(actor="ala"))
    events = table.do(RollInitiatives(), [6])
    assert of(events, InitiativeSet) == [InitiativeSet("ala", 7)]
    assert table.state.order == ("ala", "ork")


def test_ominiecie_tarczy_subtracts_the_targets_shield_from_own_initiative() -> None:
    shield = [{"name": "Tarcza", "physical": 3}]
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b", shields=shield))
    table.do(StartCombat())
    table.do(
        Declare(
            actor="ala",
            action="attack",
            weapon="Miecz",
            target="ork",
            options=("ominiecie_tarczy",),
        )
    )
    table.do(Declare(actor="ork"))
    events = table.do(RollInitiative(actor="ala"), [9])
    assert of(events, InitiativeRolled)[0].roll.total == 6


def test_ominiecie_tarczy_needs_a_target_with_a_shield() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    with pytest.raises(RuleViolation, match="tarczę"):
        table.do(
            Declare(
                actor="ala",
                action="attack",
                weapon="Miecz",
                target="ork",
                options=("ominiecie_tarczy",),
            )
        )


def test_initiative_movement_costs_one_initiative_per_hex_and_replaces_ruch_dzielony() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), initiative_movement=True)
    table.do(StartCombat())
    with pytest.raises(RuleViolation, match="Ruchu dzielonego"):
        table.do(Declare(actor="ala", options=("ruch_dzielony",)))
    to_act(table)
    table.do(Move(actor="ala", metres=4))
    table.do(Move(actor="ala", metres=3))
    assert table.c["ala"].initiative == 9 - 2 - 2
    assert table.c["ala"].moved == 7


def test_the_gm_rolls_one_seats_initiative_from_its_seat_controls() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat(now=0.0))
    assert shown(RULESET.gm_seat_panel(table.state, "ala")).phase == "declare"
    declared(table)
    panel = shown(RULESET.gm_seat_panel(table.state, "ala"))
    assert panel.phase == "initiative"
    offer = {a.key: a for a in panel.actions}["inicjatywa_mg"]
    assert offer.available and offer.label == "Rzuć na Inicjatywę"
    command = command_from_dict(panel.commands["inicjatywa_mg"])
    assert command == RollInitiatives(targets=("ala",))
    events = table.do(command, [6])
    assert [e.combatant for e in of(events, InitiativeRolled)] == ["ala"]
    keys = {a.key for a in shown(RULESET.gm_seat_panel(table.state, "ala")).actions}
    assert "inicjatywa_mg" not in keys  # rolled: nothing more to offer
