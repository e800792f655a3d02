"""The modifier table of digest §2: weapons, two weapons, claws, foci, armour, shield, Blok,
transformations."""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from combat.rules.d100.equipment import (
    ATTACK_ATTRIBUTES,
    TWO_PISTOLS,
    TWO_WEAPONS,
    armour_reduction,
    attack_profile,
    can_block,
    dodge_penalties,
    shield_allowed,
    transformation_modifiers,
    transformation_mods,
    weapon_kinds,
)
from combat.rules.d100.settings import D100Settings

S = D100Settings()


def sheet(*kinds: str, **extra: Any) -> dict[str, Any]:
    return {
        "attributes": {},
        "race": "czlowiek",
        "weapons": [{"name": f"Broń {i}", "kind": kind} for i, kind in enumerate(kinds)],
        "armour": "",
        "shield": False,
        "spells": [],
        **extra,
    }


def mods(pairs: tuple[tuple[str, int], ...]) -> int:
    return sum(value for _reason, value in pairs)


def test_attack_attributes_by_style() -> None:
    for style in ("melee", "thrown", "unarmed"):
        assert ATTACK_ATTRIBUTES[style] == ("zwinnosc", "krzepa", "wytrzymalosc")
    assert ATTACK_ATTRIBUTES["ranged"] == ("zmysly", "zwinnosc", "wytrzymalosc")
    assert ATTACK_ATTRIBUTES["magic"] == ("zmysly", "intelekt", "wytrzymalosc")
    assert ATTACK_ATTRIBUTES["magic"].defence == "wytrzymalosc"


@pytest.mark.parametrize(
    ("kind", "hit_attr", "hit", "damage_attr", "damage"),
    [
        ("small", "zwinnosc", 5, "krzepa", 10),
        ("traditional", "zwinnosc", 0, "krzepa", 20),
        ("heavy", "zwinnosc", -10, "krzepa", 35),
        ("bow", "zmysly", 0, "zwinnosc", 15),
        ("crossbow", "zmysly", -10, "zwinnosc", 35),
        ("pistol", "zmysly", 0, "zwinnosc", 10),
        ("thrown_light", "zwinnosc", 0, "krzepa", 10),
        ("thrown_heavy", "zwinnosc", -5, "krzepa", 20),
    ],
)
def test_bron_modifiers_of_the_seed_table(
    kind: str, hit_attr: str, hit: int, damage_attr: str, damage: int
) -> None:
    profile = attack_profile(sheet(kind), "w0", S)
    assert (profile.hit_attr, mods(profile.hit_mods)) == (hit_attr, hit)
    assert (profile.damage_attr, mods(profile.damage_mods)) == (damage_attr, damage)
    assert profile.uses_weapon and profile.label == "Broń 0" and profile.weapons == (0,)


def test_weapon_kinds_carry_labels_and_flags() -> None:
    kinds = weapon_kinds(S)
    assert kinds["small"].label == "Broń mała/szermiercza" and kinds["small"].small
    assert kinds["heavy"].two_handed and not kinds["heavy"].shield
    assert kinds["pistol"].small and kinds["pistol"].style == "ranged"
    custom = weapon_kinds(D100Settings.from_dict({"weapons": {**S.weapons, "bicz": "melee 5 5"}}))
    assert custom["bicz"].label == "bicz"


def test_walka_wrecz_has_no_modifiers() -> None:
    profile = attack_profile(sheet(), "unarmed", S)
    assert profile.hit_mods == () and profile.damage_mods == ()
    assert (profile.hit_attr, profile.damage_attr) == ("zwinnosc", "krzepa")
    assert not profile.uses_weapon and profile.label == "Walka wręcz"
    assert not attack_profile(sheet("unarmed"), "w0", S).uses_weapon


def test_walka_dwiema_bronami_needs_a_small_weapon() -> None:
    with pytest.raises(RuleViolation) as refused:
        attack_profile(sheet("traditional", "traditional"), "two:0:1", S)
    assert refused.value.code == "two_weapons_need_small"
    assert attack_profile(sheet("traditional", "small"), "two:0:1", S)


def test_walka_dwiema_bronami_sums_damage_and_takes_only_minus_ten_to_hit() -> None:
    profile = attack_profile(sheet("traditional", "small"), "two:0:1", S)
    assert profile.hit_mods == ((TWO_WEAPONS, -10),)
    assert mods(profile.damage_mods) == 30 and profile.damage_attr == "krzepa"
    assert profile.label == "Broń 0 + Broń 1" and profile.weapons == (0, 1)


def test_walka_dwoma_pistoletami_plus_twenty_minus_five() -> None:
    profile = attack_profile(sheet("pistol", "pistol"), "two:0:1", S)
    assert profile.hit_mods == ((TWO_PISTOLS, -5),) and profile.hit_attr == "zmysly"
    assert mods(profile.damage_mods) == 20 and profile.damage_attr == "zwinnosc"


@pytest.mark.parametrize(
    ("kinds", "choice", "code"),
    [
        (("heavy", "small"), "two:0:1", "two_handed_pair"),
        (("small", "small"), "two:0:0", "same_weapon"),
        (("pistol", "small"), "two:0:1", "two_weapons_kinds"),
        (("small",), "two:0:1", "no_weapon"),
        (("small",), "w3", "no_weapon"),
        (("small",), "two:x:0", "no_weapon"),
        (("small",), "swing", "bad_attack"),
        (("wand",), "w0", "focus_not_weapon"),
    ],
)
def test_attack_choice_refused_when_the_sheet_cannot_make_it(
    kinds: tuple[str, ...], choice: str, code: str
) -> None:
    with pytest.raises(RuleViolation) as refused:
        attack_profile(sheet(*kinds), choice, S)
    assert refused.value.code == code


def test_unknown_weapon_kind_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        attack_profile(sheet("laser"), "w0", S)
    assert refused.value.code == "unknown_weapon_kind" and refused.value.params == {"kind": "laser"}


@pytest.mark.parametrize("kind", ["wampir", "wilkolak"])
def test_pazury_after_przemiana_fight_as_a_small_weapon(kind: str) -> None:
    profile = attack_profile(sheet(), "claws", S, transformed=kind)
    assert (mods(profile.hit_mods), mods(profile.damage_mods)) == (5, 10)
    assert profile.style == "melee" and not profile.uses_weapon and profile.label == "Pazury"


def test_pazury_ruan_fight_as_a_small_weapon() -> None:
    profile = attack_profile(sheet(race="ruan"), "claws", S)
    assert (mods(profile.hit_mods), mods(profile.damage_mods)) == (5, 10)


@pytest.mark.parametrize(
    ("race", "damage"), [("haressdren", 3), ("jaszczur", 2), ("maluan", 1), ("kobold", 1)]
)
def test_pazury_haressdren_jaszczur_maluan_plus_one_to_three_and_five_to_hit(
    race: str, damage: int
) -> None:
    profile = attack_profile(sheet(race=race), "claws", S)
    assert (mods(profile.hit_mods), mods(profile.damage_mods)) == (5, damage)


def test_pazury_obiema_dlonmi_as_two_small_weapons() -> None:
    profile = attack_profile(sheet(race="ruan"), "claws2", S)
    assert profile.hit_mods == ((TWO_WEAPONS, -10),) and mods(profile.damage_mods) == 20
    jaszczur = attack_profile(sheet(race="jaszczur"), "claws2", S)
    assert mods(jaszczur.hit_mods) == -10 and mods(jaszczur.damage_mods) == 4
    assert jaszczur.label == "Pazury (obie dłonie)"


def test_no_claws_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        attack_profile(sheet(), "claws", S)
    assert refused.value.code == "no_claws"


@pytest.mark.parametrize(
    ("focus", "hit", "damage"), [("wand", 5, 10), ("staff", 0, 20), ("quarterstaff", -10, 35)]
)
def test_czar_uses_zmysly_and_intelekt_with_the_focus_mods(
    focus: str, hit: int, damage: int
) -> None:
    data = sheet("small", focus, spells=[{"name": "Ognisty pocisk", "kind": "damage"}])
    profile = attack_profile(data, "spell:0", S)
    assert (profile.hit_attr, profile.damage_attr, profile.style) == ("zmysly", "intelekt", "magic")
    assert (mods(profile.hit_mods), mods(profile.damage_mods)) == (hit, damage)
    assert profile.label == "Ognisty pocisk" and profile.spell == 0 and profile.weapons == (1,)
    assert profile.uses_weapon


def test_czar_without_a_focus_has_no_modifiers() -> None:
    profile = attack_profile(
        sheet("small", spells=[{"name": "Iskra", "kind": "damage"}]), "spell:0", S
    )
    assert profile.hit_mods == () and profile.damage_mods == () and not profile.uses_weapon


def test_czar_with_a_chosen_focus() -> None:
    data = sheet("wand", "quarterstaff", spells=[{"name": "Iskra", "kind": "negative"}])
    assert mods(attack_profile(data, "spell:0:1", S).damage_mods) == 35
    with pytest.raises(RuleViolation) as refused:
        attack_profile(sheet("small", spells=[{"name": "Iskra"}]), "spell:0:0", S)
    assert refused.value.code == "not_a_focus"
    with pytest.raises(RuleViolation) as refused:
        attack_profile(data, "spell:3", S)
    assert refused.value.code == "no_spell"


def test_lekka_zbroja_ten_percent_and_minus_ten_to_unik() -> None:
    data = sheet("traditional", armour="light")
    assert armour_reduction(data, S) == 10
    assert dodge_penalties(data, S) == (("Lekka zbroja", -10),)


def test_ciezka_zbroja_twenty_percent_and_minus_twenty_to_unik() -> None:
    data = sheet("traditional", armour="heavy")
    assert armour_reduction(data, S) == 20
    assert dodge_penalties(data, S) == (("Ciężka zbroja", -20),)


def test_tarcza_twenty_percent_and_minus_ten_to_unik() -> None:
    data = sheet("small", shield=True)
    assert armour_reduction(data, S) == 20
    assert dodge_penalties(data, S) == (("Tarcza", -10),)


def test_pancerz_percentages_add_up_to_forty_at_most() -> None:
    assert armour_reduction(sheet("traditional", armour="heavy", shield=True), S) == 40
    assert armour_reduction(sheet("traditional", armour="light", shield=True), S) == 30
    assert armour_reduction(sheet(), S) == 0 and dodge_penalties(sheet(), S) == ()


def test_tarcza_only_with_a_small_or_traditional_weapon() -> None:
    assert shield_allowed(sheet("small", shield=True), S)
    assert shield_allowed(sheet("traditional", "bow", shield=True), S)
    assert shield_allowed(sheet(shield=True), S)  # no weapon at all
    assert not shield_allowed(sheet("heavy", shield=True), S)
    assert not shield_allowed(sheet("bow", "pistol", shield=True), S)
    assert not shield_allowed(sheet("small"), S)
    assert armour_reduction(sheet("heavy", shield=True), S) == 0


def test_blok_needs_a_weapon_or_a_shield() -> None:
    assert can_block(sheet("small"), S)
    assert can_block(sheet(shield=True), S)
    assert not can_block(sheet(), S)
    assert not can_block(sheet("unarmed"), S)


def test_rozbrojenie_leaves_only_the_shield_to_blok() -> None:
    assert not can_block(sheet("small"), S, disarmed=True)
    assert can_block(sheet("small", shield=True), S, disarmed=True)


def test_wampir_plus_ten_krzepa_zwinnosc_wytrzymalosc() -> None:
    assert transformation_mods("wampir", S) == {"krzepa": 10, "zwinnosc": 10, "wytrzymalosc": 10}


def test_wilkolak_plus_twenty_krzepa_wytrzymalosc_minus_five_zwinnosc_zmysly() -> None:
    assert transformation_mods("wilkolak", S) == {
        "krzepa": 20,
        "wytrzymalosc": 20,
        "zwinnosc": -5,
        "zmysly": -5,
    }
    assert transformation_modifiers("wilkolak", "zwinnosc", S) == (("Wilkołak", -5),)
    assert transformation_modifiers("wilkolak", "intelekt", S) == ()
    assert transformation_mods("", S) == {}
