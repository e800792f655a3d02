"""The act phase: the action cap, movement, holds, delays, Zmiana akcji, sustained actions,
Powstanie, and the round's end."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus.commands import (
    AddCondition,
    Advance,
    Attack,
    Declare,
    Delay,
    EndTurn,
    GetUp,
    Hold,
    Interrupt,
    Move,
    SimpleAction,
    StartCombat,
    StepIn,
    UseAction,
)
from combat.rules.magus.events import AttackRolled, Bled, GotUp, StrainPaid
from tests.combat.rules.magus.engine_kit import Table, fighter, kinds, of, to_act


def fight(
    *extra: dict[str, object], declarations: dict[str, Declare] | None = None, **settings: object
) -> Table:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), *extra, **settings)  # type: ignore[arg-type]
    table.do(StartCombat())
    to_act(table, declarations)
    return table


def attack_decl(actor: str, *options: str, target: str = "ork") -> Declare:
    return Declare(actor=actor, action="attack", weapon="Miecz", target=target, options=options)


def test_action_cap_limits_all_actions_of_a_round_to_the_zrecznosc_step() -> None:
    table = fight()
    table.do(SimpleAction(actor="ala", count=5))
    with pytest.raises(RuleViolation, match="Limit akcji"):
        table.do(SimpleAction(actor="ala", count=2))
    table.do(Move(actor="ala", metres=2))  # the sixth action
    with pytest.raises(RuleViolation, match="Limit akcji"):
        table.do(UseAction(actor="ala"))


def test_movement_once_per_round_up_to_movement_rate() -> None:
    table = fight()
    with pytest.raises(RuleViolation, match="Za daleko"):
        table.do(Move(actor="ala", metres=13))
    table.do(Move(actor="ala", metres=12))
    with pytest.raises(RuleViolation, match="raz na rundę"):
        table.do(Move(actor="ala", metres=1))


def test_bieg_doubles_movement_uses_the_standard_action_and_harries() -> None:
    table = fight(declarations={"ala": Declare(actor="ala", options=("bieg",))})
    table.do(Move(actor="ala", metres=24))
    ala = table.c["ala"]
    assert ala.standard_used and ala.has("otoczony")
    with pytest.raises(RuleViolation, match="akcję standardową"):
        table.do(Attack(actor="ala", target="ork", weapon="Miecz"))


def test_bieg_is_declared_without_another_standard_action() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    with pytest.raises(RuleViolation, match="Bieg"):
        table.do(attack_decl("ala", "bieg"))


def test_ruch_dzielony_splits_the_move_and_harries_once_the_rate_is_used() -> None:
    table = fight(declarations={"ala": Declare(actor="ala", options=("ruch_dzielony",))})
    assert table.c["ala"].damage == 1  # its Strain
    table.do(Move(actor="ala", metres=5))
    assert not table.c["ala"].has("otoczony")
    table.do(Move(actor="ala", metres=7))
    assert table.c["ala"].has("otoczony")
    table.do(EndTurn(actor="ala"))
    table.do(EndTurn(actor="ork"))
    assert table.state.round == 2 and not table.c["ala"].has("otoczony")


def test_otoczony_takes_two_from_defences_and_action_tests() -> None:
    table = fight(declarations={"ork": Declare(actor="ork", options=("bieg",))})
    table.do(AddCondition(target="ala", condition="otoczony", rounds=1))
    events = table.do(Attack(actor="ala", target="ork", weapon="Miecz"), [1, 2])
    rolled = of(events, AttackRolled)[0]
    assert ("Otoczony", -2) in [(a.reason, a.value) for a in rolled.roll.adjustments]


def test_powstrzymanie_dzialania_interrupts_before_the_current_actor_with_plus_two_dn() -> None:
    table = fight(declarations={"ala": attack_decl("ala")})
    table.do(Hold(actor="ala", trigger="gdy ork zaatakuje"))
    assert table.state.current == "ork" and table.c["ala"].holding
    table.do(Interrupt(actor="ala"))
    assert table.state.current == "ala" and table.state.returns == ("ork",)
    events = table.do(Attack(actor="ala", target="ork", weapon="Miecz"), [1, 2])
    rolled = of(events, AttackRolled)[0]
    assert ("Powstrzymanie działania", 2) in rolled.dn_parts and rolled.dn == 9
    table.do(EndTurn(actor="ala"))
    assert table.state.current == "ork"


def test_hold_only_at_the_start_of_the_turn() -> None:
    table = fight()
    table.do(SimpleAction(actor="ala"))
    with pytest.raises(RuleViolation, match="początku"):
        table.do(Hold(actor="ala"))
    with pytest.raises(RuleViolation, match="nie powstrzymuje"):
        table.do(Interrupt(actor="ork"))


def test_opoznienie_acts_later_this_round_at_a_turn_boundary_without_penalty() -> None:
    gob = fighter("gob", "b")
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), gob)
    table.do(StartCombat())
    to_act(table, {"ala": attack_decl("ala")})
    table.do(Delay(actor="ala"))
    assert table.state.current == "ork"
    table.do(SimpleAction(actor="ork"))
    with pytest.raises(RuleViolation, match="nie przerywa"):
        table.do(StepIn(actor="ala"))
    table.do(EndTurn(actor="ork"))
    assert table.state.current == "gob"
    table.do(StepIn(actor="ala"))
    assert table.state.current == "ala"
    events = table.do(Attack(actor="ala", target="ork", weapon="Miecz"), [1, 2])
    assert of(events, AttackRolled)[0].dn == 7
    table.do(EndTurn(actor="ala"))
    assert table.state.current == "gob"


def test_a_delayer_who_never_steps_in_acts_when_the_order_is_done() -> None:
    table = fight()
    table.do(Delay(actor="ala"))
    table.do(EndTurn(actor="ork"))
    assert table.state.current == "ala"
    table.do(EndTurn(actor="ala"))
    assert table.state.round == 2


def test_zmiana_akcji_adds_two_to_the_dn_and_costs_the_original_strain() -> None:
    table = fight(declarations={"ala": Declare(actor="ala", options=("postawa_obronna",))})
    events = table.do(Attack(actor="ala", target="ork", weapon="Miecz"), [1, 2])
    assert "action_changed" in kinds(events)
    rolled = of(events, AttackRolled)[0]
    assert ("Zmiana akcji", 2) in rolled.dn_parts
    assert of(events, StrainPaid) == []  # Postawa obronna costs no Strain


def test_zmiana_akcji_strain_is_that_of_the_original_action() -> None:
    table = fight(declarations={"ala": Declare(actor="ala", options=("oddawanie_pola",), ground=2)})
    events = table.do(UseAction(actor="ala", note="otwiera drzwi"))
    assert of(events, StrainPaid) == [StrainPaid("ala", "zmiana_akcji", 1, 1)]
    assert table.c["ala"].changes == 1 and table.c["ala"].damage == 2


def test_a_sustained_action_not_declared_again_is_dropped() -> None:
    sustained = Declare(actor="ala", action="sustained", rounds=3, note="szukanie")
    table = fight(declarations={"ala": sustained})
    table.do(Advance())
    to_act(table)
    table.do(Advance())
    assert table.c["ala"].sustained is None


def test_powstanie_is_a_dexterity_test_less_armour_vs_6_costing_2_strain() -> None:
    armour = [{"name": "Kolczuga", "physical": 5, "initiative_penalty": 1}]
    table = Table(fighter("ala", "a", "u1", armour=armour), fighter("ork", "b"))
    table.do(StartCombat())
    table.do(AddCondition(target="ala", condition="powalony"))
    to_act(table, initiative={"ala": 7, "ork": 2})
    with pytest.raises(RuleViolation, match="wstać"):
        table.do(Move(actor="ala", metres=2))
    events = table.do(GetUp(actor="ala"), [6])  # d10 6 − 1 = 5 < 6
    assert of(events, StrainPaid)[0].points == 2
    got = of(events, GotUp)[0]
    assert (got.roll.total, got.dn, got.success) == (5, 6, False)
    events = table.do(GetUp(actor="ala"), [7])
    assert of(events, GotUp)[0].success and not table.c["ala"].knocked_down
    with pytest.raises(RuleViolation, match="Po Powstaniu"):
        table.do(Move(actor="ala", metres=2))
    with pytest.raises(RuleViolation, match="nie leży"):
        table.do(GetUp(actor="ala"))


def test_round_end_ticks_krwotok_and_ogluszony_and_ends_surprise() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), fighter("gob", "b"))
    table.do(StartCombat(surprised=("gob",)))
    table.do(AddCondition(target="ork", condition="krwotok"))
    table.do(AddCondition(target="ala", condition="ogluszony", rounds=2))
    assert table.state.phase == "declare"
    table.do(Declare(actor="ork"))
    table.do(Advance(), [4])  # ork's initiative; ala is stunned, gob surprised
    assert table.state.current == "ork"
    events = table.do(EndTurn(actor="ork"))
    assert of(events, Bled) == [Bled("ork", "krwotok", 2)]
    assert table.c["ork"].damage == 2
    assert not table.c["gob"].has("zaskoczony") and table.c["ala"].has("ogluszony")
    table.do(Advance())
    to_act(table)
    table.do(Advance())
    assert not table.c["ala"].has("ogluszony")


def test_przycelowanie_only_aims_and_gives_two_then_three_to_a_ranged_attack() -> None:
    bow = [{"name": "Łuk", "kind": "missile", "damage": 3}]
    aim = Declare(actor="ala", options=("przycelowanie",))
    table = Table(
        fighter("ala", "a", "u1", weapons=bow, skills={"strzelectwo": 3}), fighter("ork", "b")
    )
    table.do(StartCombat())
    to_act(table, {"ala": aim})
    with pytest.raises(RuleViolation, match="tylko celować"):
        table.do(Move(actor="ala", metres=1))
    with pytest.raises(RuleViolation, match="tylko celować"):
        table.do(SimpleAction(actor="ala"))
    table.do(Advance())
    assert table.c["ala"].aim == 1
    to_act(table, {"ala": aim})
    table.do(Advance())
    assert table.c["ala"].aim == 2
    to_act(table, {"ala": Declare(actor="ala", action="attack", weapon="Łuk")})
    events = table.do(Attack(actor="ala", target="ork", weapon="Łuk"), [1, 2])
    adjustments = [(a.reason, a.value) for a in of(events, AttackRolled)[0].roll.adjustments]
    assert ("Przycelowanie", 3) in adjustments
    assert table.c["ala"].aim == 0


def test_przycelowanie_does_not_combine_with_other_actions() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    with pytest.raises(RuleViolation, match="tylko celować"):
        table.do(Declare(actor="ala", options=("przycelowanie", "bieg")))


def test_end_turn_passes_to_the_next_in_order_and_the_last_ends_the_round() -> None:
    table = fight()
    assert table.state.current == "ala"
    with pytest.raises(RuleViolation, match="Nie twoja tura"):
        table.do(EndTurn(actor="ork"))
    table.do(EndTurn(actor="ala"))
    events = table.do(EndTurn(actor="ork"))
    assert kinds(events)[-2:] == ["round_ended", "round_started"]
    assert (table.state.round, table.state.phase) == (2, "declare")
