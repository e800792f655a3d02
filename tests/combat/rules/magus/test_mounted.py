"""Walka jeździecka: initiative, split move, the mount's speed, the charge, the lance test, the
saddle."""

from __future__ import annotations

from dataclasses import replace

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.levels import PATHETIC
from combat.rules.magus.mounted import (
    charge,
    combat_speed,
    fall_damage,
    full_speed,
    impact_step,
    impact_test,
    initiative_step,
    mount_move_limit,
    saddle_step,
    saddle_test,
    split_move_penalty,
)
from combat.rules.magus.settings import DEFAULT_SETTINGS
from combat.rules.magus.sheet import Armour, Sheet, Weapon
from tests.combat.rules.magus.scripted import Script

S = DEFAULT_SETTINGS
LANCE = Weapon("Kopia", damage=4, size=4, lance=True)
SWORD = Weapon("Miecz", damage=3, size=3)
BOW = Weapon("Łuk", kind="missile", damage=3)


def make_rider(*, szarza: int = 0, pewny_dosiad: int = 0, bron_biala: int = 2) -> Sheet:
    return Sheet(
        "Rycerz",
        attributes={"zrecznosc": 6, "sila": 6, "zywotnosc": 6},
        skills={"szarza": szarza, "pewny_dosiad": pewny_dosiad, "bron_biala": bron_biala},
        armour=(Armour("Kolczuga", physical=5, initiative_penalty=2),),
    )


HORSE = Sheet("Koń bojowy", attributes={"zrecznosc": 9, "sila": 8, "ruch": 14}, skills={})
TARGET = Sheet("Ork", attributes={"zywotnosc": 5}, skills={})


def test_walka_jezdziecka_initiative_is_the_riders_test_not_the_mounts() -> None:
    rider = make_rider()
    assert initiative_step(rider, HORSE) == rider.initiative_step == 4  # Zręczność 6 − 2
    assert HORSE.initiative_step == 9


def test_ruch_dzielony_jezdzca_gives_rider_and_mount_minus_2_to_defences() -> None:
    assert split_move_penalty(S) == Adjustment(-2, "Ruch dzielony jeźdźca")
    assert split_move_penalty(replace(S, mounted_split_move_penalty=3)).value == -3


def test_a_mount_that_does_not_attack_may_use_full_speed() -> None:
    assert combat_speed(HORSE) == 14 and full_speed(HORSE) == 28
    assert mount_move_limit(HORSE, attacks=False) == 28
    assert mount_move_limit(HORSE, attacks=True) == 14
    fast = Sheet("Rumak", attributes={"ruch": 14, "ruch_pelny": 35}, skills={})
    assert mount_move_limit(fast, attacks=False) == 35


def test_szarza_mount_covers_at_least_its_combat_speed_and_at_most_full_speed() -> None:
    assert charge(make_rider(), HORSE, LANCE, 14).distance_m == 14
    assert charge(make_rider(), HORSE, LANCE, 28).distance_m == 28
    with pytest.raises(RuleViolation) as short:
        charge(make_rider(), HORSE, LANCE, 13.5)
    assert short.value.code == "charge_too_short" and short.value.params == {"m": 14}
    with pytest.raises(RuleViolation) as long:
        charge(make_rider(), HORSE, LANCE, 29)
    assert long.value.code == "charge_too_long" and long.value.params == {"m": 28}


def test_szarza_adds_the_mounts_sila_step_to_damage() -> None:
    result = charge(make_rider(), HORSE, LANCE, 20)
    assert result.mount_bonus == 8
    assert result.damage_step == 6 + 4 + 8  # rider's Siła + lance + the horse's Siła


def test_szarza_rider_attacks_with_bron_biala_or_the_szarza_talent_whichever_is_higher() -> None:
    plain = charge(make_rider(bron_biala=2), HORSE, SWORD, 20)
    assert (plain.talent, plain.attack_step) == ("bron_biala", 8)  # rank 2 + Zręczność 6
    charger = charge(make_rider(bron_biala=2, szarza=4), HORSE, SWORD, 20)
    assert (charger.talent, charger.attack_step) == ("szarza", 10)  # rank 4 + Siła 6
    tie = charge(make_rider(bron_biala=2, szarza=2), HORSE, SWORD, 20)
    assert tie.talent == "bron_biala"


def test_szarza_needs_a_close_combat_weapon() -> None:
    with pytest.raises(RuleViolation) as error:
        charge(make_rider(), HORSE, BOW, 20)
    assert error.value.code == "charge_weapon" and error.value.params == {"weapon": "Łuk"}


def test_lance_hit_rider_tests_sila_vs_the_targets_zywotnosc_and_a_failure_falls_for_k8() -> None:
    rng = Script([4, 6])  # Siła 6 = d10 → 4 < Żywotność 5; the fall: d8 → 6
    result = impact_test(rng, make_rider(), TARGET, LANCE, S)
    assert rng.asked == [10, 8]
    assert result.dn == 5 and not result.level.success
    assert result.lance and result.falls and not result.loses_weapon
    assert result.fall is not None and result.fall.total == 6


def test_lance_hit_rider_who_passes_stays_mounted() -> None:
    result = impact_test(Script([5]), make_rider(), TARGET, LANCE, S)
    assert result.level.success and not result.falls and result.fall is None


def test_lance_hit_test_uses_the_szarza_talent_step_when_higher_than_sila() -> None:
    assert impact_step(make_rider()) == 6
    assert impact_step(make_rider(szarza=3)) == 9
    rng = Script([2, 3])  # step 9 = d8+d6 → 5 ≥ 5
    assert impact_test(rng, make_rider(szarza=3), TARGET, LANCE, S).level.success


def test_other_weapon_charge_hit_failure_loses_the_weapon() -> None:
    rng = Script([1, 9])  # Rule of One; no fall is rolled
    result = impact_test(rng, make_rider(), TARGET, SWORD, S)
    assert result.level == PATHETIC and result.loses_weapon and not result.falls
    assert result.fall is None and rng.faces == [9]


def test_rider_who_takes_a_wound_makes_a_balance_test_to_stay_in_the_saddle() -> None:
    kept = saddle_test(Script([7]), make_rider(), 7, S)  # Siła 6 = d10 vs knockdown DN 7
    assert kept.level.success and not kept.falls and kept.fall is None
    rng = Script([6, 3])
    fell = saddle_test(rng, make_rider(), 7, S)
    assert fell.falls and fell.fall is not None and fell.fall.total == 3
    assert rng.asked == [10, 8]


def test_pewny_dosiad_rank_adds_to_the_saddle_test() -> None:
    assert saddle_step(make_rider()) == 6
    assert saddle_step(make_rider(pewny_dosiad=3)) == 9
    rng = Script([4, 3])  # step 9 = d8+d6 → 7
    assert saddle_test(rng, make_rider(pewny_dosiad=3), 7, S).level.success


def test_saddle_test_takes_the_engines_modifiers() -> None:
    wounds = [Adjustment(-1, "Rany")]
    assert not saddle_test(Script([7, 1]), make_rider(), 7, S, wounds).level.success


def test_fall_from_the_mount_deals_damage_at_the_mounted_fall_step() -> None:
    rng = Script([5])
    assert fall_damage(rng, S).total == 5 and rng.asked == [8]
    rng = Script([4])
    assert fall_damage(rng, replace(S, mounted_fall_step=4)).step == 4 and rng.asked == [6]
