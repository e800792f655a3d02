"""Exact attack odds: success levels, penetration, the damage dealt after armour, P(Wound), and
the defensive talents' odds; checked against enumerated faces and a seeded simulation."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.rules.base import RuleViolation
from combat.rules.magus import odds
from combat.rules.magus.damage import (
    AttackOdds,
    Blow,
    attack_odds,
    damage_after_armour,
    hit_odds,
    is_wound,
    p_success,
    talent_odds,
)
from combat.rules.magus.dice import roll_step
from combat.rules.magus.levels import (
    EXCELLENT,
    EXTRAORDINARY,
    GOOD,
    LEVELS,
    PATHETIC,
    POOR,
    success_level,
)
from combat.rules.magus.odds import (
    TAIL_BOUND,
    dice_sum,
    dice_sum_exact,
    level_odds_exact,
    neglected_tail,
    step_sum,
)
from combat.rules.magus.settings import DEFAULT_SETTINGS, MagusSettings
from combat.rules.magus.steps import DEFAULT_TABLE, ActionDice

S = DEFAULT_SETTINGS


# --- brute force: every face sequence of every die, rerolls capped ----------------------------


def face_sequences(sides: int, rerolls: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every way one open-ended die can fall with at most `rerolls` rerolls, with its chance:
    `k` maxima then a face below the maximum. (What is left, k > rerolls, has chance
    (1/sides)^(rerolls + 1): the bound the comparisons allow.)"""
    for k in range(rerolls + 1):
        for face in range(1, sides):
            yield (sides,) * k + (face,), Fraction(1, sides) ** (k + 1)


def enumerate_step(dice: ActionDice, rerolls: int) -> dict[tuple[int, bool], Fraction]:
    """P(total, every first throw shows 1) by enumerating the faces of every die."""
    out: defaultdict[tuple[int, bool], Fraction] = defaultdict(Fraction)
    per_die = [list(face_sequences(sides, rerolls)) for sides in dice.dice]
    for combo in itertools.product(*per_die):
        total = sum(sum(faces) for faces, _ in combo) + dice.modifier
        ones = all(faces[0] == 1 for faces, _ in combo)
        p = Fraction(1)
        for _, q in combo:
            p *= q
        out[(total, ones)] += p
    return dict(out)


def left_out(dice: ActionDice, rerolls: int) -> float:
    return sum(float(Fraction(1, s) ** (rerolls + 1)) for s in dice.dice)


def brute_force_attack(
    attack_step: int, modifier: int, defence: int, blow: Blow, wt: int, st_: MagusSettings, r: int
) -> tuple[dict[str, float], dict[int, float]]:
    """Levels and the dealt distribution by running every enumerated attack and damage roll
    through the pipeline (`damage_after_armour`)."""
    table = st_.table
    attack = enumerate_step(table.dice_for(attack_step), r)
    damage = enumerate_step(table.dice_for(blow.damage_step), r)
    levels: defaultdict[str, float] = defaultdict(float)
    dealt: defaultdict[int, float] = defaultdict(float)
    for (total, ones), p in attack.items():
        result = max(total + modifier, st_.test_result_floor)
        level = success_level(result, defence, ones and st_.rule_of_one, st_.levels)
        levels[level.key] += float(p)
        if not level.success:
            dealt[0] += float(p)
            continue
        for (rolled, _), q in damage.items():
            d = damage_after_armour(blow, result, defence, rolled, st_)
            dealt[d.dealt] += float(p * q)
    return dict(levels), dict(dealt)


@pytest.mark.parametrize(
    ("attack_step", "modifier", "defence", "blow", "wt"),
    [
        (5, 0, 4, Blow(damage_step=8, armour=3), 6),
        (9, 2, 8, Blow(damage_step=6, armour=4, shield=2), 5),
        (3, 0, 2, Blow(damage_step=4, armour=1, capped=False), 3),
        (7, -1, 3, Blow(damage_step=2, armour=0, modifier=-1), 2),
    ],
)
def test_attack_odds_agree_with_brute_force_enumeration(
    attack_step: int, modifier: int, defence: int, blow: Blow, wt: int
) -> None:
    r = 9
    levels, dealt = brute_force_attack(attack_step, modifier, defence, blow, wt, S, r)
    table = S.table
    bound = 2 * (
        left_out(table.dice_for(attack_step), r) + left_out(table.dice_for(blow.damage_step), r)
    )
    odds_ = attack_odds(attack_step, modifier, defence, blow, wt, S)
    for level, p in odds_.levels:
        assert p == pytest.approx(levels.get(level.key, 0.0), abs=bound), level.key
    for value in range(max(dealt) + 1):
        assert odds_.damage[value] == pytest.approx(dealt.get(value, 0.0), abs=bound), value
    wound = sum(p for value, p in dealt.items() if is_wound(value, wt))
    assert odds_.p_wound == pytest.approx(wound, abs=bound)
    assert odds_.expected_damage == pytest.approx(sum(v * p for v, p in dealt.items()), abs=1e-4)


def test_the_step_sum_agrees_with_brute_force_enumeration() -> None:
    dice = ActionDice((8, 6), -1)
    seen: defaultdict[int, float] = defaultdict(float)
    for (value, _), p in enumerate_step(dice, 8).items():
        seen[value] += float(p)
    fast = step_sum(dice)
    for value, q in seen.items():
        assert fast.p(value) == pytest.approx(q, abs=left_out(dice, 8))


@pytest.mark.parametrize("step", range(1, 41))
def test_the_step_sum_agrees_with_the_capped_sum(step: int) -> None:
    dice = DEFAULT_TABLE.dice_for(step)
    fast = step_sum(dice)
    exact = dice_sum_exact(dice) if step in (3, 9, 14, 19) else dice_sum(dice)
    assert fast.complete and fast.beyond <= TAIL_BOUND
    assert sum(fast.probs) + fast.beyond == pytest.approx(1, abs=1e-13)
    worst = max(abs(fast.p(v) - float(p)) for v, p in exact.items() if v <= fast.high + 5)
    assert worst <= neglected_tail(dice) + fast.beyond + 1e-15


def test_a_partial_step_sum_lists_up_to_the_value_asked_and_weighs_the_rest() -> None:
    dice = ActionDice((12, 10, 6), 0)
    odds._SUMS.pop(dice, None)
    part = step_sum(dice, upto=12)
    assert part.high >= 12 and not part.complete
    exact = dice_sum_exact(dice)
    below = sum(float(p) for v, p in exact.items() if v <= part.high)
    assert part.beyond == pytest.approx(1 - below, abs=1e-13)
    assert part.p_at_least(part.high + 1) == part.beyond
    assert step_sum(dice, upto=10) is part  # a shorter request reuses the listing
    longer = step_sum(dice)
    assert longer.complete and step_sum(dice, upto=12) is longer


def test_the_step_sum_cache_is_keyed_by_the_dice_not_the_step() -> None:
    edited = MagusSettings.from_dict({"step_table": {**S.step_table, "5": "d20+d4"}})
    assert step_sum(edited.table.dice_for(5)) is step_sum(S.table.dice_for(14))


def test_the_step_sum_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(odds, "_SUMS", {})
    monkeypatch.setattr(odds, "_CACHE_SIZE", 2)
    for sides in (4, 6, 8):
        step_sum(ActionDice((sides,)))
    assert len(odds._SUMS) == 1


def test_a_step_sum_of_small_dice_grows_until_complete() -> None:
    dice = ActionDice((2, 2, 2), 0)  # the first guess falls short for d2s
    total = step_sum(dice)
    assert total.complete and len(total.probs) > odds._first_length(dice.dice)
    assert total.p(3) == pytest.approx(1 / 8) and total.p(2) == 0.0


def test_the_step_sum_of_the_rule_of_one_is_its_lowest_value() -> None:
    total = step_sum(DEFAULT_TABLE.dice_for(11))  # d10+d8
    assert total.probs[0] == pytest.approx(1 / 80) and total.offset == 2
    assert total.p_at_least(0) == 1.0 and total.p(1) == 0.0
    assert list(total.items())[0] == (2, total.probs[0])


# --- the attack's levels and damage -----------------------------------------------------------


@pytest.mark.parametrize(("step", "dn", "modifier"), [(3, 4, 0), (11, 9, 2), (19, 18, -1)])
def test_attack_levels_agree_with_level_odds(step: int, dn: int, modifier: int) -> None:
    exact = level_odds_exact(step, dn, DEFAULT_TABLE, adjustment=modifier, minimum=1)
    fast = attack_odds(step, modifier, dn, Blow(damage_step=5), 5, S)
    for (level, p), (same, q) in zip(exact.levels, fast.levels, strict=True):
        assert level == same
        assert q == pytest.approx(float(p), abs=1e-12 + fast.neglected_tail), level.key
    assert fast.p_hit == pytest.approx(float(exact.p_success), abs=1e-12)


def test_attack_odds_count_the_rule_of_one_as_pathetic() -> None:
    played = attack_odds(11, 0, 2, Blow(damage_step=5), 5, S)
    assert played.p(PATHETIC) == pytest.approx(1 / 80)
    assert played.p_hit == pytest.approx(1 - 1 / 80)
    unplayed = attack_odds(11, 0, 2, Blow(damage_step=5), 5, replace(S, rule_of_one=False))
    assert unplayed.p(PATHETIC) == 0.0 and unplayed.p_hit == pytest.approx(1.0)


def test_attack_odds_of_a_sure_miss() -> None:
    miss = attack_odds(1, 0, 60, Blow(damage_step=5, armour=2), 5, S)
    assert miss.p_hit == pytest.approx(0, abs=1e-6)
    assert miss.damage[0] == pytest.approx(1, abs=1e-6) and miss.expected_damage < 1e-4


def test_przebicie_pancerza_odds_are_the_excellent_odds_without_a_shield() -> None:
    o = attack_odds(16, 0, 9, Blow(damage_step=10, armour=4), 8, S)
    assert o.p_penetration == pytest.approx(o.p(EXCELLENT) + o.p(EXTRAORDINARY))


def test_tarcza_lowers_the_penetration_odds() -> None:
    bare = attack_odds(16, 0, 9, Blow(damage_step=10, armour=4), 8, S)
    shield = attack_odds(16, 0, 9, Blow(damage_step=10, armour=7, shield=3), 8, S)
    assert shield.p_penetration < bare.p_penetration
    expected = p_success(16, 0, 9 + 13, S)
    assert shield.p_penetration == pytest.approx(expected)


def test_minimalne_obrazenia_on_good_show_in_the_damage_distribution() -> None:
    # A sure Good hit (d20+d8+d6 shows at least 3, +10 against 8): every hit deals at least
    # the damage step less armour, 6 − 2.
    sure = replace(S, rule_of_one=False)
    o = attack_odds(20, 10, 8, Blow(damage_step=6, armour=2), 30, sure)
    assert o.p(GOOD) + o.p(EXCELLENT) + o.p(EXTRAORDINARY) == pytest.approx(1)
    assert all(o.damage[v] == 0 for v in range(0, 4)) and o.damage[4] > 0


def test_maksymalne_obrazenia_show_in_the_damage_distribution() -> None:
    o = attack_odds(12, 0, 10, Blow(damage_step=5, armour=0), 6, S)
    assert o.damage.high == 15 and o.damage[15] > 0
    uncapped = attack_odds(12, 0, 10, Blow(damage_step=5, capped=False), 6, S)
    assert uncapped.damage.high > 40
    assert uncapped.expected_damage > o.expected_damage


def test_more_armour_never_raises_the_expected_damage() -> None:
    values = [
        attack_odds(15, 0, 12, Blow(damage_step=12, armour=a), 10, S).expected_damage
        for a in range(0, 12, 2)
    ]
    assert values == sorted(values, reverse=True)


def test_attack_odds_refuse_a_step_the_table_does_not_hold() -> None:
    with pytest.raises(RuleViolation):
        attack_odds(0, 0, 5, Blow(damage_step=5), 5, S)
    with pytest.raises(RuleViolation):
        attack_odds(5, 0, 5, Blow(damage_step=101), 5, S)


def test_attack_odds_state_a_neglected_tail_below_1e_minus_9() -> None:
    for step in (1, 10, 20, 30, 40):
        for capped in (True, False):
            o = attack_odds(step, 0, step, Blow(damage_step=step, capped=capped), step, S)
            assert o.neglected_tail <= 1e-9
            assert o.damage.total() == pytest.approx(1, abs=1e-9)


def test_attack_odds_with_a_defence_above_a_complete_sum_count_its_tail() -> None:
    step_sum(DEFAULT_TABLE.dice_for(3))  # complete, listed up to ~90
    o = attack_odds(3, 0, 200, Blow(damage_step=3), 2, S)
    assert o.p_hit <= TAIL_BOUND and o.neglected_tail <= 1e-9


def test_a_capped_blow_past_a_complete_listing_lumps_its_tail_on_the_cap() -> None:
    dice = DEFAULT_TABLE.dice_for(1)  # d4−2, complete sum listed to ~88
    step_sum(dice)
    big = replace(S, max_damage_multiplier=200)
    o = attack_odds(10, 0, 2, Blow(damage_step=1), 5, big)
    assert o.damage.total() == pytest.approx(1, abs=1e-12)
    assert o.neglected_tail <= 1e-9


strategy_steps = st.integers(min_value=1, max_value=40)


@settings(max_examples=60, deadline=None)
@given(
    attack=strategy_steps,
    damage=strategy_steps,
    modifier=st.integers(-6, 6),
    defence=st.integers(1, 45),
    armour=st.integers(0, 15),
    shield=st.integers(0, 5),
    wt=st.integers(0, 25),
    capped=st.booleans(),
    damage_modifier=st.integers(-4, 2),
)
def test_attack_odds_sum_to_one(
    attack: int,
    damage: int,
    modifier: int,
    defence: int,
    armour: int,
    shield: int,
    wt: int,
    capped: bool,
    damage_modifier: int,
) -> None:
    blow = Blow(damage, armour + shield, shield, capped, modifier=damage_modifier)
    o: AttackOdds = attack_odds(attack, modifier, defence, blow, wt, S)
    assert sum(p for _, p in o.levels) == pytest.approx(1, abs=1e-12)
    assert [level for level, _ in o.levels] == list(LEVELS)
    assert all(p >= 0 for _, p in o.levels)
    assert o.damage.total() == pytest.approx(1, abs=1e-9)
    assert 0 <= o.p_wound <= o.p_hit + 1e-12
    assert o.p_penetration <= o.p_hit + 1e-12
    assert o.p_hit == pytest.approx(1 - o.p(PATHETIC) - o.p(POOR), abs=1e-12)
    assert o.neglected_tail <= 1e-9
    if capped:
        assert o.damage.high <= blow.damage_step * S.max_damage_multiplier


@pytest.mark.parametrize(
    ("attack_step", "defence", "blow", "wt"),
    [
        (30, 24, Blow(damage_step=25, armour=8, shield=2), 14),
        (40, 30, Blow(damage_step=32, armour=10, capped=False), 18),
    ],
)
def test_attack_odds_match_a_seeded_simulation(
    attack_step: int, defence: int, blow: Blow, wt: int
) -> None:
    rng = random.Random(attack_step * 7919 + defence)
    runs = 20_000
    table = S.table
    levels: Counter[str] = Counter()
    dealt_total = 0
    wounds = 0
    pierced = 0
    for _ in range(runs):
        attack = roll_step(rng, attack_step, table, minimum=S.test_result_floor)
        level = success_level(attack.total, defence, attack.rule_of_one, S.levels)
        levels[level.key] += 1
        if not level.success:
            continue
        damage = damage_after_armour(
            blow, attack.total, defence, roll_step(rng, blow.damage_step, table).total, S
        )
        dealt_total += damage.dealt
        wounds += is_wound(damage.dealt, wt)
        pierced += damage.penetrated
    o = attack_odds(attack_step, 0, defence, blow, wt, S)
    # 20,000 runs: a frequency's standard error is at most 0.0036; allow about 3 of them.
    for level, p in o.levels:
        assert levels[level.key] / runs == pytest.approx(p, abs=0.011), level.key
    assert wounds / runs == pytest.approx(o.p_wound, abs=0.011)
    assert pierced / runs == pytest.approx(o.p_penetration, abs=0.011)
    assert dealt_total / runs == pytest.approx(o.expected_damage, rel=0.03)


# --- the defensive talents' odds --------------------------------------------------------------


@pytest.mark.parametrize(("step", "modifier", "result"), [(6, 0, 7), (12, -3, 14), (22, 2, 30)])
def test_talent_odds_are_the_chance_to_reach_the_attack_result(
    step: int, modifier: int, result: int
) -> None:
    exact = level_odds_exact(step, result, DEFAULT_TABLE, adjustment=modifier, minimum=1)
    assert talent_odds(step, modifier, result, S) == pytest.approx(float(exact.p_success))


def test_talent_odds_count_the_rule_of_one() -> None:
    # Step 11 (d10+d8) against 1: only the Rule of One fails.
    assert talent_odds(11, 0, 1, S) == pytest.approx(1 - 1 / 80)
    assert talent_odds(11, 0, 1, replace(S, rule_of_one=False)) == 1.0
    assert p_success(11, 0, 1, S, rule_of_one=False) == 1.0


def test_talent_odds_cannot_reach_an_impossible_result() -> None:
    assert talent_odds(1, 0, 500, S) <= TAIL_BOUND


def test_talent_odds_by_brute_force_enumeration() -> None:
    dice = DEFAULT_TABLE.dice_for(9)  # d8+d6
    wins = sum(
        float(p) for (total, ones), p in enumerate_step(dice, 9).items() if total >= 10 and not ones
    )
    assert talent_odds(9, 0, 10, S) == pytest.approx(wins, abs=2 * left_out(dice, 9))


# --- the damage of a hit already rolled -------------------------------------------------------


@pytest.mark.parametrize(
    ("margin", "blow"),
    [
        (0, Blow(damage_step=9, armour=4)),
        (6, Blow(damage_step=9, armour=4)),  # Good: the minimum
        (11, Blow(damage_step=9, armour=6, shield=2)),  # Excellent, held by the shield
        (12, Blow(damage_step=9, armour=6, shield=2)),  # pierced
        (3, Blow(damage_step=5, armour=2, capped=False, modifier=-1)),
    ],
)
def test_hit_odds_agree_with_the_pipeline_over_every_damage_result(margin: int, blow: Blow) -> None:
    defence, wt = 12, 7
    total = step_sum(S.table.dice_for(blow.damage_step))
    dealt: defaultdict[int, float] = defaultdict(float)
    for value, p in total.items():
        dealt[damage_after_armour(blow, defence + margin, defence, value, S).dealt] += p
    o = hit_odds(blow, defence + margin, defence, wt, S)
    for value in range(max(dealt) + 1):
        assert o.damage[value] == pytest.approx(dealt[value], abs=1e-12), value
    assert o.expected_damage == pytest.approx(sum(v * p for v, p in dealt.items()), abs=1e-9)
    assert o.p_wound == pytest.approx(sum(p for v, p in dealt.items() if v > wt), abs=1e-12)
    assert o.damage.total() == pytest.approx(1, abs=1e-9) and o.neglected_tail <= 1e-9
    assert o.penetrated == (margin >= 10 + blow.shield)


def test_hit_odds_are_the_attack_odds_of_a_sure_hit_of_that_margin() -> None:
    blow = Blow(damage_step=12, armour=5)
    sure = attack_odds(40, 100, 20, blow, 9, replace(S, rule_of_one=False))  # always pierces
    assert hit_odds(blow, 140, 20, 9, S).expected_damage == pytest.approx(sure.expected_damage)
