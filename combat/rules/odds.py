"""Exact (computed, never sampled) odds for pools of d6 counted in successes.

Generic over any d6 success-pool system: the caller says which faces succeed. Every result
comes as a float variant (fast, for the UI) and a `Fraction` variant (exact, for tests and
audits); both are built by the same code. A pool of 0 dice rolls nothing: 0 successes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Generic, Literal, TypeVar

N = TypeVar("N", float, Fraction)
TieRule = Literal["defender", "attacker"]

_FACES = frozenset(range(1, 7))


@dataclass(frozen=True)
class Distribution(Generic[N]):
    """Probabilities of consecutive integer values: `probs[i]` is P(value == offset + i)."""

    offset: int
    probs: tuple[N, ...]

    def __post_init__(self) -> None:
        if not self.probs:
            raise ValueError("a distribution needs at least one value")

    def __getitem__(self, value: int) -> N:
        """P(value); 0 outside the support."""
        index = value - self.offset
        if 0 <= index < len(self.probs):
            return self.probs[index]
        return self.probs[0] * 0

    @property
    def low(self) -> int:
        return self.offset

    @property
    def high(self) -> int:
        return self.offset + len(self.probs) - 1

    def items(self) -> Iterator[tuple[int, N]]:
        """(value, probability) pairs from the lowest value up."""
        for index, p in enumerate(self.probs):
            yield self.offset + index, p

    def total(self) -> N:
        """Σ p: 1 for a full distribution, P(event) for a joint one."""
        return sum(self.probs[1:], self.probs[0])

    def expectation(self) -> N:
        """Σ value·p (for a joint distribution: the part of the mean it covers)."""
        return sum((p * v for v, p in self.items()), self.probs[0] * 0)

    def as_dict(self, *, drop_zero: bool = True) -> dict[int, N]:
        """{value: probability}, for templates and JSON; zero entries left out by default."""
        return {v: p for v, p in self.items() if p or not drop_zero}

    def map_values(self, effect: Callable[[int], int]) -> Distribution[N]:
        """The distribution of effect(value): e.g. metres pushed or turns blinded per przebicie."""
        zero = self.probs[0] * 0
        mapped: dict[int, N] = {}
        for value, p in self.items():
            key = effect(value)
            mapped[key] = mapped.get(key, zero) + p
        return _from_mapping(mapped, zero)


@dataclass(frozen=True)
class DifficultyOdds(Generic[N]):
    """A test of `dice` against Trudność `difficulty`: pass when successes ≥ difficulty."""

    dice: int
    difficulty: int
    successes: Distribution[N]  # sums to 1
    margin: Distribution[N]  # successes − difficulty, sums to 1
    przebicia: Distribution[N]  # joint: P(pass with exactly k przebicia), sums to p_pass
    p_pass: N
    p_fail: N
    p_critical_failure: N  # 0 successes on a rolled pool (optionally needing a 1 showing)


@dataclass(frozen=True)
class ContestOdds(Generic[N]):
    """A contested test: the attacker needs MORE successes; a tie goes to `tie_goes_to`."""

    attacker_dice: int
    defender_dice: int
    tie_goes_to: TieRule
    margin: Distribution[N]  # attacker − defender successes, sums to 1
    przebicia: Distribution[N]  # joint: P(win with exactly k przebicia), sums to p_win
    p_win: N


def success_chance(success_faces: frozenset[int]) -> Fraction:
    """P(one d6 shows a success face); faces must be 1–6."""
    faces = frozenset(success_faces)
    if not faces <= _FACES:
        raise ValueError(f"success faces must be between 1 and 6, got {sorted(faces)}")
    return Fraction(len(faces), 6)


def successes_pmf(dice: int, success_faces: frozenset[int]) -> Distribution[float]:
    """P(k successes) for k = 0..dice (binomial), as floats."""
    return Distribution(0, _row_float(_check_dice(dice), _face_count(success_faces)))


def successes_pmf_exact(dice: int, success_faces: frozenset[int]) -> Distribution[Fraction]:
    """P(k successes) for k = 0..dice (binomial), as exact fractions."""
    return Distribution(0, _row_exact(_check_dice(dice), _face_count(success_faces)))


def difficulty_odds(
    dice: int, difficulty: int, success_faces: frozenset[int], *, critical_needs_one: bool = False
) -> DifficultyOdds[float]:
    """Odds of a test vs Trudność `difficulty` (≥ 0), as floats."""
    row = _row_float(_check_dice(dice), _face_count(success_faces))
    crit = float(_critical_chance(dice, success_faces, critical_needs_one))
    return _difficulty(dice, _check_difficulty(difficulty), row, crit)


def difficulty_odds_exact(
    dice: int, difficulty: int, success_faces: frozenset[int], *, critical_needs_one: bool = False
) -> DifficultyOdds[Fraction]:
    """Odds of a test vs Trudność `difficulty` (≥ 0), as exact fractions."""
    row = _row_exact(_check_dice(dice), _face_count(success_faces))
    crit = _critical_chance(dice, success_faces, critical_needs_one)
    return _difficulty(dice, _check_difficulty(difficulty), row, crit)


def contest_odds(
    attacker_dice: int,
    defender_dice: int,
    success_faces: frozenset[int],
    tie_goes_to: TieRule = "defender",
) -> ContestOdds[float]:
    """Odds of a contested test, as floats (30 vs 30 dice: well under 1 ms)."""
    k = _face_count(success_faces)
    rows = (_row_float(_check_dice(attacker_dice), k), _row_float(_check_dice(defender_dice), k))
    return _contest(attacker_dice, defender_dice, _check_tie(tie_goes_to), *rows, 0.0)


def contest_odds_exact(
    attacker_dice: int,
    defender_dice: int,
    success_faces: frozenset[int],
    tie_goes_to: TieRule = "defender",
) -> ContestOdds[Fraction]:
    """Odds of a contested test, as exact fractions."""
    k = _face_count(success_faces)
    rows = (_row_exact(_check_dice(attacker_dice), k), _row_exact(_check_dice(defender_dice), k))
    return _contest(attacker_dice, defender_dice, _check_tie(tie_goes_to), *rows, Fraction(0))


def _difficulty(dice: int, difficulty: int, row: tuple[N, ...], crit: N) -> DifficultyOdds[N]:
    zero = row[0] * 0
    przebicia = row[difficulty:] or (zero,)
    p_pass = sum(row[difficulty:], zero)
    return DifficultyOdds(
        dice=dice,
        difficulty=difficulty,
        successes=Distribution(0, row),
        margin=Distribution(-difficulty, row),
        przebicia=Distribution(0, przebicia),
        p_pass=p_pass,
        p_fail=sum(row[:difficulty], zero),
        p_critical_failure=crit,
    )


def _contest(
    attacker_dice: int,
    defender_dice: int,
    tie_goes_to: TieRule,
    attacker: tuple[N, ...],
    defender: tuple[N, ...],
    zero: N,
) -> ContestOdds[N]:
    margin = [zero] * (attacker_dice + defender_dice + 1)
    width = attacker_dice + 1
    for d, p_d in enumerate(defender):
        base = defender_dice - d  # index of the margin a − d for a = 0
        # One slice per defender result: far faster than a Python-level double loop.
        window = margin[base : base + width]
        margin[base : base + width] = [
            m + p_a * p_d for m, p_a in zip(window, attacker, strict=True)
        ]
    first_win = defender_dice + (0 if tie_goes_to == "attacker" else 1)
    wins = tuple(margin[first_win:])
    # On a tie won by the attacker, przebicia are 0; wins start at margin 0 or 1.
    przebicia = ((zero,) + wins) if tie_goes_to == "defender" else wins
    return ContestOdds(
        attacker_dice=attacker_dice,
        defender_dice=defender_dice,
        tie_goes_to=tie_goes_to,
        margin=Distribution(-defender_dice, tuple(margin)),
        przebicia=Distribution(0, przebicia or (zero,)),
        p_win=sum(wins, zero),
    )


@lru_cache(maxsize=512)
def _row_float(dice: int, faces: int) -> tuple[float, ...]:
    p = faces / 6
    q = 1 - p
    return tuple(comb(dice, k) * p**k * q ** (dice - k) for k in range(dice + 1))


@lru_cache(maxsize=256)
def _row_exact(dice: int, faces: int) -> tuple[Fraction, ...]:
    p = Fraction(faces, 6)
    q = 1 - p
    return tuple(comb(dice, k) * p**k * q ** (dice - k) for k in range(dice + 1))


def _critical_chance(dice: int, success_faces: frozenset[int], needs_one: bool) -> Fraction:
    """P(no success on a rolled pool [and at least one 1 showing])."""
    if dice == 0:
        return Fraction(0)  # a pool of 0 dice is not rolled, so it cannot fail critically
    q = 1 - success_chance(success_faces)
    if not needs_one:
        return q**dice
    if 1 in success_faces:
        return Fraction(0)
    # No success and at least one 1 = no success − (no success and no 1).
    return q**dice - (q - Fraction(1, 6)) ** dice


def _from_mapping(mapped: dict[int, N], zero: N) -> Distribution[N]:
    low, high = min(mapped), max(mapped)
    return Distribution(low, tuple(mapped.get(v, zero) for v in range(low, high + 1)))


@lru_cache(maxsize=64)
def _face_count(success_faces: frozenset[int]) -> int:
    return int(success_chance(success_faces) * 6)


def _check_dice(dice: int) -> int:
    if isinstance(dice, bool) or not isinstance(dice, int):
        raise ValueError(f"a pool size must be a whole number, got {dice!r}")
    if dice < 0:
        raise ValueError(f"a pool cannot have {dice} dice; clamp reduced pools to 0 first")
    return dice


def _check_difficulty(difficulty: int) -> int:
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or difficulty < 0:
        raise ValueError(f"a difficulty (Trudność) must be a whole number ≥ 0, got {difficulty!r}")
    return difficulty


def _check_tie(tie_goes_to: str) -> TieRule:
    if tie_goes_to == "defender":
        return "defender"
    if tie_goes_to == "attacker":
        return "attacker"
    raise ValueError(f"tie_goes_to must be 'defender' or 'attacker', got {tie_goes_to!r}")
