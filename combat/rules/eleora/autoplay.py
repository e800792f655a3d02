"""GM-run characters playing their own turn at the live table, by the simulator's policy.

Each step is one ordinary command (the table logs it like the GM's own): attack the chosen
enemy with the best weapon the rules allow now, reload or step closer when it must, else end
the turn. A step is checked by deciding it against a throwaway RNG, so the table is never
asked to run a command the rules refuse.
"""

from __future__ import annotations

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.eleora.commands import Command, DeclareAttack, EndTurn
from combat.rules.eleora.engine import decide, queries
from combat.rules.eleora.simulate import Policy, Targeting, turn_command
from combat.rules.eleora.state import EncounterState
from combat.rules.records import replace
from combat.rules.seeded import SeededRNG

POLICIES: tuple[tuple[str, str], ...] = (
    ("najslabszy", gettext_noop("atakuje najsłabszego")),
    ("najblizszy", gettext_noop("atakuje najbliższego")),
)
TARGETING: dict[str, Targeting] = {"najslabszy": "weakest", "najblizszy": "nearest"}


def next_command(state: EncounterState, actor_id: str, policy: str, now: float) -> Command | None:
    """The next step of `actor_id`'s turn; None when it is not its turn or something waits
    (a prompt to answer, an attack to resolve). ValueError for an unknown policy."""
    if policy not in TARGETING:
        raise ValueError(f"unknown autoplay policy: {policy}")
    if state.phase not in ("surprise", "combat") or state.current != actor_id:
        return None
    if state.prompts or state.attacks:
        return None
    chosen = turn_command(state, Policy(targeting=TARGETING[policy]), now)
    for command in _candidates(state, chosen):
        if allowed(state, command):
            return command
    return EndTurn(actor=actor_id, now=now)


def _candidates(state: EncounterState, chosen: Command) -> list[Command]:
    """The policy's choice, then (for an attack) the same attack with each other weapon the
    rules allow now against that target, best damage first."""
    if not isinstance(chosen, DeclareAttack):
        return [chosen]
    target = state.get(chosen.target)
    others = [
        w
        for w in queries.weapon_choices(state, chosen.actor, [target])
        if w["available"] and w["key"] != chosen.weapon
    ]
    others.sort(key=lambda w: -int(w["damage"]))
    return [chosen, *(replace(chosen, weapon=w["key"], thrown=False) for w in others)]


def allowed(state: EncounterState, command: Command) -> bool:
    """Whether the rules accept the command now (decided on a throwaway RNG, then dropped)."""
    try:
        decide(state, command, SeededRNG(0))
    except RuleViolation:
        return False
    return True
