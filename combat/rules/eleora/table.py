"""Eleora as the live table shows it: the neutral records of `combat.rules.base` (the phase,
the order, seats with health and counters, odds as options) and the data of Eleora's own
partials (templates/combat/rulesets/eleora/): the action panel, the card extras, the GM's
controls and the prompt's Kostka Heroizmu.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from combat.rules.base import (
    Counter,
    Fields,
    HealthView,
    LegalAction,
    OddsOption,
    OddsView,
    Outcome,
    SeatView,
    TableView,
    gettext_noop,
)
from combat.rules.eleora import conditions as cond
from combat.rules.eleora import odds
from combat.rules.eleora.engine import queries
from combat.rules.eleora.prompts import NO_REACTION
from combat.rules.eleora.state import Combatant, EncounterState

STAGES = {"setup": "setup", "surprise": "running", "combat": "running", "ended": "ended"}
# Reactions a player may use outside a prompt, from their own card.
FREE_REACTIONS = ("przepuszczenie", "upuszczenie", "wyzwolenie")
OPTION_LABELS = {
    "brak": gettext_noop("bez reakcji"),
    "parowanie": "Parowanie",
    "unik": "Unik",
}
# The conditions the GM may add by hand: (key, msgid).
CONDITION_CHOICES = tuple((key, spec.label) for key, spec in cond.SPECS.items())


def table_view(state: EncounterState) -> TableView:
    ids = list(state.order) + [c for c in state.combatants if c not in state.order]
    return TableView(
        stage=STAGES[state.phase],  # type: ignore[arg-type]
        round=state.round,
        label=_round_label(state),
        label_params={"n": state.round},
        seats={cid: _seat(state, state.combatants[cid]) for cid in ids},
        order=tuple(ids),
        current=state.current,
        winner=state.winner,
        marks_label=gettext_noop("Okaleczenia"),
    )


def _round_label(state: EncounterState) -> str:
    if state.phase == "setup":
        return gettext_noop("Przygotowanie")
    if state.phase == "surprise":
        return gettext_noop("Tura zaskoczenia")
    if state.phase == "ended":
        return gettext_noop("Starcie zakończone")
    return gettext_noop("Runda %(n)s")


def _seat(state: EncounterState, c: Combatant) -> SeatView:
    level, level_label = queries.wound_level(state, c.id)
    counters: tuple[Counter, ...] = ()
    if state.phase != "setup":
        counters = (
            Counter("akcje", gettext_noop("Akcje"), c.actions_left),
            Counter("reakcje", gettext_noop("Reakcja"), c.reactions_left),
        )
    return SeatView(
        id=c.id,
        name=c.name,
        side=c.side,
        controller=c.controller,
        hidden=c.hidden,
        revealed=c.stats_revealed,
        current=state.current == c.id,
        initiative=_initiative(c),
        health=HealthView(
            current=c.health,
            maximum=c.max_health,
            level=level,
            level_label=level_label,
            out=c.status != "active",
            dead=c.status == "dead",
            status_label=_status_label(c),
        ),
        counters=counters,
        badges=tuple(queries.condition_badges(state, c.id)),
        ready=bool(c.setup_roll),
        marks=tuple(i.label for i in c.injuries),
        removable=frozenset(x.key for x in c.conditions),
        position=c.position if state.battlemap is not None else None,
    )


def _initiative(c: Combatant) -> int | None:
    """Its place in the order, or before the fight the Inicjatywa it has already rolled."""
    if c.initiative is not None or not c.setup_roll:
        return c.initiative
    return sum(c.setup_roll) + c.sheet.attribute("intuicja")


def _status_label(c: Combatant) -> str:
    if c.status == "unconscious":
        return gettext_noop("nieprzytomny")
    if c.status == "dead":
        return gettext_noop("martwy")
    return ""


# --- Eleora's partials --------------------------------------------------------------------
# Each panel is a frozen record of plain values: all its partial reads of the fight, so the
# live table compares it by value and an unrelated change to the state leaves it equal.


@dataclass(frozen=True, slots=True)
class Ref:
    """A combatant as a form lists it."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class WeaponChoice:
    """A weapon of the attack form: whether an Atak with it is allowed now, and why not
    (`queries.weapon_choices`)."""

    key: str
    name: str
    name_template: str
    damage: int
    available: bool
    reason: str = ""
    reason_template: str = ""
    reason_params: Fields = Fields()


@dataclass(frozen=True, slots=True)
class Waiting:
    """An open prompt the turn waits on: who answers it (None: not one of the turn's
    targets) and by when."""

    name: str | None
    deadline: float


@dataclass(frozen=True, slots=True)
class TurnPanel:
    """Before the fight (`setup`): whether the Inicjatywa is rolled. In the turn: the actions,
    whom the forms offer, the weapons, the sheet's items and the prompts it waits on."""

    setup: bool
    actor: Ref
    rolled: bool = False
    heroism: bool = False  # a Kostka Heroizmu to put on the attack
    actions: tuple[LegalAction, ...] = ()
    targets: tuple[Ref, ...] = ()  # every other combatant the viewer sees
    enemies: tuple[Ref, ...] = ()  # of them, those of another side (Celowanie)
    attack_targets: tuple[Ref, ...] = ()  # of those, the not dead (Atak)
    weapons: tuple[WeaponChoice, ...] = ()
    sheet_weapons: tuple[tuple[str, int], ...] = ()  # (name, damage)
    shields: tuple[tuple[str, int], ...] = ()  # (name, bonus)
    unloaded: frozenset[str] = frozenset()
    on_map: bool = False
    waiting: tuple[Waiting, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatPanel:
    """The reactions a player may use outside a prompt, and the allies Przepuszczenie names."""

    reactions: tuple[LegalAction, ...]
    allies: tuple[Ref, ...]


@dataclass(frozen=True, slots=True)
class GMPanel:
    phase: str
    sides: tuple[str, ...]
    can_start: bool
    can_end: bool
    area_centres: tuple[tuple[str, str], ...]  # (id, name)


@dataclass(frozen=True, slots=True)
class GMSeatPanel:
    damage_physical: int
    damage_stun: int
    can_roll_initiative: bool
    condition_choices: tuple[tuple[str, str], ...]  # (key, msgid)


@dataclass(frozen=True, slots=True)
class PromptPanel:
    """A Kostka Heroizmu offered on the Obrona roll of this prompt."""

    prompt: str


def turn_panel(state: EncounterState, actor_id: str, visible: frozenset[str]) -> TurnPanel:
    """Before the fight: whether this character's Inicjatywa is rolled. In its turn: every
    action with why it is not available, and what the forms offer (targets, and `weapons`:
    each with whether it may attack now and why not, `queries.weapon_choices`)."""
    actor = state.get(actor_id)
    if state.phase == "setup":
        return TurnPanel(setup=True, actor=_ref(actor), rolled=bool(actor.setup_roll))
    others = [state.combatants[cid] for cid in state.combatants if cid in visible]
    targets = [t for t in others if t.id != actor.id]
    enemies = [t for t in targets if t.side != actor.side]
    names = {t.id: t.name for t in targets}
    return TurnPanel(
        setup=False,
        actor=_ref(actor),
        heroism=actor.heroism_dice > 0,
        actions=tuple(_action(a) for a in queries.legal_actions(state, actor_id) if not a.reaction),
        targets=tuple(_ref(t) for t in targets),
        enemies=tuple(_ref(t) for t in enemies),
        attack_targets=tuple(_ref(t) for t in enemies if t.status != "dead"),
        weapons=tuple(_weapon(w) for w in queries.weapon_choices(state, actor_id, enemies)),
        sheet_weapons=tuple((w.name, w.damage) for w in actor.sheet.weapons),
        shields=tuple((s.name, s.bonus) for s in actor.sheet.shields),
        unloaded=actor.unloaded,
        # On the battle map a Ruch is picked by tapping a field (the map previews the route).
        on_map=state.battlemap is not None and actor.position is not None,
        waiting=tuple(Waiting(names.get(p.actor), p.deadline) for p in state.prompts),
    )


def seat_panel(state: EncounterState, seat_id: str, visible: frozenset[str]) -> SeatPanel | None:
    """The reactions a player may use outside a prompt (Przepuszczenie: which allies)."""
    if state.phase not in ("combat", "surprise"):
        return None
    me = state.get(seat_id)
    reactions = tuple(
        _action(a)
        for a in queries.legal_actions(state, seat_id)
        if a.reaction and a.key in FREE_REACTIONS
    )
    if not reactions:
        return None
    allies = tuple(
        _ref(c)
        for cid, c in state.combatants.items()
        if cid in visible and c.side == me.side and cid != me.id
    )
    return SeatPanel(reactions, allies)


def gm_panel(state: EncounterState) -> GMPanel:
    """Start (with the surprising side), the GM's own roll, an area attack on the map, end
    with a winner."""
    running = state.phase in ("combat", "surprise")
    return GMPanel(
        phase=state.phase,
        sides=tuple(sorted({c.side for c in state.combatants.values()})),
        can_start=state.phase == "setup" and bool(state.combatants),
        can_end=running,
        # An area attack centred on a character on the map (its Ucieczka prompts).
        area_centres=tuple(
            (c.id, c.name)
            for c in state.combatants.values()
            if c.position is not None and c.status != "dead"
        )
        if state.battlemap is not None and running
        else (),
    )


def gm_seat_panel(state: EncounterState, seat_id: str) -> GMSeatPanel:
    """Zdrowie as physical and stun damage, the conditions the GM may add by hand, and the
    Inicjatywa the GM may roll for it."""
    c = state.get(seat_id)
    return GMSeatPanel(
        damage_physical=c.damage_physical,
        damage_stun=c.damage_stun,
        can_roll_initiative=state.phase == "setup" and not c.setup_roll,
        condition_choices=CONDITION_CHOICES,
    )


def prompt_panel(state: EncounterState, prompt_id: str) -> PromptPanel | None:
    """A defender with a Kostka Heroizmu may put it on its Obrona roll (the rules check it on
    answer)."""
    prompt = state.prompt(prompt_id)
    if prompt is None or prompt.kind != "reakcja":
        return None
    return PromptPanel(prompt.id) if state.get(prompt.actor).heroism_dice > 0 else None


def _ref(c: Combatant) -> Ref:
    return Ref(c.id, c.name)


def _action(a: LegalAction) -> LegalAction:
    """The action with its reason's params read-only (the record is hashed and compared)."""
    return replace(a, reason_params=Fields(a.reason_params))


def _weapon(choice: Mapping[str, Any]) -> WeaponChoice:
    return WeaponChoice(**{**choice, "reason_params": Fields(choice["reason_params"])})


# --- odds as options ----------------------------------------------------------------------


def odds_view(attack: odds.AttackOdds, target: str | None, *, prompt: bool) -> OddsView:
    """Each defender option: P(hit) and the expected damage; for a prompt, keyed by the
    prompt's option keys (no reaction is "")."""
    options = tuple(
        OddsOption(
            key=NO_REACTION if prompt and key == "brak" else key,
            label=OPTION_LABELS.get(key, key),
            outcomes=(Outcome(gettext_noop("trafia"), o.hit.p_hit),),
            expected_damage=o.expected_damage,
        )
        for key, o in attack.options.items()
    )
    notes: list[tuple[str, Mapping[str, Any]]] = []
    if attack.auto_hit:
        notes.append((gettext_noop("trafienie pewne"), {}))
    notes.append(
        (
            gettext_noop("Obrażenia broni %(dmg)s + przebicia, redukcja %(red)s."),
            {"dmg": attack.weapon_damage, "red": attack.reduction},
        )
    )
    return OddsView(options=options, notes=tuple(notes), target=target)
