"""Initiative every round: the test, who rolls it, and the order with its tie-break."""

from __future__ import annotations

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus import options as opt
from combat.rules.magus.commands import (
    RollInitiative,
    RollInitiatives,
)
from combat.rules.magus.dice import Adjustment, roll_step
from combat.rules.magus.engine.common import (
    can_act,
    combatant,
    is_player,
    must_roll,
    require_can_act,
    require_phase,
    state_adjustments,
)
from combat.rules.magus.engine.evolve import replay
from combat.rules.magus.events import (
    Event,
    InitiativeRolled,
    InitiativeSet,
    OrderSet,
)
from combat.rules.magus.state import (
    GM,
    Combatant,
    EncounterState,
)

# --- initiative -------------------------------------------------------------------------------


def roll_initiative(state: EncounterState, c: Combatant, rng: RNG, by: str) -> InitiativeRolled:
    """The Initiative test: the initiative step (Zręczność − armour and shield penalties),
    less Wounds, less the declared target's shield with Ominięcie tarczy."""
    reasons = [a for a in state_adjustments(c, state) if a.reason == gettext_noop("Rany")]
    if opt.OMINIECIE in c.options and c.declaration is not None:
        target = state.combatants.get(c.declaration.target or "")
        shield = target.shield if target is not None else None
        if shield is not None:
            value = shield.mystic if c.declaration.action == "spell" else shield.physical
            reasons.append(Adjustment(-value, opt.label(opt.OMINIECIE)))
    step = max(1, c.sheet.initiative_step)
    roll = roll_step(rng, step, state.settings.table, reasons=reasons)
    return InitiativeRolled(c.id, roll, by)


def own_initiative(state: EncounterState, command: RollInitiative, rng: RNG) -> list[Event]:
    require_phase(state, "initiative")
    c = combatant(state, command.actor)
    require_can_act(state, c)
    if not must_roll(state, c):
        raise RuleViolation(
            "bez_inicjatywy",
            gettext_noop("%(name)s nie testuje Inicjatywy w tej rundzie."),
            name=c.name,
        )
    if c.initiative is not None:
        raise RuleViolation(
            "juz_inicjatywa", gettext_noop("%(name)s już ma Inicjatywę."), name=c.name
        )
    return [roll_initiative(state, c, rng, c.id)]


def gm_initiatives(state: EncounterState, command: RollInitiatives, rng: RNG) -> list[Event]:
    require_phase(state, "initiative")
    missing = missing_initiative(state)
    if command.targets:
        for cid in command.targets:
            combatant(state, cid)
        chosen = [cid for cid in dict.fromkeys(command.targets) if cid in missing]
    else:
        chosen = [cid for cid in missing if not is_player(state.get(cid))]
    if not chosen:
        raise RuleViolation("nikt", gettext_noop("Nikt nie czeka na test Inicjatywy."))
    return [roll_initiative(state, state.get(cid), rng, GM) for cid in chosen]


def missing_initiative(state: EncounterState) -> list[str]:
    return [
        cid for cid, c in state.combatants.items() if must_roll(state, c) and c.initiative is None
    ]


def order_events(state: EncounterState) -> list[Event]:
    """Delayed-into-this-round characters get the highest + 1; then the order: higher
    initiative first, ties by higher Zręczność step (a setting), then as they joined."""
    rolled = [c.initiative for c in state.combatants.values() if c.initiative is not None]
    highest = max(rolled, default=0)
    events: list[Event] = [
        InitiativeSet(cid, highest + 1)
        for cid, c in state.combatants.items()
        if c.delay_next and can_act(state, c)
    ]
    after = replay(state, events)
    # A mount never tests Initiative: it acts on its rider's result, right after the rider.
    mounts: list[Event] = []
    for cid, c in after.combatants.items():
        rider = after.combatants.get(c.rider or "")
        if rider is not None and rider.initiative is not None and can_act(after, c) and not c.done:
            mounts.append(InitiativeSet(cid, rider.initiative, rider=rider.id))
    after = replay(after, mounts)
    ids = list(after.combatants)
    dexterity = after.settings.initiative_ties == "dexterity"
    placed = [
        c
        for c in after.combatants.values()
        if c.initiative is not None and not c.done and c.rider is None
    ]
    placed.sort(
        key=lambda c: (-(c.initiative or 0), -c.dexterity if dexterity else 0, ids.index(c.id))
    )
    order: list[str] = []
    for c in placed:
        order.append(c.id)
        order += [e.combatant for e in mounts if isinstance(e, InitiativeSet) and e.rider == c.id]
    return [*events, *mounts, OrderSet(tuple(order))]
