"""The act phase's commands of the one whose turn it is (and of holders and delayers):
movement, simple and standard actions, Zmiana akcji, holds, delays, Powstanie, the end."""

from __future__ import annotations

from combat.rules import naming
from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.magus import conditions as cond
from combat.rules.magus import options as opt
from combat.rules.magus.check import action_test
from combat.rules.magus.commands import (
    Delay,
    GetUp,
    Hold,
    Interrupt,
    Move,
    SimpleAction,
    StepIn,
    UseAction,
)
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.engine import space
from combat.rules.magus.engine.common import (
    combatant,
    dn_raise,
    movement_limit,
    require_can_act,
    require_cap,
    require_no_prompt,
    require_phase,
    require_turn,
    running,
    state_adjustments,
    walking_limit,
)
from combat.rules.magus.events import (
    ActionChanged,
    ActionUsed,
    ConditionAdded,
    Delayed,
    Event,
    GotUp,
    Held,
    HiddenSet,
    Moved,
    SimpleActed,
    StrainPaid,
    TurnBegan,
    TurnEnded,
)
from combat.rules.magus.state import (
    Combatant,
    EncounterState,
)

# --- turns ------------------------------------------------------------------------------------


def move(state: EncounterState, command: Move) -> list[Event]:
    """One movement a round up to the Movement Rate (Bieg: ×2, uses the standard action,
    Otoczony; Sprint's metres on top, not doubled); Ruch dzielony or initiative-based
    movement split it (Otoczony once the Movement Rate is used; initiative −1 per 2 m). On
    the battle map the path is checked and gives the metres (`space.move_path`)."""
    me = require_turn(state, command.actor)
    require_can_act(state, me)
    path, metres = space.move_path(state, me, command.path, command.metres)
    if metres < 1:
        raise RuleViolation("metry", gettext_noop("Ruch: co najmniej 1 metr."))
    if me.knocked_down:
        raise RuleViolation("lezy", gettext_noop("Powalona postać musi najpierw wstać."))
    if me.got_up:
        raise RuleViolation(
            "po_powstaniu", gettext_noop("Po Powstaniu nie można już ruszać się w tej rundzie.")
        )
    if opt.PRZYCELOWANIE in me.options:
        raise RuleViolation(
            "celuje", gettext_noop("Przycelowanie: w tej rundzie można tylko celować.")
        )
    is_running = running(me)
    rate = movement_limit(state, me)  # Sprint added after Bieg's doubling; a mount's speeds
    split = opt.RUCH_DZIELONY in me.options or state.settings.initiative_movement
    if me.moves and not split:
        raise RuleViolation("juz_ruch", gettext_noop("Ruch tylko raz na rundę."))
    if me.moved + metres > rate:
        raise RuleViolation(
            "za_daleko",
            gettext_noop("Za daleko: zostało %(left)s m z %(rate)s m."),
            left=max(0, rate - me.moved),
            rate=rate,
        )
    if not me.moves:
        require_cap(me)
    path, met = space.ambush(state, me, path)
    stopped: list[Event] = (
        []
        if met is None
        else [HiddenSet(met.id, False, me.id, naming.shown_at(state.combatants, met.id))]
    )
    if met is not None:
        if len(path) < 2:
            return stopped  # met before its first step: no move made
        metres = space.path_metres(state, path)
    cost = (metres + 1) // 2 if state.settings.initiative_movement else 0
    events: list[Event] = [Moved(me.id, metres, is_running, cost, path), *stopped]
    harried = is_running or (
        opt.RUCH_DZIELONY in me.options and me.moved + metres >= walking_limit(state, me)
    )
    if harried and not me.has(cond.OTOCZONY):
        events.append(ConditionAdded(me.id, cond.OTOCZONY, state.round))
    return events


def simple_action(state: EncounterState, command: SimpleAction) -> list[Event]:
    """Simple actions need no test; one that needs a test of another ability counts as the
    standard action ("taka kombinacja uznawana jest za standardową akcję")."""
    if command.test:
        return use_action(state, UseAction(actor=command.actor, now=command.now, note=command.note))
    me = require_turn(state, command.actor)
    require_can_act(state, me)
    if command.count < 1:
        raise RuleViolation("ile", gettext_noop("Co najmniej jedna akcja prosta."))
    if opt.PRZYCELOWANIE in me.options:
        raise RuleViolation(
            "celuje", gettext_noop("Przycelowanie: w tej rundzie można tylko celować.")
        )
    require_cap(me, command.count)
    return [SimpleActed(me.id, command.count, command.note[:200])]


def use_action(state: EncounterState, command: UseAction) -> list[Event]:
    """The standard action on a test the GM judges, or a round of a sustained action."""
    me = require_turn(state, command.actor)
    require_can_act(state, me)
    require_standard(me)
    require_cap(me)
    declared = me.declaration.action if me.declaration else "none"
    events: list[Event] = []
    if declared not in ("test", "sustained"):
        events += change_action(state, me, "test")
    return [*events, ActionUsed(me.id, command.note[:200])]


def require_standard(me: Combatant) -> None:
    if me.standard_used:
        raise RuleViolation(
            "akcja_zuzyta",
            gettext_noop("%(name)s wykonał już akcję standardową w tej rundzie."),
            name=me.name,
        )
    if opt.PRZYCELOWANIE in me.options:
        raise RuleViolation(
            "celuje", gettext_noop("Przycelowanie: w tej rundzie można tylko celować.")
        )


def change_action(state: EncounterState, me: Combatant, action: str) -> list[Event]:
    """Zmiana akcji: +2 DN per change; Strain as the original action's options."""
    events: list[Event] = [ActionChanged(me.id, action)]
    points = sum(opt.strain(k, state.settings) for k in me.options)
    if points:
        damage = opt.strain_damage(points, state.settings)
        events.append(StrainPaid(me.id, opt.ZMIANA, points, damage))
    return events


def hold(state: EncounterState, command: Hold) -> list[Event]:
    me = require_turn(state, command.actor)
    if me.started or me.held:
        raise RuleViolation(
            "za_pozno_wstrzymac",
            gettext_noop("Powstrzymać działanie można tylko na początku swojej tury, raz."),
        )
    trigger = command.trigger.strip()[:200] or gettext_noop("gdy nadarzy się okazja")
    return [Held(me.id, trigger)]


def interrupt(state: EncounterState, command: Interrupt) -> list[Event]:
    """A held action goes off: the holder acts before the one whose turn it is."""
    require_phase(state, "act")
    require_no_prompt(state)
    me = combatant(state, command.actor)
    require_can_act(state, me)
    if not me.holding or me.done:
        raise RuleViolation(
            "nie_wstrzymuje", gettext_noop("%(name)s nie powstrzymuje działania."), name=me.name
        )
    return [TurnBegan(me.id, interrupting=state.current)]


def delay(state: EncounterState, command: Delay) -> list[Event]:
    me = require_turn(state, command.actor)
    if me.started:
        raise RuleViolation(
            "za_pozno_opoznic",
            gettext_noop("Opóźnić działanie można tylko zanim się zacznie turę."),
        )
    if me.delayed:
        raise RuleViolation("juz_opoznia", gettext_noop("%(name)s już opóźnia."), name=me.name)
    return [Delayed(me.id, command.next_round)]


def step_in(state: EncounterState, command: StepIn) -> list[Event]:
    """One who delayed acts now, at a turn boundary (it may not interrupt an action)."""
    require_phase(state, "act")
    require_no_prompt(state)
    me = combatant(state, command.actor)
    require_can_act(state, me)
    if not me.delayed or me.done:
        raise RuleViolation("nie_opoznia", gettext_noop("%(name)s nie opóźnia."), name=me.name)
    current = state.get(state.current) if state.current else None
    if current is not None and current.started:
        raise RuleViolation(
            "nie_przerywa",
            gettext_noop("Opóźniający nie przerywa cudzej akcji: poczekaj do końca tury."),
        )
    return [TurnBegan(me.id, interrupting=state.current)]


def get_up(state: EncounterState, command: GetUp, rng: RNG) -> list[Event]:
    """Powstanie: a simple action, Zręczność test less the armour penalty against DN 6;
    2 Strain; no more movement this round."""
    me = require_turn(state, command.actor)
    require_can_act(state, me)
    if not me.knocked_down:
        raise RuleViolation("stoi", gettext_noop("%(name)s nie leży."), name=me.name)
    require_cap(me)
    settings = state.settings
    points = opt.strain(opt.POWSTANIE, settings)
    events: list[Event] = []
    if points:
        damage = opt.strain_damage(points, settings)
        events.append(StrainPaid(me.id, opt.POWSTANIE, points, damage))
    reasons = [a for a in state_adjustments(me, state) if a.reason == gettext_noop("Rany")]
    reasons += opt.action_adjustments(me.options, settings)
    if me.sheet.armour_penalty:
        reasons.append(Adjustment(-me.sheet.armour_penalty, gettext_noop("Pancerz")))
    dn = settings.getting_up_dn + sum(v for _, v in dn_raise(me, state))
    roll, level = action_test(rng, me.dexterity, dn, settings, reasons)
    return [*events, GotUp(me.id, roll, dn, level.success)]


def end_turn(state: EncounterState, actor: str) -> list[Event]:
    me = require_turn(state, actor)
    return [TurnEnded(me.id)]
