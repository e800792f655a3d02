"""Table settings: every open point of the document is a validated, GM-editable default."""

from __future__ import annotations

import random

import pytest

from combat.rules.dice import Modifier, replay_pool, roll_pool
from combat.rules.eleora.settings import PRESETS, TableSettings


def test_domyslne_sukcesy_to_4_5_6_and_hard_preset_5_6() -> None:
    assert TableSettings().success_faces == frozenset({4, 5, 6})
    assert PRESETS["hard"].success_faces == frozenset({5, 6})
    assert PRESETS["beginner"].maiming_enabled is False


def test_settings_round_trip_through_json_shape() -> None:
    custom = TableSettings.from_dict({"success_faces": [5, 6], "charge_cap": 3})
    assert TableSettings.from_dict(custom.to_dict()) == custom
    assert TableSettings.from_dict(None) == TableSettings()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"nonsense": 1}, "unknown table settings"),
        ({"success_faces": []}, "success_faces"),
        ({"success_faces": [0, 7]}, "success_faces"),
        ({"tie_goes_to": "nobody"}, "tie_goes_to"),
        ({"przebicia_mode": "double"}, "przebicia_mode"),
        ({"natural_heal_mode": "prayer"}, "natural_heal_mode"),
        ({"collision_rounding": "sideways"}, "collision_rounding"),
        ({"darkness_penalties": [1, 2]}, "darkness_penalties"),
        ({"attribute_min": 5, "attribute_max": 1}, "minimum"),
        ({"reaction_timeout_s": 1}, "reaction_timeout_s"),
        ({"maiming_enabled": "yes"}, "true or false"),
        ({"aim_cap": "3"}, "whole number"),
        ({"aim_cap": True}, "whole number"),
        ({"aim_cap": -1}, "negative"),
    ],
)
def test_bad_settings_are_refused_with_a_reason(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TableSettings.from_dict(data)


def test_charge_cap_may_be_cleared() -> None:
    assert TableSettings.from_dict({"charge_cap": None}).charge_cap is None


def test_rzut_pula_returns_every_face_and_its_successes() -> None:
    mods = (Modifier(3, "Zręczność"), Modifier(2, "Broń Lekka"), Modifier(-1, "Półmrok"))
    roll = roll_pool(random.Random(7), mods, frozenset({4, 5, 6}))
    assert roll.size == 4
    assert roll.successes == sum(1 for f in roll.faces if f >= 4)
    assert replay_pool(mods, roll.faces, frozenset({4, 5, 6})) == roll


def test_replayed_faces_must_fit_the_pool() -> None:
    mods = (Modifier(2, "Siła"),)
    with pytest.raises(ValueError, match="pool size"):
        replay_pool(mods, (4,), frozenset({4, 5, 6}))
    with pytest.raises(ValueError, match="between 1 and 6"):
        replay_pool(mods, (4, 9), frozenset({4, 5, 6}))


def test_krytyczna_porazka_may_require_a_one_showing() -> None:
    roll = replay_pool((Modifier(2, "pula"),), (2, 3), frozenset({4, 5, 6}))
    assert roll.is_critical(needs_one=False)
    assert not roll.is_critical(needs_one=True)
    with_one = replay_pool((Modifier(2, "pula"),), (1, 3), frozenset({4, 5, 6}))
    assert with_one.is_critical(needs_one=True)


def test_atak_attribute_follows_the_table_setting() -> None:
    settings = TableSettings.from_dict({"attack_attribute_ciezka": "sila"})
    assert settings.attack_attribute("ciezka") == "sila"
    assert settings.attack_attribute("lekka") == "zrecznosc"  # the document's sabre example
    assert settings.skill_attribute("plywanie") == "krzepa"
    assert settings.skill_attribute("Tropienie") == "intuicja"  # a GM's own skill


def test_a_paired_attribute_must_be_one_of_the_seven() -> None:
    with pytest.raises(ValueError, match="must name an attribute"):
        TableSettings.from_dict({"skill_attribute_medycyna": "magia"})


def test_settings_attribute_keys_match_the_sheet() -> None:
    from combat.rules.eleora.settings import ATTRIBUTE_KEYS
    from combat.rules.eleora.sheet import ATTRIBUTES

    assert tuple(key for key, _ in ATTRIBUTES) == ATTRIBUTE_KEYS


def test_fast_replace_copies_a_record_and_refuses_unknown_fields() -> None:
    from combat.rules.eleora.sheet import Armour
    from combat.rules.records import replace

    plate = Armour("Płytówka", defence_bonus=1, armour_points=3)
    heavier = replace(plate, armour_points=4)
    assert heavier == Armour("Płytówka", defence_bonus=1, armour_points=4)
    assert plate.armour_points == 3
    with pytest.raises(TypeError, match="no field"):
        replace(plate, weight=20)


def test_progi_zdrowia_moga_byc_ujemne_ponizej_zera() -> None:
    """„spadnie do 0” or „poniżej 0”: the Zdrowie thresholds accept −1."""
    table = TableSettings.from_dict({"maiming_trigger": -1, "unconscious_at": -1})
    assert (table.maiming_trigger, table.unconscious_at) == (-1, -1)


def test_karta_shows_each_weapons_attack_pool_with_its_reason() -> None:
    from combat.rules.registry import get_ruleset

    sheet = {
        "attributes": {"zrecznosc": 2, "sila": 3},
        "skills": {"bron_lekka": 4},
        "weapons": [
            {"name": "Szabla", "kind": "lekka", "damage": 2},
            {"name": "Ława", "kind": "ciezka", "damage": 3, "improvised": True},
        ],
    }
    values = get_ruleset("eleora").derived_values(sheet, {"attack_attribute_ciezka": "sila"})
    attacks = {v.label: (v.value, v.explanation) for v in values if v.key.startswith("atak-")}
    assert attacks == {
        "Atak: Szabla": (6, "Zręczność 2 + Broń Lekka 4"),
        "Atak: Ława": (1, "Siła 3 + Broń Ciężka 0 − 2 (Broń improwizowana)"),
    }
