"""The one sheet validator: every problem named by its path, nothing else accepted."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from characters.sheets import MAX_ITEMS, clean_sheet
from combat.rules.eleora.sheet import DamageType, WeaponKind, sheet_from_dict
from combat.rules.registry import get_ruleset

from .helpers import make_sheet, make_weapon

RULES = get_ruleset("eleora")


def problems(data: Any, settings: dict[str, Any] | None = None) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        clean_sheet(data, rules=RULES, settings=settings)
    return caught.value.messages


def test_it_normalises_a_minimal_sheet() -> None:
    data = {
        "attributes": make_sheet()["attributes"],
        "skills": {"bron_lekka": 4},
        "weapons": [{"name": " Szabla ", "damage": 2}],
        "shields": [{"name": "Puklerz", "bonus": 1}],
    }
    sheet = clean_sheet(data, rules=RULES, settings=None)
    assert sheet["skills"]["bron_lekka"] == 4
    assert sheet["skills"]["percepcja"] == 0
    assert sheet["weapons"] == [make_weapon("Szabla", damage=2)]
    assert sheet["armour"] == []
    assert sheet["shields"] == [{"name": "Puklerz", "bonus": 1}]
    assert set(sheet) == {"attributes", "skills", "weapons", "armour", "shields"}


def test_it_returns_a_sheet_the_ruleset_reads() -> None:
    sheet = clean_sheet(make_sheet(weapons=[make_weapon()]), rules=RULES, settings=None)
    parsed = sheet_from_dict(sheet)
    assert parsed.weapons[0].kind is WeaponKind.LIGHT
    assert parsed.attribute("zrecznosc") == 2


def test_it_drops_the_name_key() -> None:
    sheet = clean_sheet({**make_sheet(), "name": "Wilk"}, rules=RULES, settings=None)
    assert "name" not in sheet


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            make_sheet(weapons=[make_weapon()] * 2 + [make_weapon(damage=-1)]),
            "weapons[2].damage: musi być ≥ 0",
        ),
        (make_sheet(weapons=[make_weapon(damage=51)]), "weapons[0].damage: musi być ≤ 50"),
        (
            make_sheet(weapons=[make_weapon(damage="2")]),
            "weapons[0].damage: musi być liczbą całkowitą",
        ),
        (
            make_sheet(weapons=[make_weapon(damage=2.5)]),
            "weapons[0].damage: musi być liczbą całkowitą",
        ),
        (
            make_sheet(weapons=[make_weapon(damage=True)]),
            "weapons[0].damage: musi być liczbą całkowitą",
        ),
        (
            make_sheet(weapons=[make_weapon(kind="luk")]),
            "weapons[0].kind: musi być jednym z: wrecz, lekka, ciezka",
        ),
        (
            make_sheet(weapons=[make_weapon(damage_type="ogien")]),
            "weapons[0].damage_type: musi być jednym z: fizyczne, ogluszajace",
        ),
        (
            make_sheet(weapons=[make_weapon(short="tak")]),
            "weapons[0].short: musi być true albo false",
        ),
        (
            make_sheet(weapons=[make_weapon(reload_actions=-2)]),
            "weapons[0].reload_actions: musi być ≥ 0",
        ),
        (make_sheet(weapons=[make_weapon(name="")]), "weapons[0].name: nie może być puste"),
        (
            make_sheet(weapons=[make_weapon(name="x" * 81)]),
            "weapons[0].name: może mieć najwyżej 80 znaków",
        ),
        (make_sheet(weapons=[{**make_weapon(), "name": 7}]), "weapons[0].name: musi być tekstem"),
        (make_sheet(weapons=[{"kind": "lekka", "damage": 1}]), "weapons[0].name: brak wartości"),
        (make_sheet(weapons=[{"name": "Kij"}]), "weapons[0].damage: brak wartości"),
        (make_sheet(weapons=[{**make_weapon(), "damge": 3}]), "weapons[0].damge: nieznane pole"),
        (make_sheet(weapons=["Szabla"]), "weapons[0]: musi być obiektem JSON"),
        (make_sheet(weapons={"name": "Szabla"}), "weapons: musi być listą"),
        (
            make_sheet(weapons=[make_weapon()] * (MAX_ITEMS + 1)),
            "weapons: może mieć najwyżej 20 pozycji",
        ),
        (
            make_sheet(armour=[{"name": "Kolczuga", "defence_bonus": -1}]),
            "armour[0].defence_bonus: musi być ≥ 0",
        ),
        (
            make_sheet(armour=[{"name": "Kolczuga", "armour_points": 21}]),
            "armour[0].armour_points: musi być ≤ 20",
        ),
        (make_sheet(shields=[{"name": "Tarcza"}]), "shields[0].bonus: brak wartości"),
        (make_sheet(shields=[{"name": "Tarcza", "bonus": -1}]), "shields[0].bonus: musi być ≥ 0"),
        (make_sheet(attributes={"sila": 11}), "attributes.sila: musi być ≤ 10"),
        (make_sheet(attributes={"krzepa": -1}), "attributes.krzepa: musi być ≥ 0"),
        (make_sheet(attributes={"sila": "dużo"}), "attributes.sila: musi być liczbą całkowitą"),
        (make_sheet(attributes={"szczescie": 3}), "attributes.szczescie: nieznany atrybut"),
        ({**make_sheet(), "attributes": {"sila": 1}}, "attributes.wola: brak wartości (Wola)"),
        ({**make_sheet(), "attributes": [1, 2]}, "attributes: musi być obiektem JSON"),
        (make_sheet(skills={"bron_lekka": 11}), "skills.bron_lekka: musi być ≤ 10"),
        (make_sheet(skills={"Tropienie": 12}), "skills.Tropienie: musi być ≤ 10"),
        (
            make_sheet(skills={"x" * 41: 1}),
            f"skills.{'x' * 41}: nazwa umiejętności może mieć najwyżej 40 znaków",
        ),
        (
            make_sheet(skills={"broń lekka": 1}),
            "skills.broń lekka: to umiejętność z listy: Broń Lekka",
        ),
        (make_sheet(skills={"  ": 1}), "skills.  : nazwa umiejętności nie może być pusta"),
        ({**make_sheet(), "portret": "x"}, "portret: nieznane pole"),
        ([1, 2, 3], "sheet: musi być obiektem JSON"),
    ],
)
def test_it_names_the_path_of_each_problem(data: Any, expected: str) -> None:
    assert expected in problems(data)


def test_it_reports_every_problem_at_once() -> None:
    data = make_sheet(
        attributes={"sila": 99}, weapons=[make_weapon(damage=-1), make_weapon(kind="?")]
    )
    found = problems(data)
    assert len(found) == 3
    assert found[0].startswith("attributes.sila")


def test_it_accepts_custom_skills_in_the_skill_range() -> None:
    sheet = clean_sheet(make_sheet(skills={"Tropienie": 3}), rules=RULES, settings=None)
    assert sheet["skills"]["Tropienie"] == 3


def test_it_limits_the_number_of_custom_skills() -> None:
    skills = {f"Umiejętność {i}": 1 for i in range(MAX_ITEMS + 1)}
    assert "skills: najwyżej 20 własnych umiejętności" in problems(make_sheet(skills=skills))


def test_it_follows_the_campaign_ranges() -> None:
    settings = RULES.validate_settings({"attribute_max": 5, "skill_min": 1})
    found = problems(make_sheet(attributes={"sila": 6}), settings)
    assert "attributes.sila: musi być ≤ 5" in found
    assert "skills.bron_lekka: musi być ≥ 1" in found


def test_it_refuses_a_sheet_over_64_kb() -> None:
    data = make_sheet(weapons=[make_weapon(name="x" * 70_000)])
    found = problems(data)
    assert len(found) == 1
    assert found[0].startswith("sheet: jest za duża")


def test_it_keeps_the_equipment_enums_of_the_rules() -> None:
    from combat.rules.eleora.forms import DAMAGE_TYPES, WEAPON_KINDS

    assert set(WEAPON_KINDS) == {k.value for k in WeaponKind}
    assert set(DAMAGE_TYPES) == {d.value for d in DamageType}
