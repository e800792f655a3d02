from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from combat.rules.magus.dice import MAX_REROLLS, Adjustment, roll_step
from combat.rules.magus.levels import (
    AVERAGE,
    EXCELLENT,
    EXTRAORDINARY,
    GOOD,
    LEVELS,
    PATHETIC,
    POOR,
    Thresholds,
    success_level,
)
from combat.rules.magus.odds import (
    dice_sum_exact,
    level_odds,
    level_odds_exact,
    neglected_tail,
    open_die,
    open_die_exact,
)
from combat.rules.magus.steps import DEFAULT_TABLE, ActionDice


def test_an_open_ended_d4_never_totals_its_maximum() -> None:
    d4 = open_die_exact(4)
    assert [d4[t] for t in range(1, 9)] == [F(1, 4)] * 3 + [0] + [F(1, 16)] * 3 + [0]
    assert d4.total() == 1


def test_an_open_ended_die_matches_brute_force_enumeration() -> None:
    # Two rerolls at most: every die's path is a prefix of 3 equally likely throws.
    counts: Counter[int] = Counter()
    for throws in itertools.product(range(1, 7), repeat=3):
        kept = 1
        while kept < 3 and throws[kept - 1] == 6:
            kept += 1
        counts[sum(throws[:kept])] += 1
    assert open_die_exact(6, max_rerolls=2).as_dict() == {t: F(n, 216) for t, n in counts.items()}


def test_the_step_sum_is_the_convolution_of_its_dice() -> None:
    d6, d4 = open_die_exact(6), open_die_exact(4)
    expected: dict[int, F] = {}
    for (a, pa), (b, pb) in itertools.product(d6.items(), d4.items()):
        expected[a + b + 1] = expected.get(a + b + 1, F(0)) + pa * pb
    got = dice_sum_exact(ActionDice((6, 4), 1))
    assert got.as_dict() == {v: p for v, p in expected.items() if p}


def test_step_three_against_four_by_hand() -> None:
    # d4 vs DN 4: a 4 rerolls and adds at least 1, so no result is exactly 4.
    odds = level_odds_exact(3, 4, DEFAULT_TABLE)
    assert odds.p(PATHETIC) == F(1, 4)  # the first throw shows 1
    assert odds.p(POOR) == F(2, 4)  # 2 or 3
    assert odds.p(AVERAGE) == 3 * F(1, 16)  # 5, 6, 7
    assert odds.p(GOOD) == 3 * F(1, 64) + F(1, 256)  # 9, 10, 11; 13
    assert odds.p(EXCELLENT) == 2 * F(1, 256) + 2 * F(1, 1024)  # 14, 15; 17, 18
    assert odds.p(EXTRAORDINARY) == F(1, 1024) + F(1, 1024)  # 19; 4·5 and beyond
    assert odds.p_success == F(1, 4)


def test_rule_of_one_probability_is_every_first_throw_showing_one() -> None:
    assert level_odds_exact(11, 5, DEFAULT_TABLE).p(PATHETIC) == F(1, 10 * 8)
    assert level_odds_exact(19, 5, DEFAULT_TABLE).p_rule_of_one == F(1, 20 * 6 * 6)
    assert level_odds(38, 5, DEFAULT_TABLE).p_rule_of_one == pytest.approx(
        1 / (20 * 20 * 10 * 8 * 8)
    )


def test_without_the_rule_of_one_all_ones_is_an_ordinary_result() -> None:
    odds = level_odds_exact(11, 2, DEFAULT_TABLE, rule_of_one=False)
    assert odds.p(PATHETIC) == 0 and odds.p_rule_of_one == F(1, 80)
    assert odds.p_success == 1


@pytest.mark.parametrize("step", [1, 2, 3, 8, 14, 20])
def test_exact_level_odds_sum_to_one(step: int) -> None:
    odds = level_odds_exact(step, 12, DEFAULT_TABLE)
    assert sum(p for _, p in odds.levels) == 1
    assert [level for level, _ in odds.levels] == list(LEVELS)
    assert odds.result.total() == 1


@pytest.mark.parametrize("step", [1, 7, 13, 19, 24, 31, 40])
def test_float_odds_sum_to_one(step: int) -> None:
    odds = level_odds(step, 2 * step, DEFAULT_TABLE)
    assert sum(p for _, p in odds.levels) == pytest.approx(1, abs=1e-12)
    assert odds.neglected_tail == neglected_tail(DEFAULT_TABLE.dice_for(step))


def test_the_neglected_tail_of_every_default_step_is_below_1e_minus_9() -> None:
    tails = [neglected_tail(dice) for dice in DEFAULT_TABLE.rows]
    assert max(tails) < 1e-11
    assert neglected_tail(ActionDice((4,))) == 4.0 ** -(MAX_REROLLS + 1)


def test_float_and_exact_odds_agree() -> None:
    exact = level_odds_exact(16, 15, DEFAULT_TABLE)
    fast = level_odds(16, 15, DEFAULT_TABLE)
    for (level, p), (_, q) in zip(exact.levels, fast.levels, strict=True):
        assert float(p) == pytest.approx(q, abs=1e-12), level.key
    assert open_die(8).total() == pytest.approx(1)


def test_an_adjustment_to_the_result_counts_like_a_lower_difficulty() -> None:
    raised = level_odds_exact(9, 12, DEFAULT_TABLE, adjustment=3)
    assert raised.levels == level_odds_exact(9, 9, DEFAULT_TABLE).levels


def test_a_minimum_result_raises_the_low_results_not_the_rule_of_one() -> None:
    odds = level_odds_exact(1, 1, DEFAULT_TABLE, minimum=1)  # d4−2, at least 1
    assert odds.result.low == 1 and odds.result[1] == F(3, 4)
    assert odds.p(PATHETIC) == F(1, 4)
    assert odds.p(AVERAGE) == F(2, 4) + 3 * F(1, 16)  # 2 or 3; 4 then 1–3 (3 to 5)
    effect = level_odds_exact(1, 1, DEFAULT_TABLE, minimum=1, rule_of_one=False)
    assert effect.p(AVERAGE) == F(3, 4) + 3 * F(1, 16)


def test_edited_thresholds_change_the_odds() -> None:
    tight = Thresholds(2, 4, 6)
    odds = level_odds_exact(8, 7, DEFAULT_TABLE, thresholds=tight)
    assert odds.levels != level_odds_exact(8, 7, DEFAULT_TABLE).levels
    assert sum(p for _, p in odds.levels) == 1


def test_a_difficulty_must_be_a_whole_number() -> None:
    with pytest.raises(ValueError, match="Difficulty Number"):
        level_odds(5, 5.5, DEFAULT_TABLE)  # type: ignore[arg-type]


@pytest.mark.parametrize(("step", "dn", "adjust"), [(3, 4, 0), (12, 11, 0), (27, 30, -2)])
def test_the_exact_odds_match_a_seeded_simulation(step: int, dn: int, adjust: int) -> None:
    rng = random.Random(step * 1000 + dn)
    runs = 20_000
    reasons = [Adjustment(adjust, "kara")] if adjust else []
    seen = Counter(
        success_level(roll.total, dn, roll.rule_of_one)
        for roll in (roll_step(rng, step, DEFAULT_TABLE, reasons=reasons) for _ in range(runs))
    )
    odds = level_odds(step, dn, DEFAULT_TABLE, adjustment=adjust)
    for level, p in odds.levels:
        assert seen[level] / runs == pytest.approx(p, abs=0.01), level.key
