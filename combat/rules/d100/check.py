"""The d100 test: an attribute value is the percentage chance of success (digest §1).

threshold = base + the modifiers (their total capped at ±`modifier_cap`, §8 #4); a d100 roll
succeeds when it is at most the threshold, except that 01–`crit_luck_max` always succeeds
(krytyczne szczęście) and `crit_bad_min`–100 always fails (krytyczny pech). OoP (Odległość od
Progu) = threshold − roll; a success with OoP 0..`minimal_margin` is a minimalny sukces
(§8 #3). The damage arithmetic of §4 lives here too, so the engine and `odds` share it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from combat.rules.base import RNG, gettext_noop
from combat.rules.d100.settings import D100Settings

CRIT_LUCK = "crit_luck"
ORDINARY = "ordinary"
MINIMAL = "minimal"
FAILURE = "failure"
CRIT_BAD = "crit_bad"
LEVELS = (CRIT_LUCK, ORDINARY, MINIMAL, FAILURE, CRIT_BAD)
SUCCESSES = frozenset({CRIT_LUCK, ORDINARY, MINIMAL})
LEVEL_LABELS = {
    CRIT_LUCK: gettext_noop("krytyczne szczęście"),
    ORDINARY: gettext_noop("zwykły sukces"),
    MINIMAL: gettext_noop("minimalny sukces"),
    FAILURE: gettext_noop("porażka"),
    CRIT_BAD: gettext_noop("krytyczny pech"),
}

# The tests' labels (msgids).
HIT = gettext_noop("Trafienie")
DAMAGE = gettext_noop("Obrażenia")
DODGE = gettext_noop("Unik")
BLOCK = gettext_noop("Blok")
RESISTANCE = gettext_noop("Odporność")
REST = gettext_noop("Odpoczynek")
ACROBATICS = gettext_noop("Akrobatyka")
MIND_DEFENCE = gettext_noop("Obrona przed magią umysłu")

Modifiers = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class TestRoll:
    """One rolled d100 test, as the log shows it."""

    __test__ = False  # not a pytest class

    label: str  # msgid of the test ("Trafienie", "Obrażenia", "Unik", …)
    attribute: str  # attribute key ("zwinnosc"), or "" for a bare threshold
    base: int  # the attribute value
    modifiers: Modifiers  # (reason msgid, value) as built, before the cap
    modifier: int  # their sum after the cap
    threshold: int  # base + modifier
    roll: int  # 1..100
    oop: int  # threshold − roll
    level: str  # one of LEVELS

    @property
    def success(self) -> bool:
        return self.level in SUCCESSES

    @property
    def critical(self) -> bool:
        return self.level in (CRIT_LUCK, CRIT_BAD)

    @property
    def margin(self) -> int:
        """The OoP a success counts (damage, healing, a defence's comparison): at least 0,
        since a crit-luck roll above its threshold still succeeds; 0 for a failure."""
        return max(0, self.oop) if self.success else 0


def capped(modifiers: Iterable[tuple[str, int]], settings: D100Settings) -> int:
    """The modifiers' total, held within ±`modifier_cap`."""
    total = sum(value for _reason, value in modifiers)
    cap = settings.modifier_cap
    return max(-cap, min(cap, total))


def level_of(roll: int, threshold: int, settings: D100Settings) -> str:
    """The level of a d100 `roll` against `threshold` (crit bands first, whatever the
    threshold; then roll ≤ threshold; minimal when 0 ≤ OoP ≤ minimal_margin)."""
    if roll <= settings.crit_luck_max:
        return CRIT_LUCK
    if roll >= settings.crit_bad_min:
        return CRIT_BAD
    if roll > threshold:
        return FAILURE
    return MINIMAL if threshold - roll <= settings.minimal_margin else ORDINARY


def margin_of(roll: int, threshold: int, settings: D100Settings) -> int:
    """`TestRoll.margin` of a roll without building the test (the odds enumerate it)."""
    if level_of(roll, threshold, settings) in SUCCESSES:
        return max(0, threshold - roll)
    return 0


def make_test(
    settings: D100Settings,
    *,
    label: str,
    attribute: str,
    base: int,
    modifiers: Iterable[tuple[str, int]] = (),
    roll: int,
) -> TestRoll:
    """The test for a known `roll` (replays, scripted tests)."""
    if not 1 <= roll <= 100:
        raise ValueError(f"a d100 roll is 1..100, not {roll}")
    mods = tuple((str(reason), int(value)) for reason, value in modifiers)
    modifier = capped(mods, settings)
    threshold = base + modifier
    return TestRoll(
        label=label,
        attribute=attribute,
        base=base,
        modifiers=mods,
        modifier=modifier,
        threshold=threshold,
        roll=roll,
        oop=threshold - roll,
        level=level_of(roll, threshold, settings),
    )


def roll_test(
    rng: RNG,
    settings: D100Settings,
    *,
    label: str,
    attribute: str,
    base: int,
    modifiers: Iterable[tuple[str, int]] = (),
) -> TestRoll:
    """Roll the d100 once (`rng.randint(1, 100)`) and judge it."""
    return make_test(
        settings,
        label=label,
        attribute=attribute,
        base=base,
        modifiers=modifiers,
        roll=rng.randint(1, 100),
    )


def crits_apply(settings: D100Settings) -> bool:
    """Crit effects: mandatory at high difficulty, else as the GM chose (`optional_crits`)."""
    return settings.high or settings.optional_crits


def bad_luck_factor(settings: D100Settings) -> int:
    """How many times crit bad luck counts: `high_bad_luck_factor` at high difficulty, else 1."""
    return settings.high_bad_luck_factor if settings.high else 1


def defence_beats_hit(hit: TestRoll, defence: TestRoll, settings: D100Settings) -> bool:
    """Whether a defence (Unik, Blok) avoids a successful hit (§4 step 2, §8 #5)."""
    return defence_wins(hit.level, hit.margin, defence.level, defence.margin, settings)


def defence_wins(
    hit_level: str, hit_margin: int, defence_level: str, defence_margin: int, s: D100Settings
) -> bool:
    """A failed defence never wins; a crit-luck hit beats a non-crit defence and a crit-luck
    defence beats a non-crit hit; otherwise the greater OoP wins, a tie as `tie_to_defender`."""
    if defence_level not in SUCCESSES:
        return False
    hit_crit, defence_crit = hit_level == CRIT_LUCK, defence_level == CRIT_LUCK
    if hit_crit != defence_crit:
        return defence_crit
    if defence_margin != hit_margin:
        return defence_margin > hit_margin
    return s.tie_to_defender


def raw_damage(damage: TestRoll, settings: D100Settings) -> int:
    """§4 step 3: a failed damage test deals 0, a success OoP × `damage_multiplier`."""
    return damage.margin * settings.damage_multiplier


def soaked(damage: int, resistance: TestRoll | None, settings: D100Settings) -> int:
    """§4 step 4: a successful Wytrzymałość roll takes its OoP × multiplier off (min 0)."""
    if resistance is None or not settings.resistance_roll:
        return damage
    return max(0, damage - resistance.margin * settings.damage_multiplier)


def after_armour(damage: int, reduction_percent: int, *, negated: bool = False) -> int:
    """§4 step 5 (§8 #9): the armour's percent off, the reduction rounded down; none when a
    crit-luck hit negated the armour."""
    if negated or reduction_percent <= 0:
        return damage
    return damage - damage * min(100, reduction_percent) // 100


def injury_penalty(injuries: int, ignored: int, settings: D100Settings) -> int:
    """§8 #14: the penalty (positive) of the effective Urazy (injuries − ignored) to all rolls:
    1st −10, 2nd −20, 3rd and more −30."""
    effective = injuries - ignored
    if effective <= 0:
        return 0
    penalties = settings.injury_penalties
    return penalties[min(effective, len(penalties)) - 1]


__all__ = [
    "CRIT_BAD",
    "CRIT_LUCK",
    "FAILURE",
    "LEVELS",
    "LEVEL_LABELS",
    "MINIMAL",
    "ORDINARY",
    "SUCCESSES",
    "TestRoll",
    "after_armour",
    "bad_luck_factor",
    "capped",
    "crits_apply",
    "defence_beats_hit",
    "defence_wins",
    "injury_penalty",
    "level_of",
    "make_test",
    "margin_of",
    "raw_damage",
    "roll_test",
    "soaked",
]
