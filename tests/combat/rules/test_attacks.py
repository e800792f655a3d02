"""Atak, Obrona i Obrażenia: pools, hits, przebicia, damage, special attacks, positions."""

from __future__ import annotations

import random

import pytest

from combat.rules.base import RuleViolation
from combat.rules.dice import Modifier
from combat.rules.eleora.commands import (
    AddCondition,
    DeclareAttack,
    SetEnvironment,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.environment import Darkness, improvised_weapon
from combat.rules.eleora.events import (
    AttackDeclared,
    AttackResolved,
    ConditionAdded,
    HealthChanged,
    Moved,
)
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import Armour, DamageType, Weapon, WeaponKind
from combat.rules.eleora.state import UNARMED, Combatant, EncounterState
from tests.combat.rules.engine_kit import (
    LUK,
    SZABLA,
    SZTYLET,
    TOPOR,
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    of_type,
    step,
)

UNARMED_WOLF = make_sheet("Wilk", weapons=())


def fight(
    ala: Combatant | None = None,
    wilk: Combatant | None = None,
    settings: TableSettings | None = None,
    *extra: Combatant,
) -> EncounterState:
    state = make_state(
        ala or make_combatant("ala"),
        wilk or make_combatant("wilk", "foes", sheet=UNARMED_WOLF),
        *extra,
        settings=settings,
    )
    return begin(state, ["ala", "wilk", *[c.id for c in extra]])


def attack(
    state: EncounterState, dice: Dice | random.Random, weapon: str = "Szabla", **options: object
) -> tuple[EncounterState, AttackDeclared, AttackResolved]:
    cmd = DeclareAttack(actor="ala", target="wilk", weapon=weapon, **options)  # type: ignore[arg-type]
    new, events = step(state, cmd, dice)
    return new, of_type(events, AttackDeclared)[0], of_type(events, AttackResolved)[0]


def reasons(mods: tuple[Modifier, ...]) -> dict[str, int]:
    return {m.reason: m.dice for m in mods}


def test_atak_document_example_zrecznosc_plus_bron_lekka_vs_wolf_obrona() -> None:
    ala = make_combatant("ala", sheet=make_sheet(skills={"bron_lekka": 4}))
    _, declared, resolved = attack(fight(ala), Dice(*[1] * 10))
    assert reasons(declared.attack.modifiers) == {"Zręczność": 2, "Broń Lekka": 4}
    assert resolved.attack_roll.size == 6
    assert resolved.defence_roll is not None and resolved.defence_roll.size == 4


@pytest.mark.parametrize(
    ("weapon", "skill"),
    [("Szabla", "Broń Lekka"), ("Topór", "Broń Ciężka"), (UNARMED, "Walka Wręcz")],
)
def test_atak_skill_follows_the_weapon_class(weapon: str, skill: str) -> None:
    ala = make_combatant("ala", sheet=make_sheet(weapons=(SZABLA, TOPOR)))
    _, declared, _ = attack(fight(ala), random.Random(0), weapon)
    assert skill in reasons(declared.attack.modifiers)


def test_atak_attribute_per_weapon_class_is_a_table_setting() -> None:
    ala = make_combatant("ala", sheet=make_sheet(weapons=(SZABLA, TOPOR)))
    settings = TableSettings(attack_attribute_ciezka="sila")
    _, heavy, _ = attack(fight(ala, settings=settings), random.Random(0), "Topór")
    _, light, _ = attack(fight(ala, settings=settings), random.Random(0), "Szabla")
    assert "Siła" in reasons(heavy.attack.modifiers)
    assert "Zręczność" in reasons(light.attack.modifiers)


def test_hit_needs_more_successes_tie_goes_to_the_defender() -> None:
    _, _, resolved = attack(fight(), Dice(4, 4, 1, 1, 1, 4, 4, 1, 1))
    assert not resolved.hit and resolved.physical == 0


def test_tie_goes_to_the_attacker_when_the_table_says_so() -> None:
    settings = TableSettings(tie_goes_to="attacker")
    _, _, resolved = attack(fight(settings=settings), Dice(4, 4, 1, 1, 1, 4, 4, 1, 1))
    assert resolved.hit and resolved.przebicia == 0 and resolved.physical == 2


def test_damage_is_weapon_damage_plus_przebicia() -> None:
    state, _, resolved = attack(fight(), Dice(6, 6, 6, 1, 1, 4, 1, 1, 1))
    assert (resolved.przebicia, resolved.damage, resolved.physical) == (2, 4, 4)
    assert state.get("wilk").damage_physical == 4


def test_przebicia_mode_margin_minus_one() -> None:
    settings = TableSettings(przebicia_mode="margin_minus_one")
    _, _, resolved = attack(fight(settings=settings), Dice(6, 6, 6, 1, 1, 4, 1, 1, 1))
    assert (resolved.przebicia, resolved.damage) == (1, 3)


def test_pancerz_reduces_physical_damage() -> None:
    armour = (Armour("Kolczuga", defence_bonus=0, armour_points=2),)
    wilk = make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=(), armour=armour))
    _, _, resolved = attack(fight(wilk=wilk), Dice(6, 6, 6, 1, 1, 4, 1, 1, 1))
    assert (resolved.damage, resolved.reduction, resolved.physical) == (4, 2, 2)


def test_armour_defence_bonus_adds_to_obrona() -> None:
    armour = (Armour("Kolczuga", defence_bonus=1, armour_points=0),)
    wilk = make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=(), armour=armour))
    _, _, resolved = attack(fight(wilk=wilk), Dice(*[1] * 10))
    assert resolved.defence_roll is not None and resolved.defence_roll.size == 5


def test_unarmed_deals_sila_stun_reduced_by_wola() -> None:
    _, declared, resolved = attack(fight(), Dice(6, 6, 6, 1, 4, 1, 1, 1), UNARMED)
    assert resolved.damage_type == "ogluszajace"
    assert (resolved.damage, resolved.reduction, resolved.stun) == (2 + 2, 1, 3)


def test_unarmed_minus_one_die_against_a_target_with_a_long_melee_weapon() -> None:
    armed = make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=(SZABLA,)))
    _, declared, _ = attack(fight(wilk=armed), random.Random(0), UNARMED)
    assert reasons(declared.attack.modifiers)["Bez broni przeciw uzbrojonemu"] == -1
    short = make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=(SZTYLET, LUK)))
    _, declared, _ = attack(fight(wilk=short), random.Random(0), UNARMED)
    assert "Bez broni przeciw uzbrojonemu" not in reasons(declared.attack.modifiers)


def test_ciemnosc_on_obrona_is_a_table_setting() -> None:
    for on_defence in (True, False):
        table = TableSettings(darkness_on_defence=on_defence)
        state, _ = step(fight(settings=table), SetEnvironment(darkness=Darkness.CIEMNOSC))
        _, declared, resolved = attack(state, random.Random(0))
        assert resolved.defence_roll is not None
        assert (-2 in [m.dice for m in resolved.defence_roll.modifiers]) is on_defence
        assert -2 in [m.dice for m in declared.attack.modifiers]  # the attack always


def test_wymuszone_poruszanie_collision_rounding_is_a_table_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from combat.rules.eleora import grid

    seen: list[str] = []
    original = grid.forced_movement

    def spy(*args: object, collision_rounding: grid.Rounding = "up") -> grid.PushResult:
        seen.append(collision_rounding)
        return original(*args, collision_rounding=collision_rounding)  # type: ignore[arg-type]

    monkeypatch.setattr(grid, "forced_movement", spy)
    ala = make_combatant("ala", position=(0, 0))
    wilk = make_combatant("wilk", "foes", position=(1, 0), sheet=UNARMED_WOLF)
    table = TableSettings(collision_rounding="down")
    attack(fight(ala, wilk, table), Dice(6, 6, 6, 1, 1, 4, 1, 1, 1), special="odepchniecie")
    assert seen == ["down"]
    assert (
        grid.forced_movement(
            [grid.Body("a", (0, 0)), grid.Body("b", (2, 0))],
            [grid.Push("a", (1, 0), 3), grid.Push("b", (-1, 0), 3)],
            collision_rounding="down",
        ).damage
        != grid.forced_movement(
            [grid.Body("a", (0, 0)), grid.Body("b", (2, 0))],
            [grid.Push("a", (1, 0), 3), grid.Push("b", (-1, 0), 3)],
        ).damage
    )


def test_improvised_weapon_minus_two() -> None:
    pan = Weapon("Patelnia", WeaponKind.LIGHT, 2, improvised=True)
    ala = make_combatant("ala", sheet=make_sheet(weapons=(pan,)))
    _, declared, _ = attack(fight(ala), random.Random(0), "Patelnia")
    assert reasons(declared.attack.modifiers)["Broń improwizowana"] == -2


@pytest.mark.parametrize(
    ("level", "penalty"),
    [(Darkness.POLMROK, -1), (Darkness.CIEMNOSC, -2), (Darkness.CALKOWITA_CIEMNOSC, -3)],
)
def test_ciemnosc_penalises_every_test(level: Darkness, penalty: int) -> None:
    state, _ = step(fight(), SetEnvironment(darkness=level))
    _, declared, resolved = attack(state, random.Random(0))
    assert penalty in [m.dice for m in declared.attack.modifiers]
    assert resolved.defence_roll is not None
    assert penalty in [m.dice for m in resolved.defence_roll.modifiers]


def test_ranged_attack_must_see_the_target() -> None:
    ala = make_combatant("ala", sheet=make_sheet(weapons=(LUK,)))
    state, _ = step(fight(ala), AddCondition(target="ala", condition="oslepienie"))
    with pytest.raises(RuleViolation) as refused:
        step(state, DeclareAttack(actor="ala", target="wilk", weapon="Łuk"))
    assert refused.value.code == "widocznosc"


def test_ranged_attack_on_a_screened_target_minus_three() -> None:
    ala = make_combatant("ala", sheet=make_sheet(weapons=(LUK,)))
    _, declared, _ = attack(fight(ala), random.Random(0), "Łuk", screened=True)
    assert reasons(declared.attack.modifiers)["Cel zasłonięty lub za przeszkodą"] == -3


def test_melee_needs_the_target_in_reach_on_the_map() -> None:
    ala = make_combatant("ala", position=(0, 0))
    wilk = make_combatant("wilk", "foes", position=(2, 0), sheet=UNARMED_WOLF)
    with pytest.raises(RuleViolation) as refused:
        attack(fight(ala, wilk), random.Random(0))
    assert refused.value.code == "zasieg"


def test_flankowanie_full_plus_two_and_half_plus_one() -> None:
    ala = make_combatant("ala", position=(0, 1))
    wilk = make_combatant("wilk", "foes", position=(1, 1), sheet=UNARMED_WOLF)
    bob = make_combatant("bob", position=(2, 1))
    _, declared, _ = attack(fight(ala, wilk, None, bob), random.Random(0))
    assert reasons(declared.attack.modifiers)["Flankowanie pełne"] == 2
    bob_half = make_combatant("bob", position=(2, 0))
    _, declared, _ = attack(fight(ala, wilk, None, bob_half), random.Random(0))
    assert reasons(declared.attack.modifiers)["Pół-flanka"] == 1


def test_osaczenie_four_adjacent_enemies_minus_two_obrona() -> None:
    wilk = make_combatant("wilk", "foes", position=(1, 1), sheet=UNARMED_WOLF)
    friends = [
        make_combatant(n, position=p)
        for n, p in (("bob", (2, 1)), ("cyd", (1, 2)), ("dan", (1, 0)))
    ]
    ala = make_combatant("ala", position=(0, 1))
    _, _, resolved = attack(fight(ala, wilk, None, *friends), random.Random(0))
    assert resolved.defence_roll is not None
    assert any(
        m.reason.startswith("Osaczenie") and m.dice == -2 for m in resolved.defence_roll.modifiers
    )


def test_attack_on_an_unconscious_target_hits_automatically() -> None:
    plate = (Armour("Płyty", armour_points=3),)
    wilk = make_combatant(
        "wilk",
        "foes",
        sheet=make_sheet("Wilk", weapons=(), armour=plate),
        status="unconscious",
        damage_physical=10,
    )
    state = fight(wilk=wilk)
    _, declared, resolved = attack(state, Dice(4, 1, 1, 1, 1))
    assert declared.attack.auto_hit and declared.prompt is None
    assert resolved.hit and resolved.defence_roll is None and resolved.przebicia == 1


def test_stun_damage_on_an_oszolomiony_target_becomes_physical() -> None:
    state, _ = step(fight(), AddCondition(target="wilk", condition="oszolomienie"))
    _, _, resolved = attack(state, Dice(6, 6, 6, 1, 4, 1, 1, 1), UNARMED)
    assert resolved.damage_type == "fizyczne" and resolved.physical == 4 and resolved.stun == 0


def test_cannot_attack_oneself_or_the_dead() -> None:
    state = fight(wilk=make_combatant("wilk", "foes", status="dead"))
    with pytest.raises(RuleViolation):
        step(state, DeclareAttack(actor="ala", target="ala", weapon="Szabla"))
    with pytest.raises(RuleViolation) as refused:
        step(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"))
    assert "nie żyje" in refused.value.message
    with pytest.raises(RuleViolation):
        step(fight(), DeclareAttack(actor="ala", target="wilk", weapon="Młot"))


# --- special attacks --------------------------------------------------------------------------


def test_odepchniecie_no_damage_forced_movement_one_metre_per_przebicie() -> None:
    ala = make_combatant("ala", position=(0, 0))
    wilk = make_combatant("wilk", "foes", position=(1, 0), sheet=UNARMED_WOLF)
    state, _, resolved = attack(
        fight(ala, wilk), Dice(6, 6, 6, 1, 1, 4, 1, 1, 1), special="odepchniecie"
    )
    assert resolved.hit and resolved.physical == 0 and resolved.stun == 0
    assert state.get("wilk").position == (3, 0)


def test_odepchniecie_into_another_creature_splits_the_stun_damage() -> None:
    ala = make_combatant("ala", position=(0, 0))
    wilk = make_combatant("wilk", "foes", position=(1, 0), sheet=UNARMED_WOLF)
    lis = make_combatant("lis", "foes", position=(2, 0))
    cmd = DeclareAttack(actor="ala", target="wilk", weapon="Szabla", special="odepchniecie")
    state, events = step(fight(ala, wilk, None, lis), cmd, Dice(6, 6, 6, 6, 1, 4, 1, 1, 1))
    assert state.get("wilk").position == (1, 0)  # 3 m push blocked at once by the fox
    hurt = {e.combatant: e.stun for e in of_type(events, HealthChanged)}
    assert hurt == {"wilk": 2, "lis": 2}  # 3 missing metres split, rounding up; no Wola


def test_odepchniecie_without_a_map_leaves_the_placing_to_the_gm() -> None:
    _, events = step(
        fight(),
        DeclareAttack(actor="ala", target="wilk", weapon="Szabla", special="odepchniecie"),
        Dice(6, 6, 6, 1, 1, 4, 1, 1, 1),
    )
    moved = of_type(events, Moved)[0]
    assert moved.forced and moved.metres == 2 and moved.path == ()


def test_schwytanie_immobilises_with_difficulty_sila_plus_przebicia() -> None:
    state, _, resolved = attack(fight(), Dice(6, 6, 6, 1, 1, 4, 1, 1, 1), special="schwytanie")
    grip = state.get("wilk").conditions[0]
    assert (grip.key, grip.source, grip.difficulty) == ("unieruchomienie", "ala", 2 + 2)
    assert resolved.physical == 0


def test_powalenie_prone_stun_per_przebicie_and_penalty_equal_to_target_krzepa() -> None:
    state, declared, resolved = attack(fight(), Dice(6, 6, 6, 4, 1, 1, 1), special="powalenie")
    assert reasons(declared.attack.modifiers)["Powalenie: Krzepa celu 2"] == -2
    assert state.get("wilk").has("powalenie")
    assert (resolved.przebicia, resolved.stun) == (2, 2 - 1)


def test_bron_do_walki_wrecz_is_ranged_only_when_thrown() -> None:
    stone = improvised_weapon("Kamień", "wrecz", damage_type=DamageType.STUN)
    ala = make_combatant("ala", sheet=make_sheet(weapons=(stone, SZABLA)))
    _, declared, _ = attack(fight(ala), random.Random(0), "Kamień", special="powalenie")
    assert not declared.attack.ranged  # in melee a stone strikes like a fist
    _, declared, _ = attack(fight(ala), random.Random(0), "Kamień", thrown=True)
    assert declared.attack.ranged
    with pytest.raises(RuleViolation) as refused:
        attack(fight(ala), random.Random(0), "Kamień", special="powalenie", thrown=True)
    assert refused.value.code == "atak_specjalny"
    with pytest.raises(RuleViolation) as refused:
        attack(fight(ala), random.Random(0), "Szabla", thrown=True)
    assert refused.value.code == "rzut"


def test_powalenie_and_other_melee_specials_refused_with_a_ranged_weapon() -> None:
    ala = make_combatant("ala", sheet=make_sheet(weapons=(LUK,)))
    with pytest.raises(RuleViolation) as refused:
        attack(fight(ala), random.Random(0), "Łuk", special="powalenie")
    assert refused.value.code == "atak_specjalny"


def test_oslepienie_minus_three_blinds_one_turn_plus_one_per_two_przebicia() -> None:
    ala = make_combatant("ala", sheet=make_sheet(skills={"bron_lekka": 6}))
    state, declared, resolved = attack(
        fight(ala), Dice(6, 6, 6, 6, 6, 1, 1, 1, 1, 1), special="oslepienie"
    )
    assert reasons(declared.attack.modifiers)["Oślepienie (atak)"] == -3
    blind = next(c for c in state.get("wilk").conditions if c.key == "oslepienie")
    assert resolved.przebicia == 5 and blind.remaining == 1 + 2
    assert resolved.physical == resolved.stun == 0


def test_atak_plazem_melee_minus_three_and_stun_instead_of_physical() -> None:
    ala = make_combatant("ala", sheet=make_sheet(skills={"bron_lekka": 6}))
    _, declared, resolved = attack(fight(ala), Dice(6, 6, 6, 6, 6, 4, 1, 1, 1), flat=True)
    assert reasons(declared.attack.modifiers)["Atak Płazem"] == -3
    assert resolved.damage_type == "ogluszajace" and resolved.stun == 2 + 4 - 1


def test_atak_plazem_ranged_cannot_start_bleeding_even_on_a_knockout() -> None:
    ala = make_combatant("ala", sheet=make_sheet(weapons=(LUK,), skills={"bron_lekka": 6}))
    wilk = make_combatant("wilk", "foes", sheet=UNARMED_WOLF, damage_physical=5)
    state, _, resolved = attack(fight(ala, wilk), Dice(6, 6, 6, 6, 6, 1, 1, 1, 1), "Łuk", flat=True)
    assert resolved.damage_type == "fizyczne" and not resolved.bleed
    assert state.get("wilk").status == "unconscious"
    assert not state.get("wilk").has("krwawienie")


def test_knockout_by_a_physical_hit_starts_krwawienie() -> None:
    wilk = make_combatant("wilk", "foes", sheet=UNARMED_WOLF, damage_physical=8)
    state, _, _ = attack(fight(wilk=wilk), Dice(6, 6, 6, 1, 1, 4, 1, 1, 1))
    assert state.get("wilk").status == "unconscious" and state.get("wilk").has("krwawienie")


def test_special_attack_effects_only_on_a_hit() -> None:
    _, events = step(
        fight(),
        DeclareAttack(actor="ala", target="wilk", weapon="Szabla", special="powalenie"),
        Dice(*[1] * 7),
    )
    assert not of_type(events, ConditionAdded)


def test_szal_plus_two_attack_minus_two_defence() -> None:
    frenzy = (ConditionInstance("szal"),)
    ala = make_combatant("ala", conditions=frenzy)
    wilk = make_combatant("wilk", "foes", sheet=UNARMED_WOLF, conditions=frenzy)
    _, declared, resolved = attack(fight(ala, wilk), random.Random(0))
    assert reasons(declared.attack.modifiers)["Szał"] == 2
    assert resolved.defence_roll is not None
    assert reasons(resolved.defence_roll.modifiers)["Szał"] == -2
