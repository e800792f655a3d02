from __future__ import annotations

import pytest

from combat.rules.magus.levels import (
    AVERAGE,
    DEFAULT_THRESHOLDS,
    EXCELLENT,
    EXTRAORDINARY,
    GOOD,
    LEVELS,
    PATHETIC,
    POOR,
    Thresholds,
    success_level,
)


@pytest.mark.parametrize(
    ("total", "level"),
    [
        (11, POOR),
        (12, AVERAGE),
        (16, AVERAGE),
        (17, GOOD),
        (21, GOOD),
        (22, EXCELLENT),
        (26, EXCELLENT),
        (27, EXTRAORDINARY),
        (80, EXTRAORDINARY),
    ],
)
def test_success_levels_rise_every_five_over_the_difficulty(total: int, level: object) -> None:
    assert success_level(total, 12, False) == level


def test_rule_of_one_is_pathetic_whatever_the_total() -> None:
    assert success_level(99, 5, True) == PATHETIC
    assert success_level(1, 5, True) == PATHETIC


def test_each_success_is_counted_from_average_as_one() -> None:
    assert [level.successes for level in LEVELS] == [0, 0, 1, 2, 3, 4]
    assert [level.success for level in LEVELS] == [False, False, True, True, True, True]


def test_levels_carry_the_seeds_polish_names() -> None:
    assert GOOD.label == "Duży sukces" and EXCELLENT.label == "Ogromny sukces"
    assert len({level.label for level in LEVELS}) == len(LEVELS)


def test_the_thresholds_are_editable_data() -> None:
    wide = Thresholds.from_dict({"good": 4, "excellent": 8, "extraordinary": 12})
    assert success_level(14, 10, False, wide) == GOOD
    assert success_level(14, 10, False) == AVERAGE
    assert Thresholds.from_dict(DEFAULT_THRESHOLDS.to_dict()) == DEFAULT_THRESHOLDS
    assert Thresholds.from_dict({"good": 3}) == Thresholds(3, 10, 15)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"great": 5}, "unknown success-level thresholds"),
        ({"good": 0}, "must rise"),
        ({"good": 10}, "must rise"),
        ({"excellent": 20}, "must rise"),
        ({"good": "5"}, "whole numbers"),
        ({"good": True}, "whole numbers"),
    ],
)
def test_bad_thresholds_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Thresholds.from_dict(data)
