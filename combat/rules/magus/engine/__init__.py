"""The Magus encounter engine: `decide(state, command, rng) -> events`, `evolve`, `replay`.

`decide` checks a command and rolls through the injected RNG, returning every die inside the
events; then `flow.progress` adds what follows by itself (the reveal, the order, the next
turn, the round's end). `evolve` never rolls, so a replay of the events is the state.

The pure rule modules are wired through their own engine modules: `ambush` (surprise.py:
`surprise_test`), `riding` (mounted.py: `mount`, `dismount`, `Attack.charge_m`, the impact
and saddle tests), `healing` (recovery.py: `recovery_test`, `heal_wound`, `pass_time` on the
game clock `state.time_s`) and `sustain` (sustained.py: the one sustained-action record).
"""

from __future__ import annotations

from combat.rules import vocabulary
from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus.commands import (
    AddCondition,
    Advance,
    Answer,
    Attack,
    Command,
    Declare,
    Delay,
    Dismount,
    EditHealth,
    EditMap,
    EndCombat,
    EndTurn,
    Expire,
    GetUp,
    HealWound,
    Hold,
    Interrupt,
    JoinCombat,
    MountUp,
    Move,
    PassTime,
    PlaceCombatant,
    RecoveryTest,
    RemoveCondition,
    RevealStats,
    RollInitiative,
    RollInitiatives,
    SetHidden,
    SimpleAction,
    StartCombat,
    StepIn,
    SurpriseTest,
    SustainedCheck,
    SustainedTest,
    UseAction,
)
from combat.rules.magus.engine import (
    ambush,
    attack,
    declare,
    flow,
    healing,
    initiative,
    riding,
    setup,
    space,
    sustain,
    turns,
)
from combat.rules.magus.engine.evolve import evolve, replay
from combat.rules.magus.engine.setup import new_encounter
from combat.rules.magus.events import DeadlinesMoved, Event, Joined
from combat.rules.magus.state import EncounterState
from combat.rules.memo import Refusals

__all__ = ["decide", "evolve", "new_encounter", "replay", "resume"]


def decide(state: EncounterState, command: Command, rng: RNG) -> list[Event]:
    """The events of one command (and what follows by itself), or RuleViolation."""
    events = _decide(state, command, rng)
    return events + flow.progress(replay(state, events), rng, command.now)


refusal = Refusals(lambda s, c, rng: decide(s, c, rng), RuleViolation)  # why refused, or None


def _decide(state: EncounterState, command: Command, rng: RNG) -> list[Event]:  # noqa: C901
    match command:
        case JoinCombat():
            return [Joined(vocabulary.joining(state, command, setup.combatant_from_dict))]
        case SetHidden():
            return vocabulary.set_hidden(state, command)
        case RevealStats():
            return vocabulary.reveal_stats(state, command)
        case StartCombat():
            return setup.start(state, command)
        case EndCombat():
            return vocabulary.end_combat(state, command, ended=state.stage == "ended")
        case EditHealth():
            return setup.edit_health(state, command)
        case AddCondition():
            return setup.add_condition(state, command)
        case RemoveCondition():
            return setup.remove_condition(state, command)
        case Advance():
            return flow.advance(state, rng, command.now)
        case RollInitiatives():
            return initiative.gm_initiatives(state, command, rng)
        case SustainedTest():
            return sustain.sustained_test(state, command, rng)
        case SustainedCheck():
            return sustain.sustained_check(state, command)
        case SurpriseTest():
            return ambush.surprise_test(state, command, rng)
        case PassTime():
            return healing.pass_time(state, command)
        case RecoveryTest():
            return healing.recovery_test(state, command, rng)
        case HealWound():
            return healing.heal_wound(state, command)
        case MountUp():
            return riding.mount_up(state, command)
        case Dismount():
            return riding.dismount(state, command)
        case EditMap():
            return space.edit_map(state, command)
        case PlaceCombatant():
            return space.place(state, command)
        case Expire():
            return _expire(state, command, rng)
        case Declare():
            return declare.declare(state, command)
        case RollInitiative():
            return initiative.own_initiative(state, command, rng)
        case Move():
            return turns.move(state, command)
        case SimpleAction():
            return turns.simple_action(state, command)
        case UseAction():
            return turns.use_action(state, command)
        case Attack():
            return attack.attack(state, command, rng)
        case Hold():
            return turns.hold(state, command)
        case Interrupt():
            return turns.interrupt(state, command)
        case Delay():
            return turns.delay(state, command)
        case StepIn():
            return turns.step_in(state, command)
        case GetUp():
            return turns.get_up(state, command, rng)
        case EndTurn():
            return turns.end_turn(state, command.actor)
        case Answer():
            return attack.answer(state, command, rng)
    raise RuleViolation("polecenie", gettext_noop("Nieznane polecenie."))


def _expire(state: EncounterState, command: Expire, rng: RNG) -> list[Event]:
    """Prompts past their deadline land as "no reaction"; then a phase past its deadline."""
    events = attack.expire_prompts(state, command.now, rng)
    if not events:
        events = flow.expire_phase(state, rng, command.now)
    if not events:
        raise RuleViolation("nic_nie_czeka", gettext_noop("Nic nie czeka na rozstrzygnięcie."))
    return events


def next_deadline(state: EncounterState) -> float | None:
    found = [p.deadline for p in state.prompts]
    if state.deadline is not None and state.stage == "running":
        found.append(state.deadline)
    return min(found, default=None)


def resume(state: EncounterState, *, paused_at: float, now: float, minimum: float) -> list[Event]:
    """Every waiting deadline gets the time it had left at `paused_at` (at least `minimum`)."""
    if state.stage != "running":
        return []
    prompts = {p.id: now + max(p.deadline - paused_at, minimum) for p in state.prompts}
    phase = None
    if state.deadline is not None:
        phase = now + max(state.deadline - paused_at, minimum)
    if phase is None and not prompts:
        return []
    return [DeadlinesMoved(phase=phase, prompts=prompts)]
