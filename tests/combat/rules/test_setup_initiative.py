"""Inicjatywa rolled before the fight: each player rolls for their own character, once; the
start of the fight uses those dice and rolls for everyone else."""

from __future__ import annotations

import json

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora.commands import (
    RollInitiative,
    StartCombat,
    command_from_dict,
    command_to_dict,
)
from combat.rules.eleora.events import (
    CombatStarted,
    InitiativeRolled,
    event_from_dict,
    event_to_dict,
)
from combat.rules.eleora.state import GM, EncounterState, state_from_dict, state_to_dict
from combat.rules.registry import get_ruleset
from tests.combat.rules.engine_kit import Dice, make_combatant, make_state, of_type, step


def setup_state() -> EncounterState:
    return make_state(make_combatant("ala"), make_combatant("wilk", "foes"))


def test_inicjatywa_rolled_by_the_player_before_the_fight_is_used_at_the_start() -> None:
    state, events = step(setup_state(), RollInitiative(actor="ala", roll=(1, 2)))
    assert events == [InitiativeRolled(combatant="ala", faces=(1, 2), supplied=True)]
    assert state.get("ala").setup_roll == (1, 2)
    # Only the wolf is rolled for at the start: 6 + 6.
    state, events = step(state, StartCombat(), Dice(6, 6))
    rolls = {r.combatant: r for r in of_type(events, CombatStarted)[0].initiative.rolls}
    assert rolls["ala"].faces == (1, 2) and rolls["ala"].supplied
    assert rolls["wilk"].faces == (6, 6) and not rolls["wilk"].supplied
    assert state.order == ("wilk", "ala")
    assert state.get("ala").initiative == 1 + 2 + 2  # + Intuicja 2


def test_inicjatywa_before_the_fight_rolled_by_the_engine_without_dice_given() -> None:
    state, events = step(setup_state(), RollInitiative(actor="wilk"), Dice(4, 3))
    assert events == [InitiativeRolled(combatant="wilk", faces=(4, 3))]
    assert state.get("wilk").setup_roll == (4, 3)


def test_inicjatywa_is_rolled_once_per_character() -> None:
    state, _ = step(setup_state(), RollInitiative(actor="ala", roll=(3, 3)))
    with pytest.raises(RuleViolation, match="Postać Ala już rzuciła na inicjatywę") as refusal:
        step(state, RollInitiative(actor="ala", roll=(6, 6)))
    assert refusal.value.code == "inicjatywa_rzucona"


@pytest.mark.parametrize("faces", [(0, 3), (3, 7)])
def test_inicjatywa_before_the_fight_is_two_d6(faces: tuple[int, int]) -> None:
    with pytest.raises(RuleViolation, match="Inicjatywa to dwie kości k6"):
        step(setup_state(), RollInitiative(actor="ala", roll=faces))


def test_inicjatywa_is_rolled_before_the_fight_only() -> None:
    state, _ = step(setup_state(), StartCombat(), Dice(1, 1, 6, 6))
    with pytest.raises(RuleViolation, match="Walka już się zaczęła") as refusal:
        step(state, RollInitiative(actor="ala", roll=(6, 6)))
    assert refusal.value.code == "walka_trwa"


def test_inicjatywa_needs_a_character_not_the_gm() -> None:
    with pytest.raises(RuleViolation, match="Wskaż postać"):
        step(setup_state(), RollInitiative(actor=GM, roll=(6, 6)))
    with pytest.raises(RuleViolation, match="Nie ma takiej postaci"):
        step(setup_state(), RollInitiative(actor="smok", roll=(6, 6)))


def test_inicjatywa_dice_given_to_start_combat_win_over_the_ones_rolled_before() -> None:
    state, _ = step(setup_state(), RollInitiative(actor="ala", roll=(1, 1)))
    state, _ = step(state, StartCombat(rolls={"ala": (6, 6), "wilk": (2, 2)}))
    assert state.order == ("ala", "wilk")
    assert state.get("ala").initiative_roll == (6, 6)


def test_inicjatywa_is_a_players_command_that_crosses_the_wire() -> None:
    rules = get_ruleset("eleora")
    cmd = command_from_dict({"type": "roll_initiative", "actor": "ala", "roll": [2, 5]})
    assert cmd == RollInitiative(actor="ala", roll=(2, 5))
    assert command_from_dict(command_to_dict(cmd)) == cmd
    assert rules.command_actor(cmd) == "ala"
    with pytest.raises(ValueError, match="expected 2 items"):
        command_from_dict({"type": "roll_initiative", "actor": "ala", "roll": [2, 5, 1]})
    state, events = step(setup_state(), cmd)
    stored = json.loads(json.dumps(event_to_dict(events[0])))
    assert event_from_dict(stored) == events[0]
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


def test_initiative_action_says_whether_a_character_may_still_roll() -> None:
    rules = get_ruleset("eleora")
    state = setup_state()
    action = rules.initiative_action(state, "ala")
    assert action.key == "inicjatywa" and action.available
    state, _ = step(state, RollInitiative(actor="ala", roll=(4, 2)))
    rolled = rules.initiative_action(state, "ala")
    assert not rolled.available and rolled.reason == "Inicjatywa rzucona: 4 + 2."
    assert rules.initiative_action(state, "wilk").available
    state, _ = step(state, StartCombat(), Dice(5, 5))
    started = rules.initiative_action(state, "wilk")
    assert not started.available and started.reason == "Walka już się zaczęła."
