"""Eleora attack and test odds for the UI: each defender option side by side, computed exactly.

The caller passes the Obrona pool of every option it wants compared (e.g. "brak", "parowanie",
"unik"); `standard_defence_pools` builds the usual three. Pools reduced below 0 roll no dice,
as in `dice.pool_size`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from combat.rules.eleora.settings import DEFAULT_SETTINGS, PrzebiciaMode, TableSettings
from combat.rules.eleora.sheet import DamageType
from combat.rules.odds import (
    DifficultyOdds,
    Distribution,
    contest_odds,
    difficulty_odds,
    successes_pmf,
)


@dataclass(frozen=True)
class HitOdds:
    """One defender option: P(hit) and the przebicia of a hit (after `przebicia_mode`)."""

    option: str
    attack_dice: int
    defence_dice: int
    p_hit: float
    przebicia: Distribution[float]  # joint: P(hit with exactly k przebicia), sums to p_hit


@dataclass(frozen=True)
class DamageOdds:
    """One defender option of a damaging attack: the hit odds plus damage after reduction."""

    hit: HitOdds
    damage: Distribution[float]  # damage taken (a miss counts as 0), sums to 1
    expected_damage: float


@dataclass(frozen=True)
class AttackOdds:
    """A damaging attack against every defender option, in the caller's order."""

    weapon_damage: int
    damage_type: DamageType
    reduction: int
    auto_hit: bool
    options: Mapping[str, DamageOdds]


def przebicia_for(margin: int, mode: PrzebiciaMode) -> int:
    """Przebicia a winning margin is worth: the margin, or (§9.4 option) one less, never < 0."""
    if mode == "margin_minus_one":
        return max(0, margin - 1)
    return max(0, margin)


def reduction_for(damage_type: DamageType, pancerz: int, wola: int) -> int:
    """Damage stopped per hit: Pancerz stops physical damage, Wola stops stun damage."""
    return pancerz if damage_type == DamageType.PHYSICAL else wola


def standard_defence_pools(
    obrona: int, zrecznosc: int, shield_bonus: int | None = None
) -> dict[str, int]:
    """The three usual options: no reaction, Parowanie (+1 or the shield), Unik (+Zręczność)."""
    return {
        "brak": obrona,
        "parowanie": obrona + (1 if shield_bonus is None else shield_bonus),
        "unik": obrona + zrecznosc,
    }


def hit_odds(
    attack_dice: int,
    defence_pools: Mapping[str, int],
    settings: TableSettings = DEFAULT_SETTINGS,
    *,
    auto_hit: bool = False,
    auto_hit_counts_successes: bool = True,
) -> dict[str, HitOdds]:
    """P(hit) and przebicia per defender option; also the odds of the no-damage special attacks.

    `auto_hit` (an unconscious target) hits whatever is rolled; by DEFAULT every attack success
    is then a przebicie (the target rolls no Obrona), or none with auto_hit_counts_successes=False.
    """
    if not defence_pools:
        raise ValueError("give at least one defender option")
    attack = max(0, attack_dice)
    return {
        option: _hit(option, attack, max(0, pool), settings, auto_hit, auto_hit_counts_successes)
        for option, pool in defence_pools.items()
    }


def attack_odds(
    attack_dice: int,
    defence_pools: Mapping[str, int],
    weapon_damage: int,
    damage_type: DamageType,
    reduction: int,
    settings: TableSettings = DEFAULT_SETTINGS,
    *,
    auto_hit: bool = False,
    auto_hit_counts_successes: bool = True,
    deals_damage: bool = True,
) -> AttackOdds:
    """Per option: P(hit), przebicia, damage taken = max(0, weapon + przebicia − reduction).

    `deals_damage=False` (Odepchnięcie, Schwytanie, Oślepienie): a hit takes no Zdrowie at all.
    """
    if weapon_damage < 0 or reduction < 0:
        raise ValueError("weapon damage and damage reduction cannot be negative")
    hits = hit_odds(
        attack_dice,
        defence_pools,
        settings,
        auto_hit=auto_hit,
        auto_hit_counts_successes=auto_hit_counts_successes,
    )
    return AttackOdds(
        weapon_damage=weapon_damage,
        damage_type=damage_type,
        reduction=reduction,
        auto_hit=auto_hit,
        options={
            name: _damage(hit, weapon_damage, reduction, deals_damage) for name, hit in hits.items()
        },
    )


def skill_test_odds(
    dice: int, difficulty: int, settings: TableSettings = DEFAULT_SETTINGS
) -> DifficultyOdds[float]:
    """Odds of an Eleora test vs Trudność `difficulty`; a pool below 0 rolls no dice."""
    return difficulty_odds(
        max(0, dice),
        difficulty,
        settings.success_faces,
        critical_needs_one=settings.critical_failure_needs_one,
    )


def _hit(
    option: str,
    attack: int,
    defence: int,
    settings: TableSettings,
    auto_hit: bool,
    counts_successes: bool,
) -> HitOdds:
    if auto_hit and not counts_successes:
        return HitOdds(option, attack, defence, 1.0, Distribution(0, (1.0,)))
    if auto_hit:
        # The target rolls no Obrona, so every success of the attack is a winning margin.
        margins = successes_pmf(attack, settings.success_faces)
        return HitOdds(option, attack, defence, 1.0, _apply_mode(margins, settings))
    contest = contest_odds(attack, defence, settings.success_faces, settings.tie_goes_to)
    return HitOdds(option, attack, defence, contest.p_win, _apply_mode(contest.przebicia, settings))


def _apply_mode(margins: Distribution[float], settings: TableSettings) -> Distribution[float]:
    mode = settings.przebicia_mode
    if mode == "margin":
        return margins  # winning margins are already the przebicia
    return margins.map_values(lambda m: przebicia_for(m, mode))


def _damage(hit: HitOdds, weapon_damage: int, reduction: int, deals_damage: bool) -> DamageOdds:
    taken = hit.przebicia.map_values(
        lambda k: max(0, weapon_damage + k - reduction) if deals_damage else 0
    )
    miss = 1.0 - hit.p_hit
    probs = tuple(taken[v] + (miss if v == 0 else 0.0) for v in range(taken.high + 1))
    with_miss = Distribution(0, probs)
    return DamageOdds(hit=hit, damage=with_miss, expected_damage=taken.expectation())
