"""The d100 test (digest §1, §4 arithmetic, §8 #1–#8, #14): levels, OoP, the cap, defences."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.d100 import check
from combat.rules.d100.check import (
    CRIT_BAD,
    CRIT_LUCK,
    FAILURE,
    MINIMAL,
    ORDINARY,
    after_armour,
    bad_luck_factor,
    capped,
    crits_apply,
    defence_beats_hit,
    defence_wins,
    injury_penalty,
    level_of,
    make_test,
    margin_of,
    raw_damage,
    roll_test,
    soaked,
)
from combat.rules.d100.settings import D100Settings
from tests.combat.rules.magus.scripted import Script

S = D100Settings()


def _test(roll: int, base: int = 50, mods: tuple[tuple[str, int], ...] = ()) -> check.TestRoll:
    return make_test(S, label=check.HIT, attribute="zwinnosc", base=base, modifiers=mods, roll=roll)


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5])
def test_krytyczne_szczescie_always_succeeds(roll: int) -> None:
    for threshold in (-40, 0, 1, 50, 150):
        assert level_of(roll, threshold, S) == CRIT_LUCK
    assert _test(roll, base=0).success and _test(roll, base=0).critical


@pytest.mark.parametrize("roll", [96, 97, 98, 99, 100])
def test_krytyczny_pech_always_fails(roll: int) -> None:
    for threshold in (0, 96, 100, 150, 250):
        assert level_of(roll, threshold, S) == CRIT_BAD
    test = _test(roll, base=150)
    assert not test.success and test.critical and test.margin == 0


def test_success_is_a_roll_at_most_the_threshold() -> None:
    assert level_of(40, 40, S) == MINIMAL
    assert level_of(41, 40, S) == FAILURE
    assert level_of(6, 5, S) == FAILURE


def test_minimalny_sukces_is_oop_zero_to_four() -> None:
    assert [level_of(roll, 50, S) for roll in (50, 48, 46)] == [MINIMAL] * 3
    assert level_of(45, 50, S) == ORDINARY


def test_zwykly_sukces_from_oop_five_and_not_critical() -> None:
    assert level_of(45, 50, S) == ORDINARY
    assert level_of(6, 95, S) == ORDINARY
    assert level_of(5, 95, S) == CRIT_LUCK


def test_minimal_margin_is_a_setting() -> None:
    assert level_of(45, 50, replace(S, minimal_margin=5)) == MINIMAL
    assert level_of(50, 50, replace(S, minimal_margin=0)) == MINIMAL
    assert level_of(49, 50, replace(S, minimal_margin=0)) == ORDINARY


def test_oop_is_threshold_minus_roll() -> None:
    test = _test(30, base=50, mods=(("Broń", 5),))
    assert (test.threshold, test.roll, test.oop, test.margin) == (55, 30, 25, 25)
    assert _test(80).oop == -30


def test_threshold_above_hundred_still_rolls_for_comparison() -> None:
    test = _test(90, base=130)
    assert test.level == ORDINARY and test.oop == 40


def test_modifier_cap_fifty() -> None:
    mods = (("a", 40), ("b", 30))
    assert capped(mods, S) == 50
    assert capped((("a", -45), ("b", -20)), S) == -50
    test = _test(10, base=30, mods=mods)
    assert test.modifiers == mods and test.modifier == 50 and test.threshold == 80


def test_modifier_cap_is_a_setting() -> None:
    assert capped((("a", 40), ("b", 30)), replace(S, modifier_cap=60)) == 60


def test_crit_bands_are_settings() -> None:
    wide = replace(S, crit_luck_max=10, crit_bad_min=91)
    assert level_of(10, 0, wide) == CRIT_LUCK
    assert level_of(91, 150, wide) == CRIT_BAD
    none = replace(S, crit_luck_max=0, crit_bad_min=101)
    assert level_of(1, 0, none) == FAILURE
    assert level_of(100, 100, none) == MINIMAL


def test_crit_luck_above_its_threshold_counts_oop_zero() -> None:
    test = _test(4, base=0)
    assert test.oop == -4 and test.margin == 0 and raw_damage(test, S) == 0
    assert margin_of(4, 0, S) == 0


def test_roll_test_rolls_one_d100() -> None:
    rng = Script([37])
    test = roll_test(rng, S, label=check.DODGE, attribute="zwinnosc", base=40, modifiers=[("x", 5)])
    assert rng.asked == [100]
    assert (test.label, test.roll, test.threshold, test.oop) == (check.DODGE, 37, 45, 8)


def test_make_test_refuses_a_roll_outside_the_d100() -> None:
    with pytest.raises(ValueError):
        _test(0)
    with pytest.raises(ValueError):
        _test(101)


def test_levels_have_polish_labels() -> None:
    assert check.LEVEL_LABELS[CRIT_LUCK] == "krytyczne szczęście"
    assert check.LEVEL_LABELS[CRIT_BAD] == "krytyczny pech"
    assert check.LEVEL_LABELS[MINIMAL] == "minimalny sukces"
    assert check.LEVEL_LABELS[ORDINARY] == "zwykły sukces"
    assert check.LEVEL_LABELS[FAILURE] == "porażka"


def test_efekty_krytyczne_optional_at_low_and_moderate_difficulty() -> None:
    assert crits_apply(S)
    assert not crits_apply(replace(S, optional_crits=False))
    assert not crits_apply(replace(S, difficulty="low", optional_crits=False))


def test_efekty_krytyczne_mandatory_at_high_difficulty() -> None:
    assert crits_apply(replace(S, difficulty="high", optional_crits=False))


def test_krytyczny_pech_doubled_at_high_difficulty() -> None:
    assert bad_luck_factor(S) == 1
    assert bad_luck_factor(replace(S, difficulty="high")) == 2
    assert bad_luck_factor(replace(S, difficulty="high", high_bad_luck_factor=3)) == 3


def test_defence_compares_oop_tie_to_defender() -> None:
    hit = _test(30)  # OoP 20
    assert defence_beats_hit(hit, _test(30), S)  # tie
    assert defence_beats_hit(hit, _test(20), S)  # OoP 30
    assert not defence_beats_hit(hit, _test(40), S)  # OoP 10


def test_defence_tie_to_attacker_when_the_setting_is_off() -> None:
    assert not defence_beats_hit(_test(30), _test(30), replace(S, tie_to_defender=False))


def test_failed_defence_never_avoids() -> None:
    assert not defence_wins(MINIMAL, 0, FAILURE, 0, S)
    assert not defence_wins(MINIMAL, 0, CRIT_BAD, 0, S)


def test_crit_luck_hit_beats_a_non_crit_defence() -> None:
    assert not defence_beats_hit(_test(5, base=10), _test(6, base=100), S)


def test_crit_luck_defence_beats_a_non_crit_hit() -> None:
    assert defence_beats_hit(_test(6, base=100), _test(5, base=0), S)


def test_two_crit_luck_rolls_compare_oop() -> None:
    assert defence_beats_hit(_test(5, base=40), _test(1, base=40), S)
    assert not defence_beats_hit(_test(1, base=40), _test(5, base=40), S)


def test_obrazenia_are_oop_times_five() -> None:
    assert raw_damage(_test(20, base=50), S) == 150
    assert raw_damage(_test(20, base=50), replace(S, damage_multiplier=3)) == 90


def test_failed_damage_test_deals_nothing() -> None:
    assert raw_damage(_test(60, base=50), S) == 0
    assert raw_damage(_test(97, base=150), S) == 0


def test_odpornosc_subtracts_its_oop_times_multiplier_min_zero() -> None:
    assert soaked(150, _test(40, base=50), S) == 100
    assert soaked(30, _test(10, base=50), S) == 0
    assert soaked(150, _test(70, base=50), S) == 150  # failed: nothing off
    assert soaked(150, None, S) == 150


def test_odpornosc_off_when_the_setting_is_off() -> None:
    assert soaked(150, _test(10, base=50), replace(S, resistance_roll=False)) == 150


def test_pancerz_reduction_rounds_down() -> None:
    assert after_armour(47, 10) == 43  # 4.7 off → 4
    assert after_armour(47, 30) == 33  # 14.1 off → 14
    assert after_armour(5, 0) == 5
    assert after_armour(50, 140) == 0


def test_negacja_pancerza_takes_the_full_damage() -> None:
    assert after_armour(47, 40, negated=True) == 47


def test_uraz_penalties_ten_twenty_thirty() -> None:
    assert [injury_penalty(n, 0, S) for n in range(5)] == [0, 10, 20, 30, 30]


def test_przemiana_ignores_two_urazy() -> None:
    assert [injury_penalty(n, 2, S) for n in range(6)] == [0, 0, 0, 10, 20, 30]


@given(st.integers(1, 100), st.integers(-100, 300))
def test_level_of_is_the_rule_for_every_roll(roll: int, threshold: int) -> None:
    level = level_of(roll, threshold, S)
    if roll <= 5:
        assert level == CRIT_LUCK
    elif roll >= 96:
        assert level == CRIT_BAD
    elif roll > threshold:
        assert level == FAILURE
    else:
        assert level == (MINIMAL if threshold - roll <= 4 else ORDINARY)
    assert margin_of(roll, threshold, S) == (
        max(0, threshold - roll) if level in check.SUCCESSES else 0
    )


@given(
    st.integers(0, 1000),
    st.integers(0, 150),
    st.lists(st.tuples(st.text(max_size=5), st.integers(-60, 60)), max_size=4),
)
def test_roll_test_threshold_is_base_plus_capped_modifiers(
    seed: int, base: int, mods: list[tuple[str, int]]
) -> None:
    test = roll_test(random.Random(seed), S, label="x", attribute="", base=base, modifiers=mods)
    assert -50 <= test.modifier <= 50
    assert test.threshold == base + test.modifier and test.oop == test.threshold - test.roll
    assert test.level == level_of(test.roll, test.threshold, S)
