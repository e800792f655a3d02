from __future__ import annotations

import random

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus.dice import (
    MAX_REROLLS,
    Adjustment,
    DieRoll,
    replay_step,
    roll_open_ended,
    roll_step,
)
from combat.rules.magus.steps import DEFAULT_TABLE
from tests.combat.rules.magus.scripted import Script


def test_a_step_rolls_its_action_dice_and_sums_them() -> None:
    rng = Script([5, 2])  # step 9 = d8+d6
    roll = roll_step(rng, 9, DEFAULT_TABLE)
    assert rng.asked == [8, 6]
    assert roll.rolls == (DieRoll(8, (5,)), DieRoll(6, (2,)))
    assert roll.total == 7 and not roll.rule_of_one


def test_a_die_showing_its_maximum_is_rolled_again_and_added() -> None:
    rng = Script([6, 6, 3, 4])  # step 8 = 2d6: the first explodes twice
    roll = roll_step(rng, 8, DEFAULT_TABLE)
    assert roll.rolls == (DieRoll(6, (6, 6, 3)), DieRoll(6, (4,)))
    assert roll.total == 19
    assert roll.faces == (6, 6, 3, 4) and roll.sides == (6, 6, 6, 6)


def test_rerolls_of_one_die_stop_at_the_cap_and_the_last_throw_counts() -> None:
    rng = Script([4] * (MAX_REROLLS + 1))
    die = roll_open_ended(rng, 4)
    assert die.faces == (4,) * (MAX_REROLLS + 1)
    assert die.total == 4 * (MAX_REROLLS + 1) and not rng.faces


def test_the_tables_flat_modifier_is_applied() -> None:
    assert roll_step(Script([3]), 1, DEFAULT_TABLE).total == 1  # d4−2
    assert roll_step(Script([4, 2]), 2, DEFAULT_TABLE).total == 5  # d4−1, the 4 explodes


def test_the_total_is_not_floored_unless_a_minimum_is_asked() -> None:
    assert roll_step(Script([2]), 1, DEFAULT_TABLE).total == 0
    assert roll_step(Script([2]), 1, DEFAULT_TABLE, minimum=1).total == 1


def test_the_minimum_result_of_a_recovery_test_is_one_whatever_the_modifiers() -> None:
    penalty = Adjustment(-5, "Rany")
    roll = roll_step(Script([3]), 5, DEFAULT_TABLE, reasons=[penalty], minimum=1)
    assert roll.total == 1 and roll.adjustments == (penalty,)


def test_adjustments_to_the_result_are_added_with_their_reasons() -> None:
    reasons = [Adjustment(3, "Agresywny atak"), Adjustment(-1, "Rany")]
    roll = roll_step(Script([7]), 6, DEFAULT_TABLE, reasons=reasons)
    assert roll.total == 9


def test_rule_of_one_fails_whatever_the_total() -> None:
    roll = roll_step(Script([1, 1]), 11, DEFAULT_TABLE, reasons=[Adjustment(30, "premia")])
    assert roll.rule_of_one and roll.total == 32


def test_rule_of_one_needs_every_die_of_the_first_throw_on_one() -> None:
    assert not roll_step(Script([1, 2]), 11, DEFAULT_TABLE).rule_of_one
    assert not roll_step(Script([10, 1, 1]), 11, DEFAULT_TABLE).rule_of_one


def test_rule_of_one_holds_for_a_single_die_below_zero() -> None:
    roll = roll_step(Script([1]), 1, DEFAULT_TABLE)
    assert roll.rule_of_one and roll.total == -1


def test_a_step_outside_the_table_is_not_rolled() -> None:
    rng = Script([])
    with pytest.raises(RuleViolation):
        roll_step(rng, 0, DEFAULT_TABLE)


def test_the_roll_view_shows_every_face_with_its_die() -> None:
    roll = roll_step(Script([20, 5, 3]), 14, DEFAULT_TABLE, reasons=[Adjustment(-3, "Powalony")])
    view = roll.view("Atak")
    assert view.label == "Atak"
    assert view.dice == (20, 5, 3) and view.sides == (20, 20, 4)
    assert view.result == 25
    assert view.modifiers == (("Powalony", -3),)
    assert view.summary == "wynik %(n)s"


def test_the_roll_view_lists_the_tables_flat_modifier_first() -> None:
    view = roll_step(Script([3]), 2, DEFAULT_TABLE, reasons=[Adjustment(1, "x")]).view()
    assert view.label == "Test akcji"
    assert view.modifiers == (("k4-1", -1), ("x", 1))


def test_a_seeded_roll_is_reproducible_and_replays_from_its_faces() -> None:
    reasons = [Adjustment(2, "Przycelowanie")]
    for seed in range(200):
        roll = roll_step(random.Random(seed), 27, DEFAULT_TABLE, reasons=reasons, minimum=1)
        assert roll == roll_step(random.Random(seed), 27, DEFAULT_TABLE, reasons=reasons, minimum=1)
        faces = [r.faces for r in roll.rolls]
        assert replay_step(27, DEFAULT_TABLE, faces, reasons=reasons, minimum=1) == roll


def test_a_replay_accepts_a_die_that_reached_the_cap() -> None:
    faces = [(4,) * (MAX_REROLLS + 1)]
    assert replay_step(3, DEFAULT_TABLE, faces).total == 4 * (MAX_REROLLS + 1)


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ([(3,)], "rolls 2 dice"),
        ([(3,), (0,)], "cannot be rolled on a d6"),
        ([(3,), (7,)], "cannot be rolled on a d6"),
        ([(3,), ()], "cannot be rolled on a d6"),
        ([(3,), (6,)], "rerolls exactly on 6"),
        ([(3,), (5, 2)], "rerolls exactly on 6"),
        ([(3,), (6,) * (MAX_REROLLS + 2)], "cannot be rolled on a d6"),
    ],
)
def test_a_replay_refuses_faces_the_dice_cannot_show(
    faces: list[tuple[int, ...]], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        replay_step(8, DEFAULT_TABLE, faces)
