"""The d100 sheet: validation with dotted paths, the stats' ranges, derived values, forms."""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import SheetErrors
from combat.rules.d100 import forms
from combat.rules.d100.derived import attribute_specs, derived_values, skill_specs
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.sheet import validate_sheet

S = D100Settings()
ATTRS = {
    "zwinnosc": 40,
    "zmysly": 50,
    "krzepa": 45,
    "wytrzymalosc": 35,
    "intelekt": 30,
    "oglada": 25,
}


def data(**changes: Any) -> dict[str, Any]:
    return {
        "attributes": dict(ATTRS),
        "skills": {"akrobatyka": 30},
        "pz": 120,
        "race": "czlowiek",
        "transformation": "",
        "weapons": [{"name": "Szabla", "kind": "traditional"}],
        "armour": "light",
        "shield": True,
        "spells": [],
        **changes,
    }


def paths(raw: Any, settings: Any = None) -> list[str]:
    with pytest.raises(SheetErrors) as refused:
        validate_sheet(raw, settings)
    return [error.path for error in refused.value.errors]


def test_valid_sheet_is_normalised_with_every_key() -> None:
    cleaned = validate_sheet({"attributes": ATTRS, "pz": 50, "name": " Ala "})
    assert cleaned == {
        "attributes": ATTRS,
        "skills": {"akrobatyka": 0, "medycyna": 0},
        "pz": 50,
        "race": "czlowiek",
        "transformation": "",
        "weapons": [],
        "armour": "",
        "shield": False,
        "spells": [],
        "name": "Ala",
    }
    assert validate_sheet(data())["weapons"] == [{"name": "Szabla", "kind": "traditional"}]


def test_sheet_errors_carry_dotted_paths() -> None:
    raw = data(
        attributes={**ATTRS, "zwinnosc": 151, "sila": 3},
        weapons=[{"name": "Szabla", "kind": "laser", "edge": 1}, "sword"],
        spells=[{"name": "x", "kind": "summon", "summon": {"name": "Wilk", "pz": 0}}],
        pz=0,
        race="ork",
        armour="mithril",
        shield="yes",
        extra=1,
    )
    assert paths(raw) == [
        "extra",
        "attributes.sila",
        "attributes.zwinnosc",
        "pz",
        "race",
        "weapons.0.edge",
        "weapons.0.kind",
        "weapons.1",
        "weapons.1.kind",
        "armour",
        "shield",
        "spells.0.summon.attack",
        "spells.0.summon.damage",
        "spells.0.summon.pz",
    ]


def test_attributes_are_zero_to_hundred_fifty_and_all_required() -> None:
    assert validate_sheet(data(attributes={**ATTRS, "zwinnosc": 150}))
    assert validate_sheet(data(attributes={**ATTRS, "zwinnosc": 0}))
    assert paths(data(attributes={**ATTRS, "zwinnosc": -1})) == ["attributes.zwinnosc"]
    assert paths(data(attributes={**ATTRS, "zwinnosc": True})) == ["attributes.zwinnosc"]
    missing = dict(ATTRS)
    del missing["oglada"]
    assert paths(data(attributes=missing)) == ["attributes.oglada"]
    assert paths(data(attributes=[])) == ["attributes"]


def test_sheet_must_be_an_object() -> None:
    assert paths([]) == ["sheet"]
    assert paths("x") == ["sheet"]


def test_skills_rule_and_custom() -> None:
    cleaned = validate_sheet(data(skills={"medycyna": 20, "Jazda konna": 15}))
    assert cleaned["skills"] == {"akrobatyka": 0, "medycyna": 20, "Jazda konna": 15}
    assert paths(data(skills={"akrobatyka": 200})) == ["skills.akrobatyka"]
    assert paths(data(skills={" ": 5})) == ["skills. "]
    assert paths(data(skills=[1])) == ["skills"]


def test_text_and_list_limits() -> None:
    assert paths(data(name=5)) == ["name"]
    assert paths(data(name="x" * 81)) == ["name"]
    assert paths(data(weapons={"a": 1})) == ["weapons"]
    many = [{"name": "Nóż", "kind": "small"}] * 21
    assert paths(data(weapons=many)) == ["weapons"]


def test_attribute_max_is_a_setting() -> None:
    wide = D100Settings.from_dict({"attribute_max": 200})
    assert validate_sheet(data(attributes={**ATTRS, "zwinnosc": 180}), wide)
    assert validate_sheet(data(attributes={**ATTRS, "zwinnosc": 180}), {"attribute_max": 200})


def test_effect_spell_lasts_one_turn_by_default() -> None:
    spells = [
        {"name": "Spokojny sen", "kind": "negative"},
        {"name": "Dodatkowy oddech", "kind": "positive", "turns": 2},
        {"name": "Ognisty pocisk", "kind": "damage", "turns": 4, "summon_pz": 0},
    ]
    cleaned = validate_sheet(data(spells=spells))["spells"]
    assert cleaned == [
        {"name": "Spokojny sen", "kind": "negative", "turns": 1, "mind": False},
        {"name": "Dodatkowy oddech", "kind": "positive", "turns": 2},
        {"name": "Ognisty pocisk", "kind": "damage"},
    ]
    assert paths(data(spells=[{"name": "x", "kind": "curse"}])) == ["spells.0.kind"]
    assert paths(data(spells=[{"name": "x", "kind": "positive", "turns": 0}])) == ["spells.0.turns"]


def test_summon_spell_nested_or_flat() -> None:
    summon = {"name": "Wilk", "pz": 40, "attack": 40, "damage": 40}
    nested = validate_sheet(data(spells=[{"name": "Wezwanie", "kind": "summon", "summon": summon}]))
    flat = validate_sheet(
        data(
            spells=[
                {
                    "name": "Wezwanie",
                    "kind": "summon",
                    **{f"summon_{key}": value for key, value in summon.items()},
                }
            ]
        )
    )
    expected = [{"name": "Wezwanie", "kind": "summon", "turns": 3, "summon": summon}]
    assert nested["spells"] == flat["spells"] == expected
    bad = {"name": "x", "kind": "summon", "summon": {**summon, "speed": 3}}
    assert paths(data(spells=[bad])) == ["spells.0.summon.speed"]
    assert paths(data(spells=[{"name": "x", "kind": "summon"}])) == [
        f"spells.0.summon_{key}" for key in ("name", "pz", "attack", "damage")
    ]
    assert paths(data(spells=[{"name": "x", "kind": "damage", "mana": 3}])) == ["spells.0.mana"]


def test_transformation_is_a_settings_key() -> None:
    assert validate_sheet(data(transformation="wilkolak"))["transformation"] == "wilkolak"
    assert paths(data(transformation="smok")) == ["transformation"]


def test_tarcza_refused_without_a_small_or_traditional_weapon() -> None:
    assert paths(data(weapons=[{"name": "Miecz dwuręczny", "kind": "heavy"}])) == ["shield"]
    assert validate_sheet(data(weapons=[], shield=True))["shield"]


def test_attribute_and_skill_specs() -> None:
    specs = attribute_specs()
    assert [spec.key for spec in specs] == list(ATTRS)
    assert {(spec.minimum, spec.maximum, spec.group) for spec in specs} == {(0, 150, "Atrybuty")}
    assert [spec.label for spec in specs][:3] == ["Zwinność", "Zmysły", "Krzepa"]
    assert [(s.key, s.maximum) for s in skill_specs({"attribute_max": 120})] == [
        ("akrobatyka", 120),
        ("medycyna", 120),
    ]


def _values(raw: dict[str, Any], settings: Any = None) -> dict[str, tuple[int, str]]:
    return {v.key: (v.value, v.explanation) for v in derived_values(raw, settings)}


def test_derived_trafienie_and_obrazenia_of_each_weapon() -> None:
    values = _values(
        data(weapons=[{"name": "Szabla", "kind": "traditional"}, {"name": "Łuk", "kind": "bow"}])
    )
    assert values["trafienie-w0"][0] == 40 and values["obrazenia-w0"][0] == 65
    assert values["obrazenia-w0"][1].startswith("Krzepa 45 +20 (Broń tradycyjna) = 65")
    assert values["trafienie-w1"][0] == 50 and values["obrazenia-w1"][0] == 55
    assert values["trafienie-unarmed"][0] == 40 and values["obrazenia-unarmed"][0] == 45
    assert "trafienie-claws" not in values


def test_derived_unik_blok_odpornosc_odpoczynek() -> None:
    values = _values(data())
    assert values["unik"] == (20, "Zwinność 40 −10 (Lekka zbroja) −10 (Tarcza) = 20")
    assert values["blok"][0] == 45
    assert values["odpornosc"][0] == 35 and "OoP × 5" in values["odpornosc"][1]
    assert values["obrona_umyslu"][0] == 25
    assert values["odpoczynek"][0] == 25 and "OoP × 5 PŻ" in values["odpoczynek"][1]
    assert values["pancerz"][0] == 30 and values["pancerz"][1].startswith(
        "Lekka zbroja 10% + Tarcza 20%"
    )
    assert "niemożliwe" in values["pancerz"][1]
    assert values["pz"][0] == 120


def test_derived_blok_needs_a_weapon_or_shield() -> None:
    values = _values(data(weapons=[], shield=False, armour=""))
    assert values["blok"] == (0, "Blok wymaga broni albo tarczy")
    assert values["pancerz"][1].startswith("bez zbroi i tarczy")
    no_resistance = _values(data(), {"resistance_roll": False})
    assert "OoP" not in no_resistance["odpornosc"][1]


def test_derived_thresholds_cap_the_modifiers() -> None:
    values = _values(data(), {"modifier_cap": 15})
    assert values["obrazenia-w0"][0] == 60
    assert "(modyfikatory najwyżej ±15)" in values["obrazenia-w0"][1]


def test_derived_spells_and_claws() -> None:
    raw = data(
        race="haressdren",
        weapons=[{"name": "Kostur", "kind": "quarterstaff"}],
        shield=False,
        spells=[{"name": "Ognisty pocisk", "kind": "damage"}],
    )
    values = _values(raw)
    assert "trafienie-w0" not in values  # a focus is not a weapon of its own
    assert values["trafienie-spell0"][0] == 40 and values["obrazenia-spell0"][0] == 65
    assert values["trafienie-claws"][0] == 45 and values["obrazenia-claws"][0] == 48


def test_derived_effect_spell_tests_its_effect() -> None:
    raw = data(spells=[{"name": "Spokojny sen", "kind": "negative", "turns": 1}])
    value = {v.key: v for v in derived_values(raw)}["obrazenia-spell0"]
    assert value.label == "Efekt: Spokojny sen" and value.explanation == "Intelekt 30 = 30"


def test_blok_is_krzepa_and_obrona_przed_magia_umyslu_is_oglada_by_default() -> None:
    values = _values(data())
    assert values["blok"][1] == "Krzepa 45 = 45"
    assert values["obrona_umyslu"][1] == "Ogłada 25 = 25"
    changed = _values(data(), {"block_attribute": "zwinnosc", "mind_attribute": "intelekt"})
    assert changed["blok"][0] == 40 and changed["obrona_umyslu"][0] == 30


def test_derived_przemiana_values() -> None:
    values = _values(data(transformation="wilkolak"))
    assert values["przemiana-krzepa"] == (65, "Krzepa 45 +20 (Wilkołak) = 65")
    assert values["przemiana-zwinnosc"][0] == 35
    assert values["trafienie-claws-wilkolak"][0] == 40  # 40 +5 claws −5 Wilkołak
    assert values["obrazenia-claws-wilkolak"][0] == 75  # 45 +10 +20
    assert values["przemiana-urazy"][0] == 2
    assert not any(key.startswith("przemiana") for key in _values(data()))


def test_derived_values_read_a_partial_sheet_leniently() -> None:
    values = _values({"attributes": {"zwinnosc": "x"}, "weapons": [{"kind": "unknown"}]})
    assert values["unik"][0] == 0 and values["pz"][0] == 0


def test_sheet_sections_follow_the_settings() -> None:
    profile, weapons, spells = forms.sheet_sections()
    assert weapons.key == "weapons" and spells.key == "spells"
    assert profile.single and [f.key for f in profile.fields] == [
        "pz",
        "race",
        "transformation",
        "armour",
        "shield",
    ]
    kinds = dict(weapons.fields[1].choices)
    assert kinds["small"] == "Broń mała/szermiercza" and weapons.fields[1].default == "traditional"
    custom = {
        "weapons": {"unarmed": "unarmed 0 0", "small": "melee 5 10 small", "bicz": "melee 0 5"}
    }
    _profile, weapons, _spells = forms.sheet_sections(custom)
    assert dict(weapons.fields[1].choices)["bicz"] == "bicz"
    assert weapons.fields[1].default == "unarmed"
    assert [f.key for f in spells.fields] == [
        "name",
        "kind",
        "turns",
        "mind",
        "summon_name",
        "summon_pz",
        "summon_attack",
        "summon_damage",
    ]


def test_sheet_fields_for_the_single_values() -> None:
    fields = {f.key: f for f in forms.sheet_fields()}
    assert list(fields) == ["pz", "race", "transformation", "armour", "shield"]
    assert fields["pz"].default is None and fields["pz"].maximum == 9999
    assert ("", "brak") in fields["transformation"].choices
    assert dict(fields["race"].choices)["haressdren"] == "Haressdren"
    assert dict(fields["armour"].choices)["heavy"] == "Ciężka zbroja"


def test_czar_na_umysl_is_marked_on_a_negative_spell() -> None:
    spells = [{"name": "Spokojny sen", "kind": "negative", "mind": True}]
    assert validate_sheet(data(spells=spells))["spells"][0]["mind"] is True
    with pytest.raises(SheetErrors) as caught:
        validate_sheet(data(spells=[{"name": "X", "kind": "negative", "mind": "tak"}]))
    assert [e.path for e in caught.value.errors] == ["spells.0.mind"]


def test_stored_sheet_keeps_its_single_values_in_profile() -> None:
    flat = data()
    profile = {
        key: flat.pop(key)
        for key in ("pz", "race", "transformation", "armour", "shield")
        if key in flat
    }
    assert validate_sheet({**flat, "profile": profile}) == validate_sheet(data())
    with pytest.raises(SheetErrors) as caught:
        validate_sheet({**flat, "profile": {**profile, "wiek": 3}})
    assert [e.path for e in caught.value.errors] == ["profile.wiek"]
