"""evolve(state, event) -> state: how each Eleora event changes the encounter. Never rolls.

Every change of damage goes through `health.change_health`; every change of conditions
through `conditions.add/remove/...` followed by `health.settle`, so the unconsciousness and
death checks can never be skipped.
"""

from __future__ import annotations

from collections.abc import Iterable

from combat.rules import battlemap, naming
from combat.rules.codec import with_key
from combat.rules.eleora import conditions as cond
from combat.rules.eleora import grid, health
from combat.rules.eleora.events import (
    ActionSpent,
    AimTaken,
    AttackCancelled,
    AttackDeclared,
    AttackResolved,
    CombatantChanged,
    CombatantJoined,
    CombatantPlaced,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    ConditionSpent,
    ConditionTicked,
    DeadlinesMoved,
    DifficultyLowered,
    EnvironmentChanged,
    Event,
    FirstAidGiven,
    GMRolled,
    GuardRaised,
    HealthChanged,
    InitiativeChanged,
    InitiativeRolled,
    InitiativeTieBroken,
    ItemMoved,
    ItemUsed,
    MaimingRolled,
    MapEdited,
    MountAdrift,
    MountChanged,
    Moved,
    Note,
    PassGranted,
    PromptClosed,
    PromptOpened,
    ReactionChosen,
    ReactionGained,
    ReloadProgressed,
    RoundStarted,
    SpellPartPrepared,
    Steered,
    TestRolled,
    TurnEnded,
    TurnStarted,
)
from combat.rules.eleora.state import Combatant, EncounterState
from combat.rules.records import replace

_LOG_ONLY = (TestRolled, GMRolled, ItemUsed, Note, MountAdrift, InitiativeTieBroken)


def evolve(state: EncounterState, event: Event) -> EncounterState:
    """The state after `event`; pure, deterministic, and never consults an RNG."""
    if isinstance(event, _LOG_ONLY):
        return state
    match event:
        case CombatStarted():
            return _combat_started(state, event)
        case InitiativeRolled(combatant=who, faces=faces):
            return state.update(who, setup_roll=faces)
        case RoundStarted(round=number, surprise=surprise):
            return replace(
                state, round=number, acted=(), phase="surprise" if surprise else "combat"
            )
        case TurnStarted():
            return _turn_started(state, event)
        case TurnEnded(combatant=who):
            c = state.get(who)
            state = state.put(replace(c, conditions=cond.count_down(c.conditions, "end")))
            return replace(state, current=None if state.current == who else state.current)
        case CombatEnded(winner=winner):
            # DEFAULT: Kostki Heroizmu are for this fight; unused ones are lost when it ends.
            combatants = {
                cid: replace(c, conditions=cond.remove(c.conditions, "inspiracja"))
                for cid, c in state.combatants.items()
            }
            return replace(
                state,
                phase="ended",
                winner=winner,
                current=None,
                prompts=(),
                attacks=(),
                combatants=combatants,
            )
        case ActionSpent():
            return _action_spent(state, event)
        case _:
            return _evolve_effect(state, event)


def replay(initial: EncounterState, events: Iterable[Event]) -> EncounterState:
    """Fold a log onto its initial state."""
    state = initial
    for event in events:
        state = evolve(state, event)
    return state


def _evolve_effect(state: EncounterState, event: Event) -> EncounterState:
    match event:
        case Moved():
            return _moved(state, event)
        case AimTaken(actor=actor, target=target):
            c = state.get(actor)
            return state.put(replace(c, aim=with_key(c.aim, target, c.aim.get(target, 0) + 1)))
        case InitiativeChanged(combatant=who, initiative=value, order=order):
            return replace(state.update(who, initiative=value), order=order)
        case ReloadProgressed():
            return _reloaded(state, event)
        case SpellPartPrepared(actor=actor, spell=spell, parts=parts):
            c = state.get(actor)
            return state.put(replace(c, spell_parts=with_key(c.spell_parts, spell, parts)))
        case ReactionGained(actor=actor):
            return state.update(actor, reactions_left=state.get(actor).reactions_left + 1)
        case GuardRaised(actor=actor, bonus=bonus, shield=shield):
            c = state.get(actor)
            used = c.shields_used | ({shield} if shield else set())
            return state.put(replace(c, guard_bonus=c.guard_bonus + bonus, shields_used=used))
        case ItemMoved():
            return _item_moved(state, event)
        case MountChanged(combatant=who, mounted=mounted):
            return state.update(who, mounted=mounted)
        case Steered(actor=actor, passed=passed, pace=pace):
            return state.update(actor, steered=passed, mount_pace=pace if passed else 0)
        case PassGranted(actor=actor, ally=ally):
            return state.update(actor, let_pass=state.get(actor).let_pass | {ally})
        case _:
            return _evolve_condition(state, event)


def _evolve_condition(state: EncounterState, event: Event) -> EncounterState:
    match event:
        case ConditionAdded(combatant=who, condition=instance):
            return _condition_added(state, who, instance)
        case ConditionRemoved(combatant=who, key=key, source=source):
            c = state.get(who)
            return _settled(state, c, replace(c, conditions=cond.remove(c.conditions, key, source)))
        case ConditionSpent(combatant=who, key=key, stacks=n):
            c = state.get(who)
            return _settled(state, c, replace(c, conditions=cond.spend(c.conditions, key, n)))
        case DifficultyLowered(combatant=who, key=key, source=source, difficulty=value):
            c = state.get(who)
            changed = tuple(
                replace(x, difficulty=value) if x.key == key and x.source == source else x
                for x in c.conditions
            )
            return state.put(replace(c, conditions=changed))
        case ConditionTicked(combatant=who, key=key, damage=damage):
            c = _changed(state.get(who), state, physical=damage)
            ticked = cond.count_down(c.conditions, "start", frozenset({key}))
            return state.put(replace(c, conditions=ticked))
        case HealthChanged(combatant=who, physical=p, stun=s, magic=magic, drowning=drowning):
            hurt = _changed(state.get(who), state, physical=p, stun=s, magic=magic)
            if drowning:
                hurt = replace(hurt, drowned_this_turn=True)
            return state.put(hurt)
        case MaimingRolled(combatant=who, result=result, zdrowie=zdrowie):
            return state.put(health.maim(state.get(who), result, zdrowie))
        case FirstAidGiven(combatant=who, result=result):
            return state.put(health.first_aid(state.get(who), result))
        case _:
            return _evolve_attack(state, event)


def _evolve_attack(state: EncounterState, event: Event) -> EncounterState:
    match event:
        case AttackDeclared():
            return _attack_declared(state, event)
        case ReactionChosen():
            return _reaction_chosen(state, event)
        case AttackResolved():
            target = state.get(event.target)
            hurt = _changed(
                target, state, physical=event.physical, stun=event.stun, bleed=event.bleed
            )
            state = replace(state, attacks=tuple(a for a in state.attacks if a.id != event.attack))
            return state.put(hurt)
        case AttackCancelled(attack=attack_id):
            return replace(
                state,
                attacks=tuple(a for a in state.attacks if a.id != attack_id),
                prompts=tuple(p for p in state.prompts if p.attack_id != attack_id),
            )
        case PromptOpened(prompt=prompt):
            return replace(state, prompts=(*state.prompts, prompt), next_id=state.next_id + 1)
        case PromptClosed(prompt=prompt_id):
            return replace(state, prompts=tuple(p for p in state.prompts if p.id != prompt_id))
        case DeadlinesMoved(deadlines=deadlines):
            moved = tuple(
                replace(p, deadline=deadlines[p.id]) if p.id in deadlines else p
                for p in state.prompts
            )
            return replace(state, prompts=moved)
        case _:
            return _evolve_gm(state, event)


def _evolve_gm(state: EncounterState, event: Event) -> EncounterState:
    match event:
        case CombatantChanged(combatant=who, hidden=hidden, stats_revealed=revealed, name=name):
            c = state.get(who)
            return state.put(
                replace(
                    c,
                    hidden=c.hidden if hidden is None else hidden,
                    stats_revealed=c.stats_revealed if revealed is None else revealed,
                    name=naming.after_change(state.combatants, who, hidden, name),
                )
            )
        case CombatantPlaced(combatant=who, to=to):
            return state.update(who, position=to)
        case EnvironmentChanged(darkness=darkness, difficult_terrain=terrain):
            return replace(state, darkness=darkness, difficult_terrain=frozenset(terrain))
        case MapEdited(edit=edit):
            return _map_edited(state, edit)
        case CombatantJoined(combatant=c):
            order = state.order if c.id in state.order or state.phase == "setup" else None
            state = state.put(c)
            return replace(state, order=order if order is not None else _insert(state, c))
    raise ValueError(f"unknown event: {type(event).__name__}")


def _map_edited(state: EncounterState, edit: battlemap.Edit) -> EncounterState:
    """The map after the edit; tokens off it (the map removed, or a new one laid smaller than
    where they stood) lose their positions."""
    m = battlemap.apply_edit(state.battlemap, edit, "square", 1)
    state = replace(state, battlemap=m)
    for c in state.combatants.values():
        if c.position is not None and (m is None or not m.inside(c.position)):
            state = state.put(replace(c, position=None))
    return state


# --- turn structure ---------------------------------------------------------------------------


def _combat_started(state: EncounterState, event: CombatStarted) -> EncounterState:
    totals = {r.combatant: r for r in event.initiative.rolls}
    combatants = {
        cid: replace(c, initiative=totals[cid].total, initiative_roll=totals[cid].faces)
        if cid in totals
        else c
        for cid, c in state.combatants.items()
    }
    return replace(
        state,
        combatants=combatants,
        order=event.initiative.order,
        surprise_side=event.surprise_side,
        phase="surprise" if event.surprise_side else "combat",
        round=0,
    )


def _turn_started(state: EncounterState, event: TurnStarted) -> EncounterState:
    c = state.get(event.combatant)
    quiet = frozenset(k for k, s in cond.SPECS.items() if not s.damage_per_tick)
    fresh = replace(
        c,
        actions_left=event.actions,
        turn_actions=event.actions,
        drowned_this_turn=False,
        reactions_left=event.reactions,
        has_acted=True,
        weapons_used=(),
        guard_bonus=0,
        shields_used=frozenset(),
        charge_bonus=0,
        charge_end=None,
        charge_metres=0,
        charge_step=None,
        steered=False,
        mount_pace=0,
        frenzy_bound=c.has("szal"),
        conditions=cond.count_down(c.conditions, "start", quiet),
    )
    state = state.put(fresh)
    return replace(state, current=c.id, acted=(*state.acted, c.id))


def _action_spent(state: EncounterState, event: ActionSpent) -> EncounterState:
    c = state.get(event.actor)
    if event.reaction:
        return state.put(replace(c, reactions_left=max(0, c.reactions_left - 1)))
    return state.put(replace(c, actions_left=max(0, c.actions_left - 1)))


def _insert(state: EncounterState, joined: Combatant) -> tuple[str, ...]:
    """A combatant joining mid-fight takes its place by initiative (after equals)."""
    value = joined.initiative if joined.initiative is not None else 0
    order = list(state.order)
    index = 0
    for i, cid in enumerate(order):
        other = state.get(cid).initiative
        if other is not None and other >= value:
            index = i + 1
    order.insert(index, joined.id)
    return tuple(order)


# --- effects ----------------------------------------------------------------------------------


def _moved(state: EncounterState, event: Moved) -> EncounterState:
    c = state.get(event.combatant)
    end = event.path[-1] if event.path else c.position
    moved = replace(c, position=end)
    if event.charge_metres or event.charge_bonus:
        moved = replace(
            moved,
            charge_bonus=c.charge_bonus + event.charge_bonus,
            charge_end=end,
            charge_metres=c.charge_metres + event.charge_metres,
            charge_step=grid.path_step(event.path),
        )
    elif not event.forced:
        # A Ruch without Szarża ends the charge: the bonus belongs to where the charge ended.
        moved = replace(moved, charge_bonus=0, charge_end=None, charge_metres=0, charge_step=None)
    state = state.put(moved)
    # A granted Przepuszczenie is used up by the ally's move.
    for other in state.combatants.values():
        if c.id in other.let_pass:
            state = state.put(replace(other, let_pass=other.let_pass - {c.id}))
    return state


def _reloaded(state: EncounterState, event: ReloadProgressed) -> EncounterState:
    c = state.get(event.actor)
    progress = dict(c.reload_progress)
    if event.loaded:
        progress.pop(event.weapon, None)
        unloaded = c.unloaded - {event.weapon}
    else:
        progress[event.weapon] = event.progress
        unloaded = c.unloaded
    return state.put(replace(c, reload_progress=progress, unloaded=unloaded))


def _item_moved(state: EncounterState, event: ItemMoved) -> EncounterState:
    c = state.get(event.combatant)
    held = c.held_items()
    new_held = (*held, event.item) if event.held else tuple(i for i in held if i != event.item)
    state = state.put(replace(c, held=tuple(dict.fromkeys(new_held))))
    if event.to is not None:
        receiver = state.get(event.to)
        state = state.put(replace(receiver, held=(*receiver.held_items(), event.item)))
    return state


def _condition_added(
    state: EncounterState, who: str, instance: cond.ConditionInstance
) -> EncounterState:
    c = state.get(who)
    after = replace(c, conditions=cond.add(c.conditions, instance, state.settings))
    if instance.key == "oszolomienie" and state.current == who:
        # Dazed during its own turn: only one action this turn in all.
        used = max(0, c.turn_actions - c.actions_left)
        after = replace(after, actions_left=max(0, min(c.actions_left, 1 - used)))
    return _settled(state, c, after)


def _settled(state: EncounterState, before: Combatant, after: Combatant) -> EncounterState:
    return state.put(health.settle(before, after, state.settings).combatant)


def _changed(
    c: Combatant,
    state: EncounterState,
    *,
    physical: int = 0,
    stun: int = 0,
    bleed: bool = True,
    magic: bool = False,
) -> Combatant:
    return health.change_health(
        c, state.settings, physical=physical, stun=stun, bleed=bleed, magic=magic
    ).combatant


# --- attacks ----------------------------------------------------------------------------------


def _attack_declared(state: EncounterState, event: AttackDeclared) -> EncounterState:
    attack = event.attack
    c = state.get(attack.attacker)
    aim = {k: v for k, v in c.aim.items() if k != attack.target}
    c = replace(c, aim=aim)
    if not attack.opportunity:
        c = replace(
            c,
            charge_bonus=0,
            charge_end=None,
            charge_metres=0,
            charge_step=None,
            weapons_used=(*c.weapons_used, attack.weapon),
            frenzy_bound=False,
        )
    weapon = c.weapon(attack.weapon)
    if weapon is not None and weapon.reload_actions > 0:
        c = replace(
            c,
            unloaded=c.unloaded | {weapon.name},
            reload_progress=with_key(c.reload_progress, weapon.name, 0),
        )
    state = state.put(c)
    prompts = state.prompts if event.prompt is None else (*state.prompts, event.prompt)
    return replace(
        state, attacks=(*state.attacks, attack), prompts=prompts, next_id=state.next_id + 1
    )


def _reaction_chosen(state: EncounterState, event: ReactionChosen) -> EncounterState:
    prompt = state.prompt(event.prompt)
    state = replace(state, prompts=tuple(p for p in state.prompts if p.id != event.prompt))
    if prompt is None or prompt.attack_id is None:
        return state
    attacks = tuple(
        replace(
            a,
            reactions=event.reactions,
            parry_bonus=event.parry_bonus,
            defence_heroism=event.heroism,
        )
        if a.id == prompt.attack_id
        else a
        for a in state.attacks
    )
    state = replace(state, attacks=attacks)
    if event.shield and "parowanie" in event.reactions:
        c = state.get(event.actor)
        state = state.put(replace(c, shields_used=c.shields_used | {event.shield}))
    return state
