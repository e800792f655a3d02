"""The battle map in the Magus rules: hexes of 2 m (`combat.rules.battlemap`), the GM's map
edits and token placing, paths of movement, and the rules read from positions.

Positions: a combatant's `position` is its hex `(column, row)` while the encounter has a map;
a position of another shape, or none, is off the map and the rules fall back to metres.

Rules from positions (the digest is silent on the geometry; these are the DEFAULTS):
- Melee reach: a close-combat attack (weapon of Broń Biała, unarmed) needs the target on an
  adjacent hex. Missile and thrown weapons and spells have no reach check here.
- Movement: through and onto free hexes; a conscious enemy's hex is closed, a friend's (or
  a fallen body's) may be crossed but not ended on; difficult terrain costs 2 hexes of
  movement ("warunki terenowe mogą mieć wpływ"); 2 m a hex against the Movement Rate.
- Atak z tyłu (a close-combat attack; there is no facing on the map): the attacker stands
  on the hex opposite (`battlemap.opposite`) a hex from which another conscious enemy of the
  target engages it in melee (adjacent to it), or on a hex next to that opposite hex — the
  three hexes "behind" the target as its foe sees it. On the map this replaces the
  attacker's own `blindside` flag; a ranged attack keeps the flag (no facing to read).
- Otoczony from positions: `harried_attackers` (ED: 4) or more conscious enemies on hexes
  adjacent to the target: it counts as Otoczony for its defences against this attack.
- Oddawanie pola on the map: a close-combat attack from an adjacent attacker makes the
  defender give its declared ground (ground // 2 hexes) in a straight line away from the
  attacker; if a hex of that line is off the map, blocked or taken, it cannot give ground
  and gets no Oddawanie pola bonus against this attack.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from combat.rules import battlemap as bm
from combat.rules import vocabulary
from combat.rules.base import Names, RuleViolation, gettext_noop
from combat.rules.magus import conditions as cond
from combat.rules.magus import options as opt
from combat.rules.magus.commands import EditMap, PlaceCombatant
from combat.rules.magus.engine.common import combatant, movement_limit
from combat.rules.magus.events import CombatantPlaced, Event
from combat.rules.magus.sheet import CLOSE_COMBAT, Weapon
from combat.rules.magus.state import Combatant, EncounterState

GEOMETRY: bm.Geometry = "hex"
METRES = 2  # metres a hex
Note = tuple[str, Mapping[str, str | int]]


def field_of(c: Combatant) -> bm.Field | None:
    """The hex a combatant's position names, or None (off the map)."""
    p = c.position
    if p is None or len(p) != 2:
        return None
    return (p[0], p[1])


def on_map(state: EncounterState, c: Combatant) -> bm.Field | None:
    """`c`'s hex when the encounter has a map and `c` stands on it."""
    return field_of(c) if state.battlemap is not None else None


def tokens(state: EncounterState, but: str = "") -> dict[bm.Field, Combatant]:
    """Who stands on which hex (leaving out `but`)."""
    out: dict[bm.Field, Combatant] = {}
    for c in state.combatants.values():
        f = field_of(c)
        if f is not None and c.id != but:
            out.setdefault(f, c)
    return out


def blocks(me: Combatant, other: Combatant) -> bool:
    """Whether `other`'s hex is closed to `me`: a conscious enemy's."""
    return other.side != me.side and not other.out


def closed_and_through(state: EncounterState, me: Combatant) -> tuple[set[bm.Field], set[bm.Field]]:
    """The hexes `me` may not enter (conscious enemies') and may cross but not end on."""
    closed: set[bm.Field] = set()
    through: set[bm.Field] = set()
    for f, other in tokens(state, me.id).items():
        (closed if blocks(me, other) else through).add(f)
    return closed, through


# --- the GM -----------------------------------------------------------------------------------


def edit_map(state: EncounterState, command: EditMap) -> list[Event]:
    occupied = tokens(state) if state.battlemap is not None else {}
    return vocabulary.edit_map(state.battlemap, command, occupied)


def place(state: EncounterState, command: PlaceCombatant) -> list[Event]:
    c = combatant(state, command.target)
    to = command.to
    if to is None:
        return [CombatantPlaced(c.id, None)]
    m = state.battlemap
    if m is None:
        raise RuleViolation("brak_mapy", gettext_noop("To starcie nie ma mapy."))
    if not m.inside(to):
        raise RuleViolation(
            "poza_mapa", gettext_noop("Pole %(field)s jest poza mapą."), field=bm.label(to)
        )
    if not m.passable(to):
        raise RuleViolation(
            "sciana", gettext_noop("Pole %(field)s jest zablokowane."), field=bm.label(to)
        )
    other = tokens(state, c.id).get(to)
    if other is not None:
        raise RuleViolation(
            "zajete",
            gettext_noop("Pole %(field)s zajmuje %(name)s."),
            field=bm.label(to),
            name=Names.of(other),
        )
    return [CombatantPlaced(c.id, to)]


# --- movement ---------------------------------------------------------------------------------


def move_path(
    state: EncounterState, me: Combatant, path: tuple[bm.Field, ...], metres: int
) -> tuple[tuple[bm.Field, ...], int]:
    """The checked path (start first) and its metres; off the map: () and `metres`."""
    start = on_map(state, me)
    if start is None:
        if path:
            raise RuleViolation(
                "bez_mapy",
                gettext_noop("%(name)s nie stoi na mapie: podaj tylko metry."),
                name=me.name,
            )
        return (), metres
    m = state.battlemap
    assert m is not None
    if not path:
        raise RuleViolation("trasa", gettext_noop("Na mapie: wskaż heks, na który idziesz."))
    full = tuple(path) if tuple(path[0]) == start else (start, *path)
    if len(full) < 2:
        raise RuleViolation("metry", gettext_noop("Ruch: co najmniej 1 heks."))
    cost = bm.path_cost(m, full)
    standing = tokens(state, me.id)
    hidden = unseen(state, me)  # not checked: the move stops where it meets one (`ambush`)
    for f in full[1:]:
        other = standing.get(f)
        if other is None or f in hidden:
            continue
        if blocks(me, other):
            raise RuleViolation(
                "przez_wroga",
                gettext_noop("Na polu %(field)s stoi wróg: nie można przez nie przejść."),
                field=bm.label(f),
            )
        if f == full[-1]:
            raise RuleViolation(
                "zajete_koniec",
                gettext_noop("Na polu %(field)s ktoś stoi: tam nie można zakończyć ruchu."),
                field=bm.label(f),
            )
    return full, cost * m.metres


def unseen(state: EncounterState, me: Combatant) -> dict[bm.Field, Combatant]:
    """The tokens `me` cannot see, by hex: a player's character sees no hidden one (its
    player does not), the GM's combatants see every one (the GM does)."""
    if me.controller is None or state.battlemap is None:
        return {}
    return {f: c for f, c in tokens(state, me.id).items() if c.hidden}


def ambush(
    state: EncounterState, me: Combatant, path: tuple[bm.Field, ...]
) -> tuple[tuple[bm.Field, ...], Combatant | None]:
    """A move that runs into a token `me` cannot see stops on the last hex before it that it
    may stand on, and that token is revealed (DEFAULT: the digest has no rule for it; the
    move is the round's one all the same). The whole path and None when it meets no one."""
    hidden = unseen(state, me)
    if not hidden or len(path) < 2:
        return path, None
    crossed = [f for f, c in tokens(state, me.id).items() if f not in hidden]
    walked, hit = bm.walk_until(path, hidden, crossed)
    return walked, None if hit is None else hidden[hit]


def path_metres(state: EncounterState, path: tuple[bm.Field, ...]) -> int:
    """Metres a checked path on the map walks."""
    m = state.battlemap
    assert m is not None
    return bm.path_cost(m, path) * m.metres


def towards(
    state: EncounterState, me: Combatant, target: Combatant, weapon: Weapon
) -> tuple[bm.Field, ...]:
    """A GM-run fighter's walk towards a target out of melee reach (its path, start first):
    to the reachable free hex nearest the target (the cheapest, then the first, on a tie);
    () when it need not or cannot move (on the map both, a melee weapon, no move yet)."""
    a, t, m = on_map(state, me), on_map(state, target), state.battlemap
    if a is None or t is None or m is None or not close_combat(weapon) or me.moves:
        return ()
    if m.adjacent(a, t) or opt.PRZYCELOWANIE in me.options:
        return ()
    closed, through = closed_and_through(state, me)
    budget = (movement_limit(state, me) - me.moved) // m.metres
    ends = bm.reachable(m, a, budget, closed=closed, no_stop=through)
    goal = min(ends, key=lambda f: (m.distance(f, t), ends[f], f[1], f[0]))
    if goal == a:
        return ()
    found = bm.route(m, a, goal, closed=closed, no_stop=through)
    return found.path if found is not None else ()


# --- attacks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What the map says about one attack: Atak z tyłu (None: the map cannot tell), how many
    enemies stand next to the target (Otoczony), the hexes of Oddawanie pola (None: no such
    move; () : blocked) and the notes telling why."""

    blindside: bool | None = None
    harried_by: int = 0
    harried: bool = False
    ground: tuple[bm.Field, ...] | None = None
    notes: tuple[Note, ...] = ()


def close_combat(weapon: Weapon | None) -> bool:
    return weapon is not None and weapon.kind in CLOSE_COMBAT


def attack_facts(
    state: EncounterState, me: Combatant, target: Combatant, weapon: Weapon | None
) -> Facts:
    """The rules of this attack read from positions (both on the map), or `Facts()`;
    RuleViolation for a close-combat attack out of reach."""
    a, t = on_map(state, me), on_map(state, target)
    m = state.battlemap
    if a is None or t is None or m is None or not close_combat(weapon):
        return Facts()
    if not m.adjacent(a, t):
        raise RuleViolation(
            "zasieg",
            gettext_noop("%(target)s jest poza zasięgiem walki wręcz: %(n)s heksów."),
            target=target.name,
            n=m.distance(a, t),
        )
    notes: list[Note] = []
    engaging = [
        (f, c)
        for f, c in tokens(state, me.id).items()
        if c.id != target.id and c.side != target.side and not c.out and m.adjacent(f, t)
    ]
    behind = next(
        (c for f, c in engaging if a == m.opposite(t, f) or m.adjacent(a, m.opposite(t, f))), None
    )
    if behind is not None:
        notes.append(
            (
                gettext_noop("Atak z tyłu: %(target)s walczy z %(ally)s po przeciwnej stronie."),
                {"target": target.name, "ally": behind.name},
            )
        )
    harried_by = 1 + len(engaging)
    many = state.settings.harried_attackers
    harried = bool(many) and harried_by >= many and not target.has(cond.OTOCZONY)
    if harried:
        notes.append(
            (
                gettext_noop("Otoczony: %(n)s wrogów obok %(target)s."),
                {"n": harried_by, "target": target.name},
            )
        )
    ground = None
    if opt.ODDAWANIE in target.options and target.declaration is not None:
        ground = retreat(state, target, a, t, target.declaration.ground // 2)
        if ground:
            notes.append(
                (
                    gettext_noop("Oddawanie pola: %(target)s cofa się o %(n)s heksów."),
                    {"target": target.name, "n": len(ground) - 1},
                )
            )
        else:
            notes.append(
                (
                    gettext_noop("Oddawanie pola: %(target)s nie ma gdzie się cofnąć."),
                    {"target": target.name},
                )
            )
    return Facts(behind is not None, harried_by, harried, ground, tuple(notes))


def retreat(
    state: EncounterState, target: Combatant, a: bm.Field, t: bm.Field, hexes: int
) -> tuple[bm.Field, ...]:
    """The straight line of `hexes` hexes from `t` away from `a` (start first), or () when a
    hex of it is off the map, blocked or taken, or the target cannot move."""
    m = state.battlemap
    assert m is not None
    if hexes < 1 or target.out or target.knocked_down:
        return ()
    standing = tokens(state, target.id)
    path, back, here = [t], a, t
    for _ in range(hexes):
        step = m.opposite(here, back)
        if not m.passable(step) or step in standing:
            return ()
        path.append(step)
        back, here = here, step
    return tuple(path)


def harried_part(state: EncounterState, facts: Facts, defence: str) -> list[tuple[str, int]]:
    """Otoczony from positions against a physical or mystic defence."""
    if not facts.harried or defence not in ("obrona_fizyczna", "obrona_magiczna"):
        return []
    return [(cond.SPECS[cond.OTOCZONY].label, -state.settings.harried_penalty)]
