"""Akcje podstawowe other than Atak and Ruch: one small decider per action.

Each spends one action (ActionSpent) and then records what it did. Checks run first, so a
refused action leaves nothing behind.
"""

from __future__ import annotations

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import RNG
from combat.rules.eleora import initiative
from combat.rules.eleora.attack import shield_or_one, skill_pool
from combat.rules.eleora.commands import (
    Aim,
    Draw,
    GiveOrder,
    Guard,
    Incantation,
    Prepare,
    Reload,
    StandUp,
    Steer,
    YieldInitiative,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine.common import (
    Batch,
    require_action,
    require_difficulty,
    require_heroism,
    require_no_prompts,
    roll_test,
)
from combat.rules.eleora.events import (
    ActionSpent,
    AimTaken,
    ConditionAdded,
    ConditionRemoved,
    Event,
    GuardRaised,
    InitiativeChanged,
    ItemMoved,
    Note,
    ReactionGained,
    ReloadProgressed,
    SpellPartPrepared,
    Steered,
)
from combat.rules.eleora.state import Combatant, EncounterState


def _act(state: EncounterState, actor: str) -> Combatant:
    require_no_prompts(state)
    return require_action(state, actor)


def aim(state: EncounterState, cmd: Aim) -> list[Event]:
    """Celowanie: +1 die on the next attack on that enemy; with Odsłonięcie at most +3."""
    c = _act(state, cmd.actor)
    target = state.get(cmd.target)
    if target.id == c.id:
        raise RuleViolation("cel", gettext_noop("Celować można tylko w inną postać."))
    cap = state.settings.aim_cap
    if c.aim.get(target.id, 0) + target.stacks("odsloniecie") >= cap:
        raise RuleViolation(
            "limit_celowania",
            gettext_noop("Celowanie: osiągnięto limit +%(cap)s (Celowanie i Odsłonięcie razem)."),
            target=target.id,
            cap=cap,
        )
    return [
        ActionSpent(actor=c.id, action="celowanie", detail=target.id),
        AimTaken(actor=c.id, target=target.id),
    ]


def incantation(state: EncounterState, cmd: Incantation) -> list[Event]:
    """Inkantacja: one more part of a spell (provokes Atak okazyjny)."""
    c = _act(state, cmd.actor)
    if not cmd.spell.strip():
        raise RuleViolation("zaklecie", gettext_noop("Podaj nazwę zaklęcia."))
    parts = c.spell_parts.get(cmd.spell, 0) + 1
    return [
        ActionSpent(actor=c.id, action="inkantacja", detail=cmd.spell),
        SpellPartPrepared(actor=c.id, spell=cmd.spell, parts=parts),
    ]


def give_order(state: EncounterState, cmd: GiveOrder) -> list[Event]:
    """Komenda: one order to the animal companion(s); the GM plays it out."""
    c = _act(state, cmd.actor)
    if not cmd.order.strip():
        raise RuleViolation("komenda", gettext_noop("Podaj treść komendy."))
    return [ActionSpent(actor=c.id, action="komenda"), Note(actor=c.id, text=cmd.order)]


def yield_initiative(state: EncounterState, cmd: YieldInitiative) -> list[Event]:
    """Oddanie inicjatywy: lower it for the rest of combat; at 0 or below, Oszołomienie."""
    c = _act(state, cmd.actor)
    before = c.initiative or 0
    after = initiative.yield_initiative(before, cmd.by)
    values = {cid: state.get(cid).initiative or 0 for cid in state.order}
    values[c.id] = after
    order = initiative.reorder_after_yield(state.order, values, c.id)
    events: list[Event] = [
        ActionSpent(actor=c.id, action="oddanie_inicjatywy", detail=str(cmd.by)),
        InitiativeChanged(combatant=c.id, initiative=after, order=order),
    ]
    if initiative.dazed_by_initiative(before, after):
        dazed = ConditionInstance("oszolomienie", remaining=1, source="inicjatywa")
        events.append(ConditionAdded(combatant=c.id, condition=dazed))
    return events


def reload(state: EncounterState, cmd: Reload) -> list[Event]:
    """Przeładowanie: one of the weapon's reload actions (provokes Atak okazyjny)."""
    c = _act(state, cmd.actor)
    weapon = c.weapon(cmd.weapon)
    if weapon is None:
        raise RuleViolation(
            "bron",
            gettext_noop("%(name)s nie ma broni „%(weapon)s”."),
            name=c.name,
            weapon=cmd.weapon,
        )
    if weapon.reload_actions <= 0:
        raise RuleViolation(
            "przeladowanie",
            gettext_noop("Broń „%(weapon)s” nie wymaga przeładowania."),
            weapon=weapon.name,
        )
    if weapon.name not in c.unloaded:
        raise RuleViolation(
            "naladowana", gettext_noop("Broń „%(weapon)s” jest już naładowana."), weapon=weapon.name
        )
    progress = c.reload_progress.get(weapon.name, 0) + 1
    return [
        ActionSpent(actor=c.id, action="przeladowanie", detail=weapon.name),
        ReloadProgressed(
            actor=c.id,
            weapon=weapon.name,
            progress=progress,
            loaded=progress >= weapon.reload_actions,
        ),
    ]


def prepare(state: EncounterState, cmd: Prepare) -> list[Event]:
    """Przygotowanie: one extra reaction, until the start of the next own turn (DEFAULT)."""
    c = _act(state, cmd.actor)
    return [ActionSpent(actor=c.id, action="przygotowanie"), ReactionGained(actor=c.id)]


def guard(state: EncounterState, cmd: Guard) -> list[Event]:
    """Zasłona: +1, or a shield's bonus (once per turn per shield), to Obrona."""
    c = _act(state, cmd.actor)
    bonus, shield = shield_or_one(c, cmd.shield)
    if cmd.shield is not None and shield is None:
        raise RuleViolation(
            "tarcza",
            gettext_noop(
                "Tarcza „%(shield)s” niedostępna (nie trzymana lub już użyta w tej turze)."
            ),
            shield=cmd.shield,
        )
    return [
        ActionSpent(actor=c.id, action="zaslona"),
        GuardRaised(actor=c.id, bonus=bonus, shield=shield),
    ]


def draw(state: EncounterState, cmd: Draw) -> list[Event]:
    """Dobycie: draw or stow one item, or pick up a dropped weapon or projectile."""
    c = _act(state, cmd.actor)
    if not cmd.item.strip():
        raise RuleViolation("przedmiot", gettext_noop("Podaj przedmiot."))
    holding = c.holds(cmd.item)
    if cmd.mode == "schowaj" and not holding:
        raise RuleViolation(
            "przedmiot",
            gettext_noop("%(name)s nie trzyma „%(item)s”."),
            name=c.name,
            item=cmd.item,
        )
    if cmd.mode != "schowaj" and holding:
        raise RuleViolation(
            "przedmiot",
            gettext_noop("%(name)s już trzyma „%(item)s”."),
            name=c.name,
            item=cmd.item,
        )
    return [
        ActionSpent(actor=c.id, action="dobycie", detail=cmd.mode),
        ItemMoved(combatant=c.id, item=cmd.item, held=cmd.mode != "schowaj"),
    ]


def stand_up(state: EncounterState, cmd: StandUp) -> list[Event]:
    """Wstanie z Powalenia: costs a Ruch action."""
    c = _act(state, cmd.actor)
    if not c.has("powalenie"):
        raise RuleViolation(
            "nie_lezy", gettext_noop("Postać %(name)s nie jest Powalona."), name=c.name
        )
    return [
        ActionSpent(actor=c.id, action="ruch", detail="wstanie"),
        ConditionRemoved(combatant=c.id, key="powalenie"),
    ]


def steer(state: EncounterState, cmd: Steer, rng: RNG) -> list[Event]:
    """Sterowanie: Jeździectwo vs the GM's difficulty; failing it, the mount goes astray."""
    c = _act(state, cmd.actor)
    require_heroism(c, cmd.heroism)
    if not c.mounted:
        raise RuleViolation(
            "bez_wierzchowca", gettext_noop("Sterowanie wymaga wierzchowca lub pojazdu.")
        )
    difficulty = require_difficulty(cmd.difficulty, "Sterowanie")
    if cmd.pace < 0:
        raise RuleViolation("tempo", gettext_noop("Tempo nie może być ujemne."))
    batch = Batch(state).add(ActionSpent(actor=c.id, action="sterowanie"))
    pool = skill_pool(state, c, "jezdziectwo", heroism=cmd.heroism)
    roll = roll_test(batch, rng, c.id, "jezdziectwo", pool, difficulty)
    batch.add(Steered(actor=c.id, passed=roll.successes >= difficulty, pace=cmd.pace))
    return batch.events
