"""Exact odds of a step's result and of each success level against a DN.

Computed, never sampled: one open-ended die's distribution (every reroll, up to the same
MAX_REROLLS cap as `roll_step`), the step's dice summed by convolution, then the
success level of each result. The odds are exact for `roll_step`; against a truly unbounded
open-ended die they differ by at most `LevelOdds.neglected_tail` = Σ (1/sides)^(cap + 1) over
the step's dice (the chance that some die reaches the cap; below 1e-11 for any ED1 step up to
100). Each function has a float variant (fast) and an exact `Fraction` one (tests, audits).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Generic

from combat.rules.magus.dice import MAX_REROLLS
from combat.rules.magus.levels import (
    DEFAULT_THRESHOLDS,
    LEVELS,
    PATHETIC,
    Level,
    Thresholds,
    success_level,
)
from combat.rules.magus.steps import ActionDice, StepTable
from combat.rules.odds import Distribution, N


@dataclass(frozen=True)
class LevelOdds(Generic[N]):
    """A step's action test against `dn`: the result's distribution and P(each level).

    `levels` pairs every level (Pathetic first) with its probability; they sum to 1.
    `p_rule_of_one` is P(every first throw shows 1), counted as Pathetic when the Rule of One
    applies (and as the result it gives otherwise)."""

    step: int
    dn: int
    result: Distribution[N]
    levels: tuple[tuple[Level, N], ...]
    p_rule_of_one: N
    neglected_tail: float

    def p(self, level: Level) -> N:
        return next(p for lvl, p in self.levels if lvl == level)

    @property
    def p_success(self) -> N:
        zero = self.levels[0][1] * 0
        return sum((p for lvl, p in self.levels if lvl.success), zero)


def open_die(sides: int, max_rerolls: int = MAX_REROLLS) -> Distribution[float]:
    """P(total) of one open-ended die, as floats."""
    return Distribution(1, _open_die(sides, max_rerolls, False))  # type: ignore[arg-type]


def open_die_exact(sides: int, max_rerolls: int = MAX_REROLLS) -> Distribution[Fraction]:
    """P(total) of one open-ended die, as exact fractions."""
    return Distribution(1, _open_die(sides, max_rerolls, True))  # type: ignore[arg-type]


def dice_sum(dice: ActionDice) -> Distribution[float]:
    """P(sum of the open-ended dice + the flat modifier), as floats."""
    low = len(dice.dice) + dice.modifier
    return Distribution(low, _sum(dice.dice, False))  # type: ignore[arg-type]


def dice_sum_exact(dice: ActionDice) -> Distribution[Fraction]:
    """P(sum of the open-ended dice + the flat modifier), as exact fractions."""
    low = len(dice.dice) + dice.modifier
    return Distribution(low, _sum(dice.dice, True))  # type: ignore[arg-type]


def level_odds(
    step: int,
    dn: int,
    table: StepTable,
    *,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    adjustment: int = 0,
    minimum: int | None = None,
    rule_of_one: bool = True,
) -> LevelOdds[float]:
    """Odds of each success level of `step` (+ `adjustment` to the result) vs `dn`, as floats.

    RuleViolation for a step the table does not hold."""
    dice = table.dice_for(step)
    return _level_odds(step, dn, dice, dice_sum(dice), thresholds, adjustment, minimum, rule_of_one)


def level_odds_exact(
    step: int,
    dn: int,
    table: StepTable,
    *,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    adjustment: int = 0,
    minimum: int | None = None,
    rule_of_one: bool = True,
) -> LevelOdds[Fraction]:
    """Odds of each success level, as exact fractions (see `level_odds`)."""
    dice = table.dice_for(step)
    total = dice_sum_exact(dice)
    return _level_odds(step, dn, dice, total, thresholds, adjustment, minimum, rule_of_one)


def _level_odds(
    step: int,
    dn: int,
    dice: ActionDice,
    total: Distribution[N],
    thresholds: Thresholds,
    adjustment: int,
    minimum: int | None,
    rule_of_one: bool,
) -> LevelOdds[N]:
    if isinstance(dn, bool) or not isinstance(dn, int):
        raise ValueError(f"a Difficulty Number must be a whole number, got {dn!r}")
    shifted = Distribution(total.offset + adjustment, total.probs)
    result = shifted if minimum is None else shifted.map_values(lambda v: max(v, minimum))
    # Every die shows at least 1, so the lowest sum is exactly "every first throw shows 1".
    p_one = total.probs[0]
    zero = p_one * 0
    by_level = dict.fromkeys(LEVELS, zero)
    for index, p in enumerate(shifted.probs):
        value = shifted.offset + index
        if index == 0 and rule_of_one:
            by_level[PATHETIC] += p
            continue
        if minimum is not None:
            value = max(value, minimum)
        by_level[success_level(value, dn, False, thresholds)] += p
    return LevelOdds(
        step=step,
        dn=dn,
        result=result,
        levels=tuple(by_level.items()),
        p_rule_of_one=p_one,
        neglected_tail=neglected_tail(dice),
    )


def neglected_tail(dice: ActionDice) -> float:
    """An upper bound on how far the capped odds are from unbounded open-ended dice: the
    chance that some die shows its maximum on every allowed throw."""
    return sum(float(Fraction(1, sides) ** (MAX_REROLLS + 1)) for sides in dice.dice)


@lru_cache(maxsize=256)
def _open_die(sides: int, max_rerolls: int, exact: bool) -> tuple[float | Fraction, ...]:
    """probs[t − 1] = P(total t): k full rerolls then a face below the maximum, each path
    of probability (1/sides)^(k + 1); after the last allowed reroll every face counts."""
    p: float | Fraction = Fraction(1, sides) if exact else 1 / sides
    probs: list[float | Fraction] = []
    weight = p
    for _ in range(max_rerolls):
        probs += [weight] * (sides - 1) + [weight * 0]
        weight *= p
    probs += [weight] * sides
    return tuple(probs)


@lru_cache(maxsize=1024)
def _sum(dice: tuple[int, ...], exact: bool) -> tuple[float | Fraction, ...]:
    """P(sum − len(dice)) of the open-ended dice (index 0: every die shows 1); steps sharing
    their largest dice share the cached partial sums."""
    last = _open_die(dice[-1], MAX_REROLLS, exact)
    if len(dice) == 1:
        return last
    return tuple(_convolve(list(_sum(dice[:-1], exact)), last))


def _convolve(a: list[float | Fraction], b: tuple[float | Fraction, ...]) -> list[float | Fraction]:
    out: list[float | Fraction] = [a[0] * 0] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        if p:
            # One slice per value of `a`: far faster than a Python-level double loop.
            out[i : i + len(b)] = [o + p * q for o, q in zip(out[i : i + len(b)], b, strict=True)]
    return out
