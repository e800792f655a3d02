"""The by-post pace: the whole turn is open at once; every seat posts its action, its defence
and its text until the deadline (posting again replaces the post); the GM resolves the turn
(any time), rolling every post in initiative order, then the turn's end and the next turn."""

from __future__ import annotations

import math

from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.d100.commands import ExtendDeadline, Post, ResolveTurn
from combat.rules.d100.engine import actions, spells
from combat.rules.d100.engine import attack as atk
from combat.rules.d100.engine.common import (
    action_refusal,
    combatant,
    out_refusal,
    require_pace,
)
from combat.rules.d100.engine.evolve import evolve
from combat.rules.d100.engine.flow import end_of_turn
from combat.rules.d100.events import (
    DeadlineSet,
    Event,
    Posted,
    PostingClosed,
    PostSkipped,
    PostsRevealed,
)
from combat.rules.d100.state import ACTION_KINDS, Combatant, EncounterState
from combat.rules.d100.state import Post as PostRecord

POST_DEFENCES = ("", "unik", "blok", atk.BEST)
MAX_TEXT = 4000
MAX_DEADLINE_DAYS = 366  # how far ahead the GM may move a deadline


def may_post(state: EncounterState, c: Combatant) -> bool:
    """Whether `c` may post in the open by-post turn (in the fight, not done already)."""
    return (
        state.stage == "running"
        and state.pace == "post"
        and not state.closed
        and not c.out
        and not c.done
    )


def posting(state: EncounterState) -> tuple[str, ...]:
    """The seats that may post now, in initiative order (`TableView.acting`)."""
    return tuple(cid for cid in state.order if may_post(state, state.get(cid)))


def waiting(state: EncounterState) -> tuple[str, ...]:
    """Those of `posting` who have not posted yet (`TableView.waiting`)."""
    return tuple(cid for cid in posting(state) if cid not in state.posts)


def post(state: EncounterState, command: Post) -> list[Event]:
    """A post (or its replacement). Players post until the deadline; the GM (`by_gm`) also
    after it, for absent seats."""
    require_pace(state, "post")
    me = combatant(state, command.actor)
    refusal = out_refusal(me)
    if refusal is not None:
        raise refusal
    late = state.closed or (state.deadline is not None and command.now > state.deadline)
    if late and not command.by_gm:
        raise RuleViolation(
            "po_terminie", gettext_noop("Termin minął: posty do tej tury są już zamknięte.")
        )
    if me.done:
        raise RuleViolation(
            "juz_dzialal", gettext_noop("%(name)s działał(a) już w tej turze."), name=me.name
        )
    if len(command.text) > MAX_TEXT:
        raise RuleViolation(
            "za_dlugi", gettext_noop("Post: najwyżej %(max)s znaków."), max=MAX_TEXT
        )
    if command.defence not in POST_DEFENCES:
        raise RuleViolation(
            "obrona", gettext_noop("Nieznana obrona: %(option)s."), option=command.defence
        )
    _check_action(state, me, command)
    record = PostRecord(
        actor=me.id,
        action=command.action,
        defence=command.defence,
        text=command.text,
        at=command.now,
        by_gm=command.by_gm,
    )
    return [Posted(record)]


def _check_action(state: EncounterState, me: Combatant, command: Post) -> None:
    """The shape of the posted action (its full check comes at the resolve)."""
    action = command.action
    if action.kind not in ACTION_KINDS:
        raise RuleViolation("akcja", gettext_noop("Nieznana akcja: %(kind)s."), kind=action.kind)
    actions.require_note(action.note)
    if action.kind == "attack":
        atk.plan(state, me, action.target, action.choice)
    elif action.kind == "cast":
        spell = spells.spell_of(me, action.spell)
        if spell.get("kind") in ("damage", "negative"):
            combatant(state, action.target)
    elif action.kind == "transform" and not me.transformation:
        raise RuleViolation(
            "bez_przemiany", gettext_noop("%(name)s nie potrafi się przemienić."), name=me.name
        )


def extend_deadline(state: EncounterState, command: ExtendDeadline) -> list[Event]:
    """The new deadline: a moment in the next `MAX_DEADLINE_DAYS` days (the pages show it as
    a date), or `hours` from now."""
    require_pace(state, "post")
    if not 0 <= command.hours <= MAX_DEADLINE_DAYS * 24:
        raise RuleViolation(
            "termin_godziny",
            gettext_noop("Termin: od 1 do %(max)s godzin od teraz."),
            max=MAX_DEADLINE_DAYS * 24,
        )
    deadline = command.now + command.hours * 3600 if command.hours else command.deadline
    if not math.isfinite(deadline) or deadline <= command.now:
        raise RuleViolation("termin", gettext_noop("Nowy termin musi być w przyszłości."))
    if deadline > command.now + MAX_DEADLINE_DAYS * 86400:
        raise RuleViolation(
            "termin_daleko",
            gettext_noop("Termin najwyżej %(days)s dni od teraz."),
            days=MAX_DEADLINE_DAYS,
        )
    return [DeadlineSet(deadline, reopened=state.closed)]


def expire_posting(state: EncounterState, now: float) -> list[Event]:
    """The by-post turn's deadline passed: posting closes ("Termin minął")."""
    if (
        state.stage != "running"
        or state.pace != "post"
        or state.closed
        or state.deadline is None
        or state.deadline > now
    ):
        return []
    return [PostingClosed(state.turn)]


def resolve_turn(state: EncounterState, command: ResolveTurn, rng: RNG) -> list[Event]:
    """Every post in initiative order, then the turn's end and the next turn."""
    require_pace(state, "post")
    posts = tuple(state.posts[cid] for cid in state.order if cid in state.posts)
    events: list[Event] = [PostsRevealed(state.turn, posts)]
    state = evolve(state, events[0])
    for cid in state.order:
        for event in _run(state, cid, rng, command.now):
            events.append(event)
            state = evolve(state, event)
    return events + end_of_turn(state, rng, command.now)


def _run(state: EncounterState, cid: str, rng: RNG, now: float) -> list[Event]:
    """One seat's post carried out (or why not)."""
    c = state.combatants.get(cid)
    if c is None or c.done:
        return []
    if c.summon is not None and c.summon.hostile:
        return _hostile_summon(state, c, rng)
    record = state.posts.get(cid)
    kind = record.action.kind if record else "none"
    if record is None or kind == "none":
        return [PostSkipped(cid, "brak")] if record is None and c.controller and not c.out else []
    refusal = action_refusal(state, c)
    if refusal is not None:
        return [PostSkipped(cid, "poza_walka" if c.out else "ogluszenie")]
    action = record.action
    try:
        if kind in ("attack", "cast"):
            return _attack_post(state, c, record, rng, now)
        if kind == "rest":
            return actions.rest_of(state, c)
        if kind == "transform":
            return actions.transform_of(state, c)
        return actions.full_of(state, c, action.note)
    except RuleViolation as refused:
        return [PostSkipped(cid, "odmowa", action.target, refused.message)]


def _attack_post(
    state: EncounterState, c: Combatant, record: PostRecord, rng: RNG, now: float
) -> list[Event]:
    action = record.action
    target = state.combatants.get(action.target or "")
    if action.kind == "cast":
        kind = spells.spell_of(c, action.spell).get("kind")
        if kind in ("damage", "negative") and (target is None or target.out):
            return [PostSkipped(c.id, "cel_poza_walka", action.target)]
        defence = defence_of(state, target) if target is not None else atk.BEST
        return spells.cast_spell(state, c, action.spell, action.target, rng, now, defence=defence)
    if target is None or target.out:
        return [PostSkipped(c.id, "cel_poza_walka", action.target)]
    p = atk.plan(state, c, target.id, action.choice)
    return atk.strike(state, p, defence_of(state, target), rng)


def defence_of(state: EncounterState, target: Combatant) -> str:
    """The defence a target uses this turn: its posted one; a player without a post the
    table's `absent_defence` ("none": no reaction); an NPC without one "best"."""
    record = state.posts.get(target.id)
    if record is not None:
        return record.defence
    if target.controller is None:
        return atk.BEST
    absent = state.settings.absent_defence
    return "" if absent == "none" else absent


def _hostile_summon(state: EncounterState, c: Combatant, rng: RNG) -> list[Event]:
    """A summon turned against its caster attacks it, posted or not."""
    assert c.summon is not None
    caster = state.combatants.get(c.summon.caster)
    if caster is None or caster.out or action_refusal(state, c) is not None:
        return []
    p = atk.plan(state, c, caster.id, "")
    return atk.strike(state, p, defence_of(state, caster), rng)
