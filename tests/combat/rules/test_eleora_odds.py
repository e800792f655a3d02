"""Eleora attack odds per defender option, checked against enumeration of every face."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.dice import Modifier, roll_pool
from combat.rules.eleora.odds import (
    attack_odds,
    hit_odds,
    przebicia_for,
    reduction_for,
    skill_test_odds,
    standard_defence_pools,
)
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import DamageType

STANDARD = TableSettings()


def brute_damage(
    attack: int, defence: int, weapon: int, reduction: int, settings: TableSettings
) -> tuple[Fraction, Counter[int], Counter[int]]:
    """P(hit), przebicia counts and damage counts over every face of both pools."""
    faces = settings.success_faces
    przebicia: Counter[int] = Counter()
    damage: Counter[int] = Counter()
    hits = 0
    for seq in product(range(1, 7), repeat=attack + defence):
        margin = sum(f in faces for f in seq[:attack]) - sum(f in faces for f in seq[attack:])
        hit = margin > 0 or (margin == 0 and settings.tie_goes_to == "attacker")
        if not hit:
            damage[0] += 1
            continue
        hits += 1
        extra = margin if settings.przebicia_mode == "margin" else max(0, margin - 1)
        przebicia[extra] += 1
        damage[max(0, weapon + extra - reduction)] += 1
    return Fraction(hits, 6 ** (attack + defence)), przebicia, damage


@pytest.mark.parametrize(
    "settings",
    [
        STANDARD,
        TableSettings(tie_goes_to="attacker"),
        TableSettings(przebicia_mode="margin_minus_one"),
        TableSettings(success_faces=frozenset({5, 6})),
    ],
)
def test_atak_damage_is_weapon_plus_przebicia_minus_pancerz(settings: TableSettings) -> None:
    pools = {"brak": 2, "parowanie": 3, "unik": 1}
    odds = attack_odds(3, pools, 2, DamageType.PHYSICAL, 1, settings)
    assert list(odds.options) == ["brak", "parowanie", "unik"]
    for option, defence in pools.items():
        p_hit, przebicia, damage = brute_damage(3, defence, 2, 1, settings)
        total = 6 ** (3 + defence)
        got = odds.options[option]
        assert got.hit.p_hit == pytest.approx(float(p_hit), abs=1e-12)
        for k, count in przebicia.items():
            assert got.hit.przebicia[k] == pytest.approx(count / total, abs=1e-12)
        for value, count in damage.items():
            assert got.damage[value] == pytest.approx(count / total, abs=1e-12)
        expected = sum(v * c for v, c in damage.items()) / total
        assert got.expected_damage == pytest.approx(expected, abs=1e-12)


def test_atak_tie_is_a_miss_by_default() -> None:
    p_tie_hits = hit_odds(1, {"brak": 1}, TableSettings(tie_goes_to="attacker"))["brak"].p_hit
    p_default = hit_odds(1, {"brak": 1})["brak"].p_hit
    assert p_default == pytest.approx(0.25)  # only a success against a failure hits
    assert p_tie_hits == pytest.approx(0.75)  # ties (both or neither succeed) hit as well


def test_przebicia_mode_margin_minus_one_drops_the_first_winning_success() -> None:
    assert przebicia_for(3, "margin") == 3
    assert przebicia_for(3, "margin_minus_one") == 2
    assert przebicia_for(0, "margin_minus_one") == 0


def test_obrazenia_reduced_to_zero_not_below() -> None:
    odds = attack_odds(2, {"brak": 0}, 1, DamageType.PHYSICAL, 5)
    assert odds.options["brak"].damage.as_dict() == {0: pytest.approx(1.0)}
    assert odds.options["brak"].expected_damage == 0.0


def test_pancerz_stops_physical_and_wola_stops_stun() -> None:
    assert reduction_for(DamageType.PHYSICAL, pancerz=3, wola=1) == 3
    assert reduction_for(DamageType.STUN, pancerz=3, wola=1) == 1


def test_nieprzytomny_target_is_hit_automatically() -> None:
    odds = attack_odds(2, {"brak": 9}, 2, DamageType.PHYSICAL, 0, auto_hit=True)
    option = odds.options["brak"]
    assert option.hit.p_hit == 1.0
    # The target rolls no Obrona: each attack success is a przebicie (DEFAULT).
    assert option.hit.przebicia.as_dict() == {0: 0.25, 1: 0.5, 2: 0.25}
    assert option.damage.as_dict() == {2: 0.25, 3: 0.5, 4: 0.25}
    assert option.expected_damage == pytest.approx(3.0)


def test_nieprzytomny_auto_hit_can_ignore_successes() -> None:
    odds = attack_odds(
        4, {"brak": 2}, 3, DamageType.STUN, 1, auto_hit=True, auto_hit_counts_successes=False
    )
    assert odds.options["brak"].damage.as_dict() == {2: 1.0}


def test_nieprzytomny_auto_hit_respects_przebicia_mode() -> None:
    settings = TableSettings(przebicia_mode="margin_minus_one")
    hit = hit_odds(2, {"brak": 0}, settings, auto_hit=True)["brak"]
    assert hit.przebicia.as_dict() == {0: 0.75, 1: 0.25}


def test_parowanie_adds_one_or_shield_and_unik_adds_zrecznosc() -> None:
    assert standard_defence_pools(4, 2) == {"brak": 4, "parowanie": 5, "unik": 6}
    assert standard_defence_pools(4, 2, shield_bonus=2)["parowanie"] == 6


def test_pool_reduced_below_zero_rolls_no_dice() -> None:
    hit = hit_odds(-2, {"osaczony": -3})["osaczony"]
    assert (hit.attack_dice, hit.defence_dice, hit.p_hit) == (0, 0, 0.0)


def test_atak_specjalny_scales_per_przebicie() -> None:
    # Oślepienie: blinded 1 turn, +1 turn per two przebicia; no damage, only the przebicia.
    hit = hit_odds(4, {"brak": 1})["brak"]
    turns = hit.przebicia.map_values(lambda k: 1 + k // 2)
    assert turns.total() == pytest.approx(hit.p_hit)
    assert turns[1] == pytest.approx(hit.przebicia[1])
    assert turns[3] == pytest.approx(hit.przebicia[4])


def test_atak_matches_seeded_simulation_with_roll_pool() -> None:
    rng, samples = random.Random(99), 40_000
    faces = STANDARD.success_faces
    total = 0
    for _ in range(samples):
        a = roll_pool(rng, [Modifier(8, "Zręczność + Broń Lekka")], faces).successes
        d = roll_pool(rng, [Modifier(6, "Obrona")], faces).successes
        total += max(0, 2 + (a - d) - 1) if a > d else 0
    odds = attack_odds(8, {"brak": 6}, 2, DamageType.PHYSICAL, 1)
    assert total / samples == pytest.approx(odds.options["brak"].expected_damage, abs=0.03)


def test_test_umiejetnosci_odds_use_table_settings() -> None:
    odds = skill_test_odds(2, 1, TableSettings(critical_failure_needs_one=True))
    assert odds.p_pass == pytest.approx(0.75)
    assert odds.p_critical_failure == pytest.approx(0.25 - (2 / 6) ** 2)
    assert skill_test_odds(-1, 0).dice == 0


def test_atak_needs_a_defender_option_and_sane_numbers() -> None:
    with pytest.raises(ValueError, match="defender option"):
        hit_odds(3, {})
    with pytest.raises(ValueError, match="negative"):
        attack_odds(3, {"brak": 2}, -1, DamageType.PHYSICAL, 0)


@given(
    attack=st.integers(0, 30),
    pools=st.dictionaries(
        st.sampled_from(["brak", "parowanie", "unik"]), st.integers(0, 30), min_size=1
    ),
    weapon=st.integers(0, 6),
    reduction=st.integers(0, 6),
    tie=st.sampled_from(["defender", "attacker"]),
    mode=st.sampled_from(["margin", "margin_minus_one"]),
)
def test_atak_distributions_sum_to_one(
    attack: int, pools: dict[str, int], weapon: int, reduction: int, tie: str, mode: str
) -> None:
    settings = TableSettings(tie_goes_to=tie, przebicia_mode=mode)  # type: ignore[arg-type]
    odds = attack_odds(attack, pools, weapon, DamageType.PHYSICAL, reduction, settings)
    for option in odds.options.values():
        assert abs(option.damage.total() - 1) < 1e-9
        assert abs(option.hit.przebicia.total() - option.hit.p_hit) < 1e-9
        assert all(-1e-12 <= p <= 1 + 1e-12 for p in option.damage.probs)


@given(attack=st.integers(0, 29), defence=st.integers(0, 30), weapon=st.integers(0, 4))
def test_atak_more_dice_never_lower_hit_chance_or_damage(
    attack: int, defence: int, weapon: int
) -> None:
    pools = standard_defence_pools(defence, 2)
    low = attack_odds(attack, pools, weapon, DamageType.STUN, 1)
    high = attack_odds(attack + 1, pools, weapon, DamageType.STUN, 1)
    for name in pools:
        assert high.options[name].hit.p_hit >= low.options[name].hit.p_hit - 1e-12
        assert high.options[name].expected_damage >= low.options[name].expected_damage - 1e-12
