"""The Eleora encounter engine: `decide(state, command, rng) -> events`, `evolve`, `replay`.

`decide` is pure: it reads the state, rolls through the injected RNG and returns the events
(every die inside them), or raises `RuleViolation` with a reason a player can read. After the
command's own events it adds what follows from them: maiming rolls, Atak okazyjny offers,
prompts closed for characters who dropped, and the next turn when the acting one is out (or,
with the table's `auto_end_turn`, has nothing left to do: no action and no prompt open).
"""

from __future__ import annotations

from collections.abc import Iterable

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import RNG
from combat.rules.eleora import grid
from combat.rules.eleora.attack import is_critical
from combat.rules.eleora.commands import (
    AcceptOpportunity,
    AddCondition,
    Aim,
    ApplyDamage,
    BreakFree,
    ChooseReaction,
    Command,
    DeclareAreaAttack,
    DeclareAttack,
    DeclineOpportunity,
    Draw,
    DropItem,
    EditHealth,
    EditMap,
    EndCombat,
    EndTurn,
    Evade,
    GiveOrder,
    GMRoll,
    Guard,
    Heal,
    Incantation,
    Interact,
    JoinCombat,
    LetPass,
    Move,
    OfferOpportunity,
    PlaceCombatant,
    Prepare,
    Reload,
    RemoveCondition,
    ResolveExpired,
    RevealStats,
    RollInitiative,
    SetEnvironment,
    SetHidden,
    StandUp,
    StartCombat,
    Steer,
    YieldInitiative,
)
from combat.rules.eleora.engine import actions, attacks, gm, interactions, movement, turns
from combat.rules.eleora.engine.common import Batch, reaction_refusal
from combat.rules.eleora.engine.evolve import evolve, replay
from combat.rules.eleora.events import (
    ActionSpent,
    AttackResolved,
    Event,
    MaimingRolled,
    PromptClosed,
    PromptOpened,
    ReactionChosen,
    TestRolled,
)
from combat.rules.eleora.maiming import roll_maiming
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import GM, EncounterState

__all__ = ["decide", "evolve", "replay"]

# The actions that provoke an Atak okazyjny, with the rule term its offer names as the trigger.
PROVOKING_ACTIONS = {
    "inkantacja": gettext_noop("Inkantacja"),
    "przeladowanie": gettext_noop("Przeładowanie"),
}
# Actions other than Atak: a turn begun in Szał may not open with one of these.
OTHER_ACTIONS = (
    Aim,
    Incantation,
    Interact,
    GiveOrder,
    YieldInitiative,
    Reload,
    Prepare,
    Move,
    StandUp,
    Steer,
    Draw,
    Guard,
)


def decide(state: EncounterState, command: Command, rng: RNG) -> list[Event]:
    """The events a command causes, consequences included; RuleViolation if the rules refuse."""
    if command.gm_only and command.actor != GM:
        raise RuleViolation("tylko_mg", gettext_noop("Tylko Mistrz Gry może to zrobić."))
    if not command.gm_only and command.actor != GM:
        state.get(command.actor)
    _check_frenzy(state, command)
    events = _dispatch(state, command, rng)
    return follow_up(state, events, command.now, rng)


def _dispatch(state: EncounterState, command: Command, rng: RNG) -> list[Event]:
    match command:
        case StartCombat():
            return turns.start_combat(state, command, rng)
        case RollInitiative():
            return turns.roll_setup_initiative(state, command, rng)
        case EndTurn():
            return turns.end_turn(state, command)
        case EndCombat():
            return turns.end_combat(state, command)
        case DeclareAttack():
            return attacks.declare_attack(state, command, rng)
        case ChooseReaction():
            return attacks.choose_reaction(state, command, rng)
        case ResolveExpired():
            return attacks.resolve_expired(state, command, rng)
        case AcceptOpportunity():
            return attacks.accept_opportunity(state, command, rng)
        case DeclineOpportunity():
            return attacks.decline_opportunity(state, command)
        case Move():
            return movement.move(state, command, rng)
        case Evade():
            return movement.evade(state, command, rng)
    return _dispatch_action(state, command, rng)


def _dispatch_action(state: EncounterState, command: Command, rng: RNG) -> list[Event]:
    match command:
        case Aim():
            return actions.aim(state, command)
        case Incantation():
            return actions.incantation(state, command)
        case GiveOrder():
            return actions.give_order(state, command)
        case YieldInitiative():
            return actions.yield_initiative(state, command)
        case Reload():
            return actions.reload(state, command)
        case Prepare():
            return actions.prepare(state, command)
        case Guard():
            return actions.guard(state, command)
        case Draw():
            return actions.draw(state, command)
        case StandUp():
            return actions.stand_up(state, command)
        case Steer():
            return actions.steer(state, command, rng)
        case Interact():
            return interactions.interact(state, command, rng)
        case BreakFree():
            return interactions.break_free(state, command, rng)
        case LetPass():
            return interactions.let_pass(state, command)
        case DropItem():
            return interactions.drop_item(state, command)
    return _dispatch_gm(state, command, rng)


def _dispatch_gm(state: EncounterState, command: Command, rng: RNG) -> list[Event]:
    match command:
        case EditHealth():
            return gm.edit_health(state, command)
        case ApplyDamage():
            return gm.apply_damage(state, command)
        case Heal():
            return gm.heal(state, command)
        case AddCondition():
            return gm.add_condition(state, command)
        case RemoveCondition():
            return gm.remove_condition(state, command)
        case SetHidden():
            return gm.set_hidden(state, command)
        case RevealStats():
            return gm.reveal_stats(state, command)
        case GMRoll():
            return gm.gm_roll(state, command, rng)
        case PlaceCombatant():
            return gm.place_combatant(state, command)
        case SetEnvironment():
            return gm.set_environment(state, command)
        case OfferOpportunity():
            return gm.offer_opportunity(state, command, rng)
        case DeclareAreaAttack():
            return gm.declare_area_attack(state, command, rng)
        case JoinCombat():
            return gm.join_combat(state, command, rng)
        case EditMap():
            return gm.edit_map(state, command)
    raise RuleViolation(
        "nieznane_polecenie",
        gettext_noop("Nieznane polecenie: %(command)s."),
        command=type(command).__name__,
    )


def _check_frenzy(state: EncounterState, command: Command) -> None:
    """Szał: a turn begun in Szał opens with an Atak, or a Szarża toward the nearest character."""
    actor = state.combatants.get(command.actor)
    if actor is None or not actor.frenzy_bound or state.current != actor.id:
        return
    if isinstance(command, Move) and command.charge:
        _check_frenzy_charge(state, actor.id, command)
    elif isinstance(command, OTHER_ACTIONS):
        raise RuleViolation(
            "szal",
            gettext_noop(
                "Szał: pierwsza akcja w turze musi być Atakiem (albo Szarżą do najbliższej "
                "postaci)."
            ),
        )


def _check_frenzy_charge(state: EncounterState, actor_id: str, command: Move) -> None:
    actor = state.get(actor_id)
    others = [
        c.position
        for c in state.combatants.values()
        if c.id != actor_id and c.conscious and c.position is not None
    ]
    if actor.position is None or not others or not command.path:
        return
    nearest = min(grid.distance(actor.position, p) for p in others)
    targets = [p for p in others if grid.distance(actor.position, p) == nearest]
    if not any(grid.adjacent(command.path[-1], p) for p in targets):
        raise RuleViolation(
            "szal", gettext_noop("Szał: Szarża musi skończyć się obok najbliższej postaci.")
        )


# --- consequences -----------------------------------------------------------------------------


def follow_up(state: EncounterState, events: Iterable[Event], now: float, rng: RNG) -> list[Event]:
    """Add what the events set off, until nothing more follows."""
    batch = Batch(state).add(*events)
    fresh = list(batch.events)
    for _ in range(4 * len(state.combatants) + 20):
        start = len(batch.events)
        _roll_maiming(batch, rng)
        _offer_opportunities(batch, fresh, now, rng)
        _drop_prompts_of_fallen(batch, rng)
        if turns.needs_auto_advance(batch.state) or turns.turn_is_spent(batch.state):
            turns.advance(batch)
        fresh = batch.events[start:]
        if not fresh:
            break
    return batch.events


def _roll_maiming(batch: Batch, rng: RNG) -> None:
    """Okaleczenie i Śmierć: roll for everyone whose Zdrowie crossed the trigger."""
    for c in list(batch.state.combatants.values()):
        if c.maiming_pending and c.status != "dead":
            result = roll_maiming(rng, c.health)
            batch.add(MaimingRolled(combatant=c.id, result=result, zdrowie=c.health))


def _provokers(events: Iterable[Event], batch: Batch) -> list[tuple[str, str]]:
    """(who, why) for each Atak okazyjny trigger among the events."""
    settings = batch.state.settings
    found: list[tuple[str, str]] = []
    for e in events:
        if isinstance(e, TestRolled) and e.critical_failure:
            found.append((e.actor, f"krytyczna porażka ({e.test})"))
        elif isinstance(e, AttackResolved):
            if is_critical(e.attack_roll, settings):
                found.append((e.attacker, gettext_noop("krytyczna porażka (atak)")))
            if _defence_critical(e, settings):
                found.append((e.target, gettext_noop("krytyczna porażka (Obrona)")))
        elif isinstance(e, ActionSpent) and not e.reaction and e.action in PROVOKING_ACTIONS:
            found.append((e.actor, PROVOKING_ACTIONS[e.action]))
    return found


def _defence_critical(e: AttackResolved, settings: TableSettings) -> bool:
    """The defender's half of the contested test (its Obrona roll) had no success."""
    return (
        settings.opportunity_on_defence_critical
        and e.defence_roll is not None
        and is_critical(e.defence_roll, settings)
    )


def _offer_opportunities(batch: Batch, events: Iterable[Event], now: float, rng: RNG) -> None:
    """Each enemy in reach (adjacent on the map) that may react gets an offer."""
    for provoker_id, why in _provokers(events, batch):
        if batch.state.get(provoker_id).status == "dead":
            continue  # nothing left to attack
        for enemy in batch.state.enemies_of(provoker_id):
            if reaction_refusal(enemy) is not None or not gm.in_reach(
                batch.state, enemy.id, provoker_id
            ):
                continue
            if any(
                p.actor == enemy.id and p.target == provoker_id and p.kind == "atak_okazyjny"
                for p in batch.state.prompts
            ):
                continue
            prompt = gm.opportunity_prompt(batch.state, enemy.id, provoker_id, why, now, rng)
            batch.add(PromptOpened(prompt=prompt))


def _drop_prompts_of_fallen(batch: Batch, rng: RNG) -> None:
    """A character knocked out or killed cannot answer: its prompts close as "no reaction"."""
    for prompt in batch.state.prompts:
        if batch.state.get(prompt.actor).conscious:
            continue
        if prompt.kind == "reakcja":
            batch.add(ReactionChosen(prompt=prompt.id, actor=prompt.actor, expired=True))
            attacks.resolve(batch, prompt.attack_id or "", rng)
        else:
            batch.add(PromptClosed(prompt=prompt.id, expired=True))
