"""The damage pipeline of one attack against one defender (magus-walka.txt, "Pozostałe Zasady"
and "Przebieg walki"), from rolled numbers to the result."""

from __future__ import annotations

from dataclasses import replace

import pytest

from combat.rules.magus.damage import (
    CONSCIOUS,
    DEAD,
    UNCONSCIOUS,
    Blow,
    Damage,
    blow_against,
    can_sever,
    can_shatter,
    consciousness,
    damage_after_armour,
    hemorrhage,
    is_wound,
    knock_down_attack_dn,
    knockdown_dn,
    penetrates,
    penetration_threshold,
    retention_test,
    severs,
    shatters,
    stun_rounds,
    wound_penalty,
)
from combat.rules.magus.levels import AVERAGE, EXCELLENT, EXTRAORDINARY, GOOD
from combat.rules.magus.settings import DEFAULT_SETTINGS, MagusSettings
from combat.rules.magus.sheet import Armour, Sheet, Shield, Weapon

S = DEFAULT_SETTINGS
DEFENCE = 10


def hit(blow: Blow, margin: int, damage: int, settings: MagusSettings = S) -> Damage:
    """An attack `margin` over the defence with a damage test of `damage`."""
    return damage_after_armour(blow, DEFENCE + margin, DEFENCE, damage, settings)


# --- Przebicie pancerza ---------------------------------------------------------------------


def test_przebicie_pancerza_on_excellent_ignores_armour_and_shield() -> None:
    blow = Blow(damage_step=8, armour=5)
    assert hit(blow, 9, 12).dealt == 7  # Good: armour counts
    pierced = hit(blow, 10, 12)  # Excellent
    assert pierced.penetrated and pierced.armour_applied == 0 and pierced.dealt == 12
    assert pierced.level == EXCELLENT
    assert hit(blow, 15, 12).penetrated  # Extraordinary too
    shielded = Blow(damage_step=8, armour=7, shield=2)
    assert hit(shielded, 12, 12).dealt == 12  # past the raised threshold: no armour, no shield


def test_tarcza_raises_the_penetration_threshold() -> None:
    blow = Blow(damage_step=8, armour=7, shield=2)  # armour 5 + a shield of 2
    assert penetration_threshold(2, S) == 12
    assert not hit(blow, 11, 12).penetrated  # Excellent, but the shield is in use
    assert hit(blow, 11, 12).dealt == 5
    assert hit(blow, 12, 12).penetrated
    assert penetrates(12, 2, S) and not penetrates(11, 2, S)


def test_tarcza_raises_no_threshold_when_the_setting_is_off() -> None:
    plain = replace(S, shield_raises_penetration=False)
    assert penetration_threshold(2, plain) == 10
    assert hit(Blow(damage_step=8, armour=7, shield=2), 10, 12, plain).penetrated


def test_przebicie_pancerza_follows_edited_thresholds() -> None:
    tight = MagusSettings.from_dict({"thresholds": {"good": 2, "excellent": 4, "extraordinary": 6}})
    assert hit(Blow(damage_step=8, armour=5), 4, 12, tight).penetrated
    assert not hit(Blow(damage_step=8, armour=5), 3, 12, tight).penetrated


def test_odjecie_pancerza_never_deals_less_than_nothing() -> None:
    damage = hit(Blow(damage_step=4, armour=9), 0, 5)
    assert damage.dealt == 0 and damage.armour_applied == 5 and not damage.penetrated
    assert damage.level == AVERAGE


# --- Maksymalne i minimalne obrażenia --------------------------------------------------------


def test_maksymalne_obrazenia_cap_at_three_times_the_damage_step() -> None:
    blow = Blow(damage_step=6)
    assert hit(blow, 0, 18).capped == 18 and not hit(blow, 0, 18).limited
    capped = hit(blow, 0, 31)
    assert capped.raw == 31 and capped.capped == 18 and capped.limited and capped.dealt == 18


def test_maksymalne_obrazenia_do_not_bind_magic_weapons_nor_spells() -> None:
    assert hit(Blow(damage_step=6, capped=False), 0, 31).dealt == 31


def test_maksymalne_obrazenia_follow_the_multiplier_setting() -> None:
    double = replace(S, max_damage_multiplier=2)
    assert hit(Blow(damage_step=6), 0, 31, double).capped == 12


def test_maksymalne_obrazenia_cap_before_the_armour() -> None:
    assert hit(Blow(damage_step=6, armour=4), 0, 40).dealt == 14


def test_minimalne_obrazenia_on_good_equal_the_damage_step() -> None:
    blow = Blow(damage_step=9, armour=2)
    low = hit(blow, 5, 3)  # Good
    assert low.level == GOOD and low.raised and low.capped == 9 and low.dealt == 7
    assert hit(blow, 4, 3).capped == 3  # Average: no minimum
    assert hit(blow, 20, 3).capped == 9  # Extraordinary: still the minimum
    assert hit(blow, 5, 12).capped == 12 and not hit(blow, 5, 12).raised


def test_minimalne_obrazenia_can_be_switched_off() -> None:
    assert hit(Blow(damage_step=9), 5, 3, replace(S, minimum_damage_on_good=False)).dealt == 3
    assert hit(Blow(damage_step=9, minimum_on_good=False), 5, 3).dealt == 3


def test_a_damage_test_gives_at_least_nothing() -> None:
    damage = hit(Blow(damage_step=2, modifier=-3), 0, 1)
    assert damage.raw == 0 and damage.dealt == 0


def test_the_blow_modifier_adds_to_the_damage_result() -> None:
    assert hit(Blow(damage_step=6, modifier=-2), 0, 10).raw == 8


def test_a_blow_refuses_negative_armour() -> None:
    with pytest.raises(ValueError, match="negative"):
        Blow(damage_step=5, armour=-1)
    with pytest.raises(ValueError, match="shield"):
        Blow(damage_step=5, armour=1, shield=2)


# --- Rany, test równowagi, przytomność --------------------------------------------------------


def test_rana_when_a_single_attack_deals_more_than_the_wound_threshold() -> None:
    assert not is_wound(8, 8)
    assert is_wound(9, 8)


def test_rana_penalty_is_minus_one_per_wound_after_the_first() -> None:
    assert [wound_penalty(n, S) for n in range(5)] == [0, 0, 1, 2, 3]
    assert wound_penalty(3, replace(S, wound_penalty=2)) == 4


def test_test_rownowagi_dn_is_three_plus_the_damage_over_the_wound_threshold() -> None:
    assert knockdown_dn(12, 8, S) == 7
    assert knockdown_dn(9, 8, S) == 4
    assert knockdown_dn(12, 8, replace(S, knockdown_base=0)) == 4


def test_utrata_przytomnosci_and_smierc_by_the_ratings() -> None:
    assert consciousness(19, 20, 26) == CONSCIOUS
    assert consciousness(20, 20, 26) == UNCONSCIOUS
    assert consciousness(26, 20, 26) == DEAD


# --- Krwotok, Oderwanie kończyn ----------------------------------------------------------------


def test_krwotok_when_the_damage_dealt_against_the_wound_threshold_is_excellent() -> None:
    assert not hemorrhage(17, 8, S)  # Good
    assert hemorrhage(18, 8, S)  # WT + 10
    assert hemorrhage(40, 8, S)


def test_krwotok_counts_the_damage_after_armour() -> None:
    damage = hit(Blow(damage_step=10, armour=4), 0, 20)
    assert damage.dealt == 16 and not hemorrhage(damage.dealt, 8, S)


def test_oderwanie_konczyn_needs_twice_the_victims_sila_and_an_aimed_attack() -> None:
    assert can_sever(10, 5, aimed=True)
    assert not can_sever(9, 5, aimed=True)
    assert not can_sever(12, 5, aimed=False)


def test_oderwanie_konczyn_on_an_excellent_damage_result_against_the_wound_threshold() -> None:
    armoured = Blow(damage_step=12, armour=6)
    damage = hit(armoured, 0, 19)  # the result before armour counts: 19 vs WT 9 is Excellent
    assert damage.dealt == 13 and severs(damage, 9, S)
    assert not severs(hit(armoured, 0, 18), 9, S)


# --- Opcje walki: Atak by ogłuszyć, Atak by powalić, Strzaskanie tarczy, Precyzyjny atak ------


def test_atak_by_oglusic_stuns_one_round_per_success_of_the_damage_against_the_wt() -> None:
    assert stun_rounds(8, 8, S) == 0  # no Wound, no stun
    assert stun_rounds(9, 8, S) == 1  # Average
    assert stun_rounds(13, 8, S) == 2  # Good
    assert stun_rounds(18, 8, S) == 3  # Excellent
    assert stun_rounds(23, 8, S) == 4  # Extraordinary


def test_atak_by_oglusic_rounds_per_level_follow_the_setting() -> None:
    assert stun_rounds(13, 8, replace(S, stun_rounds_per_level=2)) == 4


def test_atak_by_powalic_damage_less_armour_is_the_knockdown_dn() -> None:
    damage = hit(Blow(damage_step=8, armour=3), 0, 11)
    assert knock_down_attack_dn(damage) == 8
    assert knock_down_attack_dn(hit(Blow(damage_step=8, armour=3), 10, 11)) == 11  # pierced


def test_strzaskanie_tarczy_only_on_penetration_with_a_weapon_of_size_three() -> None:
    blow = Blow(damage_step=10, armour=6, shield=3)
    shield = Shield("Tarcza", physical=3, destruction=15)
    pierced = hit(blow, 13, 12)
    assert pierced.penetrated
    assert can_shatter(pierced, 3, S) and shatters(pierced, 3, shield, S)  # 12 + 3 ≥ 15
    assert not can_shatter(pierced, 2, S) and not shatters(pierced, 2, shield, S)
    blocked = hit(blow, 12, 12)
    assert not blocked.penetrated and not shatters(blocked, 5, shield, S)
    assert not shatters(hit(blow, 13, 11), 3, shield, S)  # 14 < 15


def test_strzaskanie_tarczy_needs_excellent_against_a_magic_shield() -> None:
    magic = Shield("Tarcza wątkowa", physical=3, destruction=15, magic=True)
    blow = Blow(damage_step=10, armour=3, shield=3)
    assert not shatters(hit(blow, 13, 21), 3, magic, S)  # 24: Good
    assert shatters(hit(blow, 13, 22), 3, magic, S)  # 25: Excellent


def test_strzaskanie_tarczy_minimum_size_is_a_setting() -> None:
    pierced = hit(Blow(damage_step=10, armour=3, shield=3), 13, 12)
    assert can_shatter(pierced, 2, replace(S, shatter_min_size=2))


def test_precyzyjny_atak_weapon_retention_is_sila_against_the_damage_step() -> None:
    one_hand = retention_test(11, two_handed=False, settings=S)
    assert (one_hand.dn, one_hand.bonus) == (11, 0)
    two_hands = retention_test(11, two_handed=True, settings=S)
    assert (two_hands.dn, two_hands.bonus) == (11, 3)


def test_the_attack_level_is_recorded_with_the_damage() -> None:
    assert hit(Blow(damage_step=5), 16, 5).level == EXTRAORDINARY


# --- the blow from the sheets ----------------------------------------------------------------

DEFENDER = Sheet(
    "Obrońca",
    attributes={},
    skills={},
    armour=(Armour("Kolczuga", physical=5, mystic=1),),
    shields=(Shield("Tarcza", physical=2, mystic=1),),
)


def test_a_weapon_blow_meets_physical_armour_and_the_shield() -> None:
    blow = blow_against(9, DEFENDER, weapon=Weapon("Miecz", damage=5))
    assert (blow.armour, blow.shield, blow.capped, blow.minimum_on_good) == (7, 2, True, True)


def test_a_spell_meets_mystic_armour_uncapped_and_without_the_weapon_minimum() -> None:
    blow = blow_against(9, DEFENDER, weapon=None)
    assert (blow.armour, blow.shield, blow.capped, blow.minimum_on_good) == (2, 1, False, False)


def test_a_magic_weapon_is_not_capped() -> None:
    assert not blow_against(9, DEFENDER, weapon=Weapon("Klinga", magic=True)).capped


def test_zaskoczenie_or_ominiecie_tarczy_leave_the_shield_out() -> None:
    blow = blow_against(9, DEFENDER, weapon=Weapon("Miecz"), shield_usable=False, modifier=-1)
    assert (blow.armour, blow.shield, blow.modifier) == (5, 0, -1)
    bare = Sheet("Bez tarczy", attributes={}, skills={})
    assert blow_against(4, bare, weapon=Weapon("Pięść", kind="unarmed")).armour == 0
