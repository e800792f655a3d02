"""The d100 battle map as the table asks for it (`base.BattleMaps`): the map's spec, the GM's
commands for an edit and a token, and a move's preview (`route`) whose `command` is exactly
the `Move` that confirming sends: the engine decides that command to tell whether it may be
made, so the preview and the move never disagree.

Square fields of 1 m, no darkness (the seed has no darkness rule). A step costs one field
wherever it goes (the seed has no difficult terrain); nothing about an attack is read from
the map (the seed has no reach, range or cover rule): see `engine.space`.
"""

from __future__ import annotations

from collections.abc import Iterable

from combat.rules import battlemap
from combat.rules.base import MapSpec, RouteView, RuleViolation, gettext_noop
from combat.rules.battlemap import BattleMap, Field
from combat.rules.d100 import codec, engine
from combat.rules.d100.commands import Move
from combat.rules.d100.engine import space
from combat.rules.d100.engine.common import combatant
from combat.rules.d100.state import EncounterState

SPEC = MapSpec(geometry=space.GEOMETRY, metres=space.METRES, darkness=())
MODE = "ruch"
MODES: tuple[tuple[str, str], ...] = ((MODE, gettext_noop("Ruch")),)
COST = gettext_noop("%(used)d m z %(left)d m")


def map_spec() -> MapSpec:
    return SPEC


def route(
    state: EncounterState,
    actor: str,
    to: tuple[int, int],
    mode: str,
    now: float,
    *,
    unseen: Iterable[str] = (),
) -> RouteView:
    """`actor`'s walk to `to`: the cheapest path around walls, obstacles and enemies (allies
    and the fallen may be crossed), its cost against what is left this turn, and whether the
    engine takes it; RuleViolation without a map or a token. The `unseen` seats' tokens are
    not on the map it is drawn on (the move stops where it meets one: `space.ambush`)."""
    m = space.require_map(state)
    me = combatant(state, actor)
    whole, state = state, battlemap.lifted(state, frozenset(unseen) - {me.id})
    start = space.require_token(me)
    if mode not in ("", MODE):
        raise RuleViolation("tryb_ruchu", gettext_noop("Nieznany tryb ruchu: %(mode)s."), mode=mode)
    goal: Field = (to[0], to[1])
    left = space.left(state, me)
    found = battlemap.route(
        space.flat(m),
        start,
        goal,
        closed=space.closed_fields(state, me),
        no_stop=space.pass_fields(state, me),
    )
    if found is None:
        why = _no_way(state, m, me.id, goal)
        return RouteView(
            actor=me.id,
            path=(start,),
            allowed=False,
            reason=why.template,
            reason_params=dict(why.params),
            modes=MODES,
            mode=MODE,
        )
    command = Move(actor=me.id, path=found.path, now=now)
    refused = engine.refusal(whole, command)
    return RouteView(
        actor=me.id,
        path=found.path,
        allowed=refused is None,
        cost=COST,
        cost_params={"used": found.cost * m.metres, "left": left * m.metres},
        reason=refused.template if refused else "",
        reason_params=dict(refused.params) if refused else {},
        modes=MODES,
        mode=MODE,
        command=codec.command_to_dict(command),
    )


def _no_way(state: EncounterState, m: BattleMap, who: str, goal: Field) -> RuleViolation:
    """Why no path leads to `goal`: off the map, blocked, taken, or walled off."""
    try:
        space.check_field(state, m, goal, who)
    except RuleViolation as refused:
        return refused
    return RuleViolation(
        "brak_drogi",
        gettext_noop("Nie ma drogi na pole %(field)s."),
        field=space.label(goal),
    )
