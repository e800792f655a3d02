"""Runda, Tura, Inicjatywa i Zaskoczenie: starting the fight, turns, rounds, the end."""

from __future__ import annotations

import random

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora.commands import (
    Aim,
    EndCombat,
    EndTurn,
    Prepare,
    StartCombat,
    YieldInitiative,
)
from combat.rules.eleora.events import (
    CombatEnded,
    CombatStarted,
    ConditionTicked,
    RoundStarted,
    TurnStarted,
)
from combat.rules.eleora.state import GM, EncounterState
from tests.combat.rules.engine_kit import begin, make_combatant, make_state, of_type, step


def duel() -> EncounterState:
    return make_state(make_combatant("ala"), make_combatant("wilk", "foes"))


def test_inicjatywa_rolled_for_everyone_and_highest_acts_first() -> None:
    state = make_state(make_combatant("ala"), make_combatant("bob"), make_combatant("wilk", "foes"))
    new, events = step(state, StartCombat(), random.Random(3))
    started = of_type(events, CombatStarted)[0]
    totals = {r.combatant: r.total for r in started.initiative.rolls}
    assert [totals[c] for c in new.order] == sorted(totals.values(), reverse=True)
    assert new.current == new.order[0]
    assert new.phase == "combat" and new.round == 1
    assert all(new.get(c).initiative == totals[c] for c in totals)


def test_inicjatywa_players_may_supply_their_own_2d6() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    new, events = step(state, StartCombat(rolls={"ala": (1, 1)}), random.Random(0))
    roll = next(
        r for r in of_type(events, CombatStarted)[0].initiative.rolls if r.combatant == "ala"
    )
    assert roll.faces == (1, 1) and roll.supplied
    assert new.get("ala").initiative == 2 + 2


def test_inicjatywa_supplied_dice_must_be_two_d6() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    with pytest.raises(RuleViolation) as refused:
        step(state, StartCombat(rolls={"ala": (7, 1)}), random.Random(0))
    assert refused.value.code == "inicjatywa"
    with pytest.raises(RuleViolation):
        step(state, StartCombat(rolls={"nikt": (1, 1)}), random.Random(0))


def test_start_combat_only_once_and_only_by_the_gm() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    with pytest.raises(RuleViolation) as refused:
        step(state, StartCombat())
    assert refused.value.code == "walka_trwa"
    with pytest.raises(RuleViolation) as not_gm:
        step(state, StartCombat(actor="ala"))
    assert not_gm.value.code == "tylko_mg"


def test_no_actions_before_combat_starts() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="ala"))
    assert refused.value.message == "Walka jeszcze się nie zaczęła."


def test_tura_zaskoczenia_starting_side_gets_one_action_each() -> None:
    state = make_state(make_combatant("ala"), make_combatant("bob"), make_combatant("wilk", "foes"))
    state = begin(state, ["wilk", "ala", "bob"], surprise_side="party")
    assert state.phase == "surprise" and state.round == 0
    assert state.current == "ala" and state.get("ala").actions_left == 1
    state, _ = step(state, Prepare(actor="ala"))
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="ala"))
    assert "zaskoczenia" in refused.value.message
    state, _ = step(state, EndTurn(actor="ala"))
    assert state.current == "bob"
    state, events = step(state, EndTurn(actor="bob"))
    assert of_type(events, RoundStarted)[0].round == 1
    assert state.phase == "combat" and state.current == "wilk"
    assert state.get("wilk").actions_left == 2


def test_tura_zaskoczenia_surprised_side_is_zaskoczona_until_its_turn() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    state = begin(state, ["wilk", "ala"], surprise_side="party")
    wilk = state.get("wilk")
    assert wilk.has("zaskoczenie") and not wilk.has_acted
    state, _ = step(state, EndTurn(actor="ala"))
    assert state.current == "wilk" and not state.get("wilk").has("zaskoczenie")


def test_turn_and_round_advance_in_initiative_order() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(state, EndTurn(actor="ala"))
    assert (state.current, state.round) == ("wilk", 1)
    state, events = step(state, EndTurn(actor="wilk"))
    assert (state.current, state.round) == ("ala", 2)
    assert [type(e).__name__ for e in events][-2:] == ["RoundStarted", "TurnStarted"]


def test_end_turn_only_by_the_acting_character_or_gm() -> None:
    state = begin(duel(), ["ala", "wilk"])
    with pytest.raises(RuleViolation) as refused:
        step(state, EndTurn(actor="wilk"))
    assert refused.value.code == "nie_twoja_tura"
    state, _ = step(state, EndTurn(actor=GM))
    assert state.current == "wilk"


def test_not_your_turn_refusal_names_who_acts() -> None:
    state = begin(duel(), ["ala", "wilk"])
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="wilk"))
    assert refused.value.message == "Nie twoja tura: teraz działa Ala."


def test_oddanie_inicjatywy_reorders_for_the_rest_of_combat() -> None:
    state = make_state(make_combatant("ala"), make_combatant("bob"), make_combatant("wilk", "foes"))
    state = begin(state, ["ala", "bob", "wilk"])
    state, _ = step(state, YieldInitiative(actor="ala", by=10))
    assert state.get("ala").initiative == 14 - 10
    assert state.order == ("bob", "wilk", "ala")
    state, _ = step(state, EndTurn(actor="ala"))
    assert state.current == "bob"  # those who have not acted this round still do
    state, _ = step(state, EndTurn(actor="bob"))
    state, _ = step(state, EndTurn(actor="wilk"))
    assert (state.round, state.current) == (2, "bob")


def test_inicjatywa_at_zero_ogluszona_one_action_that_turn() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, events = step(state, YieldInitiative(actor="ala", by=14))
    ala = state.get("ala")
    assert ala.initiative == 0 and ala.has("oszolomienie")
    assert ala.actions_left == 0  # the yield was its one action this turn
    with pytest.raises(RuleViolation):
        step(state, YieldInitiative(actor="ala", by=0))


def test_oddanie_inicjatywy_by_less_than_one_refused() -> None:
    state = begin(duel(), ["ala", "wilk"])
    with pytest.raises(RuleViolation) as refused:
        step(state, YieldInitiative(actor="ala", by=0))
    assert refused.value.code == "oddanie_inicjatywy"


def test_unconscious_combatant_turn_ticks_then_passes() -> None:
    from combat.rules.eleora.conditions import ConditionInstance

    bleeding = (ConditionInstance("krwawienie", remaining=3),)
    state = make_state(
        make_combatant("ala"),
        make_combatant(
            "wilk", "foes", damage_physical=9, status="unconscious", conditions=bleeding
        ),
        make_combatant("bob"),
    )
    state = begin(state, ["ala", "wilk", "bob"])
    state, events = step(state, EndTurn(actor="ala"))
    ticked = of_type(events, ConditionTicked)
    assert ticked and ticked[0].combatant == "wilk"
    assert state.current == "bob"
    assert [e.combatant for e in of_type(events, TurnStarted)] == ["wilk", "bob"]


def test_dead_combatants_are_skipped() -> None:
    state = make_state(
        make_combatant("ala"), make_combatant("wilk", "foes", status="dead"), make_combatant("bob")
    )
    state = begin(state, ["ala", "wilk", "bob"])
    state, events = step(state, EndTurn(actor="ala"))
    assert state.current == "bob"
    assert "wilk" not in [e.combatant for e in of_type(events, TurnStarted)]


def test_end_of_combat_by_the_gm_with_a_winner() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, events = step(state, EndCombat(winner="party"))
    assert state.phase == "ended" and state.winner == "party"
    assert of_type(events, CombatEnded)
    with pytest.raises(RuleViolation) as refused:
        step(state, Aim(actor="ala", target="wilk"))
    assert refused.value.message == "Walka już się skończyła."
    with pytest.raises(RuleViolation):
        step(begin(duel(), ["ala", "wilk"]), EndCombat(winner="nikt"))


def test_combat_ends_when_nobody_is_conscious() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    state = begin(state, ["ala", "wilk"])
    from combat.rules.eleora.commands import EditHealth

    state, _ = step(state, EditHealth(target="wilk", damage_physical=10, damage_stun=0))
    state, events = step(state, EditHealth(target="ala", damage_physical=10, damage_stun=0))
    assert state.phase == "ended" and state.winner is None
