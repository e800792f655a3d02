"""Testy zdrowienia: the test, its minimum, Wounds, stun damage, the waits, a night's rest."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.base import RuleViolation
from combat.rules.magus.dice import replay_step
from combat.rules.magus.recovery import (
    AFTER_COMBAT,
    ALLOWED,
    IN_COMBAT,
    INTERVAL,
    MUST_TEST,
    NO_TESTS,
    NO_WOUNDS,
    NOTHING_TO_HEAL,
    ONE_TEST_AFTER_REST,
    QUIET,
    UNCONSCIOUS_WAIT,
    WOUND_HAS_DAMAGE,
    WOUND_NEEDS_REST,
    Availability,
    RecoveryState,
    can_heal_wound,
    can_test,
    heal_wound,
    initial_state,
    next_test_at,
    night_rest,
    note_activity,
    note_combat_end,
    note_combat_start,
    note_conscious,
    note_damage,
    note_unconscious,
    recovery_reasons,
    recovery_step,
    recovery_test,
    spend_test,
)
from combat.rules.magus.settings import DEFAULT_SETTINGS
from combat.rules.magus.sheet import Sheet
from tests.combat.rules.magus.scripted import Script

S = DEFAULT_SETTINGS
HOUR = 3600


def make_sheet(tests: int = 3) -> Sheet:
    attributes = {"zywotnosc": 6, "sila_woli": 5, "testy_zdrowienia": tests}
    return Sheet("Wojownik", attributes=attributes, skills={})


HERO = make_sheet()
READY = RecoveryState(tests_left=3)  # no waits pending


def test_test_zdrowienia_is_rolled_at_the_zywotnosc_step_and_heals_its_result() -> None:
    rng = Script([7])  # Żywotność 6 = d10
    result = recovery_test(rng, READY, HERO, 0, S, damage=12)
    assert rng.asked == [10] and result.roll.step == 6
    assert (result.heals, result.healed, result.remaining) == ("damage", 7, 5)
    assert result.state.tests_left == 2 and result.state.last_test_at == 0


def test_test_zdrowienia_heals_no_more_than_the_current_damage() -> None:
    result = recovery_test(Script([9]), READY, HERO, 0, S, damage=4)
    assert (result.healed, result.remaining) == (4, 0)


def test_test_zdrowienia_result_is_lowered_by_1_per_wound_after_the_first() -> None:
    assert recovery_reasons(0, S) == () and recovery_reasons(1, S) == ()
    result = recovery_test(Script([7]), READY, HERO, 0, S, damage=12, wounds=3)
    assert result.roll.total == 5 and result.healed == 5
    assert [a.value for a in result.roll.adjustments] == [-2]
    heavier = replace(S, wound_penalty=2)
    assert recovery_reasons(3, heavier)[0].value == -4


def test_test_zdrowienia_minimum_result_is_1() -> None:
    result = recovery_test(Script([2]), READY, HERO, 0, S, damage=12, wounds=6)  # 2 − 5
    assert result.roll.total == 1 and result.healed == 1 and result.remaining == 11


def test_stun_damage_heals_by_recovery_tests_with_the_siła_woli_step_added() -> None:
    assert recovery_step(HERO) == 6 and recovery_step(HERO, "stun") == 11
    rng = Script([6, 5])  # step 11 = d10+d8
    result = recovery_test(rng, READY, HERO, 0, S, damage=3, stun=14, heals="stun")
    assert rng.asked == [10, 8]
    assert (result.heals, result.healed, result.remaining) == ("stun", 11, 3)


def test_test_zdrowienia_needs_damage_to_heal_and_a_test_left_today() -> None:
    assert can_test(READY, HERO, 0, S, damage=0) == Availability(False, NOTHING_TO_HEAL)
    assert can_test(READY, HERO, 0, S, damage=5, heals="stun").reason == NOTHING_TO_HEAL
    spent = RecoveryState(tests_left=0)
    assert can_test(spent, HERO, 0, S, damage=5) == (False, NO_TESTS)


def test_a_refused_test_zdrowienia_raises_and_rolls_nothing() -> None:
    rng = Script([])
    with pytest.raises(RuleViolation) as error:
        recovery_test(rng, RecoveryState(tests_left=0), HERO, 0, S, damage=5)
    assert error.value.code == "recovery_not_allowed" and error.value.template == NO_TESTS


def test_test_zdrowienia_with_one_test_a_day_only_after_a_full_nights_rest() -> None:
    lone = make_sheet(tests=1)
    state = initial_state(lone)
    assert state.tests_left == 1
    assert can_test(state, lone, 10 * HOUR, S, damage=5) == (False, ONE_TEST_AFTER_REST)
    assert next_test_at(state, lone, 10 * HOUR, S, damage=5) is None
    rested = night_rest(state, lone, 20 * HOUR, damage=5)
    assert can_test(rested, lone, 20 * HOUR, S, damage=5).allowed
    hurt_later = note_damage(rested, 22 * HOUR)  # new damage: no longer "after the rest"
    assert can_test(hurt_later, lone, 30 * HOUR, S, damage=8).reason == ONE_TEST_AFTER_REST


def test_test_zdrowienia_more_tests_need_an_hour_between_them() -> None:
    after = recovery_test(Script([3]), READY, HERO, 1000, S, damage=12).state
    assert can_test(after, HERO, 1000 + HOUR - 1, S, damage=9) == (False, INTERVAL)
    assert next_test_at(after, HERO, 1000 + 10, S, damage=9) == 1000 + HOUR
    assert can_test(after, HERO, 1000 + HOUR, S, damage=9) == (True, ALLOWED)


def test_test_zdrowienia_more_tests_need_a_minute_without_activity_or_new_damage() -> None:
    hurt = note_damage(READY, 500)
    assert can_test(hurt, HERO, 500 + S.recovery_quiet_s - 1, S, damage=4) == (False, QUIET)
    assert can_test(hurt, HERO, 500 + S.recovery_quiet_s, S, damage=4).allowed
    busy = note_activity(READY, 900)
    assert can_test(busy, HERO, 930, S, damage=4).reason == QUIET
    assert next_test_at(busy, HERO, 930, S, damage=4) == 900 + S.recovery_quiet_s


def test_test_zdrowienia_after_combat_needs_an_hour_of_rest() -> None:
    ended = note_combat_end(note_combat_start(READY), 100)
    assert can_test(ended, HERO, 100 + HOUR - 1, S, damage=4) == (False, AFTER_COMBAT)
    assert can_test(ended, HERO, 100 + HOUR, S, damage=4).allowed
    quick = replace(S, after_combat_wait_s=600)
    assert can_test(ended, HERO, 700, quick, damage=4).allowed


def test_test_zdrowienia_in_combat_only_an_unconscious_character_may_test() -> None:
    fighting = note_combat_start(READY)
    assert can_test(fighting, HERO, 5000, S, damage=4) == (False, IN_COMBAT)
    assert next_test_at(fighting, HERO, 5000, S, damage=4) is None


def test_unconscious_character_may_test_one_minute_after_falling_unconscious() -> None:
    down = note_unconscious(note_combat_start(note_damage(READY, 40)), 40)
    assert note_unconscious(down, 50) == down  # already unconscious: keeps the time it fell
    assert can_test(down, HERO, 99, S, damage=30) == (False, UNCONSCIOUS_WAIT)
    assert next_test_at(down, HERO, 45, S, damage=30) == 100
    assert can_test(down, HERO, 100, S, damage=30).allowed


def test_unconscious_character_revived_by_another_tests_at_once() -> None:
    down = note_unconscious(READY, 40)
    assert can_test(down, HERO, 41, S, damage=30, revived=True).allowed


def test_unconscious_next_test_only_after_an_hour_whatever_the_result() -> None:
    earlier = spend_test(READY, 0)  # a test before falling does not delay the exception
    down = note_unconscious(earlier, 600)
    assert can_test(down, HERO, 660, S, damage=30).allowed
    failed = recovery_test(Script([2]), down, HERO, 660, S, damage=30).state
    assert can_test(failed, HERO, 720, S, damage=28, revived=True) == (False, INTERVAL)
    assert next_test_at(failed, HERO, 720, S, damage=28) == 660 + HOUR
    assert can_test(failed, HERO, 660 + HOUR, S, damage=28).allowed
    assert note_conscious(failed).unconscious_since is None


def test_damaged_character_must_test_right_after_waking_from_a_nights_rest() -> None:
    tired = RecoveryState(tests_left=0, last_test_at=100, combat_ended_at=200)
    woke = night_rest(tired, HERO, 300, damage=6)  # the GM did not move the clock
    assert woke.must_test and woke.tests_left == 3
    assert can_test(woke, HERO, 300, S, damage=6) == (True, MUST_TEST)
    after = recovery_test(Script([8]), woke, HERO, 300, S, damage=6).state
    assert not after.must_test
    assert can_test(after, HERO, 400, S, damage=0).reason == NOTHING_TO_HEAL
    assert not night_rest(tired, HERO, 300, damage=0).must_test
    assert not night_rest(tired, make_sheet(tests=0), 300, damage=6).must_test


def test_a_nights_rest_ends_unconsciousness_and_combat() -> None:
    state = note_unconscious(note_combat_start(READY), 10)
    woke = night_rest(state, HERO, 9 * HOUR, damage=0)
    assert woke.unconscious_since is None and not woke.in_combat and woke.rested_at == 9 * HOUR


def test_wound_heals_after_a_nights_rest_by_spending_a_test_without_current_damage() -> None:
    woke = night_rest(READY, HERO, 8 * HOUR, damage=0)
    assert can_heal_wound(woke, damage=0, wounds=2) == (True, ALLOWED)
    healed = heal_wound(woke, 8 * HOUR, damage=0, wounds=2)
    assert healed.tests_left == 2 and healed.last_test_at == 8 * HOUR


def test_wound_heals_only_after_rest_without_damage_with_a_test_left() -> None:
    woke = night_rest(READY, HERO, 8 * HOUR, damage=3)
    assert can_heal_wound(woke, damage=3, wounds=1) == (False, WOUND_HAS_DAMAGE)
    assert can_heal_wound(READY, damage=0, wounds=1) == (False, WOUND_NEEDS_REST)
    assert can_heal_wound(woke, damage=0, wounds=0) == (False, NO_WOUNDS)
    spent = replace(woke, tests_left=0)
    assert can_heal_wound(spent, damage=0, wounds=1) == (False, NO_TESTS)
    with pytest.raises(RuleViolation) as error:
        heal_wound(READY, 0, damage=0, wounds=1)
    assert error.value.code == "heal_wound_not_allowed"


def test_a_recorded_test_zdrowienia_replays_to_the_same_result() -> None:
    result = recovery_test(random.Random(3), READY, HERO, 0, S, damage=20, wounds=2)
    faces = [die.faces for die in result.roll.rolls]
    again = replay_step(
        recovery_step(HERO), S.table, faces, reasons=recovery_reasons(2, S), minimum=1
    )
    assert again == result.roll
    assert spend_test(READY, 0) == result.state


@given(
    seed=st.integers(0, 2**32),
    toughness=st.integers(1, 30),
    wounds=st.integers(0, 20),
    damage=st.integers(1, 100),
)
def test_test_zdrowienia_always_heals_at_least_1_and_never_more_than_the_damage(
    seed: int, toughness: int, wounds: int, damage: int
) -> None:
    sheet = Sheet("X", attributes={"zywotnosc": toughness, "testy_zdrowienia": 2}, skills={})
    result = recovery_test(random.Random(seed), READY, sheet, 0, S, damage=damage, wounds=wounds)
    assert result.roll.total >= 1
    assert result.healed == min(result.roll.total, damage)
    assert result.remaining == damage - result.healed
