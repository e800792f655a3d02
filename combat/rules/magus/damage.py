"""The damage of one Magus attack against one defender, and its exact odds, as pure functions.

The attack sequence ("Przebieg walki", ../shared/seeds/magus-walka.txt; digest §4): the attack
test against the defence (Obrona Fizyczna, spells Obrona Magiczna) gives a success level; the
damage test (an effect test: the damage step's dice, result at least 0) is then

1. raised to the damage step on a Good or better attack (Minimalne obrażenia,
   `settings.minimum_damage_on_good`, `Blow.minimum_on_good`),
2. capped at damage step × `settings.max_damage_multiplier` for a non-magic weapon
   (Maksymalne obrażenia, `Blow.capped`),
3. reduced by the armour (physical or mystic, plus a usable shield) unless the attack
   penetrates: an Excellent result, whose threshold a used shield raises by its value
   (Przebicie pancerza, `settings.shield_raises_penetration`); at least 0 is dealt,
4. a Wound when what is dealt exceeds the Wound Threshold (Próg Ran), with the knockdown
   (balance) test: Siła step vs `settings.knockdown_base` + (dealt − WT).

DEFAULTS chosen here where the seed is terse (each is the most literal reading):
- the Good minimum and the ×3 cap act on the damage test's result, before armour ("minimalne
  obrażenia jakie zadaje broń" — what the weapon deals; armour then takes its part);
- Krwotok compares what is dealt after armour with the WT as a DN (the seed says so);
  Oderwanie kończyn compares the damage test's result ("wynik testu obrażeń", after the
  minimum and the cap, before armour) with the WT; Atak by ogłuszyć stuns only on a Wound,
  for `successes × stun_rounds_per_level` rounds of what is dealt against the WT;
- Strzaskanie tarczy adds the weapon size to the damage test's result (before armour);
- Precyzyjny atak on a weapon: the holder's Siła test against the attacker's damage step,
  +`called_shot_two_handed_bonus` to the holder's result for a two-handed weapon.

Public API (the engine imports these):
    Blow, Damage, RetentionTest, AttackOdds, HitOdds
    blow_against(damage_step, defender, *, weapon, shield_usable=True, modifier=0) -> Blow
    penetration_threshold(shield, settings) -> int
    penetrates(margin, shield, settings) -> bool
    damage_after_armour(blow, attack_result, defence, damage_result, settings) -> Damage
    is_wound(dealt, wound_threshold) -> bool
    wound_penalty(wounds, settings) -> int
    knockdown_dn(dealt, wound_threshold, settings) -> int
    hemorrhage(dealt, wound_threshold, settings) -> bool
    can_sever(attacker_sila, victim_sila, aimed) -> bool
    severs(damage, wound_threshold, settings) -> bool
    stun_rounds(dealt, wound_threshold, settings) -> int
    knock_down_attack_dn(damage) -> int
    can_shatter(damage, weapon_size, settings) -> bool
    shatters(damage, weapon_size, shield, settings) -> bool
    retention_test(damage_step, two_handed, settings) -> RetentionTest
    consciousness(current_damage, unconsciousness_rating, death_rating) -> str
    attack_odds(attack_step, attack_modifier, defence, blow, wound_threshold, settings)
        -> AttackOdds
    hit_odds(blow, attack_result, defence, wound_threshold, settings) -> HitOdds
    talent_odds(talent_step, modifier, attack_result, settings) -> float
    p_success(step, modifier, dn, settings, *, rule_of_one=None) -> float

Odds are computed, never sampled (see odds.step_sum: the open-ended dice as a rational
generating function, exact up to the neglected tail stated in each record, at most 1e-9).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import fsum

from combat.rules.magus.levels import (
    AVERAGE,
    EXCELLENT,
    EXTRAORDINARY,
    GOOD,
    PATHETIC,
    POOR,
    Level,
    success_level,
)
from combat.rules.magus.odds import StepSum, neglected_tail, step_sum
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import Sheet, Shield, Weapon
from combat.rules.magus.steps import ActionDice
from combat.rules.odds import Distribution

CONSCIOUS = "conscious"
UNCONSCIOUS = "unconscious"
DEAD = "dead"


@dataclass(frozen=True)
class Blow:
    """One attack's damage against one defender, as the rules set it up before rolling.

    `damage_step`: after every step modifier (Agresywny atak, a mount's Siła on a charge…).
    `armour`: the armour that applies (physical, or mystic against a spell) plus the shield's
    value when the shield is usable; `shield` is that shield's part of `armour` (it raises the
    penetration threshold). `capped`: a non-magic weapon (damage at most step × multiplier);
    a magic or thread weapon and a spell pass False. `minimum_on_good`: the Good minimum
    applies (weapons; the table setting can switch it off for all). `modifier`: added to the
    damage test's result (e.g. the attacker's wound penalty, negative)."""

    damage_step: int
    armour: int = 0
    shield: int = 0
    capped: bool = True
    minimum_on_good: bool = True
    modifier: int = 0

    def __post_init__(self) -> None:
        if self.armour < 0 or self.shield < 0:
            raise ValueError("armour and shield must not be negative")
        if self.shield > self.armour:
            raise ValueError("the shield's value is part of the armour: shield ≤ armour")

    def cap(self, settings: MagusSettings) -> int | None:
        """The most the damage test may give (None: no cap)."""
        return self.damage_step * settings.max_damage_multiplier if self.capped else None

    def minimum(self, settings: MagusSettings) -> int | None:
        """The least a Good or better attack's damage test gives (None: no minimum)."""
        if self.minimum_on_good and settings.minimum_damage_on_good:
            return self.damage_step
        return None


def blow_against(
    damage_step: int,
    defender: Sheet,
    *,
    weapon: Weapon | None,
    shield_usable: bool = True,
    modifier: int = 0,
) -> Blow:
    """The Blow of an attack with `weapon` (None: a spell, its effect step as `damage_step`)
    against `defender`'s sheet: physical armour and the shield's physical value against a
    weapon, the mystic ones against a spell; the shield only when usable (not when the
    defender is surprised, nor after a won Ominięcie tarczy). A magic weapon and a spell are
    not capped; the Good minimum is the weapons' ("minimalne obrażenia jakie zadaje broń")."""
    spell = weapon is None
    shield = defender.shield if shield_usable else None
    shield_value = 0 if shield is None else (shield.mystic if spell else shield.physical)
    armour = defender.mystic_armour if spell else defender.physical_armour
    return Blow(
        damage_step=damage_step,
        armour=max(0, armour) + max(0, shield_value),
        shield=max(0, shield_value),
        capped=weapon is not None and not weapon.magic,
        minimum_on_good=not spell,
        modifier=modifier,
    )


@dataclass(frozen=True)
class Damage:
    """One blow's damage worked out from the rolled numbers.

    `raw`: the damage test's result (at least 0); `capped`: after the Good minimum and the
    cap (`raised`/`limited` say whether either changed it); `armour_applied`: what armour took
    off (0 on penetration); `dealt`: what the defender takes (at least 0); `level`: the attack
    test's success level."""

    raw: int
    capped: int
    armour_applied: int
    dealt: int
    penetrated: bool
    level: Level
    raised: bool = False
    limited: bool = False


@dataclass(frozen=True)
class RetentionTest:
    """Precyzyjny atak on a weapon: the holder tests Siła against `dn`, `bonus` to its result."""

    dn: int
    bonus: int


@dataclass(frozen=True)
class AttackOdds:
    """Exact odds of one attack (attack step + modifier vs a defence) and its damage.

    `levels`: P(each success level of the attack test), Pathetic first, summing to 1 (the
    Rule of One counted as Pathetic when the table plays it). `p_hit`: P(Average or better);
    `p_penetration`: P(margin ≥ the penetration threshold, shield included). `damage`: the
    distribution of what is dealt after armour over the whole attack (a miss deals 0), a
    mixture over the attack's margins; it sums to 1 − (at most `neglected_tail`).
    `expected_damage`: its mean; `p_wound`: P(dealt > wound_threshold). `neglected_tail` bounds
    the probability left out (open-ended dice beyond the roll cap, and the uncapped damage tail
    truncated at odds.TAIL_BOUND per sum); it is at most 1e-9."""

    attack_step: int
    attack_modifier: int
    defence: int
    blow: Blow
    wound_threshold: int
    levels: tuple[tuple[Level, float], ...]
    p_hit: float
    p_penetration: float
    damage: Distribution[float]
    expected_damage: float
    p_wound: float
    neglected_tail: float

    def p(self, level: Level) -> float:
        return next(p for lvl, p in self.levels if lvl == level)


@dataclass(frozen=True)
class HitOdds:
    """The damage odds of a hit whose attack result is known (see `hit_odds`): the dealt
    distribution after armour (sums to 1 − at most `neglected_tail`), its mean, P(Wound)."""

    level: Level
    penetrated: bool
    damage: Distribution[float]
    expected_damage: float
    p_wound: float
    neglected_tail: float


# --- the pipeline from rolled numbers --------------------------------------------------------


def penetration_threshold(shield: int, settings: MagusSettings) -> int:
    """Points over the defence an attack needs to ignore armour: the Excellent threshold, plus
    a used shield's value when `settings.shield_raises_penetration` (Przebicie pancerza)."""
    raise_by = shield if settings.shield_raises_penetration else 0
    return settings.levels.excellent + raise_by


def penetrates(margin: int, shield: int, settings: MagusSettings) -> bool:
    """Przebicie pancerza: the attack result − defence reaches the penetration threshold."""
    return margin >= penetration_threshold(shield, settings)


def damage_after_armour(
    blow: Blow, attack_result: int, defence: int, damage_result: int, settings: MagusSettings
) -> Damage:
    """The damage a hit deals: the damage test's result raised to the damage step on a Good or
    better attack, capped for a non-magic weapon, less the armour unless it penetrates.

    `attack_result` is the attack test's total (a hit: ≥ `defence`, no Rule of One);
    `damage_result` the damage test's total before `blow.modifier`."""
    level = success_level(attack_result, defence, False, settings.levels)
    raw = max(0, damage_result + blow.modifier)
    value = raw
    minimum = blow.minimum(settings)
    raised = False
    if minimum is not None and level.successes >= GOOD.successes and value < minimum:
        value, raised = minimum, True
    cap = blow.cap(settings)
    limited = False
    if cap is not None and value > cap:
        value, limited = cap, True
    penetrated = level.success and penetrates(attack_result - defence, blow.shield, settings)
    armour = 0 if penetrated else blow.armour
    return Damage(
        raw=raw,
        capped=value,
        armour_applied=min(armour, value),
        dealt=max(0, value - armour),
        penetrated=penetrated,
        level=level,
        raised=raised,
        limited=limited,
    )


def is_wound(dealt: int, wound_threshold: int) -> bool:
    """Rana: a single attack dealing more than the Wound Threshold inflicts a Wound."""
    return dealt > wound_threshold


def wound_penalty(wounds: int, settings: MagusSettings) -> int:
    """What Wounds take off action and effect tests (≥ 0): `settings.wound_penalty` per Wound
    after the first."""
    return settings.wound_penalty * max(0, wounds - 1)


def knockdown_dn(dealt: int, wound_threshold: int, settings: MagusSettings) -> int:
    """Test równowagi after a Wound: the DN of the Siła step test, knockdown_base + (dealt − WT)."""
    return settings.knockdown_base + max(0, dealt - wound_threshold)


def hemorrhage(dealt: int, wound_threshold: int, settings: MagusSettings) -> bool:
    """Krwotok: what is dealt (after armour) against the WT as a DN reaches Excellent; the
    victim then loses `settings.hemorrhage_damage` a round."""
    return _reaches(dealt, wound_threshold, EXCELLENT, settings)


def can_sever(attacker_sila: int, victim_sila: int, aimed: bool) -> bool:
    """Oderwanie kończyn may be tried: an aimed attack (Przycelowanie; claws or teeth for a
    monster) whose attacker's Siła step is at least twice the victim's."""
    return aimed and attacker_sila >= 2 * victim_sila


def severs(damage: Damage, wound_threshold: int, settings: MagusSettings) -> bool:
    """Oderwanie kończyn succeeds: the damage test's result (`damage.capped`, before armour)
    against the WT reaches Excellent; the victim then takes `settings.severed_limb_step`
    damage each round."""
    return _reaches(damage.capped, wound_threshold, EXCELLENT, settings)


def stun_rounds(dealt: int, wound_threshold: int, settings: MagusSettings) -> int:
    """Atak by ogłuszyć: a Wound stuns (Ogłuszony) for one round per success of what is dealt
    against the WT (Average 1, Good 2, …) × `settings.stun_rounds_per_level`; 0 without a
    Wound."""
    if not is_wound(dealt, wound_threshold):
        return 0
    level = success_level(dealt, wound_threshold, False, settings.levels)
    return level.successes * settings.stun_rounds_per_level


def knock_down_attack_dn(damage: Damage) -> int:
    """Atak by powalić: the damage less armour is the DN of the target's knockdown test (the
    attack itself deals no damage)."""
    return damage.dealt


def can_shatter(damage: Damage, weapon_size: int, settings: MagusSettings) -> bool:
    """Strzaskanie tarczy may take effect: the attack penetrated and the weapon's size is at
    least `settings.shatter_min_size`."""
    return damage.penetrated and weapon_size >= settings.shatter_min_size


def shatters(damage: Damage, weapon_size: int, shield: Shield, settings: MagusSettings) -> bool:
    """Strzaskanie tarczy: damage + weapon size against the shield's destruction threshold
    reaches Average (Excellent for a magic shield): the shield is destroyed and the bearer
    takes no damage. False when `can_shatter` is not met."""
    if not can_shatter(damage, weapon_size, settings):
        return False
    needed = EXCELLENT if shield.magic else AVERAGE
    return _reaches(shatter_result(damage, weapon_size), shield.destruction, needed, settings)


def shatter_result(damage: Damage, weapon_size: int) -> int:
    """Strzaskanie tarczy's result against the shield's threshold: damage + weapon size (a
    value built on the damage test's dice; the check rolls none of its own)."""
    return damage.capped + weapon_size


def retention_test(damage_step: int, two_handed: bool, settings: MagusSettings) -> RetentionTest:
    """Precyzyjny atak on a weapon: the holder tests its Siła step against the attacker's damage
    step to keep the weapon, +called_shot_two_handed_bonus if the weapon is two-handed."""
    bonus = settings.called_shot_two_handed_bonus if two_handed else 0
    return RetentionTest(dn=damage_step, bonus=bonus)


def consciousness(current_damage: int, unconsciousness_rating: int, death_rating: int) -> str:
    """After damage: DEAD at ≥ the Death Rating, UNCONSCIOUS at ≥ the Unconsciousness Rating."""
    if current_damage >= death_rating:
        return DEAD
    if current_damage >= unconsciousness_rating:
        return UNCONSCIOUS
    return CONSCIOUS


def _reaches(value: int, dn: int, level: Level, settings: MagusSettings) -> bool:
    return success_level(value, dn, False, settings.levels).successes >= level.successes


# --- exact odds ------------------------------------------------------------------------------


def p_success(
    step: int, modifier: int, dn: int, settings: MagusSettings, *, rule_of_one: bool | None = None
) -> float:
    """P(an action test of `step` + `modifier` to its result reaches `dn`): the result floor
    (settings.test_result_floor) applied, the Rule of One (all first throws 1: a failure)
    counted when `rule_of_one` (default: the table's setting). RuleViolation for a step the
    table does not hold."""
    dice = settings.table.dice_for(step)
    ones = settings.rule_of_one if rule_of_one is None else rule_of_one
    total = step_sum(dice, upto=dn - modifier - 1)
    return _p_at_least(total, modifier, dn, settings.test_result_floor, ones)


def talent_odds(
    talent_step: int, modifier: int, attack_result: int, settings: MagusSettings
) -> float:
    """P(a defensive talent test (Unik, Riposta) of `talent_step` + `modifier` reaches the
    attack's result), the Rule of One counted when the table plays it."""
    return p_success(talent_step, modifier, attack_result, settings)


def attack_odds(
    attack_step: int,
    attack_modifier: int,
    defence: int,
    blow: Blow,
    wound_threshold: int,
    settings: MagusSettings,
) -> AttackOdds:
    """The exact odds of an attack of `attack_step` (+ `attack_modifier` to its result) against
    `defence`: each success level, penetration, the damage dealt after armour (a mixture over
    the attack's margins: a miss, a hit, a Good hit, a penetrating hit), its mean and P(Wound).

    RuleViolation for a step the table does not hold."""
    table = settings.table
    attack_dice = table.dice_for(attack_step)
    damage_dice = table.dice_for(blow.damage_step)
    thresholds = settings.levels
    piercing = penetration_threshold(blow.shield, settings)
    top = defence + max(thresholds.extraordinary, piercing) - attack_modifier
    attack = step_sum(attack_dice, upto=top - 1)
    floor = settings.test_result_floor
    ones = settings.rule_of_one

    def at_least(margin: int) -> float:
        return _p_at_least(attack, attack_modifier, defence + margin, floor, ones)

    p_ones = attack.probs[0] if ones else 0.0
    p_hit = at_least(0)
    p_good = at_least(thresholds.good)
    p_excellent = at_least(thresholds.excellent)
    p_extraordinary = at_least(thresholds.extraordinary)
    p_penetration = at_least(piercing)
    levels = (
        (PATHETIC, p_ones),
        (POOR, max(0.0, 1.0 - p_hit - p_ones)),
        (AVERAGE, max(0.0, p_hit - p_good)),
        (GOOD, max(0.0, p_good - p_excellent)),
        (EXCELLENT, max(0.0, p_excellent - p_extraordinary)),
        (EXTRAORDINARY, p_extraordinary),
    )
    tail = neglected_tail(attack_dice) + neglected_tail(damage_dice)
    if top > attack.high + 1:  # a complete sum answered: above it lies at most `beyond`
        tail += attack.beyond
    results, dropped = _damage_results(damage_dice, blow, settings)
    tail += dropped
    minimum = blow.minimum(settings) or 0
    dealt = _mixture(
        1.0 - p_hit,
        (
            (p_hit - p_good, _zone(results, 0, blow.armour)),
            (p_good - p_penetration, _zone(results, minimum, blow.armour)),
            (p_penetration, _zone(results, minimum, 0)),
        ),
    )
    return AttackOdds(
        attack_step=attack_step,
        attack_modifier=attack_modifier,
        defence=defence,
        blow=blow,
        wound_threshold=wound_threshold,
        levels=levels,
        p_hit=p_hit,
        p_penetration=p_penetration,
        damage=Distribution(0, tuple(dealt)),
        expected_damage=fsum(value * p for value, p in enumerate(dealt)),
        p_wound=fsum(dealt[max(0, wound_threshold + 1) :]),
        neglected_tail=tail,
    )


def hit_odds(
    blow: Blow, attack_result: int, defence: int, wound_threshold: int, settings: MagusSettings
) -> HitOdds:
    """The damage of a hit already rolled (`attack_result` ≥ `defence`): its level fixes the
    Good minimum and penetration, the damage test is still to roll. For the reaction prompt:
    what the defender takes if it does not avoid the blow. RuleViolation for a damage step the
    table does not hold."""
    level = success_level(attack_result, defence, False, settings.levels)
    results, dropped = _damage_results(settings.table.dice_for(blow.damage_step), blow, settings)
    minimum = (blow.minimum(settings) or 0) if level.successes >= GOOD.successes else 0
    pierced = level.success and penetrates(attack_result - defence, blow.shield, settings)
    dealt = _zone(results, minimum, 0 if pierced else blow.armour)
    while len(dealt) > 1 and dealt[-1] == 0.0:
        dealt.pop()
    return HitOdds(
        level=level,
        penetrated=pierced,
        damage=Distribution(0, tuple(dealt)),
        expected_damage=fsum(value * p for value, p in enumerate(dealt)),
        p_wound=fsum(dealt[max(0, wound_threshold + 1) :]),
        neglected_tail=dropped + neglected_tail(settings.table.dice_for(blow.damage_step)),
    )


def _p_at_least(total: StepSum, modifier: int, target: int, floor: int, ones: bool) -> float:
    """P(max(sum + modifier, floor) ≥ target, and not the Rule of One when `ones`). The Rule
    of One's roll is the lowest sum (every die shows 1): it is taken out when it would reach."""
    p = 1.0 if floor >= target else total.p_at_least(target - modifier)
    if ones and max(total.offset + modifier, floor) >= target:
        p -= total.probs[0]
    return max(0.0, p)


def _damage_results(
    dice: ActionDice, blow: Blow, settings: MagusSettings
) -> tuple[list[float], float]:
    """P(damage test result == r) for r = 0, 1, …: the dice + `blow.modifier`, at least 0,
    at most the cap (the weight above it lumped on it). The second value is the weight left
    out: the tail of an uncapped sum (≤ TAIL_BOUND), 0 when the cap takes it all in."""
    cap = blow.cap(settings)
    modifier = blow.modifier
    total = step_sum(dice, upto=None if cap is None else cap - modifier - 1)
    high = max(0, total.high + modifier) if cap is None else cap
    results = [0.0] * (high + 1)
    for value, p in total.items():
        results[min(high, max(0, value + modifier))] += p
    if cap is None:
        return results, total.beyond
    results[cap] += total.beyond  # every value above the listing reaches the cap…
    # …unless a complete listing ended below it: then that weight (≤ TAIL_BOUND) is misplaced.
    return results, total.beyond if total.high + 1 + modifier < cap else 0.0


def _zone(results: list[float], minimum: int, armour: int) -> list[float]:
    """P(dealt == d) given the attack's zone: each result raised to `minimum`, less `armour`,
    at least 0. Every result up to max(minimum, armour) deals max(0, minimum − armour)."""
    cut = max(minimum, armour)
    least = max(0, minimum - armour)
    out = [0.0] * max(least + 1, len(results) - armour)
    out[least] = fsum(results[: cut + 1])
    if cut + 1 < len(results):
        out[cut + 1 - armour :] = results[cut + 1 :]
    return out


def _mixture(miss: float, zones: tuple[tuple[float, list[float]], ...]) -> list[float]:
    """Σ weight × zone, plus the miss's weight on 0 dealt; trailing zeros dropped."""
    length = max(len(zone) for _, zone in zones)
    out = [0.0] * length
    out[0] = max(0.0, miss)
    for weight, zone in zones:
        if weight > 0.0:
            out[: len(zone)] = [o + weight * z for o, z in zip(out, zone, strict=False)]
    while len(out) > 1 and out[-1] == 0.0:
        out.pop()
    return out
