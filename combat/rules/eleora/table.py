"""Eleora as the live table shows it: the neutral records of `combat.rules.base` (the phase,
the order, seats with health and counters, odds as options) and the data of Eleora's own
partials (templates/combat/rulesets/eleora/): the action panel, the card extras, the GM's
controls and the prompt's Kostka Heroizmu.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import (
    Counter,
    HealthView,
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


def turn_panel(state: EncounterState, actor_id: str, visible: frozenset[str]) -> dict[str, Any]:
    """Before the fight: whether this character's Inicjatywa is rolled. In its turn: every
    action with why it is not available, and what the forms offer (targets, and `weapons`:
    each with whether it may attack now and why not, `queries.weapon_choices`)."""
    actor = state.get(actor_id)
    if state.phase == "setup":
        return {"setup": True, "actor": actor, "rolled": bool(actor.setup_roll)}
    others = [state.combatants[cid] for cid in state.combatants if cid in visible]
    targets = [t for t in others if t.id != actor.id]
    enemies = [t for t in targets if t.side != actor.side]
    return {
        "setup": False,
        "actor": actor,
        "actions": [a for a in queries.legal_actions(state, actor_id) if not a.reaction],
        "targets": targets,
        "enemies": enemies,
        "weapons": queries.weapon_choices(state, actor_id, enemies),
        # On the battle map a Ruch is picked by tapping a field (the map previews the route).
        "on_map": state.battlemap is not None and actor.position is not None,
    }


def seat_panel(state: EncounterState, seat_id: str, visible: frozenset[str]) -> dict[str, Any]:
    """The reactions a player may use outside a prompt (Przepuszczenie: which allies)."""
    if state.phase not in ("combat", "surprise"):
        return {}
    me = state.get(seat_id)
    reactions = [
        a for a in queries.legal_actions(state, seat_id) if a.reaction and a.key in FREE_REACTIONS
    ]
    allies = [
        c
        for cid, c in state.combatants.items()
        if cid in visible and c.side == me.side and cid != me.id
    ]
    return {"reactions": reactions, "allies": allies} if reactions else {}


def gm_panel(state: EncounterState) -> dict[str, Any]:
    """Start (with the surprising side), the GM's own roll, an area attack on the map, end
    with a winner."""
    sides = sorted({c.side for c in state.combatants.values()})
    return {
        "phase": state.phase,
        "sides": sides,
        "can_start": state.phase == "setup" and bool(state.combatants),
        "can_end": state.phase in ("combat", "surprise"),
        # An area attack centred on a character on the map (its Ucieczka prompts).
        "area_centres": [
            (c.id, c.name)
            for c in state.combatants.values()
            if c.position is not None and c.status != "dead"
        ]
        if state.battlemap is not None and state.phase in ("combat", "surprise")
        else [],
    }


def gm_seat_panel(state: EncounterState, seat_id: str) -> dict[str, Any]:
    """Zdrowie as physical and stun damage, the conditions the GM may add by hand, and the
    Inicjatywa the GM may roll for it."""
    c = state.get(seat_id)
    return {
        "damage_physical": c.damage_physical,
        "damage_stun": c.damage_stun,
        "can_roll_initiative": state.phase == "setup" and not c.setup_roll,
        "condition_choices": [(key, spec.label) for key, spec in cond.SPECS.items()],
    }


def prompt_panel(state: EncounterState, prompt_id: str) -> dict[str, Any]:
    """A defender may put a Kostka Heroizmu on its Obrona roll (the rules check it on answer)."""
    prompt = state.prompt(prompt_id)
    if prompt is None or prompt.kind != "reakcja":
        return {}
    return {"heroism": state.get(prompt.actor).heroism_dice > 0}


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
