"""Rules read from the battle map (`combat.rules.battlemap`): what stands where and what lies
between, as the Eleora rules use it.

- Trudny Teren: the map's difficult fields with the GM's `SetEnvironment` ones (a union).
- Ciemność: a level per field; a test takes the darker of the table's lighting and the map's
  level where it is made: the tester's own field, and for an Atak (and the Obrona against it)
  the darker of the attacker's and the target's fields ("Postacie w półmroku otrzymują karę").
- Widoczność: a ranged attack needs sight of the target (a wall on the line refuses it); a
  character or an obstacle on the line screens it (−3 dice, `ranged_cover_penalty`).
- Wymuszone Poruszanie: walls, obstacles and the map's edge stop a pushed body.

Without a map (or for a token not on it) nothing here applies and the GM's flags rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from combat.rules import battlemap
from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.battlemap import BattleMap, Field, label
from combat.rules.dice import Modifier
from combat.rules.eleora.environment import _DARKNESS_LABELS, Darkness

if TYPE_CHECKING:
    from combat.rules.eleora.state import Combatant, EncounterState

LEVELS = (Darkness.SWIATLO, Darkness.POLMROK, Darkness.CIEMNOSC, Darkness.CALKOWITA_CIEMNOSC)
DARKNESS_NAMES = (gettext_noop("Półmrok"), gettext_noop("Ciemność"),
                  gettext_noop("Całkowita ciemność"))  # fmt: skip
# The preview's note when the map's field makes a test darker than the table's lighting.
DARKNESS_NOTES = {
    Darkness.POLMROK: gettext_noop("Półmrok na polu %(field)s: −%(n)s"),
    Darkness.CIEMNOSC: gettext_noop("Ciemność na polu %(field)s: −%(n)s"),
    Darkness.CALKOWITA_CIEMNOSC: gettext_noop("Całkowita ciemność na polu %(field)s: −%(n)s"),
}


@dataclass(frozen=True)
class Note:
    """A modifier derived from the map, with the preview's note (msgid and values)."""

    modifier: Modifier
    text: str
    params: dict[str, Any]


def on_map(state: EncounterState, c: Combatant) -> bool:
    """The encounter has a map and this character's token stands on it."""
    return state.battlemap is not None and c.position is not None


def difficult(state: EncounterState) -> frozenset[Field]:
    """Trudny Teren: the map's difficult fields and the GM's own (SetEnvironment)."""
    m = state.battlemap
    if m is None:
        return state.difficult_terrain
    return state.difficult_terrain | frozenset(m.difficult)


def field_label(state: EncounterState, f: Field) -> str:
    """A field as players name it: "C7" on a map, "(x, y)" without one."""
    return label(f) if state.battlemap is not None else str(f)


def occupied(state: EncounterState, *, besides: str | None = None) -> frozenset[Field]:
    """Fields tokens stand on (the dead's too: a body lies there)."""
    return frozenset(
        c.position for c in state.combatants.values() if c.position is not None and c.id != besides
    )


def unseen(state: EncounterState, mover: Combatant) -> dict[Field, Combatant]:
    """The tokens `mover` cannot see, by field: a player's character sees no hidden one (its
    player does not), the GM's creatures see every one (the GM does). A move neither avoids
    nor is refused by them: it stops where it meets one (`movement.move`)."""
    if mover.controller is None:
        return {}
    return {
        c.position: c
        for c in state.combatants.values()
        if c.hidden and c.id != mover.id and c.position is not None and c.status != "dead"
    }


def check_field(m: BattleMap, f: Field) -> None:
    """A token may stand here: on the map, neither wall nor obstacle."""
    if not m.inside(f):
        raise RuleViolation(
            "poza_mapa", gettext_noop("Pole %(field)s jest poza mapą."), field=label(f)
        )
    if m.wall(f):
        raise RuleViolation(
            "sciana", gettext_noop("Na polu %(field)s jest ściana."), field=label(f)
        )
    if m.obstacle(f):
        raise RuleViolation(
            "przeszkoda", gettext_noop("Na polu %(field)s jest przeszkoda."), field=label(f)
        )


# --- Ciemność ---------------------------------------------------------------------------------


def darkness_at(
    state: EncounterState, fields: Iterable[Field | None]
) -> tuple[Darkness, Field | None]:
    """The darker of the table's lighting and the map's darkest level on `fields`, and the
    field that made it darker (None when the table's lighting rules)."""
    level, where = LEVELS.index(state.darkness), None
    m = state.battlemap
    if m is not None:
        for f in fields:
            if f is not None and m.darkness(f) > level:
                level, where = m.darkness(f), f
    return LEVELS[level], where


def darkness_notes(state: EncounterState, fields: Iterable[Field | None]) -> list[Note]:
    """The darkness penalty for a test made over `fields`, with its reason (the field's name
    when the map's darkness is what counts)."""
    level, where = darkness_at(state, fields)
    if level == Darkness.SWIATLO:
        return []
    n = state.settings.darkness_penalties[LEVELS.index(level) - 1]
    name = _DARKNESS_LABELS[level]
    if where is None:
        return [Note(Modifier(-n, name), "", {})]
    reason = f"{name} (pole {label(where)})"
    return [Note(Modifier(-n, reason), DARKNESS_NOTES[level], {"field": label(where), "n": n})]


# --- Widoczność -------------------------------------------------------------------------------


def sight(state: EncounterState, attacker: Combatant, target: Combatant) -> battlemap.Sight | None:
    """The line from the attacker's field to the target's; None off the map. A body the
    attacker cannot see (`unseen`) is not on it: a player's shot is neither screened by a
    hidden token nor tells where one stands (DEFAULT, as a route is drawn)."""
    m = state.battlemap
    if m is None or attacker.position is None or target.position is None:
        return None
    hidden = unseen(state, attacker)
    bodies = {
        c.position: c.id
        for c in state.combatants.values()
        if c.position is not None
        and c.id not in (attacker.id, target.id)
        and c.status != "dead"
        and c.position not in hidden
    }
    return battlemap.sight(m, attacker.position, target.position, bodies)


def require_sight(state: EncounterState, attacker: Combatant, target: Combatant) -> None:
    """A ranged attack must see its target: a wall on the line refuses it."""
    seen = sight(state, attacker, target)
    if seen is not None and seen.blocked:
        raise RuleViolation(
            "linia_wzroku",
            gettext_noop("Ściana zasłania cel (%(name)s): atak dystansowy wymaga widzenia celu."),
            name=target.name,
        )


def cover(state: EncounterState, attacker: Combatant, target: Combatant) -> Note | None:
    """−3 dice (the table's `ranged_cover_penalty`) when a character or an obstacle stands on
    the line to the target, naming the first one; None when the line is clear or off the map.
    A hidden character screens the GM's creatures' shots too, unnamed (the log is public)."""
    seen = sight(state, attacker, target)
    if seen is None or not seen.screened:
        return None
    n = state.settings.ranged_cover_penalty
    if seen.bodies:
        who = state.get(seen.bodies[0])
        if who.hidden:
            text = gettext_noop("Cel zasłonięty przez kogoś na linii strzału: −%(n)s")
            return Note(Modifier(-n, gettext_noop("Cel zasłonięty")), text, {"n": n})
        text = gettext_noop("Cel zasłonięty przez %(who)s: −%(n)s")
        return Note(
            Modifier(-n, f"Cel zasłonięty przez {who.name}"), text, {"who": who.name, "n": n}
        )
    where = label(seen.obstacles[0])
    text = gettext_noop("Cel za przeszkodą (pole %(field)s): −%(n)s")
    return Note(Modifier(-n, f"Cel za przeszkodą ({where})"), text, {"field": where, "n": n})


# --- Wymuszone Poruszanie ---------------------------------------------------------------------


def push_walls(state: EncounterState) -> frozenset[Field]:
    """What stops a pushed body: the map's walls and obstacles and the ring just past its edge
    (a push never leaves the map)."""
    m = state.battlemap
    if m is None:
        return frozenset()
    ring = {(x, y) for x in range(-1, m.width + 1) for y in (-1, m.height)}
    ring |= {(x, y) for x in (-1, m.width) for y in range(-1, m.height + 1)}
    return frozenset(m.walls) | frozenset(m.obstacles) | ring
