"""Putting armour on and taking it off (digest §2, the seed's table)."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.d100 import armour
from combat.rules.d100.settings import D100Settings


@pytest.mark.parametrize(
    ("kind", "helped", "expected"),
    [
        ("leather", False, (3, 2, "no")),
        ("mail", True, (7, 3, "no")),
        ("lamellar", True, (5, 3, "useful")),
        ("lamellar", False, (10, 7, "useful")),
        ("partial_plate", True, (10, 5, "needed")),
        ("partial_plate", False, (20, 10, "needed")),
        ("full_plate", True, (12, 7, "required")),
    ],
)
def test_zakladanie_pancerza_minutes_of_the_seed_table(
    kind: str, helped: bool, expected: tuple[int, int, str]
) -> None:
    assert armour.donning_minutes(kind, helped) == expected


def test_pelna_zbroja_plytowa_cannot_be_put_on_alone() -> None:
    assert armour.donning_minutes("full_plate", False) == (None, None, "required")


def test_pancerz_cannot_be_changed_in_combat() -> None:
    assert armour.can_change_in_combat is False
    assert "tury niebojowej" in armour.CHANGE_IN_COMBAT


def test_donning_table_is_settings_data() -> None:
    rows = armour.donning_table()
    assert [row.key for row in rows] == [
        "leather",
        "mail",
        "lamellar",
        "partial_plate",
        "full_plate",
    ]
    assert rows[1].label == "Kolczuga" and rows[4].help_label == "Konieczna"
    custom = D100Settings.from_dict({"armour_donning": {"gambeson": "2 1 no"}})
    assert armour.donning_table(custom)[0].label == "gambeson"
    assert armour.donning_minutes("gambeson", False, custom) == (2, 1, "no")
    with pytest.raises(RuleViolation) as refused:
        armour.donning_minutes("mail", True, custom)
    assert refused.value.code == "unknown_armour"
