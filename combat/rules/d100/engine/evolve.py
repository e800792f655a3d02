"""`evolve(state, event)`: the state after one event. Never rolls; a replay is the state."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

from combat.rules import battlemap, vocabulary
from combat.rules.codec import with_key
from combat.rules.d100 import conditions as cond
from combat.rules.d100.engine.space import GEOMETRY, METRES
from combat.rules.d100.events import (
    Applied,
    AttackDeclared,
    AttackResolved,
    Bled,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    Damaged,
    DeadlineSet,
    DeadlinesMoved,
    Event,
    FallenDecided,
    FallRolled,
    FreeActed,
    FullActed,
    GMRolled,
    Harm,
    Healed,
    HiddenSet,
    Joined,
    MapEdited,
    Moved,
    OrderSet,
    PaceSet,
    Placed,
    Posted,
    PostingClosed,
    PostSkipped,
    PostsRevealed,
    PromptClosed,
    RestDeclared,
    RestResolved,
    SpellResolved,
    StatsRevealed,
    Summoned,
    Transformed,
    TurnBegan,
    TurnClosed,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
    Vanished,
)
from combat.rules.d100.state import Combatant, EncounterState
from combat.rules.records import replace


def replay(initial: EncounterState, events: Iterable[Event]) -> EncounterState:
    return reduce(evolve, events, initial)


def evolve(state: EncounterState, event: Event) -> EncounterState:  # noqa: C901 - a dispatch
    match event:
        case Joined(combatant=c):
            if state.stage != "running":
                return state.with_combatant(c)
            late = replace(c, joined_turn=state.turn, done=state.pace == "live")
            return replace(state.with_combatant(late), order=(*state.order, c.id))
        case HiddenSet() | StatsRevealed() | Placed():
            return vocabulary.evolve(state, event)
        case CombatStarted(pace=pace):
            return replace(state, stage="running", pace=pace)
        case CombatEnded(winner=winner):
            return replace(
                state, stage="ended", winner=winner, prompts=(), current=None, deadline=None
            )
        case OrderSet(order=order, fixed=fixed):
            return replace(state, order=order, order_fixed=state.order_fixed or fixed)
        case PaceSet():
            return _pace(state, event)
        case Damaged(harm=h) | Bled(harm=h) | FallRolled(harm=h):
            return _harm(state, h)
        case Healed():
            return _healed(state, event)
        case ConditionAdded(target=target, effect=effect):
            return _applied(state, (Applied(target, effect),))
        case ConditionRemoved(target=target, condition=key):
            c = state.get(target)
            return _edit(state, target, effects=tuple(e for e in c.effects if e.key != key))
        case FallenDecided(target=target, outcome=outcome):
            return _edit(state, target, status=outcome)
        case DeadlineSet(deadline=deadline, reopened=reopened):
            return replace(state, deadline=deadline, closed=state.closed and not reopened)
        case DeadlinesMoved(deadline=deadline, prompts=moved):
            prompts = tuple(
                replace(p, deadline=moved[p.id]) if p.id in moved else p for p in state.prompts
            )
            return replace(
                state,
                prompts=prompts,
                deadline=state.deadline if deadline is None else deadline,
            )
        case TurnStarted(turn=turn, deadline=deadline):
            return replace(
                state, turn=turn, deadline=deadline, closed=False, posts={}, current=None
            )
        case TurnBegan(combatant=cid):
            return replace(state, current=cid)
        case TurnSkipped(combatant=cid):
            return _edit(state, cid, done=True)
        case TurnEnded(combatant=cid):
            return replace(_edit(state, cid, done=True), current=None)
        case Posted(post=post):
            return replace(state, posts=with_key(state.posts, post.actor, post))
        case PostingClosed():
            return replace(state, closed=True)
        case RestResolved(combatant=cid, healed=healed):
            c = state.get(cid)
            return _edit(state, cid, pz=min(c.max_pz, c.pz + healed), resting=False)
        case Vanished(combatant=cid):
            combatants = {k: v for k, v in state.combatants.items() if k != cid}
            order = tuple(k for k in state.order if k != cid)
            current = None if state.current == cid else state.current
            return replace(state, combatants=combatants, order=order, current=current)
        case TurnClosed(turn=turn):
            return _turn_closed(state, turn)
        case FreeActed(combatant=cid, kind=kind, choice=choice):
            c = state.get(cid)
            weapon = choice if kind == "change_weapon" else c.weapon
            return _edit(state, cid, free_used=c.free_used + 1, weapon=weapon)
        case FullActed(combatant=cid):
            return _edit(state, cid, full_used=True)
        case RestDeclared(combatant=cid):
            return _edit(state, cid, full_used=True, resting=True)
        case Transformed(combatant=cid, form=form):
            return _edit(state, cid, full_used=True, transformed=form, weapon="")
        case AttackDeclared():
            return _declared(state, event)
        case AttackResolved():
            state = replace(state, prompts=tuple(p for p in state.prompts if p.id != event.prompt))
            for h in event.harms:
                state = _harm(state, h)
            return _applied(state, event.applied)
        case PromptClosed(prompt=closed):
            return replace(state, prompts=tuple(p for p in state.prompts if p.id != closed))
        case SpellResolved():
            state = _edit(state, event.caster, full_used=True)
            aimed = event.target
            if event.kind == "negative" and aimed is not None and aimed in state.combatants:
                state = _edit(state, aimed, attacked=True)
            return _applied(state, event.applied)
        case Summoned(combatant=c):
            return _summoned(state, c)
        case MapEdited(edit=edit):
            return _map_edited(state, edit)
        case Moved(combatant=cid, path=path, cost=cost):
            c = state.get(cid)
            walked = c.moved + cost
            return _edit(state, cid, position=path[-1], moved=walked, free_used=c.free_used + 1)
        case GMRolled() | PostsRevealed() | PostSkipped():
            return state  # told in the log only
    raise TypeError(f"unknown event {event!r}")  # pragma: no cover


def _edit(state: EncounterState, cid: str, **changes: object) -> EncounterState:
    return state.with_combatant(replace(state.get(cid), **changes))


def _harm(state: EncounterState, h: Harm) -> EncounterState:
    c = state.get(h.target)
    return _edit(
        state,
        h.target,
        pz=max(0, c.pz - h.amount),
        injuries=c.injuries + h.injuries,
        status=h.down or c.status,
    )


def _healed(state: EncounterState, event: Healed) -> EncounterState:
    c = state.get(event.target)
    effects = c.effects
    if event.stopped_bleeding:
        effects = tuple(e for e in effects if e.key != cond.KRWAWIENIE)
    return _edit(
        state,
        event.target,
        pz=min(c.max_pz, c.pz + event.amount),
        injuries=max(0, c.injuries - event.injuries),
        status="" if event.woke else c.status,
        effects=effects,
    )


def _applied(state: EncounterState, applied: Iterable[Applied]) -> EncounterState:
    for a in applied:
        c = state.get(a.target)
        state = state.with_combatant(replace(c, effects=(*c.effects, a.effect)))
    return state


def _pace(state: EncounterState, event: PaceSet) -> EncounterState:
    if event.pace == "live":
        return replace(state, pace="live", deadline=None, closed=False, posts={})
    if state.current is not None:
        c = state.get(state.current)
        state = _edit(state, c.id, done=c.done or c.full_used)
    return replace(
        state, pace="post", current=None, deadline=event.deadline, closed=False, posts={}
    )


def _declared(state: EncounterState, event: AttackDeclared) -> EncounterState:
    attacker = state.get(event.attacker)
    weapon = event.choice if event.spell < 0 and event.choice else attacker.weapon
    state = _edit(state, attacker.id, full_used=True, weapon=weapon)
    state = _edit(state, event.target, attacked=True)
    if event.prompt is None:
        return state
    return replace(
        state,
        prompts=(*state.prompts, event.prompt),
        prompts_opened=state.prompts_opened + 1,
    )


def _turn_closed(state: EncounterState, turn: int) -> EncounterState:
    fresh: dict[str, Combatant] = {}
    for cid, c in state.combatants.items():
        fresh[cid] = replace(
            c,
            full_used=False,
            free_used=0,
            resting=False,
            attacked=False,
            done=False,
            moved=0,
            effects=tuple(e for e in c.effects if e.until == 0 or e.until > turn),
        )
    return replace(state, combatants=fresh, current=None)


def _map_edited(state: EncounterState, edit: battlemap.Edit) -> EncounterState:
    """The map after the GM's edit (square fields of 1 m); without a map, no token stands."""
    laid = battlemap.apply_edit(state.battlemap, edit, GEOMETRY, METRES)
    state = replace(state, battlemap=laid)
    if laid is not None:
        return state
    combatants = {
        cid: c if c.position is None else replace(c, position=None)
        for cid, c in state.combatants.items()
    }
    return replace(state, combatants=combatants)


def _summoned(state: EncounterState, c: Combatant) -> EncounterState:
    caster = c.summon.caster if c.summon else ""
    order = list(state.order)
    at = order.index(caster) + 1 if caster in order else len(order)
    while at < len(order) and _summoned_by(state, order[at], caster):
        at += 1
    order.insert(at, c.id)
    joined = replace(c, joined_turn=state.turn, done=True)
    return replace(state.with_combatant(joined), order=tuple(order), summons=state.summons + 1)


def _summoned_by(state: EncounterState, cid: str, caster: str) -> bool:
    s = state.get(cid).summon
    return s is not None and s.caster == caster
