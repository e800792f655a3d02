"""GM-run Magus combatants playing themselves at the live table, by the simulator's tactics.

Each step is one ordinary command (the table logs it like the GM's own): in the declaration
phase its declaration (an attack with its best weapon on the most hurt enemy, with the
policy's combat option where the rules allow it), in the initiative phase its own Initiative
test when the table waits for it, and in its turn: get up if knocked down, attack, end the
turn. A step is checked by deciding it against a throwaway RNG, so the table is never asked
to run a command the rules refuse; it is None whenever the combatant has nothing to do now
(not its turn, a prompt open, already declared) and always for a player's character.
"""

from __future__ import annotations

from combat.rules.base import gettext_noop
from combat.rules.magus import engine
from combat.rules.magus.commands import Command, EndTurn, RollInitiative
from combat.rules.magus.engine.common import must_declare, must_roll
from combat.rules.magus.simulate import TACTICS, declaration, turn_command
from combat.rules.magus.state import EncounterState

# How a GM-run combatant plays itself (key, Polish label), the default first; each key is
# one of the simulator's tactics.
POLICIES: tuple[tuple[str, str], ...] = (
    ("atakuj", gettext_noop("atakuje najbardziej rannego")),
    ("agresywnie", gettext_noop("atakuje najbardziej rannego, Agresywnym atakiem")),
    ("ostroznie", gettext_noop("atakuje najbardziej rannego, w Postawie obronnej")),
)
assert all(key in TACTICS for key, _ in POLICIES)


def next_command(state: EncounterState, actor_id: str, policy: str, now: float) -> Command | None:
    """The next step of `actor_id` by this policy; None when it has nothing to do now or is
    a player's character. ValueError for an unknown policy."""
    if policy not in dict(POLICIES):
        raise ValueError(f"unknown autoplay policy: {policy}")
    me = state.combatants.get(actor_id)
    if me is None or me.controller is not None or state.stage != "running" or state.prompts:
        return None
    if state.phase == "declare":
        if me.declared or not must_declare(state, me):
            return None
        declared = declaration(state, me.id, policy, now)
        return declared if allowed(state, declared) else None
    if state.phase == "initiative":
        if me.initiative is not None or not must_roll(state, me):
            return None
        rolled = RollInitiative(actor=me.id, now=now)
        return rolled if allowed(state, rolled) else None
    if state.phase == "act" and state.current == me.id:
        step = turn_command(state, me.id, now)
        return step if allowed(state, step) else EndTurn(actor=me.id, now=now)
    return None


def allowed(state: EncounterState, command: Command) -> bool:
    """Whether the rules accept the command now (decided on a throwaway RNG, then dropped)."""
    return engine.refusal(state, command) is None
