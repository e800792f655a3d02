"""Ciemność, Broń Improwizowana and Niszczenie Przedmiotów (armour, breaking, fire)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from combat.rules.base import RuleViolation
from combat.rules.dice import Modifier
from combat.rules.eleora.environment import (
    IMPROVISED_CLASSES,
    MATERIALS,
    Darkness,
    ImprovisedClass,
    Material,
    WorldObject,
    damage_object,
    darkness_modifiers,
    fire_tick,
    ignite,
    improvised_modifier,
    improvised_weapon,
)
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import DamageType, WeaponKind


def test_ciemnosc_three_levels_minus_one_two_three_dice() -> None:
    assert darkness_modifiers(Darkness.SWIATLO) == ()
    assert darkness_modifiers(Darkness.POLMROK) == (Modifier(-1, "Półmrok"),)
    assert darkness_modifiers(Darkness.CIEMNOSC) == (Modifier(-2, "Ciemność"),)
    assert darkness_modifiers(Darkness.CALKOWITA_CIEMNOSC) == (Modifier(-3, "Całkowita Ciemność"),)


def test_ciemnosc_penalties_come_from_settings() -> None:
    settings = TableSettings(darkness_penalties=(0, 1, 4))
    assert darkness_modifiers(Darkness.CALKOWITA_CIEMNOSC, settings)[0].dice == -4


def test_bron_improwizowana_minus_two_to_hit() -> None:
    assert improvised_modifier() == Modifier(-2, "Broń improwizowana")
    assert improvised_modifier(TableSettings(improvised_penalty=1)).dice == -1


def test_bron_improwizowana_wrecz_one_damage_treated_as_thrown() -> None:
    stone = improvised_weapon("Kamień", "wrecz", damage_type=DamageType.STUN)
    assert (stone.damage, stone.thrown, stone.improvised) == (1, True, True)
    assert stone.kind == WeaponKind.UNARMED and stone.damage_type == DamageType.STUN


def test_bron_improwizowana_lekka_two_damage() -> None:
    pan = improvised_weapon("Patelnia", "lekka", damage_type=DamageType.PHYSICAL)
    assert (pan.kind, pan.damage, pan.two_handed, pan.thrown) == (WeaponKind.LIGHT, 2, False, False)


def test_bron_improwizowana_ciezka_three_damage_two_handed() -> None:
    bench = improvised_weapon("Ławka", "ciezka", damage_type=DamageType.PHYSICAL)
    assert (bench.kind, bench.damage, bench.two_handed) == (WeaponKind.HEAVY, 3, True)
    assert "Ławka" in IMPROVISED_CLASSES["ciezka"].examples


def test_bron_improwizowana_classes_are_gm_data() -> None:
    house = {"ciezka": ImprovisedClass("Ciężka", WeaponKind.HEAVY, 4, two_handed=True)}
    assert (
        improvised_weapon("Belka", "ciezka", damage_type=DamageType.STUN, classes=house).damage == 4
    )
    with pytest.raises(ValueError, match="unknown improvised weapon class"):
        improvised_weapon("Belka", "lekka", damage_type=DamageType.STUN, classes=house)


def test_przedmiot_has_ten_durability_and_breaks_at_zero() -> None:
    door = WorldObject("drzwi", "drewniany")
    assert door.durability == 10
    hit = damage_object(door, 8)
    assert (hit.stopped, hit.dealt, hit.destroyed) == (3, 5, False)
    broken = damage_object(hit.obj, 9)
    assert broken.destroyed and broken.obj.damage == 10


@pytest.mark.parametrize(
    ("material", "armour"),
    [("delikatny", 0), ("zwykly", 1), ("drewniany", 3), ("zelazny", 5), ("kamienny", 5)],
)
def test_przedmiot_pancerz_by_material(material: str, armour: int) -> None:
    hit = damage_object(WorldObject("x", material), 6)
    assert hit.dealt == max(0, 6 - armour) and hit.stopped == min(6, armour)


def test_przedmiot_damage_reduced_to_zero_not_below() -> None:
    hit = damage_object(WorldObject("krata", "zelazny"), 3)
    assert hit.dealt == 0 and hit.obj.damage == 0


def test_przedmiot_bad_input() -> None:
    with pytest.raises(ValueError, match="negative"):
        damage_object(WorldObject("x", "zwykly"), -1)
    with pytest.raises(ValueError, match="unknown material"):
        damage_object(WorldObject("x", "szklany"), 1)


def test_przedmiot_zelazny_or_kamienny_cannot_be_set_on_fire() -> None:
    with pytest.raises(RuleViolation) as refused:
        ignite(WorldObject("posąg", "kamienny"))
    assert refused.value.code == "niepalny"
    assert not MATERIALS["zelazny"].flammable


def test_podpalenie_przedmiotu_goes_out_unless_fed() -> None:
    chair = ignite(WorldObject("krzesło", "drewniany"))
    assert chair.burning and chair.burning_left == 3
    objects = [chair]
    went_out: tuple[str, ...] = ()
    for _ in range(3):
        tick = fire_tick(objects)
        objects, went_out = list(tick.objects), tick.went_out
    assert went_out == ("krzesło",) and not objects[0].burning and objects[0].burning_streak == 0


def test_przedmiot_burning_five_turns_in_a_row_sustains_itself() -> None:
    beam = WorldObject("belka", "drewniany")
    objects = [ignite(beam)]
    for turn in range(1, 6):
        if turn == 3:
            objects = [ignite(objects[0])]  # relit before it went out: the streak goes on
        tick = fire_tick(objects)
        objects = list(tick.objects)
        assert tick.now_self_sustaining == (("belka",) if turn == 5 else ())
    assert objects[0].self_sustaining
    for _ in range(10):
        objects = list(fire_tick(objects).objects)
    assert objects[0].burning  # it keeps burning by itself


def test_przedmiot_self_sustaining_ignites_adjacent_objects() -> None:
    torch = WorldObject("stos", "drewniany", (0, 0), burning_streak=4, burning_left=1)
    near = WorldObject("stół", "drewniany", (1, 1))
    far = WorldObject("szafa", "drewniany", (3, 0))
    iron = WorldObject("kocioł", "zelazny", (0, 1))
    tick = fire_tick([torch, near, far, iron])
    assert tick.now_self_sustaining == ("stos",)
    assert tick.ignited == ("stół",)
    by_key = {o.key: o for o in tick.objects}
    assert by_key["stół"].burning and not by_key["szafa"].burning and not by_key["kocioł"].burning


def test_przedmiot_fire_spreads_from_a_fed_neighbour_in_turn() -> None:
    source = WorldObject("stos", "drewniany", (0, 0), self_sustaining=True)
    row = [source, WorldObject("a", "drewniany", (1, 0)), WorldObject("b", "drewniany", (2, 0))]
    ignited_b_at = None
    for turn in range(1, 12):
        tick = fire_tick(row)
        row = list(tick.objects)
        if "b" in tick.ignited:
            ignited_b_at = turn
            break
    # a is lit on turn 1 and fed by the pile: it sustains itself 5 turns later and lights b.
    assert ignited_b_at == 6


def test_przedmiot_fire_threshold_and_duration_are_parameters() -> None:
    obj = ignite(WorldObject("siano", "zwykly"), TableSettings(burning_turns=1))
    assert obj.burning_left == 1
    tick = fire_tick([obj], self_sustaining_after=1)
    assert tick.now_self_sustaining == ("siano",)


def test_przedmiot_destroyed_objects_do_not_catch_fire() -> None:
    source = WorldObject("stos", "drewniany", (0, 0), self_sustaining=True)
    ash = replace(WorldObject("popiół", "drewniany", (1, 0)), damage=10)
    custom = {"drewniany": Material("Drewniany", 3)}
    assert fire_tick([source, ash], materials=custom).ignited == ()
