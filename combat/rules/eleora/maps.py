"""A Ruch shown on the battle map before it is made: the path to a field, what it costs,
whether the rules allow it (and why not), what it brings about, and the `Move` command that
confirming sends (`RouteView`).

The move modes a character may use now: Ruch (3 m), Szarża (a Ruch in a straight line),
Bieg and Szarża biegiem (3 m + 1 m per Bieganie success), Akrobatyka (on Trudny Teren, 3 m +
1 m per przebicie against 2), Jazda (the pace set by Sterowanie). Powalony: only Ruch, 1 m;
Unieruchomiony: none.

Fields: an enemy's is closed; an ally's may be crossed only with its Przepuszczenie (granted
before, a reaction), a body on the ground may be stepped over; no move ends on anyone.
Trudny Teren costs 2 m a field. The search is an A* bounded by what the mode allows, so a
preview stays cheap on the biggest map (60 × 60); a field farther away is searched with a
capped budget and shown as too far.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from typing import Any

from combat.rules.base import Names, RouteView, RuleViolation, gettext_noop
from combat.rules.battlemap import BattleMap, Field, label, lifted
from combat.rules.dice import pool_size
from combat.rules.eleora import grid
from combat.rules.eleora.attack import skill_pool
from combat.rules.eleora.commands import Move, MoveMode, command_to_dict
from combat.rules.eleora.engine import decide, space
from combat.rules.eleora.engine.common import reaction_refusal
from combat.rules.eleora.state import Combatant, EncounterState
from combat.rules.seeded import SeededRNG

# key -> (label msgid, Move.mode, Szarża)
MODES: dict[str, tuple[str, MoveMode, bool]] = {
    "ruch": (gettext_noop("Ruch"), "ruch", False),
    "szarza": (gettext_noop("Szarża"), "ruch", True),
    "bieg": (gettext_noop("Bieg"), "bieg", False),
    "szarza_bieg": (gettext_noop("Szarża biegiem"), "bieg", True),
    "akrobatyka": (gettext_noop("Akrobatyka"), "akrobatyka", False),
    "jazda": (gettext_noop("Jazda"), "jazda", False),
}
COST = gettext_noop("%(used)s m z %(left)s m")
COST_ROLLED = gettext_noop("%(used)s m z %(left)s–%(most)s m (zależnie od testu)")
SEARCH_CAP = 120  # fields a search past the mode's reach may expand before giving up


def modes(state: EncounterState, c: Combatant) -> tuple[tuple[str, str], ...]:
    """(key, msgid) of the move modes this character may use now."""
    if c.has("unieruchomienie"):
        return ()
    if c.has("powalenie"):
        return (("ruch", MODES["ruch"][0]),)
    keys = ["ruch", "szarza", "bieg", "szarza_bieg", "akrobatyka"]
    if c.mounted and c.steered:
        keys.append("jazda")
    return tuple((k, MODES[k][0]) for k in keys)


def route(
    state: EncounterState,
    actor: str,
    to: Field,
    mode: str,
    now: float,
    *,
    unseen: Iterable[str] = (),
) -> RouteView:
    """The move of `actor` to `to` in `mode` ("" for the first it may use), drawn as if the
    tokens of the `unseen` seats were not there (the move stops where it meets one)."""
    m = state.battlemap
    if m is None:
        raise RuleViolation("brak_mapy", gettext_noop("To starcie nie ma mapy."))
    c = state.get(actor)
    whole, state = state, lifted(state, frozenset(unseen) - {c.id})
    if c.position is None:
        raise RuleViolation("bez_pozycji", gettext_noop("%(name)s nie stoi na mapie."), name=c.name)
    start, to = c.position, (int(to[0]), int(to[1]))
    offered = modes(state, c)
    base: dict[str, Any] = {"actor": c.id, "modes": offered}
    if not offered:
        return _refused(base, (start,), gettext_noop("Unieruchomienie: nie możesz się poruszyć."))
    key = mode or offered[0][0]
    if key not in dict(offered):
        return _refused(
            {**base, "mode": key},
            (start,),
            gettext_noop("Tego sposobu ruchu nie można teraz użyć."),
        )
    base["mode"] = key
    _, move_mode, charge = MODES[key]
    sure, most = _budget(state, c, move_mode)
    refusal = _target_refusal(state, m, c, to)
    if refusal is not None:
        return _refused(base, (start, to), refusal.template, refusal.params)
    rough = space.difficult(state)
    found = _charge_path(state, m, c, to, rough) if charge else _walk_path(state, m, c, to, most)
    if isinstance(found, RuleViolation):
        return _refused(base, (start,), found.template, found.params)
    path, used, why = found
    cost, cost_params = _cost(used, sure, most)
    view = {**base, "cost": cost, "cost_params": cost_params}
    if why is not None:
        return _refused(view, path, why.template, why.params)
    if used > most:
        return _refused(
            view,
            path,
            gettext_noop("Za daleko: ten Ruch pozwala na %(allowed)s m, trasa to %(metres)s m."),
            {"allowed": most, "metres": used},
        )
    command = Move(actor=c.id, mode=move_mode, path=path, charge=charge, now=now)
    try:
        decide(whole, command, SeededRNG(0))  # every other check the move itself makes
    except RuleViolation as refused:
        return _refused(view, path, refused.template, refused.params)
    return RouteView(
        path=path,
        allowed=True,
        notes=_notes(state, c, path, move_mode, charge, sure, used),
        command=command_to_dict(command),
        **view,
    )


def _refused(
    view: Mapping[str, Any],
    path: tuple[Field, ...],
    reason: str,
    params: Mapping[str, Any] | None = None,
) -> RouteView:
    return RouteView(
        path=path, allowed=False, reason=reason, reason_params=dict(params or {}), **view
    )


def _budget(state: EncounterState, c: Combatant, mode: MoveMode) -> tuple[int, int]:
    """(metres sure, metres at most) one Ruch in this mode gives."""
    s = state.settings
    if mode == "ruch":
        metres = grid.movement_allowance(s, prone=c.has("powalenie"))
        return metres, metres
    if mode == "jazda":
        return c.mount_pace, c.mount_pace
    skill = "bieganie" if mode == "bieg" else "akrobatyka"
    dice = pool_size(skill_pool(state, c, skill))
    extra = dice if mode == "bieg" else max(0, dice - 2)
    return s.base_movement, s.base_movement + extra


def _cost(used: int, sure: int, most: int) -> tuple[str, dict[str, int]]:
    if sure == most:
        return COST, {"used": used, "left": sure}
    return COST_ROLLED, {"used": used, "left": sure, "most": most}


def _target_refusal(
    state: EncounterState, m: BattleMap, c: Combatant, to: Field
) -> RuleViolation | None:
    if to == c.position:
        return RuleViolation("tu_stoisz", gettext_noop("%(name)s już tu stoi."), name=c.name)
    try:
        space.check_field(m, to)
    except RuleViolation as refused:
        return refused
    for other in state.combatants.values():
        if other.id != c.id and other.position == to and other.status != "dead":
            return RuleViolation(
                "zajete",
                gettext_noop("Pole %(square)s zajmuje %(name)s."),
                square=label(to),
                name=Names.of(other),  # a token the asker sees (`unseen` are lifted)
            )
    return None


def _sides(
    state: EncounterState, c: Combatant
) -> tuple[set[Field], set[Field], dict[Field, Combatant]]:
    """(closed: enemies standing, crossable: allies letting it pass and bodies on the ground,
    ask: allies it may cross only with their Przepuszczenie)."""
    closed: set[Field] = set()
    through: set[Field] = set()
    ask: dict[Field, Combatant] = {}
    for other in state.combatants.values():
        f = other.position
        if other.id == c.id or f is None or other.status == "dead":
            continue
        if not other.conscious:
            through.add(f)
        elif other.side != c.side:
            closed.add(f)
        elif c.id in other.let_pass:
            through.add(f)
        else:
            ask[f] = other
    return closed, through, ask


Found = tuple[tuple[Field, ...], int, RuleViolation | None]


def _walk_path(
    state: EncounterState, m: BattleMap, c: Combatant, to: Field, most: int
) -> Found | RuleViolation:
    """The cheapest path: within reach if there is one; else the one through an ally that
    must let it pass; else the cheapest at all (shown as too far); else no way."""
    assert c.position is not None
    start = c.position
    rough = space.difficult(state)
    closed, through, ask = _sides(state, c)
    asked = set(ask)
    found = _search(m, rough, start, to, closed | asked, through, most)
    if found is not None:
        return found[0], found[1], None
    found = _search(m, rough, start, to, closed, through | asked, most)
    if found is not None:
        who = next(ask[f] for f in found[0] if f in ask)
        return found[0], found[1], _needs_pass(who)
    found = _search(m, rough, start, to, closed | asked, through, None)
    if found is not None:
        return found[0], found[1], None
    if m.distance(start, to) > most:
        return RuleViolation(
            "za_daleko",
            gettext_noop("Za daleko: ten Ruch pozwala na %(allowed)s m."),
            allowed=most,
        )
    return RuleViolation(
        "brak_drogi",
        gettext_noop("Nie ma drogi na pole %(field)s w zasięgu tego ruchu."),
        field=label(to),
    )


def _needs_pass(who: Combatant) -> RuleViolation:
    return RuleViolation(
        "przepuszczenie",
        gettext_noop("Przejście przez pole postaci %(name)s wymaga jej Przepuszczenia (reakcja)."),
        name=who.name,
    )


def _charge_path(
    state: EncounterState, m: BattleMap, c: Combatant, to: Field, rough: frozenset[Field]
) -> Found | RuleViolation:
    """Szarża: the straight line to `to` (a row, a column or a diagonal), field by field."""
    assert c.position is not None
    line = m.straight(c.position, to)
    if line is None:
        return RuleViolation(
            "szarza_nie_prosto",
            gettext_noop("Szarża tylko w linii prostej (rząd, kolumna lub przekątna)."),
        )
    closed, through, ask = _sides(state, c)
    used = 0
    for f in line[1:]:
        used += 2 if f in rough else 1
        if not m.passable(f):
            return (
                line,
                used,
                RuleViolation(
                    "sciana", gettext_noop("Pole %(field)s jest zablokowane."), field=label(f)
                ),
            )
        if f in closed:
            return line, used, RuleViolation(
                "zajete", gettext_noop("Nie można przejść przez pole wroga (%(name)s)."),
                name=_at(state, f).name,
            )  # fmt: skip
        if f in ask:
            return line, used, _needs_pass(ask[f])
    if c.charge_step is not None and grid.path_step(line) != c.charge_step:
        return (
            line,
            used,
            RuleViolation(
                "szarza_nie_prosto",
                gettext_noop(
                    "Szarża: kolejny Ruch w tej turze musi biec dalej w tej samej linii prostej."
                ),
            ),
        )
    return line, used, None


def _at(state: EncounterState, f: Field) -> Combatant:
    return next(o for o in state.combatants.values() if o.position == f and o.status != "dead")


def _search(
    m: BattleMap,
    rough: frozenset[Field],
    start: Field,
    goal: Field,
    closed: set[Field],
    through: set[Field],
    limit: int | None,
) -> tuple[tuple[Field, ...], int] | None:
    """A* over passable fields (diagonal steps allowed, Trudny Teren 2): the cheapest path and
    its metres, within `limit` metres (None: any, but at most SEARCH_CAP fields expanded).
    Ties go to the fewest steps, then to the neighbour first in the grid's fixed order."""
    if goal in closed or goal in through:
        return None

    def h(f: Field) -> int:
        return max(abs(f[0] - goal[0]), abs(f[1] - goal[1]))

    if limit is not None and h(start) > limit:
        return None
    best: dict[Field, tuple[int, int]] = {start: (0, 0)}
    came: dict[Field, Field] = {}
    # Equal estimates go to the field nearer the goal: the search runs straight at it.
    heap: list[tuple[int, int, int, int, int, Field]] = [(h(start), h(start), 0, 0, 0, start)]
    order = expanded = 0
    while heap:
        _, _, cost, steps, _, f = heapq.heappop(heap)
        if f == goal:
            path = [goal]
            while path[-1] != start:
                path.append(came[path[-1]])
            return tuple(reversed(path)), cost
        if best[f] < (cost, steps):
            continue
        expanded += 1
        if limit is None and expanded > SEARCH_CAP:
            return None
        for n in m.neighbours(f):
            if n in closed or not m.passable(n):
                continue
            score = (cost + (2 if n in rough else 1), steps + 1)
            if limit is not None and score[0] + h(n) > limit:
                continue
            if score < best.get(n, (1 << 30, 0)):
                best[n], came[n] = score, f
                order += 1
                rest = h(n)
                heapq.heappush(heap, (score[0] + rest, rest, *score, order, n))
    return None


def _notes(
    state: EncounterState,
    c: Combatant,
    path: tuple[Field, ...],
    mode: MoveMode,
    charge: bool,
    sure: int,
    used: int,
) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    """What the move brings about: the Szarża's dice, a test's risk (a critical failure gives
    enemies in reach an Atak okazyjny: the document's only movement trigger), a roll deciding
    the last metres, Trudny Teren crossed."""
    notes: list[tuple[str, Mapping[str, Any]]] = []
    s = state.settings
    if charge:
        leg = len(path) - 1
        bonus = (c.charge_metres + leg) // 2
        if s.charge_cap is not None:
            bonus = min(bonus, s.charge_cap)
        notes.append(
            (gettext_noop("Szarża: +%(bonus)s do następnego ataku w tej turze"), {"bonus": bonus})
        )
    if mode in ("bieg", "akrobatyka"):
        who = [
            e.name
            for e in state.enemies_of(c.id)
            if not e.hidden
            and e.position is not None
            and c.position is not None
            and grid.adjacent(e.position, c.position)
            and reaction_refusal(e) is None
        ]
        if who:
            notes.append(
                (
                    gettext_noop("Atak okazyjny: %(who)s (przy krytycznej porażce testu)"),
                    {"who": ", ".join(who)},
                )
            )
    if used > sure:
        notes.append(
            (
                gettext_noop(
                    "Ponad %(sure)s m tylko z sukcesami testu: "
                    "postać dojdzie tak daleko, jak pozwoli rzut."
                ),
                {"sure": sure},
            )
        )
    rough = space.difficult(state)
    crossed = sum(1 for f in path[1:] if f in rough)
    if crossed:
        notes.append((gettext_noop("Trudny Teren: %(n)s pól po 2 m"), {"n": crossed}))
    return tuple(notes)
