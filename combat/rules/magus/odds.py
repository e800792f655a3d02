"""Exact odds of a step's result and of each success level against a DN.

Computed, never sampled: one open-ended die's distribution (every reroll, up to the same
MAX_REROLLS cap as `roll_step`), the step's dice summed by convolution, then the
success level of each result. The odds are exact for `roll_step`; against a truly unbounded
open-ended die they differ by at most `LevelOdds.neglected_tail` = Σ (1/sides)^(cap + 1) over
the step's dice (the chance that some die reaches the cap; below 1e-11 for any ED1 step up to
100). Each function has a float variant (fast) and an exact `Fraction` one (tests, audits).

`step_sum` is the fast path the attack odds use (damage.attack_odds, talent_odds): the sum of
open-ended dice as a rational generating function, each die (z + … + z^(s−1)) / (s − z^s),
expanded term by term up to where the rest of the distribution weighs at most TAIL_BOUND.
Per die that is one running window sum and one recurrence over the terms, so a step of the
largest dice costs well under a millisecond the first time it is asked for, and the result is
cached by the dice themselves (the step table is a setting: two tables sharing a row share it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from math import ceil, fsum, log
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


# --- the fast path: open-ended sums as generating functions ----------------------------------

TAIL_BOUND = 1e-12
"""The most probability a complete StepSum leaves beyond its last listed value."""
_CACHE_SIZE = 1024
_SUMS: dict[ActionDice, StepSum] = {}


@dataclass(frozen=True)
class StepSum:
    """P(sum of a step's open-ended dice + its flat modifier), listed value by value from the
    lowest (every die's first throw shows 1: `probs[0]` is the Rule of One's probability) up to
    `high`; `beyond` = P(sum > high), counted by `p_at_least` but not listed.

    `complete`: `beyond` ≤ TAIL_BOUND (the listing is the whole distribution but for that);
    otherwise the sum was asked for only up to some value and `beyond` is the exact weight of
    everything above. The dice are the unbounded open-ended dice, `roll_step`'s capped ones
    differ by at most `neglected_tail(dice)` in total; float rounding adds ~1e-15 a value."""

    dice: ActionDice
    offset: int
    probs: tuple[float, ...]
    at_least: tuple[float, ...]  # at_least[i] = P(sum ≥ offset + i); the last is `beyond`
    beyond: float

    @property
    def high(self) -> int:
        return self.offset + len(self.probs) - 1

    @property
    def complete(self) -> bool:
        return self.beyond <= TAIL_BOUND

    def p(self, value: int) -> float:
        """P(sum == value); 0 outside the listed values."""
        index = value - self.offset
        return self.probs[index] if 0 <= index < len(self.probs) else 0.0

    def p_at_least(self, value: int) -> float:
        """P(sum ≥ value): exact up to high + 1; above, `beyond` (an overestimate by at most
        that)."""
        index = value - self.offset
        if index <= 0:
            return 1.0
        return self.at_least[min(index, len(self.probs))]

    def items(self) -> Iterator[tuple[int, float]]:
        """(value, probability) for the listed values, lowest first."""
        for index, p in enumerate(self.probs):
            yield self.offset + index, p


def step_sum(dice: ActionDice, upto: int | None = None) -> StepSum:
    """The sum of `dice` listed at least up to `upto` (None: complete, the rest ≤ TAIL_BOUND).

    Cached by the dice, not by step (the table is a setting): the longest listing computed so
    far answers every shorter request, and a complete one answers all."""
    cached = _SUMS.get(dice)
    if cached is not None and (cached.complete or (upto is not None and cached.high >= upto)):
        return cached
    offset = len(dice.dice) + dice.modifier
    if upto is not None:
        result = _listed(dice, offset, max(1, upto - offset + 1))
    else:
        length = _first_length(dice.dice)
        while not (result := _listed(dice, offset, length)).complete:
            length += length // 4 + 1
    if len(_SUMS) >= _CACHE_SIZE:
        _SUMS.clear()
    _SUMS[dice] = result
    return result


def _listed(dice: ActionDice, offset: int, length: int) -> StepSum:
    probs = _series(dice.dice, length)
    beyond = max(0.0, 1.0 - fsum(probs))
    at_least = list(accumulate(reversed(probs), initial=beyond))
    at_least.reverse()
    return StepSum(dice, offset, tuple(probs), tuple(at_least), beyond)


def _first_length(dice: tuple[int, ...]) -> int:
    """A first guess of the terms a complete sum needs: the largest die, with one more reroll
    per copy, about log(1/TAIL_BOUND)/log(s) full rerolls past the other dice's reach."""
    largest = max(dice)
    rerolls = ceil(log(1 / TAIL_BOUND) / log(largest))
    copies = dice.count(largest)
    return largest * (rerolls + copies) + sum(dice) - largest * copies


def _series(dice: tuple[int, ...], length: int) -> list[float]:
    """The first `length` terms of Π (z + … + z^(s−1)) / (s − z^s) over the dice, shifted to
    start at z^0: P(sum − len(dice) == i) of unbounded open-ended dice."""
    # The smallest die in closed form: its division below would take the most blocks.
    terms = _one_die(dice[-1], length)
    for sides in dice[:-1]:
        width = sides - 1
        scale = 1.0 / sides
        # × (1 + z + … + z^(s−2)) / s: a running window sum over `width` terms.
        prefix = list(accumulate(terms, initial=0.0))
        head = [p * scale for p in prefix[1 : width + 1]]
        body = [(a - b) * scale for a, b in zip(prefix[width + 1 :], prefix[1:], strict=False)]
        terms = head + body
        # ÷ (1 − z^s / s): every term gains 1/s of the (final) term s places below it.
        for start in range(sides, length, sides):
            terms[start : start + sides] = [
                t + b * scale
                for t, b in zip(
                    terms[start : start + sides], terms[start - sides : start], strict=False
                )
            ]
    return terms


def _one_die(sides: int, length: int) -> list[float]:
    """The first `length` terms of one die's (z + … + z^(s−1)) / (s − z^s), from z^0: after
    k full rerolls each face below the maximum has (1/s)^(k + 1), the maximum itself 0."""
    terms: list[float] = []
    weight = 1.0 / sides
    while len(terms) < length:
        terms += [weight] * (sides - 1)
        terms.append(0.0)
        weight /= sides
    del terms[length:]
    return terms
