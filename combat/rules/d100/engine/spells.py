"""Combat spells: every one takes two rolls, the hit (Zmysły) then the damage or effect
(Intelekt), with the focus's modifiers (§3, §4) and the spell rows of the crit table.

A damage spell is an attack (`attack.plan` with the spell's choice: the target may Unik when
`magic_dodgeable`). A negative spell lands on another combatant unless it resists
(Wytrzymałość, or the mind attribute for a `mind` spell, by OoP as a defence); a positive one
on anyone (oneself by default); a summoning brings a creature to the caster's side. An
effect lasts its `turns` after this one (crit luck on the second roll: one more).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.codec import canonical
from combat.rules.d100 import conditions as cond
from combat.rules.d100 import crits as crit
from combat.rules.d100.check import (
    CRIT_BAD,
    CRIT_LUCK,
    DAMAGE,
    HIT,
    MIND_DEFENCE,
    RESISTANCE,
    TestRoll,
    bad_luck_factor,
    crits_apply,
    defence_wins,
)
from combat.rules.d100.commands import Cast
from combat.rules.d100.engine import attack as atk
from combat.rules.d100.engine.common import (
    combatant,
    require_full,
    require_standing,
    require_turn,
    spec,
)
from combat.rules.d100.equipment import AttackProfile, attack_profile
from combat.rules.d100.events import Applied, Event, SpellResolved, Summoned
from combat.rules.d100.settings import ATTRIBUTE_KEYS, SKILLS
from combat.rules.d100.state import Combatant, Effect, EncounterState, Summon
from combat.rules.records import replace

EFFECT = gettext_noop("Efekt czaru")
SPELL_KINDS = ("damage", "negative", "positive", "summon")


def spell_of(c: Combatant, index: int) -> Mapping[str, Any]:
    if not 0 <= index < len(c.spells):
        raise RuleViolation(
            "czar", gettext_noop("%(name)s nie zna takiego czaru."), name=c.name, spell=index
        )
    return c.spells[index]


def cast(state: EncounterState, command: Cast, rng: RNG) -> list[Event]:
    """Live: the full action of casting."""
    me = require_turn(state, command.actor)
    require_full(me)
    return cast_spell(state, me, command.spell, command.target, rng, command.now)


def cast_spell(
    state: EncounterState,
    me: Combatant,
    index: int,
    target_id: str | None,
    rng: RNG,
    now: float,
    *,
    defence: str | None = None,
) -> list[Event]:
    """Cast spell `index`: a damage spell declares an attack (live: the prompt; by post, with
    `defence`, resolved at once); the others resolve at once."""
    spell = spell_of(me, index)
    kind = str(spell.get("kind"))
    if kind == "damage":
        p = atk.plan(state, me, target_id, f"spell:{index}", spell=index)
        if defence is None:
            return atk.declare(state, p, rng, now)
        return atk.strike(state, p, defence, rng)
    if kind in ("positive", "summon"):
        require_standing(state, me, gettext_noop("czar"))
    return resolve_effect(state, me, index, target_id, rng)


def _effect_target(
    state: EncounterState, me: Combatant, kind: str, target_id: str | None
) -> Combatant | None:
    if kind == "summon":
        return None
    if kind == "positive":
        target = combatant(state, target_id or me.id)
        if target.dead:
            raise RuleViolation("martwy", gettext_noop("%(name)s nie żyje."), name=target.name)
        return target
    target = combatant(state, target_id)
    if target.id == me.id:
        raise RuleViolation(
            "czar_na_siebie", gettext_noop("Czaru z negatywnym efektem nie rzuca się na siebie.")
        )
    if target.out:
        raise RuleViolation(
            "cel_poza_walka", gettext_noop("%(name)s jest już poza walką."), name=target.name
        )
    return target


def resolve_effect(
    state: EncounterState, me: Combatant, index: int, target_id: str | None, rng: RNG
) -> list[Event]:
    """A negative, positive or summoning spell, both rolls and the crit rows."""
    spell = spell_of(me, index)
    kind = str(spell.get("kind"))
    if kind not in SPELL_KINDS:  # pragma: no cover - the sheet validates the kinds
        raise RuleViolation("czar_rodzaj", gettext_noop("Nieznany rodzaj czaru."))
    target = _effect_target(state, me, kind, target_id)
    profile = attack_profile(me.sheet, f"spell:{index}", state.settings, transformed=me.transformed)
    atk.require_hands(state, me, profile, spell=index)
    s = state.settings
    crits = crits_apply(s)
    hit = spec(state, me, HIT, profile.hit_attr, cond.TRAFIENIE, profile.hit_mods, spell=True)
    head = SpellResolved(
        caster=me.id, spell=index, name=str(spell.get("name", "")), kind=kind,
        hit=hit.roll(rng, state), target=target.id if target else None, crits=crits,
    )  # fmt: skip
    if head.hit.level == CRIT_BAD and crits:
        return _backfire(state, me, spell, head)
    if not head.hit.success:
        return [head]
    effect = _effect_roll(state, me, profile, kind, rng)
    head = replace(head, effect=effect)
    if effect.level == CRIT_BAD and crits:
        return _backfire(state, me, spell, head, second=True)
    if not effect.success:
        return [head]
    longer = 1 if crits and effect.level == CRIT_LUCK else 0
    turns = int(spell.get("turns", 1)) + longer
    if kind == "summon":
        return _summon(state, me, spell, head, crits)
    assert target is not None
    if kind == "negative":
        return [_negative(state, me, target, spell, head, turns, rng)]
    applied = (Applied(target.id, _spell_effect(state, me, spell, turns)),)
    return [replace(head, success=True, turns=turns, applied=applied)]


def _effect_roll(
    state: EncounterState, me: Combatant, profile: AttackProfile, kind: str, rng: RNG
) -> TestRoll:
    label = DAMAGE if kind == "summon" else EFFECT
    test = spec(
        state, me, label, profile.damage_attr, cond.OBRAZENIA, profile.damage_mods, spell=True
    )
    return test.roll(rng, state)


def _spell_effect(
    state: EncounterState, me: Combatant, spell: Mapping[str, Any], turns: int
) -> Effect:
    return Effect(
        key=cond.CZAR,
        start=state.turn,
        until=state.turn + turns,
        label=str(spell.get("name", "")),
        source=me.id,
    )


def _negative(
    state: EncounterState,
    me: Combatant,
    target: Combatant,
    spell: Mapping[str, Any],
    head: SpellResolved,
    turns: int,
    rng: RNG,
) -> SpellResolved:
    """The target resists by OoP against the effect roll (tie: as `tie_to_defender`)."""
    s = state.settings
    mind = bool(spell.get("mind"))
    attribute = s.mind_attribute if mind else "wytrzymalosc"
    label = MIND_DEFENCE if mind else RESISTANCE
    roll = spec(state, target, label, attribute, cond.UMYSL if mind else "odpornosc").roll(
        rng, state
    )
    applied: list[Applied] = []
    die = None
    if mind and roll.critical and head.crits:
        die = crit.roll_defence(rng, lucky=roll.level == CRIT_LUCK, kind=cond.UMYSL)
        applied += crit.defence_effects(die, target, state.turn, s)
    effect = head.effect
    assert effect is not None
    resisted = defence_wins(effect.level, effect.margin, roll.level, roll.margin, s)
    if not resisted:
        applied.append(Applied(target.id, _spell_effect(state, me, spell, turns)))
    return replace(
        head, resistance=roll, resistance_crit=die, resisted=resisted, success=not resisted,
        turns=turns, applied=tuple(applied),
    )  # fmt: skip


def _backfire(
    state: EncounterState,
    me: Combatant,
    spell: Mapping[str, Any],
    head: SpellResolved,
    *,
    second: bool = False,
) -> list[Event]:
    """Crit bad luck: a negative spell's hit lands its effect on the caster for 1 turn; a
    positive spell's hit, or any effect roll, −10 Zmysły / Intelekt when casting next turn; a
    summoning's either roll brings the creature against its caster (doubled at high)."""
    s = state.settings
    if head.kind == "summon":
        return [head, Summoned(make_summon(state, me, spell, hostile=True))]
    if head.kind == "negative" and not second:
        turns = bad_luck_factor(s)
        applied = [Applied(me.id, _spell_effect(state, me, spell, turns))]
    else:
        roll = cond.CZAR_OBRAZENIA if second else cond.CZAR_TRAFIENIE
        applied = crit.casting_bad_effects(me, roll, state.turn, s)
    return [replace(head, applied=tuple(applied))]


def _summon(
    state: EncounterState,
    me: Combatant,
    spell: Mapping[str, Any],
    head: SpellResolved,
    crits: bool,
) -> list[Event]:
    """Crit luck on the hit: the creature +10 to hit; on the second roll: +20% PŻ."""
    assert head.effect is not None
    creature = make_summon(
        state,
        me,
        spell,
        hit_bonus=state.settings.summon_hit_bonus if crits and head.hit.level == CRIT_LUCK else 0,
        pz_bonus=crits and head.effect.level == CRIT_LUCK,
    )
    turns = int(spell.get("turns", 0))
    return [replace(head, success=True, turns=turns), Summoned(creature)]


def make_summon(
    state: EncounterState,
    caster: Combatant,
    spell: Mapping[str, Any],
    *,
    hostile: bool = False,
    hit_bonus: int = 0,
    pz_bonus: bool = False,
) -> Combatant:
    """The summoned creature: every attribute its `attack` value but Krzepa its `damage` (it
    hits with bare hands: Zwinność to hit, Krzepa for damage), on the caster's side and run by
    its player; a hostile one is the GM's and stays only the next turn."""
    data = dict(spell.get("summon") or {})
    attack, damage = int(data.get("attack", 0)), int(data.get("damage", 0))
    pz = int(data.get("pz", 1))
    if pz_bonus:
        pz += pz * state.settings.summon_pz_bonus_percent // 100
    n = state.summons + 1  # never reused: joined ids may not hold "~"
    turns = int(spell.get("turns", 0))
    until = state.turn + 1 if hostile else (state.turn + turns if turns else 0)
    sheet = {
        "attributes": {key: damage if key == "krzepa" else attack for key in ATTRIBUTE_KEYS},
        "skills": {key: 0 for key, _label in SKILLS},
        "pz": pz,
        "race": "",
        "transformation": "",
        "weapons": [],
        "armour": "",
        "shield": False,
        "spells": [],
    }
    return Combatant(
        id=f"{caster.id}~{n}",
        name=str(data.get("name") or spell.get("name", "")),
        side=caster.side,
        sheet=canonical(sheet),  # as a replay decodes it (combat.rules.codec)
        max_pz=pz,
        pz=pz,
        controller=None if hostile else caster.controller,
        hidden=caster.hidden,
        summon=Summon(
            caster=caster.id,
            spell=str(spell.get("name", "")),
            attack=attack,
            damage=damage,
            hit_bonus=hit_bonus,
            until=until,
            hostile=hostile,
        ),
    )
