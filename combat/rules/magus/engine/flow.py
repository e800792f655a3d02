"""The round's flow: what moves the round on by itself, the GM's "advance", the
deadlines, and the round's end.

`progress` moves the round on by itself after every command: the reveal once everyone has
declared, the order once every initiative is in, the next turn, the round's end.
"""

from __future__ import annotations

from combat.rules.base import RNG
from combat.rules.magus import conditions as cond
from combat.rules.magus.check import effect_test
from combat.rules.magus.engine import sustain
from combat.rules.magus.engine.common import (
    action_refusal,
    can_act,
    must_declare,
    require_no_prompt,
    require_stage,
)
from combat.rules.magus.engine.declare import reveal
from combat.rules.magus.engine.evolve import replay
from combat.rules.magus.engine.initiative import missing_initiative, order_events, roll_initiative
from combat.rules.magus.engine.setup import round_started
from combat.rules.magus.events import (
    Bled,
    Event,
    RoundEnded,
    TurnBegan,
    TurnEnded,
)
from combat.rules.magus.state import (
    EncounterState,
)

# --- the round moves on by itself ------------------------------------------------------------


def progress(state: EncounterState, rng: RNG, now: float) -> list[Event]:
    """The automatic steps after a command, until the round waits on someone."""
    events: list[Event] = []
    for _ in range(200):
        step = _next_step(state, rng, now)
        if not step:
            return events
        events += step
        state = replay(state, step)
    raise AssertionError("the round does not settle")  # pragma: no cover


def _next_step(state: EncounterState, rng: RNG, now: float) -> list[Event]:
    if state.stage != "running" or state.prompts:
        return []
    if state.phase == "declare":
        # Nobody able to act at all: the round waits for the GM (no endless empty rounds).
        able = [c for c in state.combatants.values() if must_declare(state, c)]
        waiting = [c for c in able if not c.declared]
        return [] if waiting or not able else reveal(state, now, expired=False)
    if state.phase == "initiative":
        missing = missing_initiative(state)
        if not missing:
            return order_events(state)
        if not state.settings.players_roll_initiative:
            return [roll_initiative(state, state.get(cid), rng, "") for cid in missing]
        return []
    if state.phase == "act":
        return _next_turn(state, rng, now)
    return [round_started(state, state.round + 1, now)] if state.phase == "" else []


def _next_turn(state: EncounterState, rng: RNG, now: float) -> list[Event]:
    if state.current is not None:
        current = state.get(state.current)
        return [TurnEnded(current.id)] if action_refusal(state, current) else []
    for cid in reversed(state.returns):
        c = state.get(cid)
        if not c.done and can_act(state, c):
            return [TurnBegan(cid)]
    waiting = [state.get(cid) for cid in state.order]
    for c in waiting:
        if not (c.done or c.delayed or c.holding) and can_act(state, c):
            return [TurnBegan(c.id)]
    for c in waiting:
        if c.delayed and not c.done and can_act(state, c):
            return [TurnBegan(c.id)]
    return end_round(state, rng)


def end_round(state: EncounterState, rng: RNG) -> list[Event]:
    """Blood loss (Krwotok, a severed limb), sustained actions, then the round's end; the
    next round begins through `progress`."""
    settings = state.settings
    events: list[Event] = []
    for c in state.combatants.values():
        if c.dead:
            continue
        if c.has(cond.KRWOTOK) and state.round >= c.bleeds_from:  # not in the hit's round
            events.append(Bled(c.id, cond.KRWOTOK, settings.hemorrhage_damage))
        if c.has(cond.ODERWANA):
            roll = effect_test(rng, settings.severed_limb_step, settings)
            events.append(Bled(c.id, cond.ODERWANA, roll.total, roll))
        events += sustain.round_end(state, c, rng)
    return [*events, RoundEnded(state.round)]


def advance(state: EncounterState, rng: RNG, now: float) -> list[Event]:
    """The GM moves the round on: reveal now, roll the missing initiatives, end the round."""
    require_stage(state, "running")
    require_no_prompt(state)
    if state.phase == "declare":
        return reveal(state, now, expired=False)
    if state.phase == "initiative":
        return _roll_missing(state, rng)
    return end_round(state, rng)


def _roll_missing(state: EncounterState, rng: RNG) -> list[Event]:
    missing = missing_initiative(state)
    rolls: list[Event] = [roll_initiative(state, state.get(cid), rng, "") for cid in missing]
    return rolls or order_events(state)


def expire_phase(state: EncounterState, rng: RNG, now: float) -> list[Event]:
    """The phase's deadline passed: reveal (the missing get the empty declaration), or roll
    every missing initiative."""
    if state.deadline is None or state.deadline > now or state.prompts:
        return []
    if state.phase == "declare":
        return reveal(state, now, expired=True)
    if state.phase == "initiative":
        return _roll_missing(state, rng)
    return []
