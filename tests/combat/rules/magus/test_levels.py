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
from combat.rules.magus.settings import MagusSettings


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
        ({"great": 5}, "nieznane progi poziomów sukcesu"),
        ({"good": 0}, "muszą rosnąć"),
        ({"good": 10}, "muszą rosnąć"),
        ({"excellent": 20}, "muszą rosnąć"),
        ({"good": "5"}, "liczbami całkowitymi"),
        ({"good": True}, "liczbami całkowitymi"),
    ],
)
def test_bad_thresholds_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Thresholds.from_dict(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"initiative_ties": "coin"}, "initiative_ties: jedno z"),
        ({"npc_default_policy": "x"}, "npc_default_policy: jedno z"),
        ({"reaction_timeout_s": 1}, "reaction_timeout_s: od 3 do 3600 sekund"),
        ({"round_seconds": 0}, "round_seconds: co najmniej 1"),
        ({"night_rest_s": 0}, "night_rest_s: co najmniej 1"),
        ({"max_damage_multiplier": 0}, "max_damage_multiplier: co najmniej 1"),
        ({"step_min": 9, "step_max": 3}, "step_min jest większe"),
        ({"thresholds": [5]}, "progi poziomów sukcesu: poziom → punkty"),
        ({"thresholds": {"good": 0}}, "muszą rosnąć"),
        ({"step_table": {1: "d4", 3: "d6"}}, "brak stopnia 2"),
        ({"cover_defence": [1]}, "cover_defence: lista 2 liczb całkowitych"),
        ({"rule_of_one": "tak"}, "rule_of_one: tak albo nie"),
        ({"aim_bonus": "2"}, "aim_bonus: liczba całkowita"),
        ({"aim_bonus": -1}, "aim_bonus: nie może być ujemne"),
        ({"initiative_ties": 3}, "initiative_ties: tekst"),
    ],
)
def test_the_gms_bad_table_settings_are_refused_in_polish(
    data: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        MagusSettings.from_dict(data)
