"""Exact d100 odds: tests and whole attacks agree with brute-force enumerations of the rolls
through the same functions the engine uses (`check.make_test`, `defence_beats_hit`, …)."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from combat.rules.d100 import odds
from combat.rules.d100.check import (
    CRIT_BAD,
    CRIT_LUCK,
    LEVELS,
    TestRoll,
    after_armour,
    defence_beats_hit,
    level_of,
    make_test,
    raw_damage,
    soaked,
)
from combat.rules.d100.settings import D100Settings

S = D100Settings()
ROLLS = range(1, 101)


def _test(threshold: int, roll: int, s: D100Settings = S) -> TestRoll:
    return make_test(s, label="x", attribute="", base=threshold, roll=roll)


def test_distribution_at_fifty() -> None:
    p = odds.test_distribution(50, S)
    assert p == pytest.approx(
        {"crit_luck": 0.05, "ordinary": 0.40, "minimal": 0.05, "failure": 0.45, "crit_bad": 0.05}
    )
    assert odds.success_chance(50, S) == pytest.approx(0.5)


def test_distribution_crit_bands_hold_at_extreme_thresholds() -> None:
    assert odds.success_chance(-20, S) == pytest.approx(0.05)
    assert odds.success_chance(300, S) == pytest.approx(0.95)
    assert odds.test_distribution(300, S)["crit_bad"] == pytest.approx(0.05)


@given(st.integers(-100, 300))
def test_distribution_sums_to_one_and_agrees_with_level_of(threshold: int) -> None:
    p = odds.test_distribution(threshold, S)
    assert set(p) == set(LEVELS) and sum(p.values()) == pytest.approx(1.0)
    for level in LEVELS:
        expected = sum(1 for roll in ROLLS if level_of(roll, threshold, S) == level) / 100
        assert p[level] == pytest.approx(expected)


@given(st.integers(-50, 250))
def test_oop_distribution_agrees_with_brute_force(threshold: int) -> None:
    expected: dict[int, float] = defaultdict(float)
    for roll in ROLLS:
        expected[_test(threshold, roll).margin] += 0.01
    got = odds.oop_distribution(threshold, S)
    assert got == pytest.approx(dict(expected)) and sum(got.values()) == pytest.approx(1.0)


def _brute_attack(
    s: D100Settings,
    hit: int,
    damage: int,
    defence: int | None,
    resistance: int | None,
    armour: int,
    crits: bool,
) -> dict[str, object]:
    """Every roll enumerated through the engine's functions (the damage and resistance pair
    apart from the hit and defence pair: they are independent)."""
    plain = negated = avoided = d_luck = d_bad = 0  # over hit · defence · d6 (100·100·6)
    for hit_roll in ROLLS:
        h = _test(hit, hit_roll, s)
        if not h.success:
            continue
        for defence_roll in ROLLS if defence is not None else (None,):
            weight = 100 if defence_roll is None else 1
            if defence_roll is not None and defence is not None:
                d = _test(defence, defence_roll, s)
                d_luck += (d.level == CRIT_LUCK) * 6
                d_bad += (d.level == CRIT_BAD) * 6
                if defence_beats_hit(h, d, s):
                    avoided += 6
                    continue
            for face in range(1, 7):
                if crits and h.level == CRIT_LUCK and face == 1:
                    negated += weight
                else:
                    plain += weight
    raw: dict[int, int] = defaultdict(int)  # over damage · resistance (100·100)
    for damage_roll in ROLLS:
        dealt = raw_damage(_test(damage, damage_roll, s), s)
        for resistance_roll in ROLLS:
            r = _test(resistance, resistance_roll, s) if resistance is not None else None
            raw[soaked(dealt, r, s)] += 1
    final: dict[int, int] = defaultdict(int)
    for value, n in raw.items():
        final[after_armour(value, armour)] += plain * n
        final[after_armour(value, armour, negated=True)] += negated * n
    total = 100 * 100 * 6 * 100 * 100
    final[0] += total - (plain + negated) * 100 * 100
    return {
        "lands": (plain + negated) / (100 * 100 * 6),
        "avoided": avoided / (100 * 100 * 6),
        "armour_negated": negated / (100 * 100 * 6),
        "defence_crit_luck": d_luck / (100 * 100 * 6),
        "defence_crit_bad": d_bad / (100 * 100 * 6),
        "damage": {value: n / total for value, n in final.items() if n},
    }


@hsettings(max_examples=12, deadline=None)
@given(
    hit=st.integers(-10, 160),
    damage=st.integers(-10, 160),
    defence=st.one_of(st.none(), st.integers(-10, 160)),
    resistance=st.one_of(st.none(), st.integers(-10, 160)),
    armour=st.sampled_from([0, 10, 20, 30, 40]),
    crits=st.booleans(),
    tie=st.booleans(),
)
def test_attack_odds_agree_with_a_brute_force_enumeration(
    hit: int,
    damage: int,
    defence: int | None,
    resistance: int | None,
    armour: int,
    crits: bool,
    tie: bool,
) -> None:
    s = replace(S, tie_to_defender=tie)
    got = odds.attack_odds(
        s,
        hit=hit,
        damage=damage,
        defence=defence,
        resistance=resistance,
        armour=armour,
        crits=crits,
    )
    expected = _brute_attack(s, hit, damage, defence, resistance, armour, crits)
    assert got.lands == pytest.approx(expected["lands"])
    assert got.avoided == pytest.approx(expected["avoided"])
    assert got.armour_negated == pytest.approx(expected["armour_negated"])
    assert got.defence_crit_luck == pytest.approx(expected["defence_crit_luck"])
    assert got.defence_crit_bad == pytest.approx(expected["defence_crit_bad"])
    assert dict(got.damage) == pytest.approx(expected["damage"])
    assert sum(got.damage.values()) == pytest.approx(1.0)
    assert got.hit == pytest.approx(got.lands + got.avoided)


def test_attack_odds_without_defence_fully_enumerated() -> None:
    """Hit · d6 · damage rolled one by one, nothing factored."""
    s = S
    final: dict[int, int] = defaultdict(int)
    for hit_roll in ROLLS:
        h = _test(55, hit_roll)
        for face in range(1, 7):
            for damage_roll in ROLLS:
                if not h.success:
                    final[0] += 1
                    continue
                value = raw_damage(_test(65, damage_roll), s)
                final[after_armour(value, 30, negated=h.level == CRIT_LUCK and face == 1)] += 1
    got = odds.attack_odds(s, hit=55, damage=65, armour=30)
    assert dict(got.damage) == pytest.approx({v: n / 60000 for v, n in final.items()})
    assert got.expected_damage == pytest.approx(sum(v * n for v, n in final.items()) / 60000)


def test_attack_odds_crit_probabilities() -> None:
    got = odds.attack_odds(S, hit=55, damage=65, defence=40, resistance=35, armour=30)
    assert (got.hit, got.hit_crit_luck, got.hit_crit_bad) == pytest.approx((0.55, 0.05, 0.05))
    assert got.armour_negated == pytest.approx(0.05 / 6)  # a crit-luck hit always lands
    assert got.damage_crit_luck == pytest.approx(got.lands * 0.05)
    assert got.damage_crit_bad == pytest.approx(got.lands * 0.05)
    assert got.defence_crit_luck == pytest.approx(0.55 * 0.05)
    assert got.knockout is None


def test_attack_odds_no_defence_nothing_avoided() -> None:
    got = odds.attack_odds(S, hit=50, damage=50)
    assert got.avoided == 0 and got.lands == pytest.approx(0.5)
    assert got.defence_crit_luck == got.defence_crit_bad == 0


def test_attack_odds_crits_follow_the_settings() -> None:
    assert odds.attack_odds(S, hit=50, damage=50, armour=20).armour_negated > 0
    off = replace(S, optional_crits=False)
    assert odds.attack_odds(off, hit=50, damage=50, armour=20).armour_negated == 0
    high = replace(off, difficulty="high")
    assert odds.attack_odds(high, hit=50, damage=50, armour=20).armour_negated > 0


def test_attack_odds_resistance_follows_the_setting() -> None:
    with_soak = odds.attack_odds(S, hit=50, damage=80, resistance=60)
    without = odds.attack_odds(replace(S, resistance_roll=False), hit=50, damage=80, resistance=60)
    assert without.expected_damage > with_soak.expected_damage
    plain = odds.attack_odds(S, hit=50, damage=80)
    assert without.expected_damage == pytest.approx(plain.expected_damage)


def test_attack_odds_knockout() -> None:
    got = odds.attack_odds(S, hit=60, damage=70, target_pz=100)
    assert got.knockout == pytest.approx(sum(p for v, p in got.damage.items() if v >= 100))
    assert odds.attack_odds(S, hit=60, damage=70, target_pz=0).knockout == pytest.approx(1.0)


def test_attack_odds_warm_within_a_millisecond() -> None:
    odds.clear_caches()
    start = time.perf_counter()
    odds.attack_odds(S, hit=57, damage=63, defence=41, resistance=38, armour=30, target_pz=80)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(200):
        odds.attack_odds(S, hit=57, damage=63, defence=41, resistance=38, armour=30, target_pz=80)
    warm = (time.perf_counter() - start) / 200
    assert warm < 0.001
    assert cold < 0.1  # measured about 2 ms
