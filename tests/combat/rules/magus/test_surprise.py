"""Zaskoczenie: the surprise test, its DN and modifiers, Podkradanie się, Brosza ostrzeżenia."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.base import RuleViolation
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.levels import PATHETIC
from combat.rules.magus.settings import DEFAULT_SETTINGS, MagusSettings
from combat.rules.magus.sheet import BROOCH, Item, Sheet
from combat.rules.magus.surprise import (
    BROOCH_FAILED,
    BROOCH_OUT_OF_RANGE,
    DARKNESS,
    FROM_DEXTERITY,
    FROM_GM,
    FROM_SNEAK,
    NOTICED,
    RAIN,
    SURPRISED,
    UNAWARE,
    WARNED,
    Conditions,
    Difficulty,
    Watcher,
    brooch_test,
    condition_modifiers,
    lowest_dexterity,
    sneak_test,
    surprise_dn,
    surprise_test,
    surprise_tests,
)
from tests.combat.rules.magus.scripted import Script

S = DEFAULT_SETTINGS


def make_sheet(name: str = "Ktoś", *, brooch: bool = False, **attributes: int) -> Sheet:
    skills = {k: attributes.pop(k) for k in list(attributes) if k in {"podkradanie"}}
    items = (Item("Brosza", kind=BROOCH),) if brooch else ()
    return Sheet(name, attributes=attributes, skills=skills, items=items)


def dn(base: int = 5) -> Difficulty:
    return Difficulty(base, FROM_GM)


GOBLINS = (
    make_sheet("Goblin", zrecznosc=7, obrona_magiczna=6),
    make_sheet("Goblin szaman", zrecznosc=5, obrona_magiczna=9),
)


def test_zaskoczenie_dn_is_the_lowest_zrecznosc_step_among_the_creatures_met() -> None:
    assert lowest_dexterity(GOBLINS) == 5
    difficulty = surprise_dn(GOBLINS, Conditions(), S)
    assert (difficulty.base, difficulty.source, difficulty.value) == (5, FROM_DEXTERITY, 5)
    assert difficulty.modifiers == ()


def test_zaskoczenie_with_nobody_met_is_refused() -> None:
    with pytest.raises(RuleViolation) as error:
        surprise_dn([], Conditions(), S)
    assert error.value.code == "surprise_nobody_met"


def test_zaskoczenie_the_gm_may_set_the_dn_for_the_situation() -> None:
    difficulty = surprise_dn(GOBLINS, Conditions(dusk=True), S, base=11)
    assert (difficulty.source, difficulty.value) == (FROM_GM, 13)


def test_pora_dnia_zmierzch_or_swit_adds_2_to_the_dn() -> None:
    assert surprise_dn(GOBLINS, Conditions(dusk=True), S).value == 5 + 2


def test_zaciemnienie_partial_full_complete_add_1_2_3() -> None:
    values = [condition_modifiers(Conditions(darkness=key), S) for key, _ in DARKNESS]
    assert [sum(a.value for a in mods) for mods in values] == [0, 1, 2, 3]
    assert [a.reason for a in values[3]] == ["Zaciemnienie kompletne"]


def test_pogoda_light_rain_adds_1_and_downpour_2() -> None:
    values = [condition_modifiers(Conditions(rain=key), S) for key, _ in RAIN]
    assert [sum(a.value for a in mods) for mods in values] == [0, 1, 2]
    assert values[2] == (Adjustment(2, "Ulewa"),)


def test_kamuflaz_adds_3_to_the_dn() -> None:
    assert surprise_dn(GOBLINS, Conditions(camouflage=True), S).value == 5 + 3


def test_surprise_conditions_add_up_and_their_values_are_table_settings() -> None:
    everything = Conditions(dusk=True, darkness="full", rain="light", camouflage=True)
    assert surprise_dn(GOBLINS, everything, S).value == 5 + 2 + 2 + 1 + 3
    custom = replace(
        S,
        surprise_dusk=1,
        surprise_darkness=(2, 4, 6),
        surprise_rain=(0, 5),
        surprise_camouflage=0,
    )
    assert surprise_dn(GOBLINS, everything, custom).value == 5 + 1 + 4 + 0 + 0


def test_surprise_conditions_reject_an_unknown_choice() -> None:
    with pytest.raises(ValueError):
        Conditions(darkness="pitch")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Conditions(rain="snow")  # type: ignore[arg-type]


def test_podkradanie_sie_result_is_the_detection_dn() -> None:
    thief = make_sheet("Złodziej", zrecznosc=6, podkradanie=3)  # step 9 = d8+d6
    rng = Script([5, 4])
    roll = sneak_test(rng, thief, S)
    assert rng.asked == [8, 6] and roll.total == 9
    weaker = sneak_test(Script([3]), make_sheet("Niezdara", zrecznosc=6), S)  # d10, untrained
    difficulty = surprise_dn(GOBLINS, Conditions(darkness="partial"), S, sneak=[roll, weaker])
    assert (difficulty.base, difficulty.source, difficulty.value) == (3, FROM_SNEAK, 4)


def test_podkradanie_sie_target_that_neither_hears_nor_sees_is_automatically_surprised() -> None:
    rng = Script([])  # no roll at all
    outcome = surprise_test(rng, Watcher(make_sheet(percepcja=20), unaware=True), dn(), GOBLINS, S)
    assert outcome.surprised and outcome.reason == UNAWARE
    assert outcome.perception is None and outcome.level is None and outcome.brooch is None


def test_test_zaskoczenia_perception_vs_dn_success_means_not_surprised() -> None:
    rng = Script([5])  # Percepcja 6 = d10
    outcome = surprise_test(rng, Watcher(make_sheet(percepcja=6)), dn(5), GOBLINS, S)
    assert rng.asked == [10]
    assert not outcome.surprised and outcome.reason == NOTICED
    assert outcome.perception is not None and outcome.perception.total == 5
    assert outcome.level is not None and outcome.level.success and outcome.dn == 5


def test_test_zaskoczenia_failure_means_surprised() -> None:
    outcome = surprise_test(Script([4]), Watcher(make_sheet(percepcja=6)), dn(5), GOBLINS, S)
    assert outcome.surprised and outcome.reason == SURPRISED and outcome.brooch_damage == 0
    assert not outcome.ignores_blindside


def test_test_zaskoczenia_rule_of_one_fails_whatever_the_dn() -> None:
    outcome = surprise_test(Script([1]), Watcher(make_sheet(percepcja=6)), dn(0), GOBLINS, S)
    assert outcome.surprised and outcome.level == PATHETIC


def test_test_zaskoczenia_takes_the_engines_modifiers() -> None:
    watcher = Watcher(make_sheet(percepcja=6), reasons=(Adjustment(-1, "Rany"),))
    outcome = surprise_test(Script([5]), watcher, dn(5), GOBLINS, S)
    assert outcome.surprised and outcome.perception is not None
    assert outcome.perception.total == 4


def test_brosza_ostrzezenia_detects_within_10_m_and_deals_1_damage() -> None:
    wearer = Watcher(make_sheet(percepcja=6, brooch=True), distance_m=10)
    rng = Script([2, 8])  # the surprise test fails (2 < 5); the brooch's 8 ≥ OM 6
    outcome = surprise_test(rng, wearer, dn(5), GOBLINS, S)
    assert not outcome.surprised and outcome.reason == WARNED
    assert outcome.brooch is not None and outcome.brooch.detected
    assert outcome.brooch.dn == 6 and outcome.brooch_damage == 1
    assert outcome.perception is not None and outcome.perception.total == 2


def test_brosza_ostrzezenia_also_removes_the_blindside_penalty() -> None:
    wearer = Watcher(make_sheet(percepcja=6, brooch=True))
    outcome = surprise_test(Script([2, 8]), wearer, dn(5), GOBLINS, S)
    assert outcome.ignores_blindside
    alone = brooch_test(Script([9]), wearer.sheet, GOBLINS, S, distance_m=3)
    assert alone is not None and alone.detected and alone.damage == 1


def test_brosza_ostrzezenia_tests_against_the_attackers_lowest_obrona_magiczna() -> None:
    result = brooch_test(Script([6]), make_sheet(percepcja=6, brooch=True), GOBLINS, S)
    assert result is not None and result.dn == 6 and result.detected
    shaman = GOBLINS[1:]
    result = brooch_test(Script([6]), make_sheet(percepcja=6, brooch=True), shaman, S)
    assert result is not None and result.dn == 9 and not result.detected
    assert result.reason == BROOCH_FAILED and result.damage == 0


def test_brosza_ostrzezenia_attack_from_beyond_10_m_goes_undetected() -> None:
    wearer = Watcher(make_sheet(percepcja=6, brooch=True), distance_m=10.5)
    rng = Script([2])  # only the surprise test is rolled
    outcome = surprise_test(rng, wearer, dn(5), GOBLINS, S)
    assert outcome.surprised and outcome.brooch is not None
    assert outcome.brooch.roll is None and not outcome.brooch.detected
    assert outcome.brooch.reason == BROOCH_OUT_OF_RANGE and outcome.brooch_damage == 0


def test_brosza_ostrzezenia_range_and_damage_are_table_settings() -> None:
    settings = replace(S, brooch_range_m=30, brooch_damage=2)
    wearer = make_sheet(percepcja=6, brooch=True)
    result = brooch_test(Script([9]), wearer, GOBLINS, settings, distance_m=25)
    assert result is not None and result.detected and result.damage == 2


def test_brosza_ostrzezenia_failed_detection_leaves_the_surprise_and_deals_no_damage() -> None:
    wearer = Watcher(make_sheet(percepcja=6, brooch=True))
    outcome = surprise_test(Script([2, 3]), wearer, dn(5), GOBLINS, S)
    assert outcome.surprised and outcome.reason == SURPRISED
    assert outcome.brooch is not None and not outcome.brooch.detected
    assert outcome.brooch_damage == 0


def test_brosza_ostrzezenia_warns_even_a_wearer_who_neither_hears_nor_sees() -> None:
    wearer = Watcher(make_sheet(percepcja=6, brooch=True), unaware=True)
    outcome = surprise_test(Script([7]), wearer, dn(5), GOBLINS, S)
    assert not outcome.surprised and outcome.perception is None and outcome.brooch_damage == 1


def test_brosza_ostrzezenia_is_not_tested_when_the_wearer_notices_the_attack_itself() -> None:
    wearer = Watcher(make_sheet(percepcja=6, brooch=True))
    rng = Script([9])
    outcome = surprise_test(rng, wearer, dn(5), GOBLINS, S)
    assert not outcome.surprised and outcome.brooch is None and outcome.brooch_damage == 0
    assert rng.asked == [10]


def test_brosza_ostrzezenia_needs_the_brooch_and_an_attacker() -> None:
    assert brooch_test(Script([]), make_sheet(percepcja=6), GOBLINS, S) is None
    with pytest.raises(RuleViolation) as error:
        brooch_test(Script([]), make_sheet(percepcja=6, brooch=True), [], S)
    assert error.value.code == "brooch_no_attackers"


def test_test_zaskoczenia_is_made_for_each_character_in_order() -> None:
    watchers = [Watcher(make_sheet("A", percepcja=6)), Watcher(make_sheet("B", percepcja=4))]
    rng = Script([9, 1])  # A: d10 → 9; B: d6 → 1 (Rule of One)
    outcomes = surprise_tests(rng, watchers, dn(5), GOBLINS, S)
    assert rng.asked == [10, 6]
    assert [o.surprised for o in outcomes] == [False, True]


@given(
    perception=st.integers(1, 30),
    base=st.integers(0, 30),
    seed=st.integers(0, 2**32),
    brooch=st.booleans(),
    unaware=st.booleans(),
    distance=st.integers(0, 20),
)
def test_surprise_outcome_is_consistent_with_its_rolls(
    perception: int, base: int, seed: int, brooch: bool, unaware: bool, distance: int
) -> None:
    settings = MagusSettings()
    watcher = Watcher(
        make_sheet(percepcja=perception, brooch=brooch), unaware=unaware, distance_m=distance
    )
    outcome = surprise_test(random.Random(seed), watcher, dn(base), GOBLINS, settings)
    noticed = outcome.level is not None and outcome.level.success
    warned = outcome.brooch is not None and outcome.brooch.detected
    assert outcome.surprised == (not noticed and not warned)
    assert (outcome.perception is None) == unaware
    assert outcome.brooch_damage == (settings.brooch_damage if warned else 0)
    if warned:
        assert brooch and distance <= settings.brooch_range_m
