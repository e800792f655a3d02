"""`evolve(state, event)`: the state after one event. Never rolls; a replay is the state."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

from combat.rules.magus import conditions as cond
from combat.rules.magus import options as opt
from combat.rules.magus.events import (
    ActionChanged,
    ActionUsed,
    Announced,
    AttackRolled,
    Bled,
    CheckRolled,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    DamageRolled,
    DeadlinesMoved,
    Declared,
    DefenceRolled,
    Delayed,
    Event,
    GotUp,
    HealthEdited,
    Held,
    HiddenSet,
    InitiativeRolled,
    InitiativeSet,
    Joined,
    Moved,
    OrderSet,
    PromptClosed,
    Revealed,
    RoundEnded,
    RoundStarted,
    SimpleActed,
    StatsRevealed,
    StrainPaid,
    SustainedCompleted,
    SustainedTested,
    TurnBegan,
    TurnEnded,
)
from combat.rules.magus.sheet import CLOSE_COMBAT
from combat.rules.magus.state import Declaration, EncounterState, Sustained
from combat.rules.records import replace


def replay(initial: EncounterState, events: Iterable[Event]) -> EncounterState:
    return reduce(evolve, events, initial)


def evolve(state: EncounterState, event: Event) -> EncounterState:  # noqa: C901 - a dispatch
    match event:
        case Joined(combatant=c):
            late = state.stage == "running" and state.phase == "act"
            return state.with_combatant(replace(c, joined_round=state.round, done=late))
        case HiddenSet(target=target, hidden=hidden):
            return _edit(state, target, hidden=hidden)
        case StatsRevealed(target=target, revealed=revealed):
            return _edit(state, target, revealed=revealed)
        case CombatStarted(surprised=surprised):
            state = replace(state, stage="running")
            for cid in surprised:
                c = state.get(cid)
                state = _edit(state, cid, conditions={**c.conditions, cond.ZASKOCZONY: 1})
            return state
        case CombatEnded(winner=winner):
            return replace(state, stage="ended", winner=winner, prompts=(), current=None, phase="")
        case HealthEdited():
            return _edit(
                state, event.target, damage=event.damage, stun=event.stun, wounds=event.wounds
            )
        case ConditionAdded(target=target, condition=key, rounds=until):
            c = state.get(target)
            return _edit(state, target, conditions={**c.conditions, key: until})
        case ConditionRemoved(target=target, condition=key):
            c = state.get(target)
            left = {k: v for k, v in c.conditions.items() if k != key}
            return _edit(state, target, conditions=left)
        case DeadlinesMoved():
            prompts = tuple(
                replace(p, deadline=event.prompts.get(p.id, p.deadline)) for p in state.prompts
            )
            deadline = event.phase if event.phase is not None else state.deadline
            return replace(state, prompts=prompts, deadline=deadline)
        case RoundStarted():
            return _round_started(state, event)
        case Announced():
            return state
        case Declared():
            return _declared(state, event)
        case StrainPaid(combatant=cid, damage=damage):
            c = state.get(cid)
            return _edit(state, cid, damage=c.damage + damage)
        case Revealed():
            return _revealed(state, event)
        case InitiativeRolled(combatant=cid, roll=roll):
            return _edit(state, cid, initiative=roll.total)
        case InitiativeSet(combatant=cid, value=value):
            return _edit(state, cid, initiative=value, delay_next=False)
        case OrderSet(order=order):
            # A delay into this round is spent once the order stands (even by one who could
            # not act after all).
            fresh = {cid: replace(c, delay_next=False) for cid, c in state.combatants.items()}
            return replace(
                state, combatants=fresh, phase="act", order=order, current=None, deadline=None
            )
        case TurnBegan():
            return _turn_began(state, event)
        case TurnEnded(combatant=cid):
            state = _edit(state, cid, done=True, started=False)
            return replace(state, current=None)
        case Held(combatant=cid, trigger=trigger):
            state = _edit(state, cid, holding=trigger, held=True, started=False)
            return replace(state, current=None)
        case Delayed(combatant=cid, next_round=next_round):
            if next_round:
                state = _edit(state, cid, done=True, delay_next=True, started=False)
            else:
                state = _edit(state, cid, delayed=True, started=False)
            return replace(state, current=None)
        case Moved():
            return _moved(state, event)
        case SimpleActed(combatant=cid, count=count):
            c = state.get(cid)
            return _edit(state, cid, simple_used=c.simple_used + count, started=True)
        case ActionUsed(combatant=cid):
            return _edit(state, cid, standard_used=True, started=True)
        case ActionChanged(combatant=cid):
            c = state.get(cid)
            return _edit(state, cid, changes=c.changes + 1, started=True)
        case GotUp():
            return _got_up(state, event)
        case SustainedTested(combatant=cid, success=success):
            c = state.get(cid)
            if c.sustained is None:
                return state
            return _edit(state, cid, sustained=replace(c.sustained, succeeded=success))
        case SustainedCompleted(combatant=cid):
            return _edit(state, cid, sustained=None)
        case Bled(combatant=cid, damage=damage):
            c = state.get(cid)
            return _edit(state, cid, damage=c.damage + damage)
        case RoundEnded():
            return _round_ended(state, event)
        case AttackRolled():
            return _attack_rolled(state, event)
        case DefenceRolled():
            return state
        case PromptClosed(prompt=pid):
            return replace(state, prompts=tuple(p for p in state.prompts if p.id != pid))
        case DamageRolled():
            return _damaged(state, event)
        case CheckRolled():
            return _checked(state, event)
    raise ValueError(f"unknown event: {event!r}")


def _edit(state: EncounterState, cid: str, **changes: object) -> EncounterState:
    return state.with_combatant(replace(state.get(cid), **changes))


def _round_started(state: EncounterState, event: RoundStarted) -> EncounterState:
    fresh = {
        cid: replace(
            c,
            declaration=None,
            declared=False,
            paid=(),
            standard_used=False,
            simple_used=0,
            moved=0,
            moves=0,
            changes=0,
            done=False,
            started=False,
            holding="",
            held=False,
            delayed=False,
            got_up=False,
            melee_attackers=(),
        )
        for cid, c in state.combatants.items()
    }
    return replace(
        state,
        combatants=fresh,
        round=event.round,
        phase="declare",
        deadline=event.deadline,
        order=(),
        current=None,
        returns=(),
    )


def _declared(state: EncounterState, event: Declared) -> EncounterState:
    c = state.get(event.combatant)
    d = event.declaration
    paid = tuple(dict.fromkeys((*c.paid, *d.options)))
    sustained = c.sustained
    if d.action == "sustained" and (sustained is None or sustained.note != d.note):
        sustained = Sustained(note=d.note, rounds=d.rounds)
    return _edit(state, c.id, declaration=d, declared=True, paid=paid, sustained=sustained)


def _revealed(state: EncounterState, event: Revealed) -> EncounterState:
    for cid in event.defaulted:
        state = _edit(state, cid, declaration=Declaration(empty=True), declared=True)
    fresh = {cid: replace(c, initiative=None) for cid, c in state.combatants.items()}
    return replace(state, combatants=fresh, phase="initiative", deadline=event.deadline)


def _turn_began(state: EncounterState, event: TurnBegan) -> EncounterState:
    cid = event.combatant
    returns = state.returns
    if returns and returns[-1] == cid:
        returns = returns[:-1]
    if event.interrupting is not None:
        returns = (*returns, event.interrupting)
    state = _edit(state, cid, holding="", delayed=False)
    return replace(state, current=cid, returns=returns)


def _moved(state: EncounterState, event: Moved) -> EncounterState:
    c = state.get(event.combatant)
    initiative = c.initiative
    if initiative is not None and event.initiative_cost:
        initiative -= event.initiative_cost
    return _edit(
        state,
        c.id,
        moved=c.moved + event.metres,
        moves=c.moves + 1,
        standard_used=c.standard_used or event.running,
        initiative=initiative,
        started=True,
    )


def _got_up(state: EncounterState, event: GotUp) -> EncounterState:
    c = state.get(event.combatant)
    conditions = dict(c.conditions)
    if event.success:
        conditions.pop(cond.POWALONY, None)
    return _edit(
        state,
        c.id,
        conditions=conditions,
        got_up=c.got_up or event.success,
        simple_used=c.simple_used + 1,
        started=True,
    )


def _round_ended(state: EncounterState, event: RoundEnded) -> EncounterState:
    out = {}
    for cid, c in state.combatants.items():
        conditions = {
            k: v
            for k, v in c.conditions.items()
            if k not in cond.ROUND_ONLY and not (0 < v <= event.round)
        }
        aiming = opt.PRZYCELOWANIE in c.options
        sustained = c.sustained
        if sustained is not None:
            going = c.declaration is not None and c.declaration.action == "sustained"
            sustained = replace(sustained, elapsed=sustained.elapsed + 1) if going else None
        out[cid] = replace(
            c, conditions=conditions, aim=c.aim + 1 if aiming else 0, sustained=sustained
        )
    return replace(state, combatants=out, current=None, phase="")


def _attack_rolled(state: EncounterState, event: AttackRolled) -> EncounterState:
    attacker = state.get(event.attacker)
    weapon = attacker.weapon(event.weapon)
    state = _edit(state, attacker.id, standard_used=True, started=True, aim=0)
    if weapon is not None and weapon.kind in CLOSE_COMBAT and not event.spell:
        target = state.get(event.target)
        if attacker.id not in target.melee_attackers:
            state = _edit(state, target.id, melee_attackers=(*target.melee_attackers, attacker.id))
    if event.prompt is not None:
        state = replace(
            state,
            prompts=(*state.prompts, event.prompt),
            prompts_opened=state.prompts_opened + 1,
        )
    return state


def _damaged(state: EncounterState, event: DamageRolled) -> EncounterState:
    target = state.get(event.target)
    if event.kind == "stun":
        return _edit(state, target.id, stun=target.stun + event.dealt)
    if event.kind != "damage":
        return state
    return _edit(
        state,
        target.id,
        damage=target.damage + event.dealt,
        wounds=target.wounds + int(event.wound),
    )


def _checked(state: EncounterState, event: CheckRolled) -> EncounterState:
    c = state.get(event.combatant)
    if event.kind == "tarcza" and event.success:
        return _edit(state, c.id, shield_broken=True)
    if event.kind == "bron" and not event.success:
        return _edit(state, c.id, disarmed=True)
    return state
