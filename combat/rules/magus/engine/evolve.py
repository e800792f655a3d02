"""`evolve(state, event)`: the state after one event. Never rolls; a replay is the state."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

from combat.rules import battlemap as bm
from combat.rules import vocabulary
from combat.rules.codec import with_key
from combat.rules.magus import conditions as cond
from combat.rules.magus import options as opt
from combat.rules.magus import recovery
from combat.rules.magus import sustained as sus
from combat.rules.magus.engine import sustain
from combat.rules.magus.events import (
    ActionChanged,
    ActionUsed,
    Announced,
    AttackRolled,
    Bled,
    CheckRolled,
    CombatantPlaced,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    DamageRolled,
    DeadlinesMoved,
    Declared,
    DefenceRolled,
    Delayed,
    Dismounted,
    Event,
    GotUp,
    GroundGiven,
    HealthEdited,
    Held,
    HiddenSet,
    ImpactRolled,
    InitiativeRolled,
    InitiativeSet,
    ItemDamaged,
    Joined,
    MapEdited,
    Mounted,
    Moved,
    OrderSet,
    PromptClosed,
    RecoveryTested,
    Revealed,
    RoundEnded,
    RoundStarted,
    SaddleRolled,
    SimpleActed,
    StatsRevealed,
    StrainPaid,
    SurpriseDifficulty,
    SurpriseRolled,
    SustainedAdvanced,
    SustainedCheckSet,
    SustainedCompleted,
    SustainedRolled,
    SustainedTested,
    TimePassed,
    TurnBegan,
    TurnEnded,
    WoundHealed,
)
from combat.rules.magus.sheet import CLOSE_COMBAT
from combat.rules.magus.state import Combatant, Declaration, EncounterState
from combat.rules.records import replace


def replay(initial: EncounterState, events: Iterable[Event]) -> EncounterState:
    return reduce(evolve, events, initial)


def evolve(state: EncounterState, event: Event) -> EncounterState:
    """The state after `event`, with every combatant's recovery clock kept up to date (new
    damage, falling unconscious, waking)."""
    return _recovery_notes(state, _evolve(state, event))


def _recovery_notes(before: EncounterState, after: EncounterState) -> EncounterState:
    if after.combatants is before.combatants:
        return after
    changed = {}
    for cid, c in after.combatants.items():
        old = before.combatants.get(cid)
        if old is None or old is c:
            continue
        r = c.recovery
        if c.damage + c.stun > old.damage + old.stun:
            r = recovery.note_damage(r, after.time_s)
        if c.unconscious and not c.dead:
            r = recovery.note_unconscious(r, after.time_s)
        elif r.unconscious_since is not None:
            r = recovery.note_conscious(r)
        if r != c.recovery:
            changed[cid] = replace(c, recovery=r)
    if not changed:
        return after
    return replace(after, combatants={**after.combatants, **changed})


def _evolve(state: EncounterState, event: Event) -> EncounterState:  # noqa: C901 - a dispatch
    match event:
        case Joined(combatant=c):
            late = state.stage == "running" and state.phase == "act"
            clock = (
                recovery.note_combat_start(c.recovery) if state.stage == "running" else c.recovery
            )
            return state.with_combatant(
                replace(c, joined_round=state.round, done=late, recovery=clock)
            )
        case MapEdited(edit=edit):
            return _map_edited(state, edit)
        case GroundGiven(combatant=cid, path=path):
            return _edit(state, cid, position=path[-1])
        case HiddenSet() | StatsRevealed() | CombatantPlaced():
            return vocabulary.evolve(state, event)
        case CombatStarted(surprised=surprised):
            fighting = {
                cid: replace(c, recovery=recovery.note_combat_start(c.recovery))
                for cid, c in state.combatants.items()
            }
            state = replace(state, stage="running", combatants=fighting)
            for cid in surprised:
                c = state.get(cid)
                state = _edit(state, cid, conditions=with_key(c.conditions, cond.ZASKOCZONY, 1))
            return state
        case CombatEnded(winner=winner):
            rest = {
                cid: replace(c, recovery=recovery.note_combat_end(c.recovery, state.time_s))
                for cid, c in state.combatants.items()
            }
            return replace(
                state, stage="ended", winner=winner, prompts=(), current=None, phase="",
                combatants=rest,
            )  # fmt: skip
        case HealthEdited():
            return _edit(
                state, event.target, damage=event.damage, stun=event.stun, wounds=event.wounds
            )
        case ConditionAdded(target=target, condition=key, rounds=until):
            c = state.get(target)
            conditions = with_key(c.conditions, key, until)
            if key == cond.KRWOTOK and not event.by_gm:
                # „w każdej kolejnej rundzie”: blood loss from the round after the hit's
                return _edit(state, target, conditions=conditions, bleeds_from=state.round + 1)
            return _edit(state, target, conditions=conditions)
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
            return _edit(state, cid, sustained_result=success)
        case SustainedRolled(combatant=cid, passed=passed):
            return _edit(state, cid, sustained_result=passed)
        case SustainedAdvanced(combatant=cid, passed=passed):
            c = state.get(cid)
            assert c.sustained is not None
            return _edit(state, cid, sustained=sus.advance(c.sustained, passed))
        case SustainedCheckSet():
            return _sustained_check(state, event)
        case SustainedCompleted(combatant=cid):
            return _edit(state, cid, sustained=None, sustained_result=None)
        case SurpriseDifficulty(side=side):
            return replace(state, surprise_sides=(*state.surprise_sides, side))
        case SurpriseRolled():
            return _surprise_rolled(state, event)
        case Mounted(rider=rider, mount=mount):
            state = _edit(state, mount, rider=rider)
            return _edit(state, rider, mount=mount, **_simple(state, rider))
        case Dismounted(rider=rider, mount=mount):
            state = _unmount(state, rider)
            return _edit(state, rider, **_simple(state, rider))
        case ImpactRolled():
            if event.falls:
                return _fall(state, event.rider, event.fall.total if event.fall else 0)
            if event.loses_weapon:
                return _edit(state, event.rider, disarmed=True)
            return state
        case SaddleRolled(rider=rider, success=success, fall=fall):
            return state if success else _fall(state, rider, fall.total if fall else 0)
        case RecoveryTested():
            return _recovered(state, event)
        case WoundHealed(combatant=cid):
            c = state.get(cid)
            clock = recovery.spend_test(c.recovery, state.time_s)
            return _edit(state, cid, wounds=max(0, c.wounds - 1), recovery=clock)
        case TimePassed():
            return _time_passed(state, event)
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
        case ItemDamaged(combatant=cid, item=item):
            c = state.get(cid)
            return _edit(state, cid, damaged_items=tuple(dict.fromkeys((*c.damaged_items, item))))
    raise ValueError(f"unknown event: {event!r}")


def _edit(state: EncounterState, cid: str, **changes: object) -> EncounterState:
    return state.with_combatant(replace(state.get(cid), **changes))


def _simple(state: EncounterState, cid: str) -> dict[str, object]:
    """Mounting or dismounting on one's turn is a simple action."""
    if state.phase != "act" or state.current != cid:
        return {}
    return {"simple_used": state.get(cid).simple_used + 1, "started": True}


def _unmount(state: EncounterState, rider: str) -> EncounterState:
    mount = state.get(rider).mount
    if mount is not None and mount in state.combatants:
        state = _edit(state, mount, rider=None)
    return _edit(state, rider, mount=None)


def _fall(state: EncounterState, rider: str, damage: int) -> EncounterState:
    """A rider falls from its mount: the fall's damage, Powalony on the ground."""
    state = _unmount(state, rider)
    c = state.get(rider)
    conditions = with_key(c.conditions, cond.POWALONY, 0)
    return _edit(state, rider, damage=c.damage + damage, conditions=conditions)


def _sustained_check(state: EncounterState, event: SustainedCheckSet) -> EncounterState:
    c = state.get(event.combatant)
    assert c.sustained is not None
    test = sus.RoundCheck(event.skill, event.dn) if event.skill else None
    action = replace(c.sustained, test=test, failure_stalls=event.failure_stalls)
    return _edit(state, c.id, sustained=action, sustained_result=None)


def _surprise_rolled(state: EncounterState, event: SurpriseRolled) -> EncounterState:
    c = state.get(event.combatant)
    conditions = dict(c.conditions)
    if event.surprised:
        conditions[cond.ZASKOCZONY] = 1
    brooch = event.brooch
    return _edit(
        state,
        c.id,
        conditions=conditions,
        damage=c.damage + (brooch.damage if brooch else 0),
        ignores_blindside=bool(brooch and brooch.detected),
    )


def _recovered(state: EncounterState, event: RecoveryTested) -> EncounterState:
    c = state.get(event.combatant)
    clock = recovery.spend_test(c.recovery, state.time_s)
    if event.heals == "stun":
        return _edit(state, c.id, stun=max(0, c.stun - event.healed), recovery=clock)
    return _edit(state, c.id, damage=max(0, c.damage - event.healed), recovery=clock)


def _time_passed(state: EncounterState, event: TimePassed) -> EncounterState:
    at = state.time_s + event.seconds
    state = replace(state, time_s=at)
    if not event.night:
        return state
    rested: dict[str, Combatant] = {
        cid: replace(c, recovery=recovery.night_rest(c.recovery, c.sheet, at, damage=c.damage))
        for cid, c in state.combatants.items()
        if not c.dead
    }
    return replace(state, combatants={**state.combatants, **rested})


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
    if d.action == "sustained":
        sustained = sustain.continued(sustained, d)
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


def _map_edited(state: EncounterState, edit: bm.Edit) -> EncounterState:
    """The map after the GM's edit; without a map, no one stands on a hex."""
    m = bm.apply_edit(state.battlemap, edit, "hex", 2)
    state = replace(state, battlemap=m)
    if m is None:
        cleared = {cid: replace(c, position=None) for cid, c in state.combatants.items()}
        state = replace(state, combatants=cleared)
    return state


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
        position=event.path[-1] if event.path else c.position,
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
        out[cid] = replace(
            c,
            conditions=conditions,
            aim=c.aim + 1 if aiming else 0,
            sustained=c.sustained if sustain.going(c) else None,
            sustained_result=None,
            ignores_blindside=False,
        )
    return replace(
        state,
        combatants=out,
        current=None,
        phase="",
        time_s=state.time_s + state.settings.round_seconds,
    )


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
