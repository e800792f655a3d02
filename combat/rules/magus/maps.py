"""The Magus side of the battle map (`combat.rules.base.BattleMaps`): hexes of 2 m, the GM's
map and token commands, and the preview of a move before it is confirmed.

A route is the cheapest path (`battlemap.route`: conscious enemies' hexes closed, everyone
else's crossable but not ended on, difficult terrain 2 hexes of movement) and the `Move`
that confirming sends; whether it is allowed is the engine's own answer to that command.
"""

from __future__ import annotations

from collections.abc import Iterable

from combat.rules import battlemap as bm
from combat.rules.base import MapSpec, RouteView, RuleViolation, gettext_noop
from combat.rules.magus import codec, engine
from combat.rules.magus import options as opt
from combat.rules.magus.commands import Move
from combat.rules.magus.engine import space
from combat.rules.magus.engine.common import combatant, movement_limit, running, walking_limit
from combat.rules.magus.state import EncounterState
from combat.rules.magus.surprise import DARKNESS

# The darkness levels of the map: §7's DEFAULT (ED, optional): partial, full, complete
# (`darkness_steps` off sight-based tests), named as the surprise test names them.
DARKNESS_LEVELS: tuple[str, ...] = tuple(label for key, label in DARKNESS if key != "none")
MODES = {"ruch": gettext_noop("Ruch"), "bieg": gettext_noop("Bieg")}


def map_spec() -> MapSpec:
    return MapSpec(
        geometry=space.GEOMETRY, metres=space.METRES, width=20, height=15,
        darkness=DARKNESS_LEVELS,
    )  # fmt: skip


def route(
    state: EncounterState,
    actor: str,
    to: bm.Field,
    mode: str,
    now: float,
    *,
    unseen: Iterable[str] = (),
) -> RouteView:
    """The move of `actor` to `to`: path, cost against what is left, notes, the command; the
    `unseen` seats' tokens are not on the map it is drawn on (`space.ambush` stops the move
    where it meets one)."""
    m = state.battlemap
    if m is None:
        raise RuleViolation("brak_mapy", gettext_noop("To starcie nie ma mapy."))
    me = combatant(state, actor)
    whole, state = state, bm.lifted(state, frozenset(unseen) - {me.id})
    start = space.field_of(me)
    if start is None:
        raise RuleViolation("bez_pola", gettext_noop("%(name)s nie stoi na mapie."), name=me.name)
    goal = (int(to[0]), int(to[1]))
    key = "bieg" if running(me) else "ruch"
    modes = ((key, MODES[key]),)
    closed, through = space.closed_and_through(state, me)
    found = bm.route(m, start, goal, closed=closed, no_stop=through)
    if found is None:
        return RouteView(
            actor=actor, path=(start,), allowed=False,
            reason=gettext_noop("Nie ma drogi na pole %(field)s."),
            reason_params={"field": bm.label(goal)},
            modes=modes, mode=key,
        )  # fmt: skip
    metres = found.cost * m.metres
    rate = movement_limit(state, me)
    command = Move(actor=actor, now=now, metres=metres, path=found.path)
    refused = engine.refusal(whole, command)
    return RouteView(
        actor=actor,
        path=found.path,
        allowed=refused is None,
        cost=gettext_noop("%(used)s m z %(left)s m"),
        cost_params={"used": metres, "left": max(0, rate - me.moved), "hexes": found.cost},
        reason=refused.template if refused else "",
        reason_params=refused.params if refused else {},
        notes=_notes(state, me.id, found, metres),
        modes=modes,
        mode=key,
        command=codec.command_to_dict(command),
    )


def _notes(
    state: EncounterState, actor: str, found: bm.Route, metres: int
) -> tuple[space.Note, ...]:
    me = state.get(actor)
    m = state.battlemap
    assert m is not None
    notes: list[space.Note] = []
    rough = sum(1 for f in found.path[1:] if m.is_difficult(f))
    if rough:
        text = gettext_noop("Trudny teren: %(n)s heksów liczy się podwójnie.")
        notes.append((text, {"n": rough}))
    if running(me):
        notes.append((gettext_noop("Bieg: zużywa akcję standardową; Otoczony do końca rundy."), {}))
    elif opt.RUCH_DZIELONY in me.options and me.moved + metres >= walking_limit(state, me):
        text = gettext_noop("Ruch dzielony: szybkość ruchu wykorzystana — Otoczony do końca rundy.")
        notes.append((text, {}))
    elif opt.RUCH_DZIELONY in me.options:
        left = walking_limit(state, me) - me.moved - metres
        notes.append(
            (gettext_noop("Ruch dzielony: zostanie %(left)s m na dalszy ruch."), {"left": left})
        )
    if state.settings.initiative_movement:
        notes.append((gettext_noop("Inicjatywa −%(n)s."), {"n": (metres + 1) // 2}))
    return tuple(notes)
