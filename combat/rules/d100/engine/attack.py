"""Attacks (§4): the plan of an attack (every test's numbers, the reactions the target may
use), the reaction prompt, and the resolution with every roll as data.

Pipeline: the hit test (crit bad luck: the attack fails and the GM's d2 harms the attacker);
the target's Unik or Blok compared by OoP (`check.defence_beats_hit`; a crit defence rolls
the GM's d2); the GM's d6 on a crit-luck hit; the damage test (OoP × multiplier; crit luck an
Uraz, crit bad luck −10 next turn); the Wytrzymałość soak; the armour percent (none after an
armour negation); PŻ; Krwawienie from the blow dealt (a blow that dealt nothing re-rolls the
damage until a success, for the bleeding only).
"""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules import battlemap
from combat.rules.base import RNG, RuleViolation, fresh_id, gettext_noop
from combat.rules.d100 import conditions as cond
from combat.rules.d100 import crits as crit
from combat.rules.d100.check import (
    BLOCK,
    CRIT_BAD,
    CRIT_LUCK,
    DAMAGE,
    DODGE,
    HIT,
    RESISTANCE,
    TestRoll,
    after_armour,
    crits_apply,
    defence_beats_hit,
    raw_damage,
    soaked,
)
from combat.rules.d100.commands import Attack, Defend
from combat.rules.d100.engine.common import (
    TestSpec,
    combatant,
    default_choice,
    harm,
    out_refusal,
    require_full,
    require_turn,
    spec,
)
from combat.rules.d100.engine.evolve import replay
from combat.rules.d100.engine.space import GEOMETRY, METRES
from combat.rules.d100.equipment import (
    AttackProfile,
    armour_reduction,
    attack_profile,
    can_block,
    dodge_penalties,
    weapon_kinds,
)
from combat.rules.d100.events import (
    Applied,
    AttackDeclared,
    AttackResolved,
    CritRoll,
    Event,
    Harm,
    PromptClosed,
)
from combat.rules.d100.odds import attack_odds
from combat.rules.d100.state import NO_REACTION, Combatant, EncounterState, Prompt
from combat.rules.records import replace

SUMMON_BONUS = gettext_noop("Przyzwaniec")
MAX_BLEED_REROLLS = 50
BEST = "best"


@dataclass(frozen=True)
class Plan:
    """An attack worked out before its rolls: the tests' numbers, the target's armour and the
    reactions it may use now (`options`; none: it cannot react, the attack resolves at once)."""

    attacker: Combatant
    target: Combatant
    choice: str
    spell: int
    label: str
    hit: TestSpec
    damage: TestSpec
    resistance: TestSpec | None
    armour_percent: int
    options: tuple[str, ...]
    crits: bool


def plan(
    state: EncounterState, attacker: Combatant, target_id: str | None, choice: str, spell: int = -1
) -> Plan:
    """Every check of an attack of `attacker` (not of whose turn it is), and its numbers."""
    target = _target(state, attacker, target_id)
    if spell < 0 and choice.startswith("spell"):
        raise RuleViolation("atak_czarem", gettext_noop("Czary rzuca się akcją „Czar”."))
    if attacker.summon is not None:
        choice = "unarmed"
    chosen = choice or default_choice(state, attacker)
    profile = attack_profile(
        attacker.sheet, chosen, state.settings, transformed=attacker.transformed
    )
    require_hands(state, attacker, profile, spell)
    magic = spell >= 0
    if not magic:
        require_reach(state, attacker, target, profile)
    extra = profile.hit_mods
    if attacker.summon is not None and attacker.summon.hit_bonus:
        extra = (*extra, (SUMMON_BONUS, attacker.summon.hit_bonus))
    s = state.settings
    resistance = None
    if s.resistance_roll:
        resistance = spec(state, target, RESISTANCE, "wytrzymalosc", "odpornosc")
    return Plan(
        attacker=attacker,
        target=target,
        choice=chosen,
        spell=spell,
        label=profile.label,
        hit=spec(state, attacker, HIT, profile.hit_attr, cond.TRAFIENIE, extra, spell=magic),
        damage=spec(
            state,
            attacker,
            DAMAGE,
            profile.damage_attr,
            cond.OBRAZENIA,
            profile.damage_mods,
            spell=magic,
        ),  # fmt: skip
        resistance=resistance,
        armour_percent=armour_reduction(target.sheet, s),
        options=reactions(state, target, magic=magic),
        crits=crits_apply(s),
    )


def _target(state: EncounterState, me: Combatant, target_id: str | None) -> Combatant:
    target = combatant(state, target_id)
    if target.id == me.id:
        raise RuleViolation("sam_siebie", gettext_noop("Nie można zaatakować samego siebie."))
    if target.out:
        raise RuleViolation(
            "cel_poza_walka", gettext_noop("%(name)s jest już poza walką."), name=target.name
        )
    if me.summon is not None and me.summon.hostile:
        if target.id != me.summon.caster:
            raise RuleViolation(
                "wrogi_przyzwaniec",
                gettext_noop("%(name)s atakuje tylko tego, kto go przywołał."),
                name=me.name,
            )
        return target
    hostile_summon = target.summon is not None and target.summon.hostile
    if target.side == me.side and not hostile_summon:
        raise RuleViolation(
            "sojusznik", gettext_noop("%(name)s walczy po tej samej stronie."), name=target.name
        )
    return target


CLOSE_COMBAT = frozenset({"melee", "unarmed"})


def beyond_reach(state: EncounterState, me: Combatant, target: Combatant) -> int | None:
    """The fields to `target` when it stands beyond close-combat reach on the laid map and the
    table's `melee_needs_adjacent` applies (the rules have no reach: a table setting); else
    None (no map, a token off it, the setting off, or adjacent)."""
    if not state.settings.melee_needs_adjacent or state.battlemap is None:
        return None
    if me.position is None or target.position is None:
        return None
    fields = battlemap.distance(GEOMETRY, me.position, target.position)
    return fields if fields > 1 else None


def reach_refusal(state: EncounterState, me: Combatant, target: Combatant) -> RuleViolation | None:
    """Why a close-combat attack (melee, claws, fists) of `me` cannot reach `target`, or None."""
    fields = beyond_reach(state, me, target)
    if fields is None:
        return None
    return RuleViolation(
        "poza_zasiegiem",
        gettext_noop("%(name)s jest poza zasięgiem walki wręcz: %(n)s m."),
        name=target.name,
        n=fields * METRES,
    )


def require_reach(
    state: EncounterState, me: Combatant, target: Combatant, profile: AttackProfile
) -> None:
    refused = reach_refusal(state, me, target) if profile.style in CLOSE_COMBAT else None
    if refused is not None:
        raise refused


def require_hands(
    state: EncounterState, me: Combatant, profile: AttackProfile, spell: int = -1
) -> None:
    """Rozbrojenie stops attacks with a weapon or focus (of two weapons: the lost one's); a
    shield goes only with a one-handed weapon."""
    lost = cond.disarm(me, state.turn)
    if lost is not None and profile.uses_weapon:
        if not lost.hand:
            raise RuleViolation(
                "rozbrojony",
                gettext_noop("Rozbrojenie: %(name)s nie może atakować bronią w tej turze."),
                name=me.name,
            )
        if int(lost.hand[1:]) in profile.weapons:
            raise RuleViolation(
                "rozbrojona_reka",
                gettext_noop("Rozbrojenie: %(name)s stracił(a) tę broń; może walczyć drugą."),
                name=me.name,
            )
    if spell >= 0 or not me.sheet.get("shield"):
        return
    kinds = weapon_kinds(state.settings)
    for i in profile.weapons:
        kind = kinds.get(str(me.weapons[i].get("kind")))
        if kind is not None and kind.two_handed:
            raise RuleViolation(
                "tarcza_bron",
                gettext_noop(
                    "Tarcza tylko z bronią małą albo tradycyjną, nie z bronią dwuręczną"
                    " (%(weapon)s)."
                ),
                weapon=str(me.weapons[i].get("name") or kind.label),
            )


def single_disarm(state: EncounterState, c: Combatant) -> bool:
    lost = cond.disarm(c, state.turn)
    return lost is not None and not lost.hand


def reactions(state: EncounterState, target: Combatant, *, magic: bool = False) -> tuple[str, ...]:
    """The reactions `target` may use against an attack now: none when stunned; Unik (against
    a spell only when `magic_dodgeable`); Blok against weapons, with a weapon or a shield, not
    from the ground."""
    if target.out or cond.stunned(target, state.turn):
        return ()
    out = []
    if not magic or state.settings.magic_dodgeable:
        out.append("unik")
    if (
        not magic
        and not cond.knocked_down(target, state.turn)
        and can_block(target.sheet, state.settings, disarmed=single_disarm(state, target))
    ):
        out.append("blok")
    return tuple(out)


def defence_spec(state: EncounterState, target: Combatant, option: str) -> TestSpec | None:
    """The test of a reaction ("unik": Zwinność with the armour's and shield's penalties, none
    after a Rozbrojenie of the one weapon; "blok": the block attribute); None for none."""
    if option == "unik":
        penalties = (
            () if single_disarm(state, target) else dodge_penalties(target.sheet, state.settings)
        )
        return spec(state, target, DODGE, "zwinnosc", cond.UNIK, penalties)
    if option == "blok":
        attribute = state.settings.block_attribute
        return spec(state, target, BLOCK, attribute, cond.BLOK)
    return None


# --- the live attack --------------------------------------------------------------------------


def attack(state: EncounterState, command: Attack, rng: RNG) -> list[Event]:
    """The full action: the target's prompt opens (or, when it cannot react, all is rolled)."""
    me = require_turn(state, command.actor)
    require_full(me)
    p = plan(state, me, command.target, command.choice)
    return declare(state, p, rng, command.now)


def declare(state: EncounterState, p: Plan, rng: RNG, now: float) -> list[Event]:
    """The attack is declared; its prompt opens, or it resolves at once with no reaction."""
    if p.options:
        prompt = Prompt(
            id=fresh_id(rng, "p", state.prompts_opened + 1),
            actor=p.target.id,
            attacker=p.attacker.id,
            deadline=now + state.settings.reaction_seconds,
            choice=p.choice,
            spell=p.spell,
            options=p.options,
        )
        return [AttackDeclared(p.attacker.id, p.target.id, p.choice, p.spell, prompt)]
    declared = AttackDeclared(p.attacker.id, p.target.id, p.choice, p.spell)
    return [declared, resolve(replay(state, [declared]), p, NO_REACTION, rng)]


def strike(state: EncounterState, p: Plan, defence: str, rng: RNG) -> list[Event]:
    """By post: the attack is declared and resolved at once with `defence` (or "best")."""
    declared = AttackDeclared(p.attacker.id, p.target.id, p.choice, p.spell)
    after = replay(state, [declared])
    chosen = best_defence(after, p) if defence == BEST else defence
    if chosen and chosen not in p.options:
        chosen = best_defence(after, p)
    return [declared, resolve(after, p, chosen, rng)]


def defend(state: EncounterState, command: Defend, rng: RNG) -> list[Event]:
    """The target's answer rolls the whole attack."""
    prompt = state.prompt(command.prompt)
    if prompt is None or command.actor != prompt.actor:
        # Another's prompt answers as one that does not exist: it may be a hidden NPC's.
        raise RuleViolation("brak_pytania", gettext_noop("Ten atak nie czeka już na odpowiedź."))
    target = state.get(prompt.actor)
    if command.option not in (NO_REACTION, *prompt.options):
        raise _no_such_reaction(state, target, command.option)
    p = replan(state, prompt)
    if isinstance(p, PromptClosed):
        return [p]
    return [resolve(state, p, command.option, rng, prompt=prompt.id)]


def replan(state: EncounterState, prompt: Prompt) -> Plan | PromptClosed:
    """The attack a prompt waits on, planned again to be rolled; it falls through (the prompt
    closes) when its attacker or target left the fight meanwhile (the GM's damage)."""
    attacker = state.get(prompt.attacker)
    try:
        refused = out_refusal(attacker)
        if refused is None:
            return plan(state, attacker, prompt.actor, prompt.choice, prompt.spell)
    except RuleViolation as refusal:
        refused = refusal
    return PromptClosed(prompt.id, refused.code, refused.message)


def _no_such_reaction(state: EncounterState, target: Combatant, option: str) -> RuleViolation:
    if option == "blok" and cond.knocked_down(target, state.turn):
        return RuleViolation(
            "blok_powalony", gettext_noop("%(name)s leży powalony: tylko Unik."), name=target.name
        )
    if option == "blok" and not can_block(
        target.sheet, state.settings, disarmed=single_disarm(state, target)
    ):
        return RuleViolation(
            "blok_bez_broni",
            gettext_noop("Blok wymaga broni albo tarczy: %(name)s nie ma czym blokować."),
            name=target.name,
        )
    return RuleViolation(
        "obrona_niedostepna",
        gettext_noop("Ta obrona nie jest teraz dostępna: %(option)s."),
        option=option or "–",
    )


def expire_prompts(state: EncounterState, now: float, rng: RNG) -> list[Event]:
    """Prompts past their deadline land as "no reaction"."""
    events: list[Event] = []
    for prompt in state.prompts:
        if prompt.deadline > now:
            continue
        p = replan(state, prompt)
        event: Event
        if isinstance(p, PromptClosed):
            event = p
        else:
            event = resolve(state, p, NO_REACTION, rng, prompt=prompt.id, expired=True)
        events.append(event)
        state = replay(state, [event])
    return events


def best_defence(state: EncounterState, p: Plan) -> str:
    """The reaction with the lowest expected damage (exact odds); ties: Unik, Blok, none."""
    s = state.settings
    damage = p.damage.threshold(state)
    resistance = p.resistance.threshold(state) if p.resistance else None
    ranked = []
    for rank, option in enumerate((*p.options, NO_REACTION)):
        defence = defence_spec(state, p.target, option)
        odds = attack_odds(
            s,
            hit=p.hit.threshold(state),
            damage=damage,
            defence=defence.threshold(state) if defence else None,
            resistance=resistance,
            armour=p.armour_percent,
            crits=p.crits,
        )
        ranked.append((round(odds.expected_damage, 9), rank, option))
    return min(ranked)[2]


# --- the resolution ---------------------------------------------------------------------------


def resolve(
    state: EncounterState,
    p: Plan,
    defence: str,
    rng: RNG,
    *,
    prompt: str = "",
    expired: bool = False,
) -> AttackResolved:
    """Every roll of the attack, in the order: hit, [its d2], defence, [its d2], [the hit's
    d6], damage, resistance, [damage re-rolls for a Krwawienie]."""
    hit = p.hit.roll(rng, state)
    head = AttackResolved(
        attacker=p.attacker.id, target=p.target.id, hit=hit, choice=p.choice, spell=p.spell,
        label=p.label, prompt=prompt, expired=expired, defence=defence, crits=p.crits,
    )  # fmt: skip
    if hit.level == CRIT_BAD:
        return _fumble(state, p, head, rng)
    if not hit.success:
        return head
    applied: list[Applied] = []
    defence_roll, defence_crit = _defence_roll(state, p, defence, rng, applied)
    head = replace(head, defence_roll=defence_roll, defence_crit=defence_crit)
    if defence_roll is not None and defence_beats_hit(hit, defence_roll, state.settings):
        return replace(head, avoided=True, applied=tuple(applied))
    return _lands(state, p, head, applied, rng)


def _fumble(state: EncounterState, p: Plan, head: AttackResolved, rng: RNG) -> AttackResolved:
    """Crit bad luck on the hit: the attack fails; the GM's d2 (self-harm or Zachwianie)."""
    if not p.crits:
        return head
    die = crit.roll_hit_bad(rng)
    self_damage, applied = crit.hit_bad_effects(die, p.attacker, state.turn, state.settings)
    harms = (harm(state, p.attacker, self_damage),) if self_damage else ()
    return replace(head, hit_crit=die, harms=harms, applied=tuple(applied))


def _defence_roll(
    state: EncounterState, p: Plan, defence: str, rng: RNG, applied: list[Applied]
) -> tuple[TestRoll | None, CritRoll | None]:
    test = defence_spec(state, p.target, defence)
    if test is None:
        return None, None
    roll = test.roll(rng, state)
    if not (roll.critical and p.crits):
        return roll, None
    die = crit.roll_defence(rng, lucky=roll.level == CRIT_LUCK, kind=defence)
    applied += crit.defence_effects(die, p.target, state.turn, state.settings)
    return roll, die


def _lands(
    state: EncounterState, p: Plan, head: AttackResolved, applied: list[Applied], rng: RNG
) -> AttackResolved:
    s, hit = state.settings, head.hit
    hit_crit = None
    if hit.level == CRIT_LUCK and p.crits:
        hit_crit = crit.roll_hit_luck(rng)
        applied += crit.hit_luck_effects(hit_crit, p.attacker, p.target, state.turn, s)
    negated = hit_crit is not None and hit_crit.effect == crit.NEGATION
    damage = p.damage.roll(rng, state)
    raw = raw_damage(damage, s)
    injuries = 0
    if p.crits and damage.level == CRIT_LUCK:
        injuries = 1
    if p.crits and damage.level == CRIT_BAD:
        applied += crit.damage_bad_effects(p.attacker, state.turn, s)
    resistance = p.resistance.roll(rng, state) if p.resistance and raw > 0 else None
    after = soaked(raw, resistance, s)
    dealt = after_armour(after, p.armour_percent, negated=negated)
    bleed_rolls: tuple[TestRoll, ...] = ()
    if hit_crit is not None and hit_crit.effect == cond.KRWAWIENIE:
        per_turn, bleed_rolls = _bleeding(state, p, dealt, rng)
        applied.append(
            Applied(p.target.id, cond.bleeding(state.turn, per_turn, s, source=p.attacker.id))
        )
    harms: tuple[Harm, ...] = ()
    if dealt or injuries:
        harms = (harm(state, p.target, dealt, injuries),)
    return replace(
        head, hit_crit=hit_crit, damage=damage, raw=raw, resistance=resistance,
        soaked=raw - after, armour_percent=0 if negated else p.armour_percent,
        armour=after - dealt, armour_negated=negated, dealt=dealt, harms=harms,
        applied=tuple(applied), bleed_rolls=bleed_rolls,
    )  # fmt: skip


def _bleeding(
    state: EncounterState, p: Plan, dealt: int, rng: RNG
) -> tuple[int, tuple[TestRoll, ...]]:
    """Krwawienie's PŻ per turn: bleed_percent of the blow (rounded down, at least 1); a blow
    that dealt nothing: the GM re-rolls the damage until a success and takes its raw damage."""
    s = state.settings
    rolls: list[TestRoll] = []
    while not dealt and len(rolls) < MAX_BLEED_REROLLS:
        roll = p.damage.roll(rng, state)
        rolls.append(roll)
        if roll.success:
            dealt = raw_damage(roll, s)
            break
    return max(1, dealt * s.bleed_percent // 100), tuple(rolls)
