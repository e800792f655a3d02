"""Generic d6 pool odds: exact against brute force, close to a seeded simulation, and sane."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.odds import (
    Distribution,
    contest_odds,
    contest_odds_exact,
    difficulty_odds,
    difficulty_odds_exact,
    success_chance,
    successes_pmf,
    successes_pmf_exact,
)

FACES_456 = frozenset({4, 5, 6})
FACES_56 = frozenset({5, 6})
face_sets = st.frozensets(st.integers(1, 6), min_size=1)
pools = st.integers(0, 30)


def brute_successes(dice: int, faces: frozenset[int]) -> Counter[int]:
    """Count, over every sequence of faces, how many successes it shows (6**dice sequences)."""
    return Counter(sum(f in faces for f in seq) for seq in product(range(1, 7), repeat=dice))


def brute_contest(attack: int, defence: int, faces: frozenset[int]) -> dict[int, Fraction]:
    """P(margin) by enumerating both pools' faces together."""
    counts: Counter[int] = Counter()
    for seq in product(range(1, 7), repeat=attack + defence):
        a = sum(f in faces for f in seq[:attack])
        d = sum(f in faces for f in seq[attack:])
        counts[a - d] += 1
    total = 6 ** (attack + defence)
    return {m: Fraction(c, total) for m, c in counts.items()}


def simulate_contest(
    rng: random.Random, attack: int, defence: int, faces: frozenset[int], samples: int
) -> Counter[int]:
    """Roll both pools `samples` times with uniform d6 from the seeded RNG; count margins."""
    success = bytes(1 if b % 6 + 1 in faces else 0 for b in range(252))
    need = samples * (attack + defence)
    flags = b""
    while len(flags) < need:
        chunk = rng.randbytes(need)
        kept = chunk.translate(None, bytes(range(252, 256)))  # rejection keeps d6 uniform
        flags += kept.translate(success + bytes(4))
    margins: Counter[int] = Counter()
    width = attack + defence
    for i in range(samples):
        row = flags[i * width : (i + 1) * width]
        margins[row[:attack].count(1) - row[attack:].count(1)] += 1
    return margins


# --- pools and tests vs difficulty -------------------------------------------------------------


def test_pula_zero_kosci_rolls_no_successes() -> None:
    assert successes_pmf(0, FACES_456).as_dict() == {0: 1.0}
    odds = difficulty_odds_exact(0, 1, FACES_456)
    assert odds.p_pass == 0 and odds.p_critical_failure == 0


@pytest.mark.parametrize(
    "faces", [FACES_456, FACES_56, frozenset({6}), frozenset({1, 2, 3, 4, 5, 6})]
)
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
def test_sukcesy_pmf_matches_enumeration_of_all_faces(dice: int, faces: frozenset[int]) -> None:
    counts = brute_successes(dice, faces)
    exact = successes_pmf_exact(dice, faces)
    assert exact.as_dict(drop_zero=True) == {k: Fraction(c, 6**dice) for k, c in counts.items()}
    floats = successes_pmf(dice, faces)
    assert all(abs(floats[k] - float(exact[k])) < 1e-15 for k in range(dice + 1))


@pytest.mark.parametrize("difficulty", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("dice", [0, 1, 3, 4])
def test_test_trudnosci_pass_needs_successes_at_least_difficulty(
    dice: int, difficulty: int
) -> None:
    counts = brute_successes(dice, FACES_456)
    total = 6**dice
    odds = difficulty_odds_exact(dice, difficulty, FACES_456)
    assert odds.p_pass == Fraction(sum(c for k, c in counts.items() if k >= difficulty), total)
    assert odds.p_pass + odds.p_fail == 1
    assert odds.margin.total() == 1


def test_przebicia_are_successes_minus_difficulty() -> None:
    counts = brute_successes(4, FACES_456)
    odds = difficulty_odds_exact(4, 2, FACES_456)
    for przebicia in range(3):
        assert odds.przebicia[przebicia] == Fraction(counts[2 + przebicia], 6**4)
        assert odds.margin[przebicia] == odds.przebicia[przebicia]
    assert odds.margin[-2] == Fraction(counts[0], 6**4)
    assert odds.przebicia.total() == odds.p_pass


def test_test_trudnosci_harder_than_pool_never_passes() -> None:
    odds = difficulty_odds(2, 3, FACES_456)
    assert odds.p_pass == 0.0 and odds.przebicia.as_dict() == {}
    assert odds.p_fail == pytest.approx(1.0)


def test_krytyczna_porazka_is_zero_successes_on_rolled_pool() -> None:
    counts = brute_successes(3, FACES_56)
    odds = difficulty_odds_exact(3, 1, FACES_56)
    assert odds.p_critical_failure == Fraction(counts[0], 6**3)
    assert difficulty_odds(3, 1, FACES_56).p_critical_failure == pytest.approx(8 / 27)


@pytest.mark.parametrize("faces", [FACES_456, FACES_56])
def test_krytyczna_porazka_option_needs_a_one_showing(faces: frozenset[int]) -> None:
    hits = sum(
        1 for seq in product(range(1, 7), repeat=3) if not any(f in faces for f in seq) and 1 in seq
    )
    odds = difficulty_odds_exact(3, 1, faces, critical_needs_one=True)
    assert odds.p_critical_failure == Fraction(hits, 6**3)


def test_krytyczna_porazka_needing_a_one_impossible_when_one_succeeds() -> None:
    odds = difficulty_odds_exact(3, 1, frozenset({1, 6}), critical_needs_one=True)
    assert odds.p_critical_failure == 0


# --- contested tests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defence"), [(0, 0), (1, 0), (0, 2), (1, 1), (2, 1), (3, 3), (2, 4), (4, 2)]
)
def test_test_sporny_margin_matches_enumeration_of_all_faces(attack: int, defence: int) -> None:
    expected = brute_contest(attack, defence, FACES_456)
    exact = contest_odds_exact(attack, defence, FACES_456)
    assert exact.margin.as_dict() == expected
    floats = contest_odds(attack, defence, FACES_456)
    assert all(abs(floats.margin[m] - float(p)) < 1e-12 for m, p in expected.items())


def test_test_sporny_4_vs_4_matches_independent_enumeration() -> None:
    # Each pool enumerated face by face; the pools are independent, so combine the counts.
    att, dfn = brute_successes(4, FACES_56), brute_successes(4, FACES_56)
    expected: Counter[int] = Counter()
    for a, ca in att.items():
        for d, cd in dfn.items():
            expected[a - d] += ca * cd
    exact = contest_odds_exact(4, 4, FACES_56)
    assert exact.margin.as_dict() == {m: Fraction(c, 6**8) for m, c in expected.items()}


@pytest.mark.parametrize(("attack", "defence"), [(1, 1), (3, 2), (2, 3), (4, 4)])
def test_test_sporny_attacker_needs_more_successes(attack: int, defence: int) -> None:
    margins = brute_contest(attack, defence, FACES_456) if attack + defence <= 6 else None
    exact = contest_odds_exact(attack, defence, FACES_456)
    expected = sum(p for m, p in exact.margin.items() if m > 0)
    if margins is not None:
        assert expected == sum(p for m, p in margins.items() if m > 0)
    assert exact.p_win == expected
    assert exact.przebicia[0] == 0  # a tie is a miss, so no win has 0 przebicia
    for k in range(1, attack + 1):
        assert exact.przebicia[k] == exact.margin[k]


def test_test_sporny_tie_goes_to_defender_by_default() -> None:
    default = contest_odds_exact(2, 2, FACES_456)
    assert default.tie_goes_to == "defender"
    assert default.p_win == sum(p for m, p in brute_contest(2, 2, FACES_456).items() if m > 0)


def test_test_sporny_tie_rule_attacker_wins_ties_with_zero_przebicia() -> None:
    exact = contest_odds_exact(2, 2, FACES_456, "attacker")
    margins = brute_contest(2, 2, FACES_456)
    assert exact.p_win == sum(p for m, p in margins.items() if m >= 0)
    assert exact.przebicia[0] == margins[0]
    assert exact.przebicia.total() == exact.p_win


def test_test_sporny_matches_seeded_simulation_25_vs_25() -> None:
    samples = 200_000
    counts = simulate_contest(random.Random(20240611), 25, 25, FACES_456, samples)
    odds = contest_odds(25, 25, FACES_456)
    assert sum(c for m, c in counts.items() if m > 0) / samples == pytest.approx(
        odds.p_win, abs=0.005
    )
    for margin in range(-6, 7):
        assert counts[margin] / samples == pytest.approx(odds.margin[margin], abs=0.004)


def test_test_sporny_matches_seeded_simulation_hard_faces() -> None:
    samples = 200_000
    counts = simulate_contest(random.Random(7), 20, 12, FACES_56, samples)
    odds = contest_odds(20, 12, FACES_56)
    assert sum(c for m, c in counts.items() if m > 0) / samples == pytest.approx(
        odds.p_win, abs=0.005
    )
    assert odds.margin.expectation() == pytest.approx((20 - 12) / 3)


def test_test_sporny_defender_without_dice_loses_to_any_success() -> None:
    odds = contest_odds_exact(3, 0, FACES_456)
    assert odds.p_win == 1 - Fraction(1, 8)
    assert contest_odds_exact(0, 0, FACES_456).p_win == 0
    assert contest_odds_exact(0, 0, FACES_456, "attacker").p_win == 1


# --- properties --------------------------------------------------------------------------------


@given(dice=pools, faces=face_sets)
def test_sukcesy_pmf_is_a_distribution(dice: int, faces: frozenset[int]) -> None:
    pmf = successes_pmf(dice, faces)
    assert abs(pmf.total() - 1) < 1e-9
    assert all(0.0 <= p <= 1.0 for p in pmf.probs)
    assert pmf.expectation() == pytest.approx(dice * len(faces) / 6)


@given(dice=pools, difficulty=st.integers(0, 35), faces=face_sets, needs_one=st.booleans())
def test_test_trudnosci_probabilities_sum_to_one(
    dice: int, difficulty: int, faces: frozenset[int], needs_one: bool
) -> None:
    odds = difficulty_odds(dice, difficulty, faces, critical_needs_one=needs_one)
    assert abs(odds.p_pass + odds.p_fail - 1) < 1e-9
    assert abs(odds.margin.total() - 1) < 1e-9
    assert abs(odds.przebicia.total() - odds.p_pass) < 1e-9
    # A critical failure is 0 successes, whatever the difficulty (Bieg has none at all).
    assert 0.0 <= odds.p_critical_failure <= odds.successes[0] + 1e-12


@given(attack=pools, defence=pools, faces=face_sets, tie=st.sampled_from(["defender", "attacker"]))
def test_test_sporny_distributions_sum_to_one(
    attack: int, defence: int, faces: frozenset[int], tie: str
) -> None:
    odds = contest_odds(attack, defence, faces, tie)  # type: ignore[arg-type]
    assert abs(odds.margin.total() - 1) < 1e-9
    assert all(-1e-12 <= p <= 1.0 + 1e-12 for p in odds.margin.probs)
    assert abs(odds.przebicia.total() - odds.p_win) < 1e-9
    assert 0.0 <= odds.p_win <= 1.0 + 1e-12


@given(attack=st.integers(0, 29), defence=pools, faces=face_sets)
def test_test_sporny_more_attack_dice_never_hurt(
    attack: int, defence: int, faces: frozenset[int]
) -> None:
    assert (
        contest_odds(attack + 1, defence, faces).p_win
        >= contest_odds(attack, defence, faces).p_win - 1e-12
    )


@given(attack=st.integers(0, 6), defence=st.integers(0, 6))
def test_float_and_exact_odds_agree(attack: int, defence: int) -> None:
    exact = contest_odds_exact(attack, defence, FACES_56)
    floats = contest_odds(attack, defence, FACES_56)
    assert floats.p_win == pytest.approx(float(exact.p_win), abs=1e-12)


# --- the Distribution helper and bad inputs ----------------------------------------------------


def test_distribution_lookups_and_mapping() -> None:
    dist = Distribution(-1, (0.25, 0.5, 0.25))
    assert (dist.low, dist.high) == (-1, 1)
    assert dist[5] == 0.0 and dist[-1] == 0.25
    assert dist.map_values(abs).as_dict() == {0: 0.5, 1: 0.5}
    assert Distribution(0, (0.0, 1.0)).as_dict(drop_zero=False) == {0: 0.0, 1: 1.0}


def test_distribution_needs_a_value() -> None:
    with pytest.raises(ValueError, match="at least one value"):
        Distribution(0, ())


@pytest.mark.parametrize("dice", [-1, 2.5, True])
def test_pool_size_must_be_whole_and_not_negative(dice: object) -> None:
    with pytest.raises(ValueError, match="pool"):
        successes_pmf(dice, FACES_456)  # type: ignore[arg-type]


def test_success_faces_must_be_d6_faces() -> None:
    with pytest.raises(ValueError, match="between 1 and 6"):
        success_chance(frozenset({0, 7}))


def test_difficulty_must_be_whole_and_not_negative() -> None:
    with pytest.raises(ValueError, match="difficulty"):
        difficulty_odds(3, -1, FACES_456)


def test_tie_rule_must_be_known() -> None:
    with pytest.raises(ValueError, match="tie_goes_to"):
        contest_odds(3, 3, FACES_456, "nobody")  # type: ignore[arg-type]
