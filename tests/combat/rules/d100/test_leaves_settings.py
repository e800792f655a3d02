"""d100 table settings: the defaults of the digest, strict parsing, round trips, the GM form."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.d100 import forms
from combat.rules.d100.settings import (
    BOUNDS,
    CHOICES,
    DEFAULT_SETTINGS,
    ArmourRow,
    Claws,
    D100Settings,
    DonningRow,
    FallBand,
    WeaponRow,
    settings_of,
)

S = D100Settings()


def test_defaults_are_the_digest_defaults() -> None:
    assert (S.crit_luck_max, S.crit_bad_min, S.minimal_margin, S.modifier_cap) == (5, 96, 4, 50)
    assert (S.damage_multiplier, S.resistance_roll, S.rest_multiplier) == (5, True, 5)
    assert (S.difficulty, S.optional_crits, S.high_bad_luck_factor, S.high_stagger) == (
        "moderate",
        True,
        2,
        "duration",
    )
    assert (S.tie_to_defender, S.block_attribute, S.mind_attribute) == (True, "krzepa", "oglada")
    assert (S.knockdown_penalty, S.stagger_penalty, S.self_damage_percent) == (40, 10, 10)
    assert (S.bleed_percent, S.bleed_turns, S.defence_crit_mod) == (10, 3, 5)
    assert (S.damage_bad_luck, S.spell_bad_luck) == (10, 10)
    assert (S.summon_hit_bonus, S.summon_pz_bonus_percent) == (10, 20)
    assert S.injury_penalties == (10, 20, 30) and S.transform_ignored_injuries == 2
    assert (S.npc_at_zero, S.reaction_seconds, S.pace) == ("ask", 30, "live")
    assert (S.post_turn_hours, S.post_reminder_hours, S.posts_hidden) == (24, 6, True)
    assert (S.absent_defence, S.magic_dodgeable) == ("best", True)
    assert S.fall_ground == {"soft": -10, "normal": 0, "hard": 10}
    assert (S.fall_heavy_armour, S.acrobatics_max_height, S.fall_injury_percent) == (10, 4, 30)
    assert S.shield == (20, -10)


def test_weapon_table_is_the_seed_table() -> None:
    rows = S.weapon_rows
    assert rows["unarmed"] == WeaponRow("unarmed", 0, 0, False, False, False)
    assert rows["small"] == WeaponRow("melee", 5, 10, True, False, True)
    assert rows["traditional"] == WeaponRow("melee", 0, 20, False, False, True)
    assert rows["heavy"] == WeaponRow("melee", -10, 35, False, True, False)
    assert rows["bow"] == WeaponRow("ranged", 0, 15, False, True, False)
    assert rows["crossbow"] == WeaponRow("ranged", -10, 35, False, True, False)
    assert rows["pistol"] == WeaponRow("ranged", 0, 10, True, False, False)
    assert rows["thrown_light"] == WeaponRow("thrown", 0, 10, False, False, False)
    assert rows["thrown_heavy"] == WeaponRow("thrown", -5, 20, False, False, False)
    assert rows["wand"] == WeaponRow("magic", 5, 10, False, True, False)
    assert rows["staff"] == WeaponRow("magic", 0, 20, False, True, False)
    assert rows["quarterstaff"] == WeaponRow("magic", -10, 35, False, True, False)


def test_armour_race_transformation_tables_are_the_seed_tables() -> None:
    assert S.armour_rows == {"light": ArmourRow(10, -10), "heavy": ArmourRow(20, -20)}
    assert S.race_rows["ruan"] == Claws(True, 0, 0)
    assert S.race_rows["czlowiek"] is None
    assert D100Settings.from_dict({"races": {"x": ""}}).race_rows["x"] is None
    assert S.race_rows["maluan"] == S.race_rows["kobold"] == Claws(False, 5, 1)
    assert S.transformation_rows == {
        "wampir": {"krzepa": 10, "zwinnosc": 10, "wytrzymalosc": 10},
        "wilkolak": {"krzepa": 20, "wytrzymalosc": 20, "zwinnosc": -5, "zmysly": -5},
    }
    assert S.donning_rows["lamellar"] == DonningRow(5, 10, 3, 7, "useful")


def test_fall_table_twelve_metres_uses_thirty() -> None:
    bands = S.fall_bands
    assert FallBand(9, 12, 30) in bands and FallBand(13, 15, 40) in bands
    assert bands[0] == FallBand(2, 3, -20) and bands[-1] == FallBand(16, None, 50)


def test_settings_round_trip_defaults() -> None:
    assert D100Settings.from_dict(S.to_dict()) == S
    assert D100Settings.from_dict(None) == S
    assert S.to_dict()["injury_penalties"] == [10, 20, 30]


def test_unknown_settings_refused() -> None:
    with pytest.raises(ValueError, match="nieznane ustawienia stołu: bogus"):
        D100Settings.from_dict({"bogus": 1})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"crit_luck_max": True}, "crit_luck_max: liczba całkowita"),
        ({"crit_luck_max": "5"}, "crit_luck_max: liczba całkowita"),
        ({"modifier_cap": -1}, "modifier_cap: od 0 do 500"),
        ({"crit_bad_min": 40}, "crit_bad_min: od 51 do 101"),
        ({"resistance_roll": 1}, "resistance_roll: tak albo nie"),
        ({"difficulty": 3}, "difficulty: tekst"),
        ({"difficulty": "extreme"}, "difficulty: jedno z low, moderate, high"),
        ({"block_attribute": "sila"}, "block_attribute: jedno z"),
        ({"pace": "slow"}, "pace: jedno z"),
        ({"injury_penalties": [10, 20]}, "injury_penalties: lista 3"),
        ({"injury_penalties": "10"}, "injury_penalties: lista 3"),
        ({"post_reminder_hours": 24}, "post_reminder_hours musi być mniejsze"),
        ({"fall_ground": {"soft": -10}}, "fall_ground: dokładnie"),
        ({"fall_ground": [1]}, "fall_ground: obiekt"),
        ({"fall_ground": {"soft": -10, "normal": 0, "hard": 500}}, "fall_ground: od -100"),
        ({"weapons": {"unarmed": "unarmed 0 0"}}, "weapons: brak wiersza small"),
        ({"weapons": {}}, "weapons: od 1 do 30"),
        ({"weapons": {"unarmed": 1}}, "weapons: wartości to teksty"),
        ({"weapons": {**S.weapons, "Zła": "melee 0 0"}}, "weapons: zły klucz"),
        ({"weapons": {**S.weapons, "x": "sword 0 0"}}, "weapons.x: oczekiwano"),
        ({"weapons": {**S.weapons, "x": "melee 0"}}, "weapons.x: oczekiwano"),
        ({"weapons": {**S.weapons, "x": "melee a 0"}}, "weapons.x: 'a' nie jest"),
        ({"weapons": {**S.weapons, "x": "melee 0 0 big"}}, "weapons.x: flagi"),
        ({"weapons": {**S.weapons, "x": "melee 0 0 small small"}}, "weapons.x: flagi"),
        ({"weapons": {f"w{i}": "melee 0 0" for i in range(31)}}, "weapons: od 1 do 30"),
        ({"armours": {"light": "10"}}, "armours.light: oczekiwano"),
        ({"armours": {"light": "120 -10"}}, "armours.light: redukcja"),
        ({"races": {"x": "+5"}}, "races.x: „none”"),
        ({"transformations": {"x": "krzepa"}}, "transformations.x: pary"),
        ({"transformations": {"x": "sila +5"}}, "transformations.x: atrybut"),
        ({"transformations": {"x": "krzepa +5 krzepa +5"}}, "transformations.x: atrybut"),
        ({"armour_donning": {"x": "3 2"}}, "armour_donning.x: oczekiwano"),
        ({"armour_donning": {"x": "3 2 maybe"}}, "armour_donning.x: oczekiwano"),
        ({"armour_donning": {"x": "-3 2 no"}}, "armour_donning.x: minuty"),
        ({"fall_table": {"2-3": -20}}, "fall_table: ostatnie pasmo otwarte"),
        ({"fall_table": {"2-3": -20, "5+": 0}}, "fall_table: pasma bez przerw"),
        ({"fall_table": {"2-4": -20, "4+": 0}}, "fall_table: pasma bez przerw"),
        ({"fall_table": {"2+": -20, "4+": 0}}, "fall_table: pasma bez przerw"),
        ({"fall_table": {"3-2": -20, "4+": 0}}, "fall_table: pasmo '3-2' maleje"),
        ({"fall_table": {"two": -20}}, "fall_table: pasmo 'two'"),
        ({"fall_table": {"2+": 999}}, "fall_table: od -100 do 200"),
    ],
)
def test_bad_settings_refused_with_a_clear_message(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        D100Settings.from_dict(data)


def test_tables_normalise_whitespace() -> None:
    s = D100Settings.from_dict({"armours": {"light": "  10    -10 "}})
    assert s.armours == {"light": "10 -10"}


def test_donning_required_help_cannot_be_done_alone() -> None:
    assert S.donning_rows["full_plate"] == DonningRow(12, None, 7, None, "required")


def test_settings_of_reads_a_dict_once_and_passes_settings_through() -> None:
    assert settings_of(None) is DEFAULT_SETTINGS
    assert settings_of(S) is S
    high = settings_of({"difficulty": "high"})
    assert high.high and settings_of({"difficulty": "high"}) is high


def test_every_number_has_bounds_and_every_choice_its_options() -> None:
    for f in fields(D100Settings):
        value = getattr(S, f.name)
        if isinstance(value, int | tuple) and not isinstance(value, bool):
            assert f.name in BOUNDS, f.name
        if isinstance(value, str):
            assert f.name in CHOICES, f.name


def test_every_setting_is_in_one_form_group() -> None:
    keys = [s.key for group in forms.settings_groups() for s in group.settings]
    assert sorted(keys) == sorted(f.name for f in fields(D100Settings))
    for group in forms.settings_groups():
        for setting in group.settings:
            if setting.key in BOUNDS:
                assert setting.bounds == BOUNDS[setting.key]
            if setting.key in CHOICES:
                assert [key for key, _label in setting.choices] == list(CHOICES[setting.key])


def _changes() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "crit_luck_max": st.integers(0, 50),
            "minimal_margin": st.integers(0, 50),
            "modifier_cap": st.integers(0, 500),
            "damage_multiplier": st.integers(1, 100),
            "resistance_roll": st.booleans(),
            "difficulty": st.sampled_from(["low", "moderate", "high"]),
            "block_attribute": st.sampled_from(["krzepa", "zwinnosc"]),
            "injury_penalties": st.lists(st.integers(0, 100), min_size=3, max_size=3),
            "fall_ground": st.fixed_dictionaries(
                {k: st.integers(-100, 100) for k in ("soft", "normal", "hard")}
            ),
            "shield": st.tuples(st.integers(-100, 100), st.integers(-100, 100)),
            "armours": st.dictionaries(
                st.sampled_from(["light", "heavy", "kolczuga"]),
                st.tuples(st.integers(0, 100), st.integers(-50, 50)).map(
                    lambda pair: f"{pair[0]} {pair[1]:+d}"
                ),
                min_size=1,
            ),
            "fall_table": st.lists(st.integers(-100, 200), min_size=1, max_size=5).map(
                lambda mods: {
                    **{f"{2 + 2 * i}-{3 + 2 * i}": m for i, m in enumerate(mods[:-1])},
                    f"{2 + 2 * (len(mods) - 1)}+": mods[-1],
                }
            ),
        },
    )


@given(_changes())
def test_settings_round_trip(changes: dict[str, Any]) -> None:
    settings = D100Settings.from_dict(changes)
    again = D100Settings.from_dict(settings.to_dict())
    assert again == settings
    assert again.to_dict() == settings.to_dict()
