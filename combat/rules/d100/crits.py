"""The crit tables of §4 as data: the GM's d6 on a crit-luck hit, the d2s on a crit-bad hit
and on a crit defence, and what each result puts on whom.

Crit effects apply at high difficulty always and at low/moderate as the GM chose
(`check.crits_apply`); crit bad luck counts `high_bad_luck_factor` times at high difficulty
(`check.bad_luck_factor`). The dice are rolled by the server through the injected RNG and kept
in the events (`events.CritRoll`).
"""

from __future__ import annotations

from combat.rules.base import RNG, gettext_noop
from combat.rules.d100 import conditions as cond
from combat.rules.d100.check import bad_luck_factor
from combat.rules.d100.events import Applied, CritRoll
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.state import Combatant, Effect

HIT_LUCK = "trafienie_szczescie"
HIT_BAD = "trafienie_pech"
DEFENCE_LUCK = "obrona_szczescie"
DEFENCE_BAD = "obrona_pech"

NEGATION = "negacja"
SELF_DAMAGE = "obrazenia_wlasne"
# The GM's d6 after a crit-luck hit (§4 table).
HIT_LUCK_TABLE: dict[int, str] = {
    1: NEGATION,
    2: cond.OGLUSZENIE,
    3: cond.POWALENIE,
    4: cond.ROZBROJENIE,
    5: cond.KRWAWIENIE,
    6: cond.ZACHWIANIE,
}
# The GM's d2 after a crit-bad hit (weapon or spell).
HIT_BAD_TABLE: dict[int, str] = {1: SELF_DAMAGE, 2: cond.ZACHWIANIE}

EFFECT_LABELS: dict[str, str] = {
    NEGATION: gettext_noop("negacja pancerza"),
    cond.OGLUSZENIE: gettext_noop("Ogłuszenie"),
    cond.POWALENIE: gettext_noop("Powalenie"),
    cond.ROZBROJENIE: gettext_noop("Rozbrojenie"),
    cond.KRWAWIENIE: gettext_noop("Krwawienie"),
    cond.ZACHWIANIE: gettext_noop("Zachwianie"),
    SELF_DAMAGE: gettext_noop("obrażenia zadane sobie"),
    cond.TRAFIENIE: gettext_noop("modyfikator do Trafienia"),
    cond.UNIK: gettext_noop("modyfikator do Uniku"),
    cond.BLOK: gettext_noop("modyfikator do Bloku"),
    cond.UMYSL: gettext_noop("modyfikator do obrony przed magią umysłu"),
}
CRIT_LUCK_REASON = gettext_noop("krytyczne szczęście")
CRIT_BAD_REASON = gettext_noop("krytyczny pech")


def roll_hit_luck(rng: RNG) -> CritRoll:
    roll = rng.randint(1, 6)
    return CritRoll(HIT_LUCK, 6, roll, HIT_LUCK_TABLE[roll])


def roll_hit_bad(rng: RNG) -> CritRoll:
    roll = rng.randint(1, 2)
    return CritRoll(HIT_BAD, 2, roll, HIT_BAD_TABLE[roll])


def roll_defence(rng: RNG, *, lucky: bool, kind: str) -> CritRoll:
    """A crit defence roll's d2: 1 modifies its next Trafienie, 2 the same kind of defence
    (`kind` "unik", "blok" or "umysl")."""
    roll = rng.randint(1, 2)
    return CritRoll(
        DEFENCE_LUCK if lucky else DEFENCE_BAD, 2, roll, cond.TRAFIENIE if roll == 1 else kind
    )


def hit_luck_effects(
    crit: CritRoll, attacker: Combatant, target: Combatant, turn: int, settings: D100Settings
) -> list[Applied]:
    """The condition a crit-luck hit's d6 puts on the target (negation and Krwawienie are the
    attack's own arithmetic: nothing here). Rozbrojenie of two weapons takes the first hand
    and staggers the target while it lasts."""
    effect = crit.effect
    if effect in (cond.OGLUSZENIE, cond.POWALENIE):
        return [Applied(target.id, cond.immediate(effect, turn, source=attacker.id))]
    if effect == cond.ROZBROJENIE:
        hand = two_weapon_hand(target.weapon)
        out = [Applied(target.id, cond.immediate(effect, turn, source=attacker.id, hand=hand))]
        if hand:
            stagger = Effect(
                key=cond.ZACHWIANIE, start=turn, until=turn + 1,
                value=settings.stagger_penalty, source=attacker.id,
            )  # fmt: skip
            out.append(Applied(target.id, stagger))
        return out
    if effect == cond.ZACHWIANIE:
        return [Applied(target.id, cond.stagger(turn, settings, source=attacker.id))]
    return []


def two_weapon_hand(choice: str) -> str:
    """The hand a Rozbrojenie takes from a two-weapon choice ("two:0:1" → "w0"); "" for one."""
    kind, _sep, rest = choice.partition(":")
    if kind == "two" and rest.count(":") == 1:
        return "w" + rest.split(":")[0]
    return ""


def hit_bad_effects(
    crit: CritRoll, attacker: Combatant, turn: int, settings: D100Settings
) -> tuple[int, list[Applied]]:
    """A crit-bad hit's d2 on the attacker: (its self-inflicted PŻ, 10% of its max, doubled at
    high difficulty; the Zachwianie effects)."""
    if crit.effect == SELF_DAMAGE:
        percent = settings.self_damage_percent * bad_luck_factor(settings)
        return attacker.max_pz * percent // 100, []
    return 0, [Applied(attacker.id, cond.stagger(turn, settings, bad_luck=True))]


def defence_effects(
    crit: CritRoll, defender: Combatant, turn: int, settings: D100Settings
) -> list[Applied]:
    """A crit defence's d2 on the defender: ±defence_crit_mod (bad luck × the factor) to its
    Trafienie next turn, or this turn when it has not acted yet, or to the same defence in the
    next turn."""
    lucky = crit.table == DEFENCE_LUCK
    value = settings.defence_crit_mod * (1 if lucky else -bad_luck_factor(settings))
    reason = CRIT_LUCK_REASON if lucky else CRIT_BAD_REASON
    if crit.effect == cond.TRAFIENIE:
        start = turn if not (defender.full_used or defender.done) else turn + 1
    else:
        start = turn + 1
    return [Applied(defender.id, cond.modifier(crit.effect, value, start, reason))]


def damage_bad_effects(attacker: Combatant, turn: int, settings: D100Settings) -> list[Applied]:
    """Crit bad luck on a damage roll (weapons and spells): −10 to its damage next turn."""
    value = -settings.damage_bad_luck * bad_luck_factor(settings)
    return [Applied(attacker.id, cond.modifier(cond.OBRAZENIA, value, turn + 1, CRIT_BAD_REASON))]


def casting_bad_effects(
    caster: Combatant, roll: str, turn: int, settings: D100Settings
) -> list[Applied]:
    """Crit bad luck of an effect spell: −10 Zmysły (`roll` "czar_trafienie") or Intelekt
    ("czar_obrazenia") when casting next turn."""
    value = -settings.spell_bad_luck * bad_luck_factor(settings)
    return [Applied(caster.id, cond.modifier(roll, value, turn + 1, CRIT_BAD_REASON))]
