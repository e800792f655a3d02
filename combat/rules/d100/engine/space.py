"""The optional battle map (`combat.rules.battlemap`): the GM lays and paints it and places
the tokens; a combatant walks on it (Ruch, a free action).

The seed (§3) makes moving a free action, "a short move" within a combat turn of about a
dozen seconds, and gives no distance: `settings.move_fields` (DEFAULT 6 fields of 1 m) a
turn. It has no difficult terrain, no reach and no range rule (§7: range and terrain have no
published modifiers), so a step costs one field wherever it goes (fields painted difficult
cost no more) and nothing about an attack is read from the map.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from combat.rules import battlemap, naming, vocabulary
from combat.rules.base import Names, RuleViolation, gettext_noop
from combat.rules.battlemap import BattleMap, Field, Paint, Remove
from combat.rules.d100.commands import EditMap, Move, PlaceCombatant
from combat.rules.d100.engine.common import (
    action_refusal,
    combatant,
    require_standing,
    require_turn,
)
from combat.rules.d100.events import Event, HiddenSet, Moved, Placed
from combat.rules.d100.state import Combatant, EncounterState

GEOMETRY: battlemap.Geometry = "square"
METRES = 1  # metres per field
MOVE = gettext_noop("ruch")
MAX_PATH = battlemap.MAX_SIDE * battlemap.MAX_SIDE


def label(f: Field) -> str:
    """A field as players name it ("C7"); one off the map's top or left edge by its numbers
    (`battlemap.label` names columns from 0 up)."""
    return battlemap.label(f) if f[0] >= 0 and f[1] >= 0 else f"({f[0]}, {f[1]})"


def off_map(f: Field) -> RuleViolation:
    return RuleViolation(
        "poza_mapa", gettext_noop("Pole %(field)s jest poza mapą."), field=label(f)
    )


def require_map(state: EncounterState) -> BattleMap:
    if state.battlemap is None:
        raise RuleViolation("brak_mapy", gettext_noop("To starcie nie ma mapy."))
    return state.battlemap


def require_token(c: Combatant) -> tuple[int, int]:
    if c.position is None:
        raise RuleViolation("bez_pionka", gettext_noop("%(name)s nie stoi na mapie."), name=c.name)
    return c.position


def occupant(state: EncounterState, f: Field, but: str = "") -> Combatant | None:
    """Who stands on `f` (besides `but`), or None."""
    return next((c for c in state.combatants.values() if c.position == f and c.id != but), None)


def occupied(state: EncounterState) -> tuple[Field, ...]:
    return tuple(c.position for c in state.combatants.values() if c.position is not None)


def left(state: EncounterState, c: Combatant) -> int:
    """Fields of movement `c` has left this turn."""
    return max(0, state.settings.move_fields - c.moved)


def flat(m: BattleMap) -> BattleMap:
    """The map as d100 walks it: no difficult terrain (a step costs one field anywhere)."""
    if not m.difficult:
        return m
    if _FLAT and _FLAT[0] is m:
        return _FLAT[1]
    out = dataclasses.replace(m, difficult=())
    _FLAT[:] = [m, out]
    return out


_FLAT: list[BattleMap] = []  # the last map flattened, and its flat copy


# --- the GM -----------------------------------------------------------------------------------


def edit_map(state: EncounterState, command: EditMap) -> list[Event]:
    """A checked edit (`battlemap.check_edit`: a wall or a smaller map refused over a token)."""
    edit = command.edit
    if isinstance(edit, Remove) and not edit.confirm:
        raise RuleViolation("potwierdz", gettext_noop("Potwierdź usunięcie mapy."))
    if isinstance(edit, Paint) and state.battlemap is not None:
        outside = next((f for f in edit.fields if f[0] < 0 or f[1] < 0), None)
        if outside is not None:
            raise off_map(outside)
    return vocabulary.edit_map(state.battlemap, command, occupied(state))


def place(state: EncounterState, command: PlaceCombatant) -> list[Event]:
    """A token onto a free field of the map (or off it), in any phase."""
    c = combatant(state, command.target)
    m = require_map(state)
    to = command.to
    if to is not None:
        to = (to[0], to[1])
        check_field(state, m, to, c.id)
    return [Placed(c.id, to)]


def check_field(state: EncounterState, m: BattleMap, f: Field, who: str) -> None:
    """RuleViolation unless a token may stand on `f`: on the map, no wall or obstacle, free."""
    if not m.inside(f):
        raise off_map(f)
    if not m.passable(f):
        raise RuleViolation(
            "zablokowane",
            gettext_noop("Pole %(field)s jest zablokowane."),
            field=label(f),
        )
    other = occupant(state, f, who)
    if other is not None:
        raise taken(f, other)


def taken(f: Field, other: Combatant) -> RuleViolation:
    """The field is someone's (named unless hidden from the players)."""
    if other.hidden:
        return RuleViolation("zajete", gettext_noop("Pole %(field)s jest zajęte."), field=label(f))
    return RuleViolation(
        "zajete",
        gettext_noop("Pole %(field)s zajmuje %(name)s."),
        field=label(f),
        name=Names.of(other),
    )


# --- Ruch -------------------------------------------------------------------------------------


def mover(state: EncounterState, actor: str, now: float) -> Combatant:
    """Who may walk now: live, the acting one on its turn; by post, a seat that may still
    post; standing (Powalenie allows only attacks and Uniki), not stunned, in the fight."""
    if state.stage == "running" and state.pace == "post":
        me = combatant(state, actor)
        if state.closed or (state.deadline is not None and now > state.deadline):
            raise RuleViolation(
                "po_terminie", gettext_noop("Termin minął: posty do tej tury są już zamknięte.")
            )
        if me.done:
            raise RuleViolation(
                "juz_dzialal", gettext_noop("%(name)s działał(a) już w tej turze."), name=me.name
            )
        refusal = action_refusal(state, me)
        if refusal is not None:
            raise refusal
    else:
        me = require_turn(state, actor)
    require_standing(state, me, MOVE)
    return me


def move(state: EncounterState, command: Move) -> list[Event]:
    me = mover(state, command.actor, command.now)
    m = require_map(state)
    start = require_token(me)
    path = checked_path(state, m, me, start, command.path)
    cost = len(path) - 1
    budget = left(state, me)
    if cost > budget:
        raise RuleViolation(
            "za_daleko",
            gettext_noop("Za daleko: %(cost)d m, a %(name)s ma jeszcze %(left)d m ruchu."),
            cost=cost * m.metres,
            left=budget * m.metres,
            name=me.name,
        )
    walked, met = ambush(state, me, path)
    events: list[Event] = [Moved(me.id, walked, len(walked) - 1)] if len(walked) > 1 else []
    if met is not None:
        events.append(HiddenSet(met.id, False, me.id, naming.shown_at(state.combatants, met.id)))
    return events


def unseen(state: EncounterState, me: Combatant) -> dict[Field, Combatant]:
    """The tokens `me` cannot see, by field: a player's character sees no hidden one (its
    player does not), the GM's combatants see every one (the GM does)."""
    if me.controller is None:
        return {}
    return {
        c.position: c
        for c in state.combatants.values()
        if c.hidden and c.id != me.id and c.position is not None
    }


def ambush(
    state: EncounterState, me: Combatant, path: tuple[Field, ...]
) -> tuple[tuple[Field, ...], Combatant | None]:
    """A move that runs into a token `me` cannot see stops on the last field before it that
    it may stand on, and that token is revealed; the rest of the turn's movement stays.
    DEFAULT: the seed has no rule for it. (The whole path, None: it met no one.)"""
    hidden = unseen(state, me)
    if not hidden:
        return path, None
    crossed = [f for f in occupied(state) if f not in hidden]
    walked, hit = battlemap.walk_until(path, hidden, crossed)
    return walked, None if hit is None else hidden[hit]


def checked_path(
    state: EncounterState,
    m: BattleMap,
    me: Combatant,
    start: Field,
    path: Sequence[tuple[int, int]],
) -> tuple[Field, ...]:
    """The path from the token's field (added when left out), step by step over passable
    fields: through allies and the bodies of the fallen, never through an enemy still
    fighting, ending on a free field."""
    steps = tuple((f[0], f[1]) for f in path)
    full = steps if steps and steps[0] == start else (start, *steps)
    if len(full) < 2:
        raise RuleViolation("trasa", gettext_noop("Podaj trasę ruchu (kolejne pola)."))
    if len(full) > MAX_PATH:
        raise RuleViolation("trasa", gettext_noop("Podaj trasę ruchu (kolejne pola)."))
    outside = next((f for f in full if not m.inside(f)), None)
    if outside is not None:
        raise off_map(outside)
    battlemap.path_cost(m, full)  # a jump, a wall or an obstacle
    hidden = unseen(state, me)  # not checked: the move stops where it meets one (`ambush`)
    bodies = {
        c.position: c
        for c in state.combatants.values()
        if c.position and c.id != me.id and c.position not in hidden
    }
    for f in full[1:-1]:
        other = bodies.get(f)
        if other is not None and not other.out and other.side != me.side:
            raise RuleViolation(
                "przez_wroga",
                gettext_noop("Nie można przejść przez pole wroga (%(name)s)."),
                name=Names.of(other),
            )
    end = bodies.get(full[-1])
    if end is not None:
        raise taken(full[-1], end)
    return full


def closed_fields(state: EncounterState, me: Combatant) -> tuple[Field, ...]:
    """Fields `me` may not enter: those of enemies still fighting."""
    return tuple(
        c.position
        for c in state.combatants.values()
        if c.position is not None and c.id != me.id and c.side != me.side and not c.out
    )


def pass_fields(state: EncounterState, me: Combatant) -> tuple[Field, ...]:
    """Fields `me` may cross but not stop on: allies', and the fallen's bodies."""
    return tuple(
        c.position
        for c in state.combatants.values()
        if c.position is not None and c.id != me.id and (c.side == me.side or c.out)
    )
