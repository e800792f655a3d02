"""The live combat turn (digest §3): the order, one full action and free actions, the turn's
end (durations, Odpoczynek), Przemiana, Urazy, and PŻ 0 (§5)."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Damage,
    DecideFallen,
    EndTurn,
    FreeAction,
    FullAction,
    Heal,
    JoinCombat,
    Rest,
    SetOrder,
    Transform,
)
from combat.rules.d100.engine import attack as atk
from combat.rules.d100.engine.common import state_modifiers
from combat.rules.d100.events import (
    AttackResolved,
    FallenDecided,
    Healed,
    RestResolved,
    Transformed,
    TurnClosed,
    TurnSkipped,
    TurnStarted,
)
from tests.combat.rules.d100.engine_kit import Table, fighter, kinds, of, one


def test_order_is_descending_zwinnosc_ties_zmysly_then_name() -> None:
    table = Table(
        fighter("a", "x", zwinnosc=40),
        fighter("b", "y", zwinnosc=60),
        fighter("c", "x", zwinnosc=50, zmysly=40),
        fighter("d", "y", zwinnosc=50, zmysly=60),
        fighter("f", "y", zwinnosc=50, zmysly=40),
    )
    table.start()
    assert table.state.order == ("b", "d", "c", "f", "a")
    assert table.current == "b"


def test_order_counts_the_transformation() -> None:
    table = Table(
        fighter("wolf", "x", "u1", zwinnosc=52, transformation="wilkolak"),
        fighter("ork", "y", zwinnosc=50),
    )
    table.start()
    assert table.state.order == ("wolf", "ork")
    table.do(Transform(actor="wolf"))
    table.do(EndTurn(actor="wolf"))
    table.do(EndTurn(actor="ork"))
    assert table.state.order == ("ork", "wolf")  # Wilkołak −5 Zwinność: 47


def test_set_order_is_the_gms_and_is_kept_in_later_turns() -> None:
    table = Table(fighter("a", "x", zwinnosc=60), fighter("b", "y", zwinnosc=40))
    table.start()
    table.do(SetOrder(order=("b", "a")))
    table.do(EndTurn(actor="a"))  # a was already acting
    table.do(EndTurn(actor="b"))
    assert table.state.turn == 2 and table.state.order == ("b", "a")
    assert table.current == "b"
    with pytest.raises(RuleViolation) as refused:
        table.do(SetOrder(order=("b",)))
    assert refused.value.code == "kolejnosc"


def test_end_turn_passes_on_and_the_last_one_ends_the_combat_turn() -> None:
    table = Table(fighter("a", "x", zwinnosc=60), fighter("b", "y"))
    table.start()
    assert kinds(table.do(EndTurn(actor="a"))) == ["turn_ended", "turn_began"]
    events = table.do(EndTurn(actor="b"))
    assert kinds(events) == ["turn_ended", "turn_closed", "turn_started", "turn_began"]
    assert one(events, TurnStarted).turn == 2 and table.current == "a"


def test_end_turn_only_for_the_one_acting() -> None:
    table = Table(fighter("a", "x", zwinnosc=60), fighter("b", "y"))
    table.start()
    with pytest.raises(RuleViolation) as refused:
        table.do(EndTurn(actor="b"))
    assert refused.value.code == "nie_twoja_tura"


def test_free_actions_are_not_limited_and_change_weapon_sets_the_active_one() -> None:
    weapons = [{"name": "Miecz", "kind": "traditional"}, {"name": "Łuk", "kind": "bow"}]
    table = Table(fighter("a", "x", zwinnosc=60, weapons=weapons), fighter("b", "y"))
    table.start()
    for _ in range(3):
        table.do(FreeAction(actor="a", kind="move", note="do drzwi"))
    table.do(FreeAction(actor="a", kind="change_weapon", choice="w1"))
    assert table.c["a"].free_used == 4 and table.c["a"].weapon == "w1"
    assert atk.plan(table.state, table.c["a"], "b", "").hit.attribute == "zmysly"
    with pytest.raises(RuleViolation) as refused:
        table.do(FreeAction(actor="a", kind="dance"))
    assert refused.value.code == "akcja_darmowa"
    with pytest.raises(RuleViolation) as refused:
        table.do(FreeAction(actor="a", kind="change_weapon", choice="spell:0"))
    assert refused.value.code == "atak_czarem"


def test_one_full_action_whatever_it_is() -> None:
    table = Table(fighter("a", "x", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(FullAction(actor="a", note="wyciąga eliksir z plecaka"))
    for command in (Rest(actor="a"), Attack(actor="a", target="b"), FullAction(actor="a")):
        with pytest.raises(RuleViolation) as refused:
            table.do(command)
        assert refused.value.code == "brak_akcji_pelnej"
    with pytest.raises(RuleViolation) as refused:
        table.do(FreeAction(actor="a", note="x" * 4001))
    assert refused.value.code == "za_dlugi"


def test_durations_tick_at_the_turn_end() -> None:
    table = Table(fighter("a", "x", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(AddCondition(target="b", condition="zachwianie", turns=2))
    table.do(EndTurn(actor="a"))
    table.do(EndTurn(actor="b"))
    assert table.c["b"].has("zachwianie", 2)
    table.do(EndTurn(actor="a"))
    events = table.do(EndTurn(actor="b"))
    assert one(events, TurnClosed).turn == 2 and table.c["b"].effects == ()


def test_a_stunned_one_is_skipped_and_one_out_of_the_fight_silently() -> None:
    table = Table(fighter("a", "x", zwinnosc=60), fighter("b", "y"), fighter("c", "y", zwinnosc=10))
    table.start()
    table.do(AddCondition(target="b", condition="ogluszenie", turns=1))
    table.do(Damage(target="c", amount=999))
    events = table.do(EndTurn(actor="a"))
    assert one(events, TurnSkipped).combatant == "b"
    assert one(events, TurnStarted).turn == 2 and table.current == "a"


def test_the_turn_does_not_roll_on_with_nobody_in_the_fight() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(Damage(target="b", amount=999))
    events = table.do(Damage(target="a", amount=999))
    assert kinds(events) == ["damaged", "turn_ended"]
    assert table.state.turn == 1 and table.current is None


def test_everyone_stunned_waits_after_a_few_empty_turns() -> None:
    table = Table(fighter("a", "x", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(AddCondition(target="b", condition="ogluszenie", turns=0))
    events = table.do(AddCondition(target="a", condition="ogluszenie", turns=0))
    assert len(of(events, TurnStarted)) == 4 and table.current is None


def test_a_combatant_joining_a_live_turn_acts_from_the_next() -> None:
    table = Table(fighter("a", "x", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(JoinCombat(combatant=fighter("c", "y", zwinnosc=70)))
    assert table.c["c"].done and table.state.order[-1] == "c"
    table.do(EndTurn(actor="a"))
    events = table.do(EndTurn(actor="b"))
    assert table.state.order == ("c", "a", "b") and table.current == "c"
    assert "order_set" in kinds(events)


# --- Odpoczynek -------------------------------------------------------------------------------


def test_odpoczynek_heals_oop_times_five_at_the_turn_end() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(Damage(target="a", amount=180))
    table.do(Rest(actor="a"))
    table.do(EndTurn(actor="a"))
    events = table.do(EndTurn(actor="b"), [20])
    rest = one(events, RestResolved)
    assert rest.roll is not None and rest.roll.attribute == "oglada" and rest.healed == 150
    assert table.c["a"].pz == 170


def test_odpoczynek_heals_at_most_up_to_the_maximum() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(Damage(target="a", amount=10))
    table.do(Rest(actor="a"))
    table.do(EndTurn(actor="a"))
    assert one(table.do(EndTurn(actor="b"), [20]), RestResolved).healed == 10


def test_odpoczynek_fails_when_attacked_this_turn() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(Rest(actor="a"))
    table.do(EndTurn(actor="a"))
    table.do(Attack(actor="b", target="a"))
    events = table.defend("unik", [90])  # a miss: attacked all the same
    table.do(EndTurn(actor="b"))
    rest = one(table.log, RestResolved)
    assert rest.interrupted and rest.roll is None and rest.healed == 0
    assert of(events, AttackResolved)


def test_odpoczynek_fails_when_attacked_earlier_in_the_turn() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=40), fighter("b", "y"))
    table.start()
    table.do(Attack(actor="b", target="a"))
    table.defend("", [90])
    table.do(EndTurn(actor="b"))
    table.do(Rest(actor="a"))
    events = table.do(EndTurn(actor="a"))
    assert one(events, RestResolved).interrupted


def test_odpoczynek_refused_while_knocked_down() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(AddCondition(target="a", condition="powalenie", turns=1))
    with pytest.raises(RuleViolation) as refused:
        table.do(Rest(actor="a"))
    assert refused.value.code == "powalony"


# --- Przemiana --------------------------------------------------------------------------------


def test_przemiana_is_a_full_action_with_the_forms_modifiers() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60, transformation="wampir"), fighter("b", "y"))
    table.start()
    events = table.do(Transform(actor="a"))
    assert dict(one(events, Transformed).mods) == {"krzepa": 10, "zwinnosc": 10, "wytrzymalosc": 10}
    assert table.c["a"].transformed == "wampir" and table.c["a"].full_used
    table.do(EndTurn(actor="a"))
    table.do(EndTurn(actor="b"))
    plan = atk.plan(table.state, table.c["a"], "b", "")
    assert plan.choice == "claws" and ("Wampir", 10) in plan.hit.modifiers
    assert ("Wampir", 10) in plan.damage.modifiers


def test_przemiana_back_into_ones_own_form() -> None:
    table = Table(
        fighter("a", "x", "u1", zwinnosc=60, transformation="wilkolak"), fighter("b", "y")
    )
    table.start()
    table.do(Transform(actor="a"))
    table.do(EndTurn(actor="a"))
    table.do(EndTurn(actor="b"))
    back = one(table.do(Transform(actor="a")), Transformed)
    assert back.form == "" and back.mods == () and table.c["a"].transformed == ""


def test_przemiana_needs_a_transformation_on_the_sheet() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    with pytest.raises(RuleViolation) as refused:
        table.do(Transform(actor="a"))
    assert refused.value.code == "bez_przemiany"


# --- Urazy ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("injuries", "penalty"), [(0, 0), (1, -10), (2, -20), (3, -30), (5, -30)])
def test_injury_penalties_apply_to_all_rolls(injuries: int, penalty: int) -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(Damage(target="a", injuries=injuries))
    mods = dict(state_modifiers(table.state, table.c["a"], "oglada", "odpoczynek"))
    assert mods.get("Urazy", 0) == penalty
    plan = atk.plan(table.state, table.c["a"], "b", "")
    assert dict(plan.hit.modifiers).get("Urazy", 0) == penalty
    assert dict(plan.damage.modifiers).get("Urazy", 0) == penalty


def test_transformed_ignore_two_injuries() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60, transformation="wampir"), fighter("b", "y"))
    table.start()
    table.do(Damage(target="a", injuries=3))
    table.do(Transform(actor="a"))
    mods = dict(state_modifiers(table.state, table.c["a"], "oglada", "odpoczynek"))
    assert mods["Urazy"] == -10  # the 3rd is the first with effects: a light one


# --- PŻ 0 -------------------------------------------------------------------------------------


def test_a_player_character_at_zero_pz_is_unconscious_and_any_healing_wakes_it() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    table.do(Damage(target="a", amount=250))
    a = table.c["a"]
    assert a.pz == 0 and a.status == "nieprzytomny" and a.injuries == 1
    assert table.current == "b"  # its turn ended by itself
    assert (
        one(table.do(Heal(target="a", amount=1)), Healed).woke
        and table.c["a"].status == ""
        and table.c["a"].pz == 1
    )


@pytest.mark.parametrize(
    ("setting", "status"),
    [("ask", "pokonany"), ("unconscious", "nieprzytomny"), ("dead", "martwy")],
)
def test_an_npc_at_zero_pz_goes_as_npc_at_zero_says(setting: str, status: str) -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"), npc_at_zero=setting)
    table.start()
    table.do(Damage(target="b", amount=250))
    assert table.c["b"].status == status and table.c["b"].out


def test_the_gm_decides_a_fallen_npcs_fate() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"))
    table.start()
    with pytest.raises(RuleViolation) as refused:
        table.do(DecideFallen(target="b", outcome="martwy"))
    assert refused.value.code == "nie_pokonany"
    table.do(Damage(target="b", amount=250))
    with pytest.raises(RuleViolation) as refused:
        table.do(DecideFallen(target="b", outcome="zjedzony"))
    assert refused.value.code == "los"
    events = table.do(DecideFallen(target="b", outcome="martwy"))
    assert one(events, FallenDecided).outcome == "martwy" and table.c["b"].dead
    with pytest.raises(RuleViolation) as refused:
        table.do(Heal(target="b", amount=10))
    assert refused.value.code == "martwy"


def test_the_dead_and_unconscious_may_not_act() -> None:
    table = Table(fighter("a", "x", "u1", zwinnosc=60), fighter("b", "y"), npc_at_zero="dead")
    table.start()
    table.do(EndTurn(actor="a"))
    table.do(Damage(target="b", amount=250))
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="b", target="a"))
    assert refused.value.code == "nie_twoja_tura"
