"""The 1 m grid: reach, Flankowanie, Osaczenie, Szarża, Trudny Teren, Ruch, Wymuszone Poruszanie."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from combat.rules.base import RuleViolation
from combat.rules.dice import Modifier, PoolRoll, replay_pool
from combat.rules.eleora.grid import (
    Body,
    Push,
    PushDamage,
    PushResult,
    RollWith,
    acrobatics_on_rough,
    adjacent,
    charge,
    check_path,
    climb,
    distance,
    evade,
    flanking,
    forced_movement,
    in_reach,
    movement_allowance,
    neighbours,
    osaczenie,
    path_cost,
    ride,
    run,
    step_towards,
    swim,
)
from combat.rules.eleora.settings import TableSettings

STANDARD = TableSettings()


def pool(*faces: int) -> PoolRoll:
    return replay_pool([Modifier(len(faces), "test")], faces, STANDARD.success_faces)


# --- geometry ----------------------------------------------------------------------------------


def test_odleglosc_diagonal_step_is_one_metre() -> None:
    assert distance((0, 0), (3, 3)) == 3
    assert distance((0, 0), (-2, 5)) == 5


def test_sasiedztwo_is_the_eight_surrounding_squares() -> None:
    around = neighbours((2, 2))
    assert len(set(around)) == 8 and (2, 2) not in around
    assert all(adjacent((2, 2), sq) for sq in around)
    assert not adjacent((2, 2), (2, 2)) and not adjacent((2, 2), (4, 2))


def test_zasieg_melee_is_an_adjacent_square() -> None:
    assert in_reach((0, 0), (1, 1))
    assert not in_reach((0, 0), (2, 0))
    assert in_reach((0, 0), (2, 0), reach=2)
    assert not in_reach((0, 0), (0, 0))
    with pytest.raises(ValueError, match="reach"):
        in_reach((0, 0), (1, 0), reach=0)


def test_push_direction_points_away_from_the_pusher() -> None:
    assert step_towards((0, 0), (3, -1)) == (1, -1)
    with pytest.raises(ValueError, match="itself"):
        step_towards((1, 1), (1, 1))


def test_path_steps_must_be_adjacent() -> None:
    with pytest.raises(ValueError, match="adjacent"):
        check_path([(0, 0), (2, 0)])
    with pytest.raises(ValueError, match="starting square"):
        check_path([])


# --- Flankowanie -------------------------------------------------------------------------------


def test_pelna_flanka_gives_two_dice() -> None:
    flank = flanking((0, 1), (1, 1), [(2, 1)])
    assert flank.kind == "pelna" and flank.ally == (2, 1)
    assert flank.modifier == Modifier(2, "Flankowanie pełne")


def test_pelna_flanka_works_across_a_diagonal() -> None:
    assert flanking((0, 0), (1, 1), [(2, 2)]).kind == "pelna"


@pytest.mark.parametrize("ally", [(2, 0), (2, 2), (1, 0), (1, 2)])
def test_pol_flanka_ally_beside_the_opposite_square_gives_one_die(ally: tuple[int, int]) -> None:
    flank = flanking((0, 1), (1, 1), [ally])
    assert flank.kind == "pol"
    assert flank.modifier == Modifier(1, "Pół-flanka")


def test_pol_flanka_across_a_diagonal_uses_the_two_squares_beside_it() -> None:
    assert flanking((0, 0), (1, 1), [(2, 1)]).kind == "pol"
    assert flanking((0, 0), (1, 1), [(1, 2)]).kind == "pol"
    assert flanking((0, 0), (1, 1), [(0, 2)]).kind is None  # beside the target, not the opposite


def test_flanka_only_allies_adjacent_to_the_target_count() -> None:
    # (3, 1) is beside the opposite square (2, 1) but not beside the target.
    assert flanking((0, 1), (1, 1), [(3, 1), (3, 2)]).modifier is None


def test_flanka_needs_the_attacker_adjacent() -> None:
    assert flanking((-1, 1), (1, 1), [(2, 1)]).kind is None


def test_flanka_best_single_bonus_no_stacking() -> None:
    flank = flanking((0, 1), (1, 1), [(2, 0), (2, 1), (2, 2)])
    assert flank.modifier is not None and flank.modifier.dice == 2


def test_flanka_bonuses_come_from_settings() -> None:
    settings = TableSettings(full_flank_bonus=3, half_flank_bonus=2)
    assert flanking((0, 1), (1, 1), [(2, 1)], settings).modifier == Modifier(3, "Flankowanie pełne")
    assert flanking((0, 1), (1, 1), [(2, 2)], settings).modifier == Modifier(2, "Pół-flanka")


# --- Osaczenie ---------------------------------------------------------------------------------


def test_osaczenie_needs_four_adjacent_enemies() -> None:
    three = [(0, 1), (1, 0), (2, 1)]
    assert osaczenie((1, 1), three) is None
    assert osaczenie((1, 1), [*three, (5, 5)]) is None  # far enemies do not count
    penalty = osaczenie((1, 1), [*three, (2, 2)])
    assert penalty is not None and penalty.dice == -2 and "Osaczenie" in penalty.reason


def test_osaczenie_threshold_and_penalty_are_settings() -> None:
    settings = TableSettings(surrounded_threshold=2, surrounded_penalty=1)
    penalty = osaczenie((1, 1), [(0, 1), (1, 0)], settings)
    assert penalty is not None and penalty.dice == -1


# --- Szarża and Trudny Teren -------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
        [(0, 0), (0, -1), (0, -2), (0, -3), (0, -4)],
        [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
    ],
)
def test_szarza_straight_line_gives_one_die_per_two_metres(path: list[tuple[int, int]]) -> None:
    result = charge(path)
    assert result.metres == 4 and result.end == path[-1]
    assert result.modifier == Modifier(2, "Szarża (4 m)")


def test_szarza_counts_only_full_two_metres() -> None:
    assert charge([(0, 0), (1, 0), (2, 0), (3, 0)]).modifier == Modifier(1, "Szarża (3 m)")
    assert charge([(0, 0), (1, 0)]).modifier is None


def test_szarza_must_be_a_straight_line() -> None:
    with pytest.raises(RuleViolation) as refused:
        charge([(0, 0), (1, 0), (2, 1)])
    assert refused.value.code == "szarza_nie_prosto"


def test_szarza_attack_must_target_someone_beside_the_end_square() -> None:
    path = [(0, 0), (1, 0), (2, 0)]
    assert charge(path, target=(3, 1)).metres == 2
    with pytest.raises(RuleViolation, match="obok pola"):
        charge(path, target=(5, 0))


def test_szarza_cap_from_settings() -> None:
    path = [(x, 0) for x in range(11)]
    assert charge(path).modifier == Modifier(5, "Szarża (10 m)")
    assert charge(path, settings=TableSettings(charge_cap=3)).modifier == Modifier(
        3, "Szarża (10 m)"
    )


def test_trudny_teren_each_metre_costs_two() -> None:
    path = [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert path_cost(path) == 3
    assert path_cost(path, difficult={(1, 0), (2, 0)}) == 5
    assert path_cost(path, difficult={(0, 0)}) == 3  # leaving rough ground costs nothing extra


def test_ruch_base_three_metres_obalony_one_unieruchomiony_zero() -> None:
    assert movement_allowance() == 3
    assert movement_allowance(prone=True) == 1
    assert movement_allowance(immobilized=True, prone=True) == 0
    assert movement_allowance(base=1) == 1  # e.g. a leg fracture: Podstawowy Ruch −2
    assert movement_allowance(TableSettings(base_movement=4, prone_movement=2), prone=True) == 2


# --- Ruch with a skill -------------------------------------------------------------------------


def test_bieg_adds_a_metre_per_success() -> None:
    result = run(pool(6, 4, 1))
    assert result.metres == 5 and not result.wasted and result.roll is not None


def test_bieg_critical_failure_wastes_the_action() -> None:
    result = run(pool(1, 2, 3))
    assert result.wasted and result.metres == 0 and not result.prone


def test_bieg_critical_failure_on_trudny_teren_knocks_prone() -> None:
    result = run(pool(2, 3), on_difficult_terrain=True)
    assert result.wasted and result.prone and "Obalony" in result.explanation


def test_bieg_critical_failure_option_needs_a_one() -> None:
    settings = TableSettings(critical_failure_needs_one=True)
    assert not run(pool(2, 3), settings=settings).wasted
    assert run(pool(1, 3), settings=settings).wasted


def test_bieg_rolls_through_injected_rng() -> None:
    first = run(RollWith(random.Random(5), (Modifier(4, "Bieganie"),)))
    second = run(RollWith(random.Random(5), (Modifier(4, "Bieganie"),)))
    assert first == second and first.roll is not None and first.roll.size == 4


def test_plywanie_pass_three_metres_plus_przebicia() -> None:
    assert swim(pool(5, 6, 2)).metres == 4  # 2 successes vs difficulty 1: 1 przebicie
    assert swim(pool(5, 6, 6), difficulty=2).metres == 4


def test_plywanie_fail_not_afloat_two_stun() -> None:
    result = swim(pool(1, 2))
    assert not result.afloat and result.stun_damage == 2 and result.metres == 0


def test_wspinaczka_pass_three_metres_plus_przebicia() -> None:
    assert climb(pool(4, 5, 6), difficulty=1, fall_metres=4).metres == 5


def test_wspinaczka_fail_falls_one_stun_per_metre() -> None:
    result = climb(pool(4, 1), difficulty=2, fall_metres=4)
    assert result.fell and result.stun_damage == 4 and result.metres == 0
    with pytest.raises(ValueError, match="fall"):
        climb(pool(4), difficulty=1, fall_metres=-1)
    with pytest.raises(ValueError, match="difficulty"):
        climb(pool(4), difficulty=-1, fall_metres=1)


def test_jazda_pace_plus_a_metre_per_jezdziectwo_success() -> None:
    assert ride(6).metres == 6
    assert ride(6, pool(4, 5, 1)).metres == 8
    with pytest.raises(ValueError, match="pace"):
        ride(-1)


def test_jazda_critical_failure_falls_off_prone() -> None:
    result = ride(6, pool(1, 1))
    assert result.fell and result.prone and result.metres == 0


def test_akrobatyka_on_trudny_teren_difficulty_two_plus_metre_per_przebicie() -> None:
    assert acrobatics_on_rough(pool(4, 5, 6, 6)).metres == 5
    assert acrobatics_on_rough(pool(4, 1, 1)).metres == 3


def test_ucieczka_one_metre_plus_one_per_two_successes() -> None:
    assert evade().metres == 1
    assert evade(pool(4, 5, 6, 1)).metres == 2


# --- Wymuszone Poruszanie ----------------------------------------------------------------------


def push(
    bodies: Sequence[Body], pushes: Sequence[Push], walls: Sequence[tuple[int, int]] = ()
) -> PushResult:
    return forced_movement(bodies, pushes, walls)


def test_wymuszone_poruszanie_free_path_moves_full_distance() -> None:
    result = push([Body("a", (0, 0))], [Push("a", (1, 1), 3)])
    assert result.positions["a"] == (3, 3) and result.moved["a"] == 3 and result.damage == ()


def test_wymuszone_poruszanie_blocked_metre_deals_one_stun_each() -> None:
    result = push([Body("a", (0, 0))], [Push("a", (1, 0), 3)], walls=[(2, 0)])
    assert result.positions["a"] == (1, 0)
    assert result.damage == (PushDamage("a", 2, 1, "uderzenie w przeszkodę"),)


def test_wymuszone_poruszanie_creature_in_path_splits_damage_rounding_up() -> None:
    result = push([Body("a", (0, 0)), Body("b", (1, 0))], [Push("a", (1, 0), 3)])
    assert result.positions == {"a": (0, 0), "b": (1, 0)}
    assert [(d.target, d.amount, d.rule) for d in result.damage] == [("a", 2, 2), ("b", 2, 2)]


def test_wymuszone_poruszanie_creature_in_path_even_split() -> None:
    result = push([Body("a", (0, 0)), Body("b", (1, 0))], [Push("a", (1, 0), 4)])
    assert [d.amount for d in result.damage] == [2, 2]


def test_wymuszone_poruszanie_moved_object_hits_character_full_stun() -> None:
    result = push(
        [Body("beczka", (0, 0), living=False), Body("b", (3, 0))], [Push("beczka", (1, 0), 5)]
    )
    assert result.positions["beczka"] == (2, 0)
    assert result.damage == (PushDamage("b", 3, 3, "trafiony przesuniętym przedmiotem", "beczka"),)


def test_wymuszone_poruszanie_creature_into_object_takes_it_all() -> None:
    result = push([Body("a", (0, 0)), Body("stol", (1, 0), living=False)], [Push("a", (1, 0), 2)])
    assert result.damage == (PushDamage("a", 2, 1, "uderzenie w przedmiot", "stol"),)


def test_wymuszone_poruszanie_objects_take_no_stun() -> None:
    bodies = [Body("skrzynia", (0, 0), living=False), Body("stol", (1, 0), living=False)]
    result = push(bodies, [Push("skrzynia", (1, 0), 2)], walls=[(-1, 0)])
    assert result.damage == () and result.positions["skrzynia"] == (0, 0)


def test_wymuszone_poruszanie_collision_half_missing_rounded_up() -> None:
    result = push(
        [Body("a", (0, 0)), Body("b", (2, 0))], [Push("a", (1, 0), 3), Push("b", (-1, 0), 2)]
    )
    assert result.positions == {"a": (0, 0), "b": (2, 0)}  # neither moves
    assert [(d.target, d.amount, d.rule, d.other) for d in result.damage] == [
        ("a", 2, 4, "b"),
        ("b", 1, 4, "a"),
    ]


def test_wymuszone_poruszanie_collision_rounding_is_a_setting() -> None:
    bodies = [Body("a", (0, 0)), Body("b", (2, 0)), Body("c", (1, 1))]
    pushes = [Push("a", (1, 0), 3), Push("b", (-1, 0), 3), Push("c", (0, -1), 1)]
    result = forced_movement(bodies, pushes, collision_rounding="down")
    assert {d.target: d.amount for d in result.damage} == {"a": 1, "b": 1}  # c: half of 1 → 0
    assert {d.target: d.other for d in result.damage} == {"a": "b, c", "b": "a, c"}


def test_wymuszone_poruszanie_swapping_squares_is_a_collision() -> None:
    result = push(
        [Body("a", (0, 0)), Body("b", (1, 0))], [Push("a", (1, 0), 1), Push("b", (-1, 0), 1)]
    )
    assert result.positions == {"a": (0, 0), "b": (1, 0)}
    assert {d.rule for d in result.damage} == {4}


def test_wymuszone_poruszanie_train_moves_together() -> None:
    bodies = [Body("a", (0, 0)), Body("b", (1, 0))]
    result = push(bodies, [Push("a", (1, 0), 2), Push("b", (1, 0), 2)])
    assert result.positions == {"a": (2, 0), "b": (3, 0)} and result.damage == ()


def test_wymuszone_poruszanie_rotation_of_three_moves() -> None:
    bodies = [Body("a", (0, 0)), Body("b", (1, 0)), Body("c", (1, 1))]
    pushes = [Push("a", (1, 0), 1), Push("b", (0, 1), 1), Push("c", (-1, -1), 1)]
    result = push(bodies, pushes)
    assert result.positions == {"a": (1, 0), "b": (1, 1), "c": (0, 0)} and result.damage == ()


def test_wymuszone_poruszanie_chain_stops_behind_a_blocked_body() -> None:
    bodies = [Body("a", (0, 0)), Body("b", (1, 0))]
    result = push(bodies, [Push("a", (1, 0), 2), Push("b", (1, 0), 3)], walls=[(3, 0)])
    assert result.positions == {"a": (1, 0), "b": (2, 0)}
    assert [(d.target, d.amount, d.rule) for d in result.damage] == [
        ("b", 2, 1),
        ("a", 1, 2),
        ("b", 1, 2),
    ]


@pytest.mark.parametrize(
    ("bodies", "pushes", "walls", "message"),
    [
        ([Body("a", (0, 0)), Body("a", (1, 0))], [], [], "share a key"),
        ([Body("a", (0, 0)), Body("b", (0, 0))], [], [], "one square"),
        ([Body("a", (0, 0))], [], [(0, 0)], "inside a wall"),
        ([Body("a", (0, 0))], [Push("x", (1, 0), 1)], [], "nothing called"),
        ([Body("a", (0, 0))], [Push("a", (1, 0), 1), Push("a", (0, 1), 1)], [], "pushed twice"),
        ([Body("a", (0, 0))], [Push("a", (2, 0), 1)], [], "unit step"),
        ([Body("a", (0, 0))], [Push("a", (1, 0), -1)], [], "negative"),
    ],
)
def test_wymuszone_poruszanie_rejects_bad_input(
    bodies: list[Body], pushes: list[Push], walls: list[tuple[int, int]], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        forced_movement(bodies, pushes, walls)
