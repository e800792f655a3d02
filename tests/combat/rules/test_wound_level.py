"""Poziom ran: players see how hurt a GM-run character looks, not its Zdrowie. The levels'
thresholds are a table setting (the document has no such levels)."""

from __future__ import annotations

import pytest

from combat.rules.eleora.settings import TableSettings
from combat.rules.registry import get_ruleset
from tests.combat.rules.engine_kit import make_combatant, make_state

# make_sheet's Krzepa 2: Zdrowie 9 + 2² = 13.


def level(damage: int, settings: TableSettings | None = None, **changes: object) -> str:
    wolf = make_combatant("wilk", "foes", damage_physical=damage, **changes)
    state = make_state(wolf, settings=settings)
    key, _label = get_ruleset("eleora").wound_level(state, "wilk")
    return key


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (0, "bez_ran"),
        (1, "drasniety"),  # 12/13 = 92% > 75%
        (3, "drasniety"),  # 10/13 = 77%
        (4, "ranny"),  # 9/13 = 69%: not above 75%, above 50%
        (6, "ranny"),  # 7/13 = 54%
        (7, "ciezko_ranny"),  # 6/13 = 46%
        (9, "ciezko_ranny"),  # 4/13 = 31%
        (10, "ledwo_zywy"),  # 3/13 = 23%: not above 25%
    ],
)
def test_poziom_ran_by_the_share_of_zdrowie_left(damage: int, expected: str) -> None:
    assert level(damage) == expected


def test_poziom_ran_a_share_exactly_at_a_threshold_is_the_worse_level() -> None:
    from tests.combat.rules.engine_kit import make_sheet

    settings = TableSettings(wound_thresholds=(80, 50, 20))
    sturdy = make_sheet("Wilk", krzepa=1)  # Zdrowie 10
    expected = {2: "ranny", 5: "ciezko_ranny", 8: "ledwo_zywy", 7: "ciezko_ranny"}
    for damage, key in expected.items():
        assert level(damage, settings, sheet=sturdy) == key, damage


def test_poziom_ran_stun_damage_counts_too() -> None:
    assert level(0, damage_stun=7) == "ciezko_ranny"


def test_poziom_ran_of_the_unconscious_and_the_dead_comes_from_their_status() -> None:
    rules = get_ruleset("eleora")
    out = make_state(make_combatant("wilk", "foes", status="unconscious"))
    dead = make_state(make_combatant("wilk", "foes", status="dead", damage_physical=20))
    assert rules.wound_level(out, "wilk") == ("nieprzytomny", "Nieprzytomność")
    assert rules.wound_level(dead, "wilk") == ("martwy", "Nie żyje")


def test_poziom_ran_labels_are_gender_neutral_polish() -> None:
    rules = get_ruleset("eleora")
    labels = {}
    for damage in (0, 1, 5, 8, 11):
        state = make_state(make_combatant("wilk", "foes", damage_physical=damage))
        key, label = rules.wound_level(state, "wilk")
        labels[key] = label
    assert labels == {
        "bez_ran": "Bez ran",
        "drasniety": "Draśnięcia",
        "ranny": "Rany",
        "ciezko_ranny": "Ciężkie rany",
        "ledwo_zywy": "Ledwo żyje",
    }


def test_wound_thresholds_round_trip_as_a_table_setting() -> None:
    settings = TableSettings.from_dict({"wound_thresholds": [80, 40, 10]})
    assert settings.wound_thresholds == (80, 40, 10)
    assert settings.to_dict()["wound_thresholds"] == [80, 40, 10]
    assert TableSettings.from_dict(settings.to_dict()) == settings
    assert TableSettings().wound_thresholds == (75, 50, 25)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([75, 50], "three levels"),
        ([75, 50, 25, 10], "three levels"),
        ([120, 50, 25], "percentages"),
        ([75, 50, -5], "percentages"),
        ([50, 50, 25], "go down"),
        ([25, 50, 75], "go down"),
        ("755025", "list of whole numbers"),
        ([75, "pół", 25], "invalid literal"),
    ],
)
def test_wound_thresholds_are_refused_with_a_reason(value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TableSettings.from_dict({"wound_thresholds": value})
