"""The two kinds of test every Magus rule rolls, by the table's settings.

An action test rolls a step against a DN: its result is at least `test_result_floor`, and its
success level counts the Rule of One when the table plays it. An effect test (damage, a fall)
only yields a number, at least 0.
"""

from __future__ import annotations

from collections.abc import Iterable

from combat.rules.base import RNG
from combat.rules.magus.dice import Adjustment, StepRoll, roll_step
from combat.rules.magus.levels import Level, success_level
from combat.rules.magus.settings import MagusSettings


def action_test(
    rng: RNG, step: int, dn: int, settings: MagusSettings, reasons: Iterable[Adjustment] = ()
) -> tuple[StepRoll, Level]:
    """Roll `step` (with its adjustments to the result) against `dn`: the roll and its level."""
    roll = roll_step(rng, step, settings.table, reasons=reasons, minimum=settings.test_result_floor)
    return roll, level_of(roll, dn, settings)


def level_of(roll: StepRoll, dn: int, settings: MagusSettings) -> Level:
    """The success level a rolled action test reaches against `dn`."""
    return success_level(roll.total, dn, roll.rule_of_one and settings.rule_of_one, settings.levels)


def effect_test(
    rng: RNG, step: int, settings: MagusSettings, reasons: Iterable[Adjustment] = ()
) -> StepRoll:
    """Roll an effect test (damage, a fall): its result, at least 0."""
    return roll_step(rng, step, settings.table, reasons=reasons, minimum=0)
