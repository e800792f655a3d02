"""The attack flow: declaration, the defender's blind choice, the roll, and what a hit does.

An attack opens a prompt for the defender when it may react (Parowanie, Unik); otherwise it
resolves at once. Ataki okazyjne, Ucieczka from area attacks and expiry work the same way.
"""

from __future__ import annotations

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import RNG, roll_pool
from combat.rules.eleora import grid
from combat.rules.eleora.attack import (
    attack_modifiers,
    check_attack,
    defence_modifiers,
    is_critical,
    outcome,
    shield_or_one,
    weapon_profile,
)
from combat.rules.eleora.commands import (
    AcceptOpportunity,
    ChooseReaction,
    DeclareAttack,
    DeclineOpportunity,
    ResolveExpired,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine import space
from combat.rules.eleora.engine.common import (
    Batch,
    deadline,
    is_surprised,
    new_id,
    new_prompt_id,
    reaction_refusal,
    require_action,
    require_active,
    require_heroism,
    require_no_prompts,
    require_reaction,
)
from combat.rules.eleora.events import (
    ActionSpent,
    AttackCancelled,
    AttackDeclared,
    AttackResolved,
    ConditionAdded,
    ConditionSpent,
    Event,
    HealthChanged,
    Moved,
    PromptClosed,
    ReactionChosen,
)
from combat.rules.eleora.state import Combatant, EncounterState, PendingAttack, Prompt
from combat.rules.records import replace

DEFENSIVE_OPTIONS = ("parowanie", "unik")


def declare_attack(state: EncounterState, cmd: DeclareAttack, rng: RNG) -> list[Event]:
    """Atak: spend the action, fix the attack pool, and ask the defender (or resolve now)."""
    require_no_prompts(state)
    attacker = require_action(state, cmd.actor)
    require_heroism(attacker, cmd.heroism)
    target = state.get(cmd.target)
    profile = weapon_profile(attacker, cmd.weapon, thrown=cmd.thrown)
    check_attack(state, attacker, target, profile, cmd.special)
    batch = Batch(state).add(ActionSpent(actor=cmd.actor, action="atak", detail=cmd.weapon))
    open_attack(batch, rng, cmd, target_id=cmd.target, opportunity=False)
    return batch.events


def open_attack(
    batch: Batch,
    rng: RNG,
    cmd: DeclareAttack | AcceptOpportunity,
    *,
    target_id: str,
    opportunity: bool,
) -> None:
    """AttackDeclared (tokens spent, pool fixed), then a prompt or the resolution."""
    attack = pending_attack(batch.state, cmd, target_id, opportunity)
    _spend_tokens(batch, attack, cmd.heroism)
    prompt = _defence_prompt(batch.state, attack, cmd.now, rng)
    batch.add(AttackDeclared(attack=attack, prompt=prompt))
    if prompt is None:
        resolve(batch, attack.id, rng)


def pending_attack(
    state: EncounterState,
    cmd: DeclareAttack | AcceptOpportunity,
    target_id: str,
    opportunity: bool,
) -> PendingAttack:
    """The declared attack with its pool fixed now (the defender then chooses blind)."""
    attacker, target = state.get(cmd.actor), state.get(target_id)
    thrown = isinstance(cmd, DeclareAttack) and cmd.thrown
    profile = weapon_profile(attacker, cmd.weapon, thrown=thrown)
    modifiers = attack_modifiers(
        state,
        attacker,
        target,
        profile,
        special=cmd.special,
        flat=cmd.flat,
        screened=isinstance(cmd, DeclareAttack) and cmd.screened,
        heroism=cmd.heroism,
        opportunity=opportunity,
    )
    return PendingAttack(
        id=new_id(state, "a"),
        attacker=attacker.id,
        target=target.id,
        weapon=profile.key,
        special=cmd.special,
        modifiers=modifiers,
        ranged=profile.ranged,
        flat=cmd.flat,
        opportunity=opportunity,
        auto_hit=target.status == "unconscious",
        surprised=is_surprised(target),
    )


def _spend_tokens(batch: Batch, attack: PendingAttack, heroism: bool) -> None:
    """Odsłonięcie goes to the first attack from anyone; Rozproszenie to the next attack."""
    target = batch.state.get(attack.target)
    if target.stacks("odsloniecie"):
        # All of them: they are used up by the first attack, whatever part of them counted.
        batch.add(
            ConditionSpent(
                combatant=target.id, key="odsloniecie", stacks=target.stacks("odsloniecie")
            )
        )
    if target.has("rozproszenie"):
        batch.add(ConditionSpent(combatant=target.id, key="rozproszenie"))
    if heroism:
        batch.add(ConditionSpent(combatant=attack.attacker, key="inspiracja"))


def _defence_prompt(
    state: EncounterState, attack: PendingAttack, now: float, rng: RNG
) -> Prompt | None:
    """Parowanie/Unik are offered only when the defender may use a defensive reaction now."""
    target = state.get(attack.target)
    if attack.auto_hit or attack.surprised:
        return None
    if reaction_refusal(target, defensive=True) is not None:
        return None
    return Prompt(
        id=new_prompt_id(state, rng),
        kind="reakcja",
        actor=target.id,
        options=DEFENSIVE_OPTIONS,
        deadline=deadline(state, now),
        attack_id=attack.id,
        trigger=f"atak: {state.get(attack.attacker).name}",
    )


def resolve(batch: Batch, attack_id: str, rng: RNG) -> None:
    """Roll attack and Obrona, compare, deal damage, then the special attack's effect."""
    state = batch.state
    attack = state.attack(attack_id)
    if attack is None:
        return
    attacker, target = state.get(attack.attacker), state.get(attack.target)
    if target.status == "dead":
        batch.add(AttackCancelled(attack=attack_id, reason=f"{target.name} nie żyje"))
        return
    if target.status == "unconscious" and not attack.auto_hit:
        attack = replace(attack, auto_hit=True)  # knocked out before the roll: a sure hit
    faces = state.settings.success_faces
    attack_roll = roll_pool(rng, attack.modifiers, faces)
    defence_roll = (
        None if attack.auto_hit else roll_pool(rng, defence_modifiers(state, target, attack), faces)
    )
    o = outcome(state.settings, attack, attacker, target, attack_roll, defence_roll)
    batch.add(
        AttackResolved(
            attack=attack_id,
            attacker=attacker.id,
            target=target.id,
            attack_roll=attack_roll,
            defence_roll=defence_roll,
            hit=o.hit,
            przebicia=o.przebicia,
            damage_type=o.damage_type,
            damage=o.damage,
            reduction=o.reduction,
            physical=o.physical,
            stun=o.stun,
            bleed=o.bleed,
            critical_failure=is_critical(attack_roll, state.settings),
        )
    )
    if o.hit and batch.state.get(target.id).status != "dead":
        _special_effect(batch, attack, o.przebicia)


def _special_effect(batch: Batch, attack: PendingAttack, przebicia: int) -> None:
    state = batch.state
    attacker = state.get(attack.attacker)
    target = attack.target
    match attack.special:
        case "schwytanie":
            difficulty = attacker.sheet.attribute("sila") + przebicia
            grip = ConditionInstance(
                "unieruchomienie",
                source=attacker.id,
                difficulty=difficulty + state.settings.grab_base_bonus,
            )
            batch.add(ConditionAdded(combatant=target, condition=grip))
        case "powalenie":
            batch.add(ConditionAdded(combatant=target, condition=ConditionInstance("powalenie")))
        case "oslepienie":
            blind = ConditionInstance(
                "oslepienie", remaining=1 + przebicia // 2, source=attacker.id
            )
            batch.add(ConditionAdded(combatant=target, condition=blind))
        case "odepchniecie":
            push(batch, attacker.id, target, przebicia)


def push(batch: Batch, pusher: str, target: str, metres: int) -> None:
    """Wymuszone Poruszanie away from the pusher, 1 m per przebicie (grid.forced_movement)."""
    state = batch.state
    origin, victim = state.get(pusher).position, state.get(target)
    if metres <= 0:
        return
    if origin is None or victim.position is None or origin == victim.position:
        # No map: the GM places the pushed character.
        batch.add(Moved(combatant=target, metres=metres, mode="odepchniecie", forced=True))
        return
    bodies = [
        grid.Body(c.id, c.position)
        for c in state.combatants.values()
        if c.position is not None and c.status != "dead"
    ]
    direction = grid.step_towards(origin, victim.position)
    result = grid.forced_movement(
        bodies,
        [grid.Push(target, direction, metres)],
        space.push_walls(state),
        collision_rounding=state.settings.collision_rounding,
    )
    for key, square in result.positions.items():
        before = state.get(key).position
        if before is not None and square != before:
            batch.add(
                Moved(
                    combatant=key,
                    metres=result.moved.get(key, 0),
                    path=(before, square),
                    mode="odepchniecie",
                    forced=True,
                )
            )
    for hurt in result.damage:
        # Damage from a condition (Wymuszone Poruszanie): no Pancerz, no Wola.
        batch.add(HealthChanged(combatant=hurt.target, stun=hurt.amount, reason=hurt.reason))


# --- the defender's answer --------------------------------------------------------------------


def find_prompt(
    state: EncounterState, actor: str, prompt_id: str | None, kind: str | None
) -> Prompt:
    """The actor's open prompt (of `kind`, if given); the only one when no id is given."""
    mine = [p for p in state.prompts if p.actor == actor and kind in (None, p.kind)]
    if prompt_id is not None:
        mine = [p for p in mine if p.id == prompt_id]
    elif kind is None and any(p.kind == "reakcja" for p in mine):
        mine = [p for p in mine if p.kind == "reakcja"]
    if not mine:
        raise RuleViolation(
            "brak_pytania", gettext_noop("Nie ma pytania o reakcję dla tej postaci.")
        )
    if len(mine) > 1 and prompt_id is None:
        raise RuleViolation(
            "ktore_pytanie", gettext_noop("Kilka pytań czeka: wskaż, na które odpowiadasz.")
        )
    return mine[0]


def require_in_time(prompt: Prompt, now: float) -> None:
    if now > prompt.deadline:
        raise RuleViolation(
            "po_czasie", gettext_noop("Czas na reakcję minął."), deadline=prompt.deadline
        )


def choose_reaction(state: EncounterState, cmd: ChooseReaction, rng: RNG) -> list[Event]:
    """Parowanie and/or Unik (each costs a reaction), or none; then the attack is rolled."""
    require_active(state)
    prompt = find_prompt(state, cmd.actor, cmd.prompt, None)
    require_in_time(prompt, cmd.now)
    if prompt.kind != "reakcja":
        if cmd.reactions:
            raise RuleViolation(
                "reakcja", gettext_noop("Na to pytanie odpowiada się inną reakcją.")
            )
        return [PromptClosed(prompt=prompt.id)]
    chosen = tuple(dict.fromkeys(cmd.reactions))
    if len(chosen) != len(cmd.reactions) or not set(chosen) <= set(prompt.options):
        raise RuleViolation("reakcja", gettext_noop("Tej reakcji nie można tu użyć."))
    defender = state.get(cmd.actor)
    require_heroism(defender, cmd.heroism)
    batch = Batch(state)
    bonus, shield = 0, None
    if cmd.heroism:
        batch.add(ConditionSpent(combatant=cmd.actor, key="inspiracja"))
    if chosen:
        defender = require_reaction(state, cmd.actor, defensive=True)
        if len(chosen) > defender.reactions_left:
            raise RuleViolation(
                "brak_reakcji", gettext_noop("Brak reakcji: za mało reakcji na obie naraz.")
            )
        if "parowanie" in chosen:
            bonus, shield = _parry(defender, cmd.shield)
        for reaction in chosen:
            batch.add(ActionSpent(actor=cmd.actor, action=reaction, reaction=True))
    batch.add(
        ReactionChosen(
            prompt=prompt.id,
            actor=cmd.actor,
            reactions=chosen,
            shield=shield,
            parry_bonus=bonus,
            heroism=cmd.heroism,
        )
    )
    resolve(batch, prompt.attack_id or "", rng)
    return batch.events


def _parry(defender: Combatant, shield: str | None) -> tuple[int, str | None]:
    bonus, used = shield_or_one(defender, shield)
    if shield is not None and used is None:
        raise RuleViolation(
            "tarcza",
            gettext_noop(
                "Tarcza „%(shield)s” niedostępna (nie trzymana lub już użyta w tej turze)."
            ),
            shield=shield,
        )
    return bonus, used


def resolve_expired(state: EncounterState, cmd: ResolveExpired, rng: RNG) -> list[Event]:
    """Every prompt past its deadline is answered "no reaction" (nothing due: no events)."""
    batch = Batch(state)
    for prompt in state.prompts:
        if prompt.deadline > cmd.now:
            continue
        if prompt.kind == "reakcja":
            batch.add(ReactionChosen(prompt=prompt.id, actor=prompt.actor, expired=True))
            resolve(batch, prompt.attack_id or "", rng)
        else:
            batch.add(PromptClosed(prompt=prompt.id, expired=True))
    return batch.events


# --- Atak okazyjny ----------------------------------------------------------------------------


def accept_opportunity(state: EncounterState, cmd: AcceptOpportunity, rng: RNG) -> list[Event]:
    """Take the offered Atak okazyjny: a reaction, then the usual attack flow."""
    prompt = find_prompt(state, cmd.actor, cmd.prompt, "atak_okazyjny")
    require_in_time(prompt, cmd.now)
    attacker = require_reaction(state, cmd.actor)
    require_heroism(attacker, cmd.heroism)
    target = state.get(prompt.target or "")
    check_attack(
        state,
        attacker,
        target,
        weapon_profile(attacker, cmd.weapon),
        cmd.special,
        opportunity=True,
    )
    batch = Batch(state).add(
        PromptClosed(prompt=prompt.id),
        ActionSpent(actor=cmd.actor, action="atak_okazyjny", reaction=True, detail=cmd.weapon),
    )
    open_attack(batch, rng, cmd, target_id=target.id, opportunity=True)
    return batch.events


def decline_opportunity(state: EncounterState, cmd: DeclineOpportunity) -> list[Event]:
    prompt = find_prompt(state, cmd.actor, cmd.prompt, "atak_okazyjny")
    return [PromptClosed(prompt=prompt.id)]
