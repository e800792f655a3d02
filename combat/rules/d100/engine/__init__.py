"""The d100 encounter engine: `decide(state, command, rng) -> events`, `evolve`, `replay`.

`decide` checks a command and rolls through the injected RNG, returning every die inside the
events; then `flow.progress` adds what follows by itself in a live turn (the next actor, the
skipped ones, the turn's end). `evolve` never rolls, so a replay of the events is the state.

Modules: `setup` (combatants, start, end, order, pace), `attack` (the plan, the prompt, the
resolution), `spells`, `actions` (Odpoczynek, Przemiana, free actions, the end of a turn),
`flow` (the live turn, the turn's end), `posts` (the by-post turn), `gm` (the GM's commands
on a combatant). This module also answers what the `Ruleset` protocol asks of the engine
(deadlines, resume, who a command acts for and names).
"""

from __future__ import annotations

from combat.rules import vocabulary
from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Cast,
    Command,
    Damage,
    DecideFallen,
    Defend,
    EditMap,
    EndCombat,
    EndTurn,
    Expire,
    ExtendDeadline,
    Fall,
    FreeAction,
    FullAction,
    GMRoll,
    Heal,
    JoinCombat,
    Move,
    PlaceCombatant,
    Post,
    RemoveCondition,
    ResolveTurn,
    Rest,
    RevealStats,
    SetHidden,
    SetOrder,
    SetPace,
    StartCombat,
    Transform,
)
from combat.rules.d100.engine import actions, attack, flow, gm, posts, setup, space, spells
from combat.rules.d100.engine.evolve import evolve, replay
from combat.rules.d100.engine.setup import new_encounter
from combat.rules.d100.events import DeadlinesMoved, Event
from combat.rules.d100.state import EncounterState
from combat.rules.memo import Refusals

__all__ = [
    "command_actor",
    "command_targets",
    "decide",
    "evolve",
    "expire_command",
    "gm_judged_fields",
    "join_command",
    "needs_fresh_state",
    "new_encounter",
    "next_deadline",
    "refusal",
    "replay",
    "resume",
    "visibility_command",
]


# Fields only the GM may set on a combatant's command (the table refuses a player's command
# that sets any of them away from its default).
def decide(state: EncounterState, command: Command, rng: RNG) -> list[Event]:
    """The events of one command (and what follows by itself), or RuleViolation."""
    events = _decide(state, command, rng)
    return events + flow.progress(replay(state, events), rng, command.now)


refusal = Refusals(lambda s, c, rng: decide(s, c, rng), RuleViolation)  # why refused, or None


def _decide(state: EncounterState, command: Command, rng: RNG) -> list[Event]:  # noqa: C901
    match command:
        case JoinCombat():
            return setup.join(state, command)
        case SetHidden():
            return vocabulary.set_hidden(state, command)
        case RevealStats():
            return vocabulary.reveal_stats(state, command)
        case StartCombat():
            return setup.start(state, command)
        case EndCombat():
            return vocabulary.end_combat(state, command, ended=state.stage == "ended")
        case SetOrder():
            return setup.set_order(state, command)
        case SetPace():
            return setup.set_pace(state, command)
        case Damage():
            return gm.damage(state, command)
        case Heal():
            return gm.heal(state, command)
        case AddCondition():
            return gm.add_condition(state, command)
        case RemoveCondition():
            return gm.remove_condition(state, command)
        case Fall():
            return gm.fall(state, command, rng)
        case GMRoll():
            return gm.gm_roll(state, command, rng)
        case DecideFallen():
            return gm.decide_fallen(state, command)
        case ExtendDeadline():
            return posts.extend_deadline(state, command)
        case ResolveTurn():
            return posts.resolve_turn(state, command, rng)
        case Expire():
            return _expire(state, command, rng)
        case EditMap():
            return space.edit_map(state, command)
        case PlaceCombatant():
            return space.place(state, command)
        case Move():
            return space.move(state, command)
        case Attack():
            return attack.attack(state, command, rng)
        case Cast():
            return spells.cast(state, command, rng)
        case Defend():
            return attack.defend(state, command, rng)
        case Rest():
            return actions.rest(state, command)
        case Transform():
            return actions.transform(state, command)
        case FullAction():
            return actions.full_action(state, command)
        case FreeAction():
            return actions.free_action(state, command)
        case EndTurn():
            return actions.end_turn(state, command)
        case Post():
            return posts.post(state, command)
    raise RuleViolation("polecenie", gettext_noop("Nieznane polecenie."))


def _expire(state: EncounterState, command: Expire, rng: RNG) -> list[Event]:
    """Prompts past their deadline land as "no reaction"; a by-post turn past its deadline
    closes to posting."""
    events = attack.expire_prompts(state, command.now, rng) if state.stage == "running" else []
    if not events:
        events = posts.expire_posting(state, command.now)
    if not events:
        raise RuleViolation("nic_nie_czeka", gettext_noop("Nic nie czeka na rozstrzygnięcie."))
    return events


# --- what the Ruleset protocol asks of the engine ----------------------------------------------


def _turn_deadline(state: EncounterState) -> float | None:
    """The by-post turn's deadline while posting is open."""
    if state.stage == "running" and state.pace == "post" and not state.closed:
        return state.deadline
    return None


def next_deadline(state: EncounterState) -> float | None:
    """The earliest prompt deadline, or the open by-post turn's deadline."""
    found = [p.deadline for p in state.prompts]
    turn = _turn_deadline(state)
    if turn is not None:
        found.append(turn)
    return min(found, default=None)


def resume(state: EncounterState, *, paused_at: float, now: float, minimum: float) -> list[Event]:
    """Every waiting deadline gets the time it had left at `paused_at` (at least `minimum`)."""
    if state.stage != "running":
        return []
    prompts = {p.id: now + max(p.deadline - paused_at, minimum) for p in state.prompts}
    turn = _turn_deadline(state)
    deadline = None if turn is None else now + max(turn - paused_at, minimum)
    if deadline is None and not prompts:
        return []
    return [DeadlinesMoved(deadline=deadline, prompts=prompts)]
