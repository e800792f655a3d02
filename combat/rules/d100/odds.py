"""Exact odds of d100 tests and attacks, by enumeration (no sampling).

A test is judged by `check.level_of` over the rolls 1..100; an attack chains the tests of
digest §4 — hit, the defender's Unik or Blok (`check.defence_wins`), damage, resistance, armour
(`check.raw_damage`, `soaked`, `after_armour`), with the armour negation of a crit-luck hit
whose GM d6 shows 1 when crits apply. Tests are independent, so the attack is enumerated by
distinct (level, margin) outcomes: exact integer weights over 100⁴ · 6, turned into floats at
the end. Every function is memoised by its thresholds and the few settings it reads.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from itertools import accumulate
from operator import add

from combat.rules.d100.check import (
    CRIT_BAD,
    CRIT_LUCK,
    LEVELS,
    SUCCESSES,
    after_armour,
    crits_apply,
    defence_wins,
    level_of,
    margin_of,
)
from combat.rules.d100.settings import DEFAULT_SETTINGS, D100Settings

D6 = 6
ROLLS = range(1, 101)

# (crit_luck_max, crit_bad_min, minimal_margin, damage_multiplier, resistance_roll,
#  tie_to_defender): what the odds read of the settings.
Key = tuple[int, int, int, int, bool, bool]
Outcomes = tuple[tuple[str, int, int], ...]  # (level, margin, how many rolls of 100)


def _key(settings: D100Settings) -> Key:
    s = settings
    return (
        s.crit_luck_max,
        s.crit_bad_min,
        s.minimal_margin,
        s.damage_multiplier,
        s.resistance_roll,
        s.tie_to_defender,
    )


@lru_cache(maxsize=64)
def _settings(key: Key) -> D100Settings:
    luck, bad, minimal, multiplier, resistance, tie = key
    return replace(
        DEFAULT_SETTINGS,
        crit_luck_max=luck,
        crit_bad_min=bad,
        minimal_margin=minimal,
        damage_multiplier=multiplier,
        resistance_roll=resistance,
        tie_to_defender=tie,
    )


@lru_cache(maxsize=4096)
def _outcomes(threshold: int, key: Key) -> Outcomes:
    """The distinct (level, margin) of a test at `threshold`, with their number of rolls."""
    s = _settings(key)
    counts: dict[tuple[str, int], int] = defaultdict(int)
    for roll in ROLLS:
        counts[level_of(roll, threshold, s), margin_of(roll, threshold, s)] += 1
    return tuple((level, margin, n) for (level, margin), n in counts.items())


def test_distribution(threshold: int, settings: D100Settings) -> dict[str, float]:
    """P(each level) of a test at `threshold` (every level present, summing to 1)."""
    result = dict.fromkeys(LEVELS, 0.0)
    for level, _margin, n in _outcomes(threshold, _key(settings)):
        result[level] += n / 100
    return result


test_distribution.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def success_chance(threshold: int, settings: D100Settings) -> float:
    """P(success) of a test at `threshold`."""
    return (
        sum(n for level, _m, n in _outcomes(threshold, _key(settings)) if level in SUCCESSES) / 100
    )


def oop_distribution(threshold: int, settings: D100Settings) -> dict[int, float]:
    """P(each OoP a test counts, `TestRoll.margin`): a success's OoP (at least 0, as damage and
    healing use it), 0 for a failure."""
    result: dict[int, float] = defaultdict(float)
    for _level, margin, n in _outcomes(threshold, _key(settings)):
        result[margin] += n / 100
    return dict(sorted(result.items()))


@dataclass(frozen=True)
class AttackOdds:
    """One attack's exact odds (every probability over all its rolls, misses included).

    `damage` maps final damage to its probability (a miss, an avoided hit or a failed damage
    test deal 0); `knockout` is P(damage ≥ target_pz) when that was given."""

    hit: float  # the hit test succeeds
    avoided: float  # it succeeds and the defence avoids it
    lands: float  # it succeeds and is not avoided
    hit_crit_luck: float
    hit_crit_bad: float
    defence_crit_luck: float
    defence_crit_bad: float
    armour_negated: float  # lands with a crit-luck hit whose d6 shows 1
    damage_crit_luck: float  # lands with a crit-luck damage test (an Uraz)
    damage_crit_bad: float  # lands with a crit-bad damage test
    damage: Mapping[int, float]
    expected_damage: float
    knockout: float | None = None


def attack_odds(
    settings: D100Settings,
    *,
    hit: int,
    damage: int,
    defence: int | None = None,
    resistance: int | None = None,
    armour: int = 0,
    crits: bool | None = None,
    target_pz: int | None = None,
) -> AttackOdds:
    """The odds of an attack with these thresholds (hit, damage; the defender's Unik or Blok
    and Wytrzymałość, None: not rolled) against `armour` percent; `crits` defaults to
    `check.crits_apply(settings)` (it decides the armour negation)."""
    applies = crits_apply(settings) if crits is None else crits
    return _attack(_key(settings), hit, damage, defence, resistance, armour, applies, target_pz)


@lru_cache(maxsize=4096)
def _attack(
    key: Key,
    hit: int,
    damage: int,
    defence: int | None,
    resistance: int | None,
    armour: int,
    crits: bool,
    target_pz: int | None,
) -> AttackOdds:
    pair = 100 * 100  # hit · defence (and damage · resistance)
    plain, crit, avoided, d_luck, d_bad = _hit_and_defence(key, hit, defence)
    negated = crit if crits else 0  # of hit · defence · d6: 1 face of 6
    landed = (plain + crit) * D6
    raw = _raw_damage(key, damage, resistance)
    final: dict[int, int] = defaultdict(int)  # over hit · defence · d6 · damage · resistance
    for was_negated, weight in ((False, landed - negated), (True, negated)):
        for value, n in raw.items():
            final[after_armour(value, armour, negated=was_negated)] += weight * n
    total = pair * D6 * pair
    final[0] += total - landed * pair
    hit_outcomes, damage_outcomes = _outcomes(hit, key), _outcomes(damage, key)
    lands = (plain + crit) / pair
    return AttackOdds(
        hit=sum(n for level, _m, n in hit_outcomes if level in SUCCESSES) / 100,
        avoided=avoided / pair,
        lands=lands,
        hit_crit_luck=_count(hit_outcomes, CRIT_LUCK) / 100,
        hit_crit_bad=_count(hit_outcomes, CRIT_BAD) / 100,
        defence_crit_luck=d_luck / pair,
        defence_crit_bad=d_bad / pair,
        armour_negated=negated / (pair * D6),
        damage_crit_luck=lands * _count(damage_outcomes, CRIT_LUCK) / 100,
        damage_crit_bad=lands * _count(damage_outcomes, CRIT_BAD) / 100,
        damage={value: n / total for value, n in sorted(final.items()) if n},
        expected_damage=sum(value * n for value, n in final.items()) / total,
        knockout=(
            None
            if target_pz is None
            else sum(n for value, n in final.items() if value >= target_pz) / total
        ),
    )


def _count(outcomes: Outcomes, level: str) -> int:
    return sum(n for lv, _m, n in outcomes if lv == level)


@lru_cache(maxsize=4096)
def _hit_and_defence(key: Key, hit: int, defence: int | None) -> tuple[int, int, int, int, int]:
    """Weights over hit · defence (100²): lands with a non-crit hit, lands with a crit-luck
    hit, avoided, and the defence's crit luck and crit bad (rolled only after a hit)."""
    s = _settings(key)
    plain = crit = avoided = hits = 0
    groups = _by_level(defence, key) if defence is not None else ()
    for level, margin, n in _outcomes(hit, key):
        if level not in SUCCESSES:
            continue
        hits += n
        wins = 0
        for defence_level, margins, from_here in groups:
            # Within one level `defence_wins` turns true from some margin up and stays so.
            wins_at = partial(defence_wins, level, margin, defence_level, s=s)
            wins += from_here[bisect_left(margins, True, key=wins_at)]
        avoided += n * wins
        if level == CRIT_LUCK:
            crit += n * (100 - wins)
        else:
            plain += n * (100 - wins)
    if defence is None:
        return plain, crit, avoided, 0, 0
    defences = _outcomes(defence, key)
    return (
        plain,
        crit,
        avoided,
        hits * _count(defences, CRIT_LUCK),
        hits * _count(defences, CRIT_BAD),
    )


@lru_cache(maxsize=4096)
def _by_level(threshold: int, key: Key) -> tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]:
    """A test's outcomes by level: the margins ascending, and for each index the rolls at that
    margin or above (one more entry, 0, past the last)."""
    pairs: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for level, margin, n in _outcomes(threshold, key):
        pairs[level].append((margin, n))
    groups = []
    for level, found in pairs.items():
        found.sort()
        from_here = [*accumulate(n for _m, n in reversed(found))][::-1]
        groups.append((level, tuple(m for m, _n in found), (*from_here, 0)))
    return tuple(groups)


@lru_cache(maxsize=4096)
def _by_margin(threshold: int, key: Key) -> tuple[int, ...]:
    """The rolls of a test at `threshold` by its margin (index: the margin)."""
    outcomes = _outcomes(threshold, key)
    counts = [0] * (max(m for _l, m, _n in outcomes) + 1)
    for _level, margin, n in outcomes:
        counts[margin] += n
    return tuple(counts)


@lru_cache(maxsize=4096)
def _raw_damage(key: Key, damage: int, resistance: int | None) -> dict[int, int]:
    """Damage before armour over damage · resistance (100²): OoP × multiplier, less the
    resistance test's OoP × multiplier (min 0) when the table rolls it."""
    multiplier, rolls_resistance = key[3], key[4]
    dealt = _by_margin(damage, key)
    if resistance is None or not rolls_resistance:
        by_margin = [n * 100 for n in dealt]
    else:
        # The margins dealt less soaked: a soak takes each dealt margin above it down by its
        # own (a shifted copy of `dealt`, added as whole lists), the rest to 0.
        by_margin = [0] * len(dealt)
        below = [0, *accumulate(dealt)]  # below[m]: the damage rolls of a margin under m
        for soak, count in enumerate(_by_margin(resistance, key)):
            if not count:
                continue
            by_margin[0] += count * below[min(soak + 1, len(dealt))]
            tail = dealt[soak + 1 :]
            if count != 1:
                tail = tuple(n * count for n in tail)
            by_margin[1 : 1 + len(tail)] = map(add, by_margin[1 : 1 + len(tail)], tail)
    result: dict[int, int] = defaultdict(int)
    for margin, n in enumerate(by_margin):
        if n:
            result[margin * multiplier] += n
    return dict(result)


def clear_caches() -> None:
    """Forget every memoised result (for timing the cold cost)."""
    for cached in (
        _settings,
        _outcomes,
        _by_level,
        _by_margin,
        _attack,
        _hit_and_defence,
        _raw_damage,
    ):
        cached.cache_clear()


__all__ = [
    "AttackOdds",
    "attack_odds",
    "clear_caches",
    "oop_distribution",
    "success_chance",
    "test_distribution",
]
