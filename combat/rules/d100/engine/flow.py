"""The turn's flow: what moves a live turn on by itself (the next actor, the skipped ones)
and the turn's end (Krwawienie, Odpoczynek, summons leaving, durations, the next turn)."""

from __future__ import annotations

from combat.rules.base import RNG
from combat.rules.d100 import conditions as cond
from combat.rules.d100.check import REST
from combat.rules.d100.engine.common import (
    action_refusal,
    harm,
    in_fight,
    initiative_order,
    spec,
)
from combat.rules.d100.engine.evolve import evolve, replay
from combat.rules.d100.events import (
    Bled,
    Event,
    OrderSet,
    RestResolved,
    TurnBegan,
    TurnClosed,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
    Vanished,
)
from combat.rules.d100.state import Combatant, EncounterState

MAX_EMPTY_TURNS = 3  # turns ended in a row by themselves before the table waits for the GM


def progress(state: EncounterState, rng: RNG, now: float) -> list[Event]:
    """The automatic steps after a command, until the live turn waits on someone."""
    events: list[Event] = []
    empty = 0  # turns ended in a row in which nobody began a turn
    for _ in range(1000):
        step = _next_step(state, rng, now)
        if not step:
            return events
        if isinstance(step[-1], TurnBegan):
            empty = 0
        elif isinstance(step[-1], TurnStarted):
            empty += 1
        events += step
        state = replay(state, step)
        if empty > MAX_EMPTY_TURNS:
            return events
    raise AssertionError("the turn does not settle")  # pragma: no cover


def _next_step(state: EncounterState, rng: RNG, now: float) -> list[Event]:
    if state.stage != "running" or state.prompts or state.pace != "live":
        return []
    if state.current is not None:
        current = state.get(state.current)
        return [TurnEnded(current.id)] if action_refusal(state, current) else []
    for cid in state.order:
        c = state.get(cid)
        if c.done or c.out:
            continue
        if cond.stunned(c, state.turn):
            return [TurnSkipped(cid, cond.OGLUSZENIE)]
        return [TurnBegan(cid)]
    if not in_fight(state):
        return []  # nobody left to act: the table waits for the GM
    return end_of_turn(state, rng, now)


def end_of_turn(state: EncounterState, rng: RNG, now: float) -> list[Event]:
    """Krwawienie ticks, Odpoczynek resolves, summons whose time is up vanish, the turn
    closes (durations tick), the order is set again and the next turn opens."""
    events: list[Event] = []

    def add(event: Event) -> None:
        nonlocal state
        events.append(event)
        state = evolve(state, event)

    turn = state.turn
    for cid in state.order:
        c = state.get(cid)
        per_turn = sum(e.value for e in c.effects_at(turn, cond.KRWAWIENIE))
        if per_turn and c.pz > 0 and not c.out:
            add(Bled(harm(state, c, per_turn)))
    for cid in state.order:
        c = state.get(cid)
        if c.resting:
            add(rest_result(state, c, rng))
    for cid in list(state.order):
        s = state.get(cid).summon
        if s is not None and s.until and s.until <= turn:
            add(Vanished(cid))
    add(TurnClosed(turn))
    order = initiative_order(state)
    if order != state.order:
        add(OrderSet(order))
    deadline = None
    if state.pace == "post":
        deadline = now + state.settings.post_turn_hours * 3600
    add(TurnStarted(turn + 1, deadline))
    return events


def rest_result(state: EncounterState, c: Combatant, rng: RNG) -> RestResolved:
    """Odpoczynek fails if any attack was declared at it this turn (or it is out); else the
    Ogłada test heals OoP × rest_multiplier (up to its maximum)."""
    if c.attacked or c.out:
        return RestResolved(c.id, interrupted=True)
    roll = spec(state, c, REST, "oglada", "odpoczynek").roll(rng, state)
    healed = min(roll.margin * state.settings.rest_multiplier, c.max_pz - c.pz)
    return RestResolved(c.id, roll=roll, healed=healed)
