"""Attacks: the attack test against the defence, the defender's reaction (Unik, Riposta), and
the damage pipeline of `magus.damage` with what follows it (Wound, balance test, Krwotok,
Atak by ogłuszyć / powalić, Strzaskanie tarczy, Precyzyjny atak at a weapon).

`plan` works an attack out without rolling (the odds preview uses it too); `attack` rolls it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from combat.rules.base import RNG, RuleViolation, fresh_id, gettext_noop
from combat.rules.magus import conditions as cond
from combat.rules.magus import damage as dmg
from combat.rules.magus import options as opt
from combat.rules.magus.check import action_test, effect_test
from combat.rules.magus.commands import Answer, Attack
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.engine import riding, space
from combat.rules.magus.engine.common import (
    combatant,
    dn_raise,
    reaction_talents,
    require_can_act,
    require_cap,
    require_turn,
    state_adjustments,
)
from combat.rules.magus.engine.turns import change_action, require_standard
from combat.rules.magus.events import (
    AttackRolled,
    CheckRolled,
    ConditionAdded,
    DamageRolled,
    DefenceRolled,
    Event,
    GroundGiven,
    ItemDamaged,
    Moved,
    PromptClosed,
    StrainPaid,
)
from combat.rules.magus.levels import EXCELLENT, EXTRAORDINARY, LEVELS
from combat.rules.magus.sheet import ATTACK_TALENT, CLOSE_COMBAT, Shield, Spell, Weapon
from combat.rules.magus.state import NO_REACTION, Combatant, EncounterState, Prompt, Strike
from combat.rules.records import replace

UNARMED = Weapon(name="", kind="unarmed")
CALLED_WEAPON = "bron"  # flag: a Precyzyjny atak at the target's weapon
SEVER = "oderwanie"  # flag: Oderwanie kończyn
IGNORE_SHIELD = "omija_tarcze"  # flag: Ominięcie tarczy won the initiative
DEFENCE_LABELS = {
    "obrona_fizyczna": gettext_noop("Obrona Fizyczna"),
    "obrona_magiczna": gettext_noop("Obrona Magiczna"),
    "obrona_spoleczna": gettext_noop("Obrona Społeczna"),
}
TALENT_LABELS = {"unik": gettext_noop("Unik"), "riposta": gettext_noop("Riposta")}


@dataclass(frozen=True)
class Plan:
    """An attack worked out before its roll: the test's step and adjustments, the DN and its
    parts, the flags that shape its damage, and whether it is a Zmiana akcji."""

    attacker: Combatant
    target: Combatant
    weapon: Weapon | None
    spell: Spell | None
    step: int
    adjustments: tuple[Adjustment, ...]
    dn: int
    dn_parts: tuple[tuple[str, int], ...]
    flags: tuple[str, ...]
    change: bool
    item: str = ""  # Uszkodzenie broni, tarczy lub zbroi: the target's item it aims at
    facts: space.Facts = space.Facts()  # what the battle map says (Atak z tyłu, Otoczony)

    @property
    def modifier(self) -> int:
        return sum(a.value for a in self.adjustments)


def plan(state: EncounterState, command: Attack) -> Plan:
    """Every check of an attack, and its numbers; RuleViolation for one the rules refuse."""
    me = require_turn(state, command.actor)
    require_can_act(state, me)
    require_standard(me)
    target = combatant(state, command.target)
    if target.id == me.id:
        raise RuleViolation("sam_siebie", gettext_noop("Nie można zaatakować samego siebie."))
    if target.dead:
        raise RuleViolation("cel_martwy", gettext_noop("%(name)s nie żyje."), name=target.name)
    weapon, spell = _means(me, command)
    facts = space.attack_facts(state, me, target, None if spell else weapon)
    declared = me.declaration.action if me.declaration else "none"
    kind = "spell" if spell else "attack"
    change = declared != kind
    require_cap(me)
    if change:
        me = replace(me, changes=me.changes + 1)
    flags = _flags(state, me, target, weapon, spell, command, facts)
    item = _aimed_item(me, target, command.damage_item)
    adjustments = _attack_adjustments(state, me, target, weapon, flags)
    dn, parts = _defence(state, me, target, spell, flags, facts)
    talent = "rzucanie_czarow" if spell else ATTACK_TALENT[(weapon or UNARMED).kind]
    step = me.sheet.talent_step(talent)
    if command.charge_m:
        step = riding.charge(state, me, weapon, command.charge_m).attack_step
        flags = (*flags, riding.CHARGE)
    return Plan(
        attacker=me,
        target=target,
        weapon=weapon,
        spell=spell,
        step=max(1, step),
        adjustments=tuple(adjustments),
        dn=dn,
        dn_parts=parts,
        flags=flags,
        change=change,
        item=item,
        facts=facts,
    )


def _means(me: Combatant, command: Attack) -> tuple[Weapon | None, Spell | None]:
    if command.spell:
        spell = me.spell(command.spell)
        if spell is None:
            raise RuleViolation(
                "czar", gettext_noop("%(name)s nie zna czaru %(spell)s."), name=me.name,
                spell=command.spell,
            )  # fmt: skip
        return None, spell
    if not command.weapon:
        return UNARMED, None
    weapon = me.weapon(command.weapon)
    if weapon is None:
        raise RuleViolation(
            "bron", gettext_noop("%(name)s nie ma broni %(weapon)s."), name=me.name,
            weapon=command.weapon,
        )  # fmt: skip
    if me.disarmed and weapon.kind != "unarmed":
        raise RuleViolation(
            "rozbrojony", gettext_noop("%(name)s stracił broń w tej walce."), name=me.name
        )
    return weapon, None


def _flags(
    state: EncounterState,
    me: Combatant,
    target: Combatant,
    weapon: Weapon | None,
    spell: Spell | None,
    command: Attack,
    facts: space.Facts,
) -> tuple[str, ...]:
    options = set(me.options)
    declared = me.declaration.action if me.declaration else "none"
    flags = [k for k in opt.DECLARABLE if k in options and opt.OPTIONS[k].needs_attack]
    if declared not in ("attack", "spell"):
        flags = []
    if opt.AGRESYWNY in flags and (spell or weapon is None or weapon.kind not in CLOSE_COMBAT):
        flags.remove(opt.AGRESYWNY)
    blindside = command.blindside if facts.blindside is None else facts.blindside  # the map's
    if blindside and not target.ignores_blindside:  # a warned brooch wearer: no penalty
        flags.append(opt.Z_TYLU)
    if command.sever:
        aimed = me.aim > 0
        if not dmg.can_sever(me.sheet.step("sila"), target.sheet.step("sila"), aimed):
            raise RuleViolation(
                "oderwanie",
                gettext_noop(
                    "Oderwanie kończyn: atak z przycelowaniem i Siła co najmniej dwa razy"
                    " większa niż ofiary."
                ),
            )
        flags.append(SEVER)
    if command.called_weapon:
        if opt.PRECYZYJNY not in flags:
            raise RuleViolation(
                "precyzyjny_bron", gettext_noop("Atak w broń wymaga Precyzyjnego ataku.")
            )
        if not target.sheet.weapons or target.disarmed:
            raise RuleViolation(
                "cel_bez_broni", gettext_noop("%(name)s nie trzyma broni."), name=target.name
            )
        flags.append(CALLED_WEAPON)
    if opt.OMINIECIE in flags:
        aimed_at = me.declaration.target if me.declaration else None
        if aimed_at != target.id:
            flags.remove(opt.OMINIECIE)
        elif me.initiative is not None and (
            target.initiative is None or me.initiative > target.initiative
        ):
            flags.append(IGNORE_SHIELD)
    return tuple(flags)


def item_of(target: Combatant, name: str) -> tuple[str, bool] | None:
    """(kind, magic) of the target's weapon ("bron", not when disarmed), shield ("tarcza",
    not when broken) or armour ("zbroja", never magic: the sheet has no such flag) called
    `name`; None if it has none."""
    weapon = None if target.disarmed else target.weapon(name)
    if weapon is not None and weapon.kind != "unarmed":
        return "bron", weapon.magic
    shield = target.shield
    if shield is not None and shield.name == name:
        return "tarcza", shield.magic
    if any(a.name == name for a in target.sheet.armour):
        return "zbroja", False
    return None


def _aimed_item(me: Combatant, target: Combatant, name: str) -> str:
    """Uszkodzenie broni, tarczy lub zbroi: only an aimed attack (Przycelowanie) may pick an
    item of the target."""
    if not name:
        return ""
    if me.aim <= 0:
        raise RuleViolation(
            "uszkodzenie_celowanie",
            gettext_noop("Uszkodzenie broni, tarczy lub zbroi wymaga Przycelowania."),
        )
    if item_of(target, name) is None:
        raise RuleViolation(
            "uszkodzenie_przedmiot", gettext_noop("%(name)s nie ma przedmiotu %(item)s."),
            name=target.name, item=name,
        )  # fmt: skip
    return name


def _attack_adjustments(
    state: EncounterState,
    me: Combatant,
    target: Combatant,
    weapon: Weapon | None,
    flags: tuple[str, ...],
) -> list[Adjustment]:
    settings = state.settings
    ranged = weapon is not None and weapon.kind in ("missile", "thrown")
    chosen = [*flags, *(k for k in (opt.ODDAWANIE, opt.POSTAWA) if k in me.options)]
    out = opt.attack_adjustments(chosen, settings, aim=me.aim, ranged=ranged)
    if opt.OMINIECIE in flags and IGNORE_SHIELD not in flags:
        out.append(Adjustment(-settings.inside_shield_lost_penalty, opt.label(opt.OMINIECIE)))
    return out + state_adjustments(me, state)


def _defence(
    state: EncounterState,
    me: Combatant,
    target: Combatant,
    spell: Spell | None,
    flags: tuple[str, ...],
    facts: space.Facts,
) -> tuple[int, tuple[tuple[str, int], ...]]:
    settings = state.settings
    defence = spell.defence if spell else "obrona_fizyczna"
    parts: list[tuple[str, int]] = [
        (DEFENCE_LABELS.get(defence, defence), target.sheet.stat(defence))
    ]
    ground = target.declaration.ground if target.declaration else 0
    options = target.options
    if opt.Z_TYLU in flags:  # Postawa obronna counts only against an attack it „widzi bądź wyczuje”
        options = tuple(k for k in options if k != opt.POSTAWA)
    if facts.ground == ():  # no room on the map to give ground: no Oddawanie pola bonus
        options = tuple(k for k in options if k != opt.ODDAWANIE)
    parts += opt.defence_modifiers(options, settings, ground=ground, defence=defence)
    parts += cond.defence_modifiers(
        target.conditions, settings, defence=defence, out=target.unconscious
    )
    parts += space.harried_part(state, facts, defence)
    parts += riding.split_move_defence(state, target)
    if opt.Z_TYLU in flags:
        parts.append((opt.label(opt.Z_TYLU), -settings.blindside_penalty))
    parts += dn_raise(me, state)
    return max(0, sum(v for _, v in parts)), tuple(parts)


# --- the attack test --------------------------------------------------------------------------


def attack(state: EncounterState, command: Attack, rng: RNG) -> list[Event]:
    p = plan(state, command)
    settings = state.settings
    events: list[Event] = []
    if p.change:
        events += change_action(state, state.get(p.attacker.id), "spell" if p.spell else "attack")
    if riding.CHARGE in p.flags and p.attacker.mount is not None:
        events.append(Moved(p.attacker.mount, command.charge_m))  # the mount covers the charge
    roll, level = action_test(rng, p.step, p.dn, settings, p.adjustments)
    strike = Strike(
        attacker=p.attacker.id,
        target=p.target.id,
        weapon=p.weapon.name if p.weapon else "",
        spell=p.spell.name if p.spell else "",
        total=roll.total,
        dn=p.dn,
        level=level.key,
        flags=p.flags,
        item=p.item,
    )
    talents = reaction_talents(state, p.target) if level.success else ()
    prompt = None
    if talents:
        pid = fresh_id(rng, "p", state.prompts_opened + 1)
        deadline = command.now + settings.reaction_timeout_s
        prompt = Prompt(pid, p.target.id, deadline, strike, talents)
    if p.facts.ground:
        events.append(GroundGiven(p.target.id, p.facts.ground))
    rolled = AttackRolled(
        p.attacker.id, p.target.id, strike.weapon, strike.spell, roll, p.dn, p.dn_parts,
        level.key, prompt, p.facts.notes,
    )  # fmt: skip
    events.append(rolled)
    events += _harried_by_many(state, p)
    if level.success and prompt is None:
        events += land(state, strike, rng)
    return events


def _harried_by_many(state: EncounterState, p: Plan) -> list[Event]:
    """ED: four (a setting) or more melee attackers in a round leave the target Otoczony."""
    many = state.settings.harried_attackers
    close = p.weapon is not None and p.weapon.kind in CLOSE_COMBAT
    attackers = set(p.target.melee_attackers) | {p.attacker.id}
    if not many or not close or len(attackers) < many or p.target.has(cond.OTOCZONY):
        return []
    return [ConditionAdded(p.target.id, cond.OTOCZONY, state.round)]


# --- the defender's answer --------------------------------------------------------------------


def answer(state: EncounterState, command: Answer, rng: RNG) -> list[Event]:
    """Unik or Riposta (one defensive talent per attack): the test must reach the attack's
    result; Strain as the settings say. No reaction: the hit lands."""
    prompt = state.prompt(command.prompt)
    if prompt is None or command.actor != prompt.actor:
        # Another's prompt answers as one that does not exist: it may be a hidden NPC's.
        raise RuleViolation(
            "brak_pytania", gettext_noop("To pytanie jest już zamknięte."), prompt=command.prompt
        )
    defender = state.get(prompt.actor)
    if command.option != NO_REACTION and (
        command.option not in prompt.options
        or command.option not in reaction_talents(state, defender)
    ):
        raise RuleViolation(
            "reakcja", gettext_noop("Tej reakcji nie można tu użyć."), option=command.option
        )
    if command.now > prompt.deadline:
        raise RuleViolation("po_czasie", gettext_noop("Czas na odpowiedź minął."))
    if command.option == NO_REACTION:
        return [PromptClosed(prompt.id), *land(state, prompt.strike, rng)]
    events, success = defend(state, prompt, command.option, rng)
    closed = [*events, PromptClosed(prompt.id)]
    return closed if success else [*closed, *land(state, prompt.strike, rng)]


def defence_test(
    state: EncounterState, defender: Combatant, talent: str, needed: int
) -> tuple[int, list[Adjustment], int]:
    """(step, adjustments, needed) of a defensive talent's test against an attack result:
    Postawa obronna, Wounds, Otoczony and Powalony lower it; a held action raises the need."""
    reasons = state_adjustments(defender, state) + opt.action_adjustments(
        defender.options, state.settings
    )
    raised = needed + sum(v for _, v in dn_raise(defender, state))
    return max(1, defender.sheet.talent_step(talent)), reasons, raised


def defend(
    state: EncounterState, prompt: Prompt, talent: str, rng: RNG
) -> tuple[list[Event], bool]:
    settings = state.settings
    defender = state.get(prompt.actor)
    events: list[Event] = []
    points = settings.avoid_blow_strain if talent == "unik" else settings.riposte_strain
    if points:
        events.append(StrainPaid(defender.id, talent, points, opt.strain_damage(points, settings)))
    step, reasons, needed = defence_test(state, defender, talent, prompt.strike.total)
    roll, level = action_test(rng, step, needed, settings, reasons)
    success = level.success
    events.append(DefenceRolled(prompt.id, defender.id, talent, roll, needed, success))
    return events, success


def expire_prompts(state: EncounterState, now: float, rng: RNG) -> list[Event]:
    """Prompts past their deadline land as "no reaction"."""
    events: list[Event] = []
    for prompt in state.prompts:
        if prompt.deadline <= now:
            events += [PromptClosed(prompt.id, expired=True), *land(state, prompt.strike, rng)]
    return events


# --- the damage -------------------------------------------------------------------------------


def usable_shield(
    state: EncounterState, target: Combatant, flags: tuple[str, ...]
) -> Shield | None:
    """The target's shield, if it counts: not broken, not surprised, not gone inside of."""
    if target.has(cond.ZASKOCZONY) or IGNORE_SHIELD in flags:
        return None
    return target.shield


def blow(state: EncounterState, strike: Strike) -> tuple[dmg.Blow, Weapon | None, Shield | None]:
    """The damage step and the armour of one hit, set up as `damage.Blow`."""
    attacker, target = state.get(strike.attacker), state.get(strike.target)
    spell = attacker.spell(strike.spell) if strike.spell else None
    weapon = None if spell else (attacker.weapon(strike.weapon) or UNARMED)
    shield = usable_shield(state, target, strike.flags)
    if spell is not None:
        step = spell.effect_step
        armour = target.sheet.mystic_armour
        shield_value = shield.mystic if shield else 0
    else:
        assert weapon is not None
        step = attacker.sheet.damage_step(weapon) + opt.damage_bonus(strike.flags, state.settings)
        if riding.CHARGE in strike.flags:
            step += riding.mount_bonus(state, attacker)
        armour = target.sheet.physical_armour
        shield_value = shield.physical if shield else 0
    penalty = state.settings.wound_penalty * attacker.wound_penalty
    return (
        dmg.Blow(
            damage_step=max(1, step),
            armour=armour + shield_value,
            shield=shield_value,
            capped=spell is None and not (weapon is not None and weapon.magic),
            minimum_on_good=spell is None,
            modifier=-penalty,
        ),
        weapon,
        shield,
    )


def land(state: EncounterState, strike: Strike, rng: RNG) -> list[Event]:
    """The hit's damage test and what follows it; after a charge hit, the rider's test."""
    events = _land(state, strike, rng) + _item_damage(state, strike)
    if riding.CHARGE in strike.flags:
        rider, target = state.get(strike.attacker), state.get(strike.target)
        weapon = rider.weapon(strike.weapon) or UNARMED
        events += riding.impact(state, rider, target, weapon, _wound_reasons(state, rider), rng)
    return events


def _item_damage(state: EncounterState, strike: Strike) -> list[Event]:
    """The aimed item is damaged on an Excellent attack result (Extraordinary for a magic
    item); its consequences (PG224) are the GM's narrative."""
    found = item_of(state.get(strike.target), strike.item) if strike.item else None
    if found is None:
        return []
    kind, magic = found
    needed = EXTRAORDINARY if magic else EXCELLENT
    reached = next((lvl for lvl in LEVELS if lvl.key == strike.level), None)
    if reached is None or reached.successes < needed.successes:
        return []
    return [ItemDamaged(strike.target, strike.item, kind, magic)]


def _wound_reasons(state: EncounterState, c: Combatant, extra: int = 0) -> list[Adjustment]:
    wounds = max(0, c.wounds + extra - 1) * state.settings.wound_penalty
    return [Adjustment(-wounds, gettext_noop("Rany"))] if wounds else []


def _land(state: EncounterState, strike: Strike, rng: RNG) -> list[Event]:
    settings = state.settings
    target = state.get(strike.target)
    b, weapon, shield = blow(state, strike)
    if CALLED_WEAPON in strike.flags:
        return _retention(state, target, b.damage_step, rng)
    roll = effect_test(rng, b.damage_step, settings)
    done = dmg.damage_after_armour(b, strike.total, strike.dn, roll.total, settings)
    wt = target.wound_threshold

    def rolled(kind: str, wound: bool = False) -> DamageRolled:
        return DamageRolled(
            strike.attacker, target.id, roll, b.damage_step, done.capped, done.armour_applied,
            done.dealt, done.penetrated, kind, wound,
        )  # fmt: skip

    size = weapon.size if weapon else 0
    if (
        opt.STRZASKANIE in strike.flags
        and shield is not None
        and dmg.can_shatter(done, size, settings)
    ):
        broke = dmg.shatters(done, size, shield, settings)
        value = dmg.shatter_result(done, size)
        check = CheckRolled(target.id, "tarcza", roll, shield.destruction, broke, value)
        if broke:
            return [rolled("none", False), check]
        return [check, *_harm(state, target, done, strike, rolled, rng)]
    if opt.POWALENIE in strike.flags:
        dn = dmg.knock_down_attack_dn(done)
        return [
            rolled("none", False),
            *_balance(state, target, dn, "powalenie", rng, extra_wounds=0),
        ]
    if opt.OGLUSZENIE in strike.flags:
        rounds = dmg.stun_rounds(done.dealt, wt, settings)
        stunned: list[Event] = []
        if rounds:
            stunned.append(ConditionAdded(target.id, cond.OGLUSZONY, state.round + rounds))
        return [rolled("stun", False), *stunned]
    return _harm(state, target, done, strike, rolled, rng)


def _harm(
    state: EncounterState,
    target: Combatant,
    done: dmg.Damage,
    strike: Strike,
    rolled: Callable[[str, bool], DamageRolled],
    rng: RNG,
) -> list[Event]:
    """Damage dealt: a Wound over the threshold with its balance test, Krwotok, and a limb
    torn off by Oderwanie kończyn."""
    settings = state.settings
    wt = target.wound_threshold
    dealt = done.dealt
    wound = dmg.is_wound(dealt, wt) and dealt > 0
    events: list[Event] = [rolled("damage", wound)]
    if wound and target.mount is not None:  # a rider: the saddle test (Pewny dosiad)
        dn = dmg.knockdown_dn(dealt, wt, settings)
        events += riding.saddle(state, target, dn, _wound_reasons(state, target, 1), rng)
    elif wound and not target.knocked_down:
        dn = dmg.knockdown_dn(dealt, wt, settings)
        events += _balance(state, target, dn, "rownowaga", rng, extra_wounds=1)
    if dealt > 0 and not target.has(cond.KRWOTOK) and dmg.hemorrhage(dealt, wt, settings):
        events.append(ConditionAdded(target.id, cond.KRWOTOK, 0))
    if SEVER in strike.flags and not target.has(cond.ODERWANA) and dmg.severs(done, wt, settings):
        events.append(ConditionAdded(target.id, cond.ODERWANA, 0))
    return events


def _balance(
    state: EncounterState, target: Combatant, dn: int, kind: str, rng: RNG, *, extra_wounds: int
) -> list[Event]:
    """A balance (knockdown) test: Siła step vs `dn`; failure: Powalony. Wounds lower it
    (Postawa obronna does not)."""
    reasons = _wound_reasons(state, target, extra_wounds)
    roll, level = action_test(rng, target.sheet.step("sila"), dn, state.settings, reasons)
    success = level.success
    events: list[Event] = [CheckRolled(target.id, kind, roll, dn, success)]
    if not success and not target.knocked_down:
        events.append(ConditionAdded(target.id, cond.POWALONY, 0))
    return events


def _retention(state: EncounterState, target: Combatant, damage_step: int, rng: RNG) -> list[Event]:
    """Precyzyjny atak at a weapon: Siła step (+3 for a two-handed weapon) vs the attacker's
    damage step, or the weapon is lost."""
    settings = state.settings
    held = target.sheet.weapons[0]
    test = dmg.retention_test(damage_step, held.two_handed, settings)
    reasons = [Adjustment(test.bonus, gettext_noop("broń dwuręczna"))] if test.bonus else []
    roll, level = action_test(rng, target.sheet.step("sila"), test.dn, settings, reasons)
    return [CheckRolled(target.id, "bron", roll, test.dn, level.success)]
