from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus.steps import (
    DEFAULT_TABLE,
    ED1_LISTED,
    ActionDice,
    StepTable,
    extend_ed1,
    parse_dice,
    parse_step_table,
)


def test_step_one_is_a_d4_minus_two_and_step_fourteen_a_d20_plus_d4() -> None:
    assert DEFAULT_TABLE.dice_for(1) == ActionDice((4,), -2)
    assert DEFAULT_TABLE.dice_for(14) == ActionDice((20, 4))
    assert DEFAULT_TABLE.dice_for(27) == ActionDice((20, 10, 8, 8))


def test_the_default_table_keeps_every_row_the_digest_lists() -> None:
    for step, text in enumerate(ED1_LISTED, start=1):
        assert DEFAULT_TABLE.dice_for(step) == parse_dice(text), step
    assert len(ED1_LISTED) == 38


def test_the_table_rule_rebuilds_the_listed_rows_from_the_first_thirteen() -> None:
    first = tuple(parse_dice(text) for text in ED1_LISTED[:13])
    assert extend_ed1(first, 38) == DEFAULT_TABLE.rows[:38]


@pytest.mark.parametrize(
    ("step", "dice"),
    [
        (39, "2d20+2d10+d8"),
        (40, "2d20+d12+d10+d8"),
        (47, "2d20+2d10+2d8+d4"),
        (58, "3d20+2d10+2d8+d4"),
        (69, "3d20+3d10+3d8+d4"),
        (80, "4d20+3d10+3d8+d4"),
        (100, "4d20+6d10+4d8"),
    ],
)
def test_steps_above_the_listed_rows_follow_the_ed1_table(step: int, dice: str) -> None:
    # As in the "first edition" rows of earthdawn4eV2 module/dice/step-tables.mjs.
    assert DEFAULT_TABLE.dice_for(step) == parse_dice(dice)


@pytest.mark.parametrize("step", [0, 101, -3, True, "5"])
def test_a_step_outside_the_table_is_refused_readably(step: object) -> None:
    with pytest.raises(RuleViolation) as refused:
        DEFAULT_TABLE.dice_for(step)  # type: ignore[arg-type]
    assert refused.value.code == "step_out_of_table"
    assert "poza tabelą stopni (1–100)" in refused.value.message


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("d20+d10+2d8", ActionDice((20, 10, 8, 8))),
        ("1d4 - 2", ActionDice((4,), -2)),
        ("d4−1", ActionDice((4,), -1)),
        ("k12+k10", ActionDice((12, 10))),
        ("d6+d20+3", ActionDice((20, 6), 3)),
        ("2 + d8", ActionDice((8,), 2)),
    ],
)
def test_dice_are_read_from_the_notation_a_gm_writes(text: str, dice: ActionDice) -> None:
    assert parse_dice(text) == dice


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "zapis jest pusty"),
        ("  ", "zapis jest pusty"),
        ("d20-d4", "nie można odejmować"),
        ("d20d4", "nie można odczytać"),
        ("x+d6", "nie można odczytać"),
        ("d6+", "nie można odczytać"),
        ("d1", "od 2 do 100 ścianek"),
        ("d101", "od 2 do 100 ścianek"),
        ("0d6", "co najmniej 1"),
        ("+3", "co najmniej jedną kością"),
        ("41d6", "najwyżej 40 kośćmi"),
        ("d6+101", "w ±100"),
        (12, "zapisać tekstem"),
    ],
)
def test_malformed_dice_are_refused_with_the_reason(text: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_dice(text)  # type: ignore[arg-type]


def test_notation_writes_dice_largest_first_in_either_letter() -> None:
    assert str(ActionDice((20, 10, 8, 8), 2)) == "d20+d10+2d8+2"
    assert ActionDice((4,), -2).notation("k") == "k4-2"


def test_a_table_round_trips_through_its_json_form() -> None:
    data = DEFAULT_TABLE.to_dict()
    assert data["1"] == "d4-2" and data["38"] == "2d20+d10+2d8"
    assert parse_step_table(data) == DEFAULT_TABLE


def test_a_gm_edited_table_becomes_a_step_table() -> None:
    table = parse_step_table({1: "d4", "2": "d6", 3: " 2d6+1 "})
    assert table.highest == 3
    assert table.dice_for(3) == ActionDice((6, 6), 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "nie może być pusta"),
        (["d4"], "nie może być pusta"),
        ({1: "d4", 2: "d6+x"}, "stopień 2: nie można odczytać"),
        ({1: "d4", 3: "d6"}, "brak stopnia 2"),
        ({0: "d4"}, "stopień 0: stopień to liczba całkowita"),
        ({"jeden": "d4"}, "stopień 'jeden'"),
        ({1: "d4", "1": "d6"}, "stopień 1 podano dwa razy"),
        ({1: 4}, "stopień 1: kości trzeba zapisać tekstem"),
    ],
)
def test_a_bad_table_entry_is_named_in_the_error(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_step_table(data)  # type: ignore[arg-type]


def test_an_empty_table_is_refused() -> None:
    with pytest.raises(ValueError, match="co najmniej stopień 1"):
        StepTable(())
