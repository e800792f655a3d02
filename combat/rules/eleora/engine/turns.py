"""Runda, Tura i Zaskoczenie: starting the fight, whose turn is next, and the end of combat."""

from __future__ import annotations

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import RNG
from combat.rules.eleora import conditions as cond
from combat.rules.eleora.commands import EndCombat, EndTurn, RollInitiative, StartCombat
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine.common import (
    ACTIVE_PHASES,
    Batch,
    require_active,
    require_no_prompts,
)
from combat.rules.eleora.events import (
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionTicked,
    Event,
    InitiativeRolled,
    InitiativeTieBroken,
    MountAdrift,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from combat.rules.eleora.initiative import (
    InitiativeRoll,
    actions_this_turn,
    order_initiative,
    roll_initiative,
    supplied_initiative,
)
from combat.rules.eleora.state import GM, Combatant, EncounterState


def start_combat(state: EncounterState, cmd: StartCombat, rng: RNG) -> list[Event]:
    """Inicjatywa for everyone, then the surprise turn (if a side starts unexpected) or round 1."""
    if state.phase != "setup":
        raise RuleViolation("walka_trwa", gettext_noop("Walka już się zaczęła."))
    if not state.combatants:
        raise RuleViolation("brak_postaci", gettext_noop("Nie ma nikogo, kto mógłby walczyć."))
    if cmd.surprise_side is not None and cmd.surprise_side not in state.sides:
        raise RuleViolation(
            "strona", gettext_noop("Nie ma strony „%(side)s”."), side=cmd.surprise_side
        )
    order = order_initiative(_initiative_rolls(state, cmd, rng), rng)
    surprised = tuple(
        c.id for c in state.combatants.values() if cmd.surprise_side not in (None, c.side)
    )
    batch = Batch(state)
    # Every roll the log has not told yet (the engine's, or 2d6 given with the command) is told
    # now, each on its own line, so the table shows it as soon as it is rolled.
    for roll in order.rolls:
        if not state.combatants[roll.combatant].setup_roll:
            told = InitiativeRolled(
                combatant=roll.combatant, faces=roll.faces, supplied=roll.supplied
            )
            batch.add(told)
    for tie in order.tiebreaks:
        batch.add(InitiativeTieBroken(contenders=tie.contenders, faces=tie.faces))
    batch.add(CombatStarted(initiative=order, surprise_side=cmd.surprise_side, surprised=surprised))
    for cid in surprised:
        mark = ConditionInstance("zaskoczenie", remaining=1, source="tura_zaskoczenia")
        batch.add(ConditionAdded(combatant=cid, condition=mark))
    batch.add(RoundStarted(round=0 if cmd.surprise_side else 1, surprise=bool(cmd.surprise_side)))
    start_next(batch)
    return batch.events


def _initiative_rolls(state: EncounterState, cmd: StartCombat, rng: RNG) -> list[InitiativeRoll]:
    """The 2d6 given with the command win; then those rolled in the setup phase; the engine
    rolls for everyone else."""
    supplied = dict(cmd.rolls or {})
    unknown = set(supplied) - set(state.combatants)
    if unknown:
        raise RuleViolation(
            "nieznana_postac",
            gettext_noop("Nie ma takiej postaci: %(ids)s."),
            ids=", ".join(unknown),
        )
    rolls = []
    for c in state.combatants.values():
        intuicja = c.sheet.attribute("intuicja")
        faces = supplied.get(c.id) or c.setup_roll
        if faces:
            try:
                rolls.append(supplied_initiative(c.id, faces, intuicja))
            except ValueError:
                raise RuleViolation(
                    "inicjatywa",
                    gettext_noop("%(name)s: inicjatywa to dwie kości k6 (1–6)."),
                    id=c.id,
                    name=c.name,
                ) from None
        else:
            rolls.append(roll_initiative(rng, c.id, intuicja))
    return rolls


def roll_setup_initiative(state: EncounterState, cmd: RollInitiative, rng: RNG) -> list[Event]:
    """Inicjatywa rolled before the fight, once per character: the player's own 2d6, or the
    engine's dice. The start of the fight then uses it instead of rolling."""
    if state.phase != "setup":
        raise RuleViolation(
            "walka_trwa", gettext_noop("Walka już się zaczęła: inicjatywa jest rzucona.")
        )
    if cmd.actor == GM:
        raise RuleViolation("inicjatywa", gettext_noop("Wskaż postać, która rzuca na inicjatywę."))
    c = state.get(cmd.actor)
    if c.setup_roll:
        raise RuleViolation(
            "inicjatywa_rzucona",
            gettext_noop("Postać %(name)s już rzuciła na inicjatywę."),
            id=c.id,
            name=c.name,
        )
    intuicja = c.sheet.attribute("intuicja")
    if cmd.roll is None:
        return [InitiativeRolled(combatant=c.id, faces=roll_initiative(rng, c.id, intuicja).faces)]
    try:
        roll = supplied_initiative(c.id, cmd.roll, intuicja)
    except ValueError:
        raise RuleViolation(
            "inicjatywa", gettext_noop("Inicjatywa to dwie kości k6 (1–6)."), id=c.id
        ) from None
    return [InitiativeRolled(combatant=c.id, faces=roll.faces, supplied=True)]


def end_turn(state: EncounterState, cmd: EndTurn) -> list[Event]:
    """Koniec tury: the actor (or the GM) passes the turn on."""
    require_active(state)
    require_no_prompts(state)
    if cmd.actor != GM and cmd.actor != state.current:
        raise RuleViolation(
            "nie_twoja_tura", gettext_noop("Nie twoja tura."), current=state.current
        )
    batch = Batch(state)
    advance(batch)
    return batch.events


def end_combat(state: EncounterState, cmd: EndCombat) -> list[Event]:
    require_active(state)
    if cmd.winner is not None and cmd.winner not in state.sides:
        raise RuleViolation("strona", gettext_noop("Nie ma strony „%(side)s”."), side=cmd.winner)
    return [CombatEnded(winner=cmd.winner)]


def advance(batch: Batch) -> None:
    """End the current turn and start the next one (a new round when everyone has had one)."""
    current = batch.state.current
    if current is not None:
        c = batch.state.get(current)
        if c.mounted and not c.steered and c.conscious:
            batch.add(MountAdrift(combatant=current))
        batch.add(TurnEnded(combatant=current))
    start_next(batch)


def start_next(batch: Batch) -> None:
    """Begin the next turn: Krwawienie and Podpalenie tick at its start."""
    waiting = [cid for cid in _candidates(batch.state) if cid not in batch.state.acted]
    if not waiting:
        if not any(c.conscious for c in batch.state.combatants.values()):
            batch.add(CombatEnded(winner=None))
            return
        batch.add(RoundStarted(round=batch.state.round + 1))
        waiting = _candidates(batch.state)
    c = batch.state.get(waiting[0])
    actions, reactions = budget(batch.state, c)
    batch.add(TurnStarted(combatant=c.id, actions=actions, reactions=reactions))
    for key, damage in cond.start_of_turn_damage(c.conditions).items():
        batch.add(ConditionTicked(combatant=c.id, key=key, damage=damage))


def _candidates(state: EncounterState) -> list[str]:
    """Who takes a turn this round, in order (the surprise turn: the starting side only)."""
    order = [cid for cid in state.order if state.get(cid).status != "dead"]
    if state.phase == "surprise":
        return [cid for cid in order if state.get(cid).side == state.surprise_side]
    return order


def budget(state: EncounterState, c: Combatant) -> tuple[int, int]:
    """(actions, reactions) for a turn: 1 action in the surprise turn or when Oszołomiony."""
    if not c.conscious or c.has("paraliz"):
        return 0, 0
    if state.phase == "surprise":
        return 1, state.settings.reactions_per_turn
    return (
        actions_this_turn(c.has("oszolomienie"), state.settings),
        state.settings.reactions_per_turn,
    )


def can_act(c: Combatant) -> bool:
    return c.conscious and not c.has("paraliz")


def needs_auto_advance(state: EncounterState) -> bool:
    """The current character is out (or paralysed) and nothing is pending: move on."""
    if state.phase not in ACTIVE_PHASES or state.prompts or state.attacks:
        return False
    if state.current is not None and can_act(state.get(state.current)):
        return False
    # Nobody able to act (all paralysed): the GM moves on by hand rather than rounds spinning.
    return any(can_act(c) for c in state.combatants.values()) or not any(
        c.conscious for c in state.combatants.values()
    )


def turn_is_spent(state: EncounterState) -> bool:
    """Auto end of turn (the table's `auto_end_turn`): the current character has no action
    left and nothing waits (no prompt, no attack), so its turn has nothing left in it."""
    if not state.settings.auto_end_turn or state.phase not in ACTIVE_PHASES:
        return False
    if state.prompts or state.attacks or state.current is None:
        return False
    return state.get(state.current).actions_left <= 0
