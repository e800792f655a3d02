"""Przypadłości: every condition of the document, its limit, duration and tick."""

from __future__ import annotations

import random

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora import conditions as cond
from combat.rules.eleora.commands import (
    AddCondition,
    ChooseReaction,
    DeclareAttack,
    EndTurn,
    Interact,
    Move,
    Prepare,
    RemoveCondition,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.events import (
    AttackDeclared,
    AttackResolved,
    ConditionTicked,
    Moved,
    TestRolled,
)
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import Armour
from combat.rules.eleora.state import UNARMED, EncounterState
from tests.combat.rules.engine_kit import (
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    of_type,
    step,
)

WOLF = make_sheet("Wilk", weapons=())
DOCUMENT = {
    "inspiracja",
    "krwawienie",
    "nieprzytomnosc",
    "odsloniecie",
    "oszolomienie",
    "osaczenie",
    "oslepienie",
    "paraliz",
    "podpalenie",
    "powalenie",
    "rozproszenie",
    "szal",
    "unieruchomienie",
    "zaskoczenie",
    "zmeczenie",
}


def wolf_first(**ala: object) -> EncounterState:
    """The wolf acts first; Ala's turn comes next."""
    state = make_state(make_combatant("ala", **ala), make_combatant("wilk", "foes", sheet=WOLF))  # type: ignore[arg-type]
    return begin(state, ["wilk", "ala"])


def ala_turns(state: EncounterState, n: int) -> tuple[EncounterState, list[object]]:
    """Pass n full rounds from the wolf's turn to Ala's, collecting the events."""
    collected: list[object] = []
    for _ in range(n):
        if state.current == "ala":
            state, events = step(state, EndTurn(actor="ala"))
            collected += events
        state, events = step(state, EndTurn(actor="wilk"))
        collected += events
    return state, collected


def test_conditions_are_data_with_limits_durations_and_ticks() -> None:
    assert set(cond.SPECS) >= DOCUMENT
    s = TableSettings()
    limits = {k: cond.spec(k).max_stacks(s) for k in DOCUMENT}
    assert limits["inspiracja"] == limits["krwawienie"] == limits["odsloniecie"] == 3
    assert limits["unieruchomienie"] == 3 and limits["zmeczenie"] == 5
    assert cond.spec("krwawienie").tick == "start" and cond.spec("krwawienie").duration(s) == 3
    assert cond.spec("oszolomienie").tick == "end"
    assert cond.spec("osaczenie").derived and cond.spec("nieprzytomnosc").derived
    assert cond.label("powalenie") == "Powalenie"


def test_inspiracja_kostka_heroizmu_max_three_plus_one_die_spent_on_use() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF)),
        ["ala", "wilk"],
    )
    state, _ = step(state, AddCondition(target="ala", condition="inspiracja", stacks=3))
    with pytest.raises(RuleViolation) as refused:
        step(state, AddCondition(target="ala", condition="inspiracja"))
    assert refused.value.code == "limit_stosow"
    cmd = DeclareAttack(actor="ala", target="wilk", weapon="Szabla", heroism=True)
    state, events = step(state, cmd, random.Random(0))
    assert {m.reason: m.dice for m in of_type(events, AttackDeclared)[0].attack.modifiers}[
        "Kostka Heroizmu"
    ] == 1
    assert state.get("ala").heroism_dice == 2


def test_kostka_heroizmu_needed_to_spend_one() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF)),
        ["ala", "wilk"],
    )
    with pytest.raises(RuleViolation) as refused:
        step(state, Move(actor="ala", mode="bieg", metres=3, heroism=True))
    assert refused.value.code == "brak_heroizmu"
    state, _ = step(state, AddCondition(target="ala", condition="inspiracja"))
    state, events = step(
        state, Move(actor="ala", mode="bieg", metres=3, heroism=True), Dice(1, 1, 4)
    )
    assert of_type(events, TestRolled)[0].roll.size == 3 and state.get("ala").heroism_dice == 0


def test_krwawienie_one_damage_at_the_start_of_each_of_the_next_three_own_turns() -> None:
    state, _ = step(wolf_first(), AddCondition(target="ala", condition="krwawienie"))
    state, events = ala_turns(state, 4)
    ticks = [e for e in of_type(events, ConditionTicked) if e.combatant == "ala"]
    assert [t.damage for t in ticks] == [1, 1, 1]
    assert state.get("ala").damage_physical == 3 and not state.get("ala").has("krwawienie")


def test_krwawienie_stacks_tick_each_and_never_exceed_three() -> None:
    state, _ = step(wolf_first(), AddCondition(target="ala", condition="krwawienie", stacks=2))
    with pytest.raises(RuleViolation):
        step(state, AddCondition(target="ala", condition="krwawienie", stacks=2))
    state, events = ala_turns(state, 1)
    assert of_type(events, ConditionTicked)[0].damage == 2
    conditions = cond.add(
        state.get("ala").conditions, ConditionInstance("krwawienie", stacks=5), state.settings
    )
    assert cond.stacks(conditions, "krwawienie") == 3  # automatic applications are capped


def test_condition_damage_ignores_pancerz_and_wola() -> None:
    plate = (Armour("Płyty", armour_points=5),)
    state = wolf_first(sheet=make_sheet(armour=plate, wola=5))
    state, _ = step(state, AddCondition(target="ala", condition="podpalenie"))
    state, _ = ala_turns(state, 1)
    assert state.get("ala").damage_physical == 1


def test_podpalenie_does_not_stack_reapplication_extends_and_interakcja_puts_it_out() -> None:
    state, _ = step(wolf_first(), AddCondition(target="ala", condition="podpalenie"))
    state, _ = step(state, AddCondition(target="ala", condition="podpalenie"))
    burning = [c for c in state.get("ala").conditions if c.key == "podpalenie"]
    assert len(burning) == 1 and burning[0].remaining == 6 and burning[0].stacks == 1
    state, events = ala_turns(state, 1)
    assert of_type(events, ConditionTicked)[0].damage == 1
    state, _ = step(state, Interact(actor="ala", kind="ugaszenie"))
    assert not state.get("ala").has("podpalenie")


def test_odsloniecie_max_three_tokens() -> None:
    state, _ = step(wolf_first(), AddCondition(target="ala", condition="odsloniecie", stacks=3))
    with pytest.raises(RuleViolation):
        step(state, AddCondition(target="ala", condition="odsloniecie"))


def test_oslepienie_minus_three_to_physical_tests_attack_and_defence_floor_two() -> None:
    state, _ = step(wolf_first(), AddCondition(target="ala", condition="oslepienie", turns=2))
    state, _ = step(state, EndTurn(actor="wilk"))
    state, events = step(state, Move(actor="ala", mode="bieg", metres=3), Dice(1, 1, 1, 1, 4))
    run = of_type(events, TestRolled)[0].roll
    assert run.size == 0  # Zręczność 2 + Bieganie 0, −3 → nothing left to roll
    state, events = step(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"))
    mods = {m.reason: m.dice for m in of_type(events, AttackDeclared)[0].attack.modifiers}
    assert mods["Oślepienie"] == -3
    state, _ = step(state, ChooseReaction(actor="wilk"), Dice(*[1] * 6))
    state, _ = step(state, EndTurn(actor="ala"))
    state, events = step(
        state, DeclareAttack(actor="wilk", target="ala", weapon=UNARMED), Dice(*[1] * 6)
    )
    state, events = step(state, ChooseReaction(actor="ala"), Dice(*[1] * 6))
    defence = of_type(events, AttackResolved)[0].defence_roll
    assert defence.size == 2  # Obrona 4 cannot drop below 2


def test_oslepienie_does_not_touch_mental_tests() -> None:
    bleeding = (ConditionInstance("krwawienie", remaining=3),)
    state, _ = step(
        wolf_first(conditions=bleeding), AddCondition(target="ala", condition="oslepienie")
    )
    state, _ = step(state, EndTurn(actor="wilk"))
    _, events = step(state, Interact(actor="ala", kind="tamowanie"), Dice(1, 1, 1))
    assert of_type(events, TestRolled)[0].roll.size == 3  # Intelekt + Medycyna untouched


def test_oslepienie_runs_out_at_the_end_of_the_bearers_turns() -> None:
    state, _ = step(wolf_first(), AddCondition(target="ala", condition="oslepienie", turns=1))
    state, _ = step(state, EndTurn(actor="wilk"))
    assert state.get("ala").has("oslepienie")
    state, _ = step(state, EndTurn(actor="ala"))
    assert not state.get("ala").has("oslepienie")


def test_powalenie_loses_zrecznosc_from_obrona() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF))
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, AddCondition(target="wilk", condition="powalenie"))
    _, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), Dice(*[1] * 7)
    )
    defence = of_type(events, AttackResolved)[0].defence_roll
    assert defence.size == 2 and {m.reason: m.dice for m in defence.modifiers}["Zręczność"] == 0


def test_szal_first_action_must_be_an_attack_or_a_charge_to_the_nearest() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0), conditions=(ConditionInstance("szal"),)),
        make_combatant("wilk", "foes", position=(3, 0), sheet=WOLF),
        make_combatant("lis", "foes", position=(0, 5), sheet=WOLF),
    )
    state = begin(state, ["ala", "wilk", "lis"])
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="ala"))
    assert refused.value.code == "szal"
    with pytest.raises(RuleViolation):
        step(state, Move(actor="ala", path=((1, 0),)))
    with pytest.raises(RuleViolation):
        step(state, Move(actor="ala", path=((0, 1), (0, 2), (0, 3)), charge=True))
    state, _ = step(state, Move(actor="ala", path=((1, 0), (2, 0)), charge=True))
    state, _ = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), random.Random(1)
    )
    assert not state.get("ala").frenzy_bound


def test_unieruchomienie_minus_one_per_stack_to_skill_tests_and_obrona_max_three() -> None:
    grip = ConditionInstance("unieruchomienie", stacks=2, source="wilk", difficulty=3)
    state = make_state(
        make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF, conditions=(grip,))
    )
    state = begin(state, ["ala", "wilk"])
    _, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), Dice(*[1] * 7)
    )
    defence = of_type(events, AttackResolved)[0].defence_roll
    assert {m.reason: m.dice for m in defence.modifiers}["Unieruchomienie"] == -2
    with pytest.raises(RuleViolation):
        step(
            state, AddCondition(target="wilk", condition="unieruchomienie", stacks=2, source="ala")
        )


def test_unieruchomienie_same_source_resets_the_difficulty_and_stacks_together() -> None:
    s = TableSettings()
    first = cond.add((), ConditionInstance("unieruchomienie", source="ala", difficulty=4), s)
    lowered = (ConditionInstance("unieruchomienie", source="ala", difficulty=1),)
    again = cond.add(lowered, ConditionInstance("unieruchomienie", source="ala", difficulty=4), s)
    assert first[0].difficulty == 4
    assert len(again) == 1 and again[0].stacks == 2 and again[0].difficulty == 4


def test_unieruchomiony_moves_along_with_the_grabber() -> None:
    grip = ConditionInstance("unieruchomienie", source="ala", difficulty=3)
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("wilk", "foes", position=(1, 0), sheet=WOLF, conditions=(grip,)),
    )
    state = begin(state, ["ala", "wilk"])
    state, events = step(state, Move(actor="ala", path=((0, 1), (0, 2))))
    assert state.get("wilk").position == (1, 2)
    assert [m.combatant for m in of_type(events, Moved)] == ["ala", "wilk"]


def test_zmeczenie_minus_one_per_point_to_all_tests_and_five_knocks_out() -> None:
    state, _ = step(wolf_first(), AddCondition(target="ala", condition="zmeczenie", stacks=2))
    state, _ = step(state, EndTurn(actor="wilk"))
    _, events = step(state, Move(actor="ala", mode="bieg", metres=3), Dice(4, 4, 4))
    assert {m.reason: m.dice for m in of_type(events, TestRolled)[0].roll.modifiers}[
        "Zmęczenie"
    ] == -2
    state, _ = step(state, AddCondition(target="ala", condition="zmeczenie", stacks=3))
    assert state.get("ala").status == "unconscious" and state.get("ala").fatigue == 5
    with pytest.raises(RuleViolation):
        step(state, AddCondition(target="ala", condition="zmeczenie"))
    state, _ = step(state, RemoveCondition(target="ala", condition="zmeczenie"))
    assert state.get("ala").status == "active"


def test_zaskoczenie_no_defensive_reactions() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF))
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, AddCondition(target="ala", condition="zaskoczenie"))
    _, events = step(
        state, DeclareAttack(actor="wilk", target="ala", weapon=UNARMED), Dice(*[1] * 7)
    )
    assert of_type(events, AttackDeclared)[0].prompt is None


def test_unknown_or_derived_conditions_cannot_be_added() -> None:
    with pytest.raises(RuleViolation):
        step(wolf_first(), AddCondition(target="ala", condition="osaczenie"))
    with pytest.raises(RuleViolation):
        step(wolf_first(), AddCondition(target="ala", condition="klątwa"))
    with pytest.raises(RuleViolation):
        step(wolf_first(), RemoveCondition(target="ala", condition="szal"))


def test_spending_tokens_leaves_other_conditions_and_the_rest_of_the_stack() -> None:
    held = (
        ConditionInstance("powalenie"),
        ConditionInstance("inspiracja", stacks=3),
    )
    after = cond.spend(held, "inspiracja", 2)
    assert after == (ConditionInstance("powalenie"), ConditionInstance("inspiracja", stacks=1))
