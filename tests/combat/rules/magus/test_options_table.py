"""Every combat option of the table (Opcje walki) with its bonus, penalty and Strain."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation, fill
from combat.rules.magus import engine, narrate
from combat.rules.magus import options as opt
from combat.rules.magus.commands import AddCondition, Attack, Declare, EndTurn, StartCombat
from combat.rules.magus.events import (
    AttackRolled,
    CheckRolled,
    ConditionAdded,
    DamageRolled,
    StrainPaid,
)
from combat.rules.magus.settings import MagusSettings
from tests.combat.rules.magus.engine_kit import Table, fighter, of, to_act
from tests.combat.rules.magus.test_attack_sequence import duel, hit
from tests.combat.rules.shown_dice import shown_faces


def attack(*options: str, weapon: str = "Miecz", target: str = "ork") -> Declare:
    return Declare(actor="ala", action="attack", weapon=weapon, target=target, options=options)


def adjustments(events: list[object]) -> list[tuple[str, int]]:
    return [(a.reason, a.value) for a in of(events, AttackRolled)[0].roll.adjustments]


def test_the_table_lists_every_option_of_the_document() -> None:
    assert set(opt.OPTIONS) == {
        "bieg", "agresywny_atak", "atak_by_powalic", "atak_by_ogluszyc", "postawa_obronna",
        "oddawanie_pola", "zmiana_akcji", "powstrzymanie_akcji", "przycelowanie",
        "precyzyjny_atak", "ominiecie_tarczy", "powalony", "powstanie", "strzaskanie_tarczy",
        "utrata_przytomnosci", "atak_z_tylu", "ruch_dzielony",
    }  # fmt: skip


def test_strain_of_each_option_comes_from_the_settings() -> None:
    s = MagusSettings()
    costs = {key: opt.strain(key, s) for key in opt.OPTIONS}
    assert costs["bieg"] == costs["agresywny_atak"] == costs["oddawanie_pola"] == 1
    assert costs["przycelowanie"] == costs["precyzyjny_atak"] == costs["strzaskanie_tarczy"] == 1
    assert costs["powstanie"] == 2 and costs["ruch_dzielony"] == 1
    assert costs["atak_by_powalic"] == costs["atak_by_ogluszyc"] == costs["postawa_obronna"] == 0
    assert opt.strain("bieg", MagusSettings(running_strain=3)) == 3
    assert opt.strain("nieznana", s) == 0


def test_agresywny_atak_adds_3_to_attack_and_damage_and_takes_3_from_defences() -> None:
    table = duel(ala_declares=attack("agresywny_atak"))
    assert table.c["ala"].damage == 1
    events = hit(table, [2, 2, 3, 3])  # 4 + 3 = 7 vs 7; damage step 12 (2d10)
    assert ("Agresywny atak", 3) in adjustments(events)
    assert of(events, DamageRolled)[0].damage_step == 12
    table.do(EndTurn(actor="ala"))
    events = table.do(Attack(actor="ork", target="ala", weapon="Miecz"), [2, 2])
    assert ("Agresywny atak", -3) in of(events, AttackRolled)[0].dn_parts


def test_agresywny_atak_is_for_close_combat_only() -> None:
    table = Table(
        fighter("ala", "a", "u1", weapons=[{"name": "Łuk", "kind": "missile"}]), fighter("ork", "b")
    )
    table.do(StartCombat())
    with pytest.raises(RuleViolation, match="wręcz"):
        table.do(attack("agresywny_atak", weapon="Łuk"))
    with pytest.raises(RuleViolation, match="wymaga zadeklarowanego ataku"):
        table.do(Declare(actor="ala", options=("agresywny_atak",)))


def test_atak_by_powalic_deals_no_damage_and_its_damage_less_armour_is_the_balance_dn() -> None:
    table = duel(ala_declares=attack("atak_by_powalic"))
    events = hit(table, [5, 3, 4, 5, 2])  # damage 9 → balance d8 2 vs 9
    assert of(events, DamageRolled)[0].kind == "none"
    check = of(events, CheckRolled)[0]
    assert (check.kind, check.dn, check.success) == ("powalenie", 9, False)
    assert table.c["ork"].damage == 0 and table.c["ork"].knocked_down


def test_atak_by_ogluszyc_deals_stun_damage_and_a_wound_stuns_for_rounds_by_level() -> None:
    table = duel(ala_declares=attack("atak_by_ogluszyc"))
    events = hit(table, [5, 3, 7, 5])  # 12 vs WT 8: +4, Average → 1 round
    assert of(events, DamageRolled)[0].kind == "stun"
    assert ConditionAdded("ork", "ogluszony", 1 + 1) in events
    ork = table.c["ork"]
    assert (ork.stun, ork.damage, ork.wounds) == (12, 0, 0)


def test_atak_by_ogluszyc_below_the_threshold_only_adds_stun() -> None:
    table = duel(ala_declares=attack("atak_by_ogluszyc"))
    events = hit(table, [5, 3, 3, 3])
    assert not [e for e in events if isinstance(e, ConditionAdded)]
    assert table.c["ork"].stun == 6


def test_postawa_obronna_adds_3_to_defences_and_takes_3_from_action_results() -> None:
    table = duel(
        ala_declares=attack("postawa_obronna"),
        ork_declares=Declare(actor="ork", options=("postawa_obronna",)),
    )
    events = hit(table, [5, 3])
    rolled = of(events, AttackRolled)[0]
    assert ("Postawa obronna", 3) in rolled.dn_parts
    assert ("Postawa obronna", -3) in adjustments(events)


def test_oddawanie_pola_gives_1_of_per_hex_and_takes_2_from_attacks() -> None:
    ground = Declare(actor="ork", options=("oddawanie_pola",), ground=4)
    table = duel(ork={"skills": {"bron_biala": 4}}, ork_declares=ground)
    assert table.c["ork"].damage == 1
    events = hit(table, [5, 3])
    assert ("Oddawanie pola", 2) in of(events, AttackRolled)[0].dn_parts
    table = duel(
        ala_declares=Declare(
            actor="ala", action="attack", weapon="Miecz", options=("oddawanie_pola",), ground=2
        )
    )
    assert ("Oddawanie pola", -2) in adjustments(hit(table, [5, 3]))


def test_oddawanie_pola_is_limited_by_the_broń_biała_rank() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    with pytest.raises(RuleViolation, match="Oddawanie pola"):
        table.do(Declare(actor="ala", options=("oddawanie_pola",), ground=4))


def test_precyzyjny_atak_takes_3_from_the_attack_and_costs_1_strain() -> None:
    table = duel(ala_declares=attack("precyzyjny_atak"))
    assert table.c["ala"].damage == 1
    assert ("Precyzyjny atak", -3) in adjustments(hit(table, [5, 3]))


def test_precyzyjny_atak_at_a_weapon_tests_sila_vs_the_damage_step_to_keep_it() -> None:
    table = duel(ala_declares=attack("precyzyjny_atak"))
    events = hit(table, [7, 5, 1], called_weapon=True)  # 12 − 3 = 9 vs 7; Siła d8 1 vs 9
    check = of(events, CheckRolled)[0]
    assert (check.kind, check.dn, check.success) == ("bron", 9, False)
    assert table.c["ork"].disarmed and of(events, DamageRolled) == []


def test_precyzyjny_atak_two_handed_weapon_gives_3_to_keep_it() -> None:
    two = [{"name": "Młot", "damage": 5, "two_handed": True}]
    table = duel(ork={"weapons": two}, ala_declares=attack("precyzyjny_atak"))
    events = hit(table, [7, 5, 6], called_weapon=True)  # 6 + 3 = 9 ≥ 9
    assert of(events, CheckRolled)[0].success and not table.c["ork"].disarmed


def test_precyzyjny_atak_at_a_weapon_needs_the_option() -> None:
    table = duel()
    with pytest.raises(RuleViolation, match="Precyzyjnego"):
        hit(table, [], called_weapon=True)


def test_ominiecie_tarczy_lost_initiative_takes_2_from_the_attack() -> None:
    shield = [{"name": "Tarcza", "physical": 2}]
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b", shields=shield))
    table.do(StartCombat())
    to_act(table, {"ala": attack("ominiecie_tarczy")}, initiative={"ala": 9, "ork": 8})
    table.do(EndTurn(actor="ork"))
    events = hit(table, [5, 3])
    assert ("Ominięcie tarczy", -2) in adjustments(events)


def test_ominiecie_tarczy_winner_goes_inside_the_shield() -> None:
    shield = [{"name": "Tarcza", "physical": 2}]
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b", shields=shield))
    table.do(StartCombat())
    to_act(table, {"ala": attack("ominiecie_tarczy")}, initiative={"ala": 9, "ork": 3})
    events = hit(table, [5, 3, 3, 3])
    assert ("Ominięcie tarczy", -2) not in adjustments(events)
    assert of(events, DamageRolled)[0].armour == 0


def test_powalony_takes_3_from_defences_and_tests_and_allows_no_options() -> None:
    table = duel()
    table.do(AddCondition(target="ork", condition="powalony"))
    table.do(AddCondition(target="ala", condition="powalony"))
    events = hit(table, [5, 3, 3, 3])
    assert ("Powalony", -3) in of(events, AttackRolled)[0].dn_parts
    assert ("Powalony", -3) in adjustments(events)


def test_strzaskanie_tarczy_destroys_the_shield_on_penetration_without_damage() -> None:
    shield = [{"name": "Tarcza", "physical": 1, "destruction": 10}]
    table = duel(ork={"shields": shield}, ala_declares=attack("strzaskanie_tarczy"))
    assert table.c["ala"].damage == 1
    events = hit(table, [8, 8, 2, 5, 3, 4])  # 23 vs 7: margin 16 ≥ 10 + 1; 9 (step) + size 3 ≥ 10
    check = of(events, CheckRolled)[0]
    assert (check.kind, check.success) == ("tarcza", True)
    assert table.c["ork"].shield_broken and table.c["ork"].damage == 0


@pytest.mark.parametrize(
    ("destruction", "balance"), [(10, []), (20, [1])]
)  # broken: no damage; held: 9 damage, a Wound and its balance test
def test_strzaskanie_tarczy_shows_each_damage_die_once(
    destruction: int, balance: list[int]
) -> None:
    """The shield test compares the damage result (+ weapon size) with the threshold: it rolls
    no dice of its own, so its line shows none and the damage line shows the faces once."""
    shield = [{"name": "Tarcza", "physical": 1, "destruction": destruction}]
    table = duel(ork={"shields": shield}, ala_declares=attack("strzaskanie_tarczy"))
    before = table.state
    # 23 vs 7: penetrates; damage 3 + 4 = 7, raised to the step 9 (Good), + size 3 = 12
    faces = [8, 8, 2, 5, 3, 4, *balance]
    events = hit(table, faces)
    check = of(events, CheckRolled)[0]
    assert check.success is not balance
    assert shown_faces(narrate.describe, engine.evolve, before, events) == len(faces)
    line = narrate.describe(table.state, check)
    assert line is not None and f"(12 vs {destruction})" in fill(line.text, line.params)


def test_strzaskanie_tarczy_without_penetration_is_a_normal_attack() -> None:
    shield = [{"name": "Tarcza", "physical": 1, "destruction": 10}]
    table = duel(ork={"shields": shield}, ala_declares=attack("strzaskanie_tarczy"))
    events = hit(table, [5, 3, 3, 3])
    assert of(events, CheckRolled) == [] and table.c["ork"].damage == 6 - 1


def test_strzaskanie_tarczy_needs_a_weapon_of_size_3() -> None:
    small = [{"name": "Sztylet", "damage": 2, "size": 1}]
    table = Table(fighter("ala", "a", "u1", weapons=small), fighter("ork", "b"))
    table.do(StartCombat())
    with pytest.raises(RuleViolation, match="rozmiarze"):
        table.do(attack("strzaskanie_tarczy", weapon="Sztylet"))


def test_utrata_przytomnosci_takes_3_from_defences_and_allows_no_actions() -> None:
    table = duel()
    table.do(AddCondition(target="ork", condition="nieprzytomny"))
    events = hit(table, [5, 3, 3, 3])
    assert ("Nieprzytomny", -3) in of(events, AttackRolled)[0].dn_parts
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    table.do(AddCondition(target="ala", condition="nieprzytomny"))
    with pytest.raises(RuleViolation, match="nieprzytomny"):
        table.do(Declare(actor="ala"))


def test_atak_z_tylu_takes_2_from_the_targets_defences() -> None:
    table = duel()
    events = hit(table, [5, 3, 3, 3], blindside=True)
    assert ("Atak z tyłu", -2) in of(events, AttackRolled)[0].dn_parts


def test_surprise_no_action_defences_minus_3_and_no_shield_in_round_one() -> None:
    shield = [{"name": "Tarcza", "physical": 2}]
    table = duel(ork={"shields": shield, "skills": {"unik": 3}}, surprised=("ork",))
    events = hit(table, [5, 3, 3, 3])
    rolled = of(events, AttackRolled)[0]
    assert ("Zaskoczony", -3) in rolled.dn_parts and rolled.prompt is None
    assert of(events, DamageRolled)[0].armour == 0


def test_many_melee_attackers_leave_the_target_otoczony() -> None:
    table = Table(
        fighter("ala", "a", "u1"), fighter("ola", "a"), fighter("ork", "b"), harried_attackers=2
    )
    table.do(StartCombat())
    to_act(table, initiative={"ala": 9, "ola": 8, "ork": 1})
    events = table.do(Attack(actor="ala", target="ork", weapon="Miecz"), [1, 2])
    assert not [e for e in events if isinstance(e, ConditionAdded)]
    table.do(EndTurn(actor="ala"))
    events = table.do(Attack(actor="ola", target="ork", weapon="Miecz"), [1, 2])
    assert ConditionAdded("ork", "otoczony", 1) in events


def test_maximum_damage_is_three_times_the_damage_step_for_a_non_magic_weapon() -> None:
    weak = [{"name": "Pałka", "damage": -3}]  # step 2: d4−1, at most 6
    table = duel(ala={"weapons": weak}, ala_declares=attack(weapon="Pałka"))
    events = table.do(Attack(actor="ala", target="ork", weapon="Pałka"), [5, 3, 4, 4, 4, 3])
    damage = of(events, DamageRolled)[0]
    assert damage.roll.total > 6 and damage.capped == 6


def test_strain_paid_events_name_their_option() -> None:
    table = duel(ala_declares=attack("agresywny_atak", "precyzyjny_atak"))
    reasons = [e.reason for e in table.log if isinstance(e, StrainPaid)]
    assert reasons == ["agresywny_atak", "precyzyjny_atak"]
