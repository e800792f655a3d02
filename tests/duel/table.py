"""Pojedynek at the live table: the neutral records of `combat.rules.base` (the round, the
order, seats with health), its prompts, the log's lines, the records its own partials read
(tests/duel/templates/combat/rulesets/duel/) and a move's preview on the map.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from combat.rules import battlemap, vocabulary
from combat.rules.base import (
    Counter,
    HealthView,
    LogLine,
    PromptView,
    RollView,
    RouteView,
    RuleViolation,
    SeatView,
    TableView,
    fill,
    gettext_noop,
)
from combat.rules.battlemap import label
from combat.rules.codec import Codec
from tests.duel import engine
from tests.duel import model as d
from tests.duel.model import Duel, Event, Field, Fighter
from tests.duel.sheet import hit_chance

MODES = ((d.WALK, gettext_noop("Chód")), (d.RUN, gettext_noop("Bieg")))
STAGES = {"setup": "setup", "fight": "running", "ended": "ended"}
ROUND = {"setup": gettext_noop("Przygotowanie"), "ended": gettext_noop("Pojedynek zakończony")}
POLICIES = (
    ("ask", gettext_noop("Pytaj MG")),
    ("parry", gettext_noop("zawsze paruj")),
    ("none", gettext_noop("nigdy nie paruj")),
)
ANSWERS = {"parry": d.PARRY, "none": d.NO_REACTION}


def table_view(state: Duel) -> TableView:
    ids = [*state.order, *(cid for cid in state.combatants if cid not in state.order)]
    post = state.by_post and state.stage == "fight"  # all still to act do so at once
    deadline, hours = state.deadline if post else None, state.settings.reminder_hours
    return TableView(
        stage=STAGES[state.stage],  # type: ignore[arg-type]
        round=state.round,
        label=ROUND.get(state.stage, gettext_noop("Runda %(n)d")),
        label_params={"n": state.round},
        seats={cid: _seat(state, state.combatants[cid]) for cid in ids},
        order=tuple(ids),
        current=state.current,
        winner=state.winner,
        acting=state.to_act,
        waiting=state.to_act,
        deadline=deadline,
        pace="post" if post else "live",
        remind_at=deadline - hours * d.HOUR if deadline and hours else None,
    )


def _seat(state: Duel, f: Fighter) -> SeatView:
    mine = state.current == f.id
    left = f.id in state.to_act if state.by_post else not (state.attacked and mine)
    counters = (
        (Counter("atak", gettext_noop("Atak"), int(left), 1),) if state.stage == "fight" else ()
    )
    return SeatView(f.id, f.name, f.side, f.controller, f.hidden, f.revealed, mine, f.initiative,
                    _health(f), counters, ready=True, position=f.position)  # fmt: skip


def _health(f: Fighter) -> HealthView:
    """Numbers, and what those who may not see them see: bez ran, ranny, ciężko ranny."""
    if f.down:
        level, name = "martwy", gettext_noop("Pokonany")
    elif f.damage == 0:
        level, name = "bez_ran", gettext_noop("Bez ran")
    elif 2 * f.life > f.zycie:
        level, name = "ranny", gettext_noop("Ranny")
    else:
        level, name = "ciezko_ranny", gettext_noop("Ciężko ranny")
    out = gettext_noop("pokonany") if f.down else ""
    return HealthView(f.life, f.zycie, level, name, f.down, f.down, out)


# --- the records the partials read (frozen: the table compares them by value) -----------------


@dataclass(frozen=True)
class Ref:  # a fighter as a form lists it
    id: str
    name: str


@dataclass(frozen=True)
class TurnPanel:
    """`why` the actor may not attack: a key the partial words."""

    stage: str
    actor: Ref
    my_turn: bool = False
    can_attack: bool = False
    can_end: bool = False
    why: str = ""
    waiting_for: str | None = None
    targets: tuple[Ref, ...] = ()
    hit_chance: int = 0


@dataclass(frozen=True)
class SeatPanel:
    atak: int
    obrona: int
    parry: int
    hit_chance: int
    weapon_bonus: int


@dataclass(frozen=True)
class GMPanel:
    stage: str
    can_start: bool
    can_end: bool
    sides: tuple[str, ...]


@dataclass(frozen=True)
class GMSeatPanel:
    id: str
    life: int
    maximum: int
    current: bool


@dataclass(frozen=True)
class PromptPanel:
    threshold: int


def turn_panel(state: Duel, actor_id: str, visible: frozenset[str]) -> TurnPanel:
    """Before the fight: nothing to do. In it: whether `actor_id` may attack (whom) or end its
    turn, and why not."""
    me = state.combatants[actor_id]
    if state.stage != "fight":
        return TurnPanel(STAGES[state.stage], Ref(me.id, me.name))
    mine = state.current == actor_id or actor_id in state.to_act
    foes = [f for f in state.combatants.values() if f.id in visible and f.side != me.side]
    targets = tuple(Ref(f.id, f.name) for f in foes if not f.down)
    waiting = state.combatants[state.prompt.defender].name if state.prompt else None
    attacked = state.attacked and not state.by_post
    reasons = (("not_turn", not mine), ("waiting", waiting), ("attacked", attacked))
    why = next((key for key, given in (*reasons, ("no_targets", not targets)) if given), "")
    can_attack, can_end = mine and not why, mine and not waiting
    return TurnPanel("running", Ref(me.id, me.name), mine, can_attack, can_end, why, waiting,
                     targets, hit_chance(me.atak))  # fmt: skip


def seat_panel(state: Duel, seat_id: str, visible: frozenset[str]) -> SeatPanel:
    f = state.combatants[seat_id]
    return SeatPanel(f.atak, f.obrona, f.parry_threshold, hit_chance(f.atak), f.weapon_bonus)


def gm_panel(state: Duel) -> GMPanel:
    """Start the fight (once two sides stand), end it with a winner."""
    standing = {f.side for f in state.combatants.values() if not f.down}
    sides = tuple(sorted({f.side for f in state.combatants.values()}))
    start = state.stage == "setup" and len(standing) >= 2
    return GMPanel(STAGES[state.stage], start, state.stage != "ended", sides)


def gm_seat_panel(state: Duel, seat_id: str) -> GMSeatPanel:
    f = state.combatants[seat_id]
    return GMSeatPanel(f.id, f.life, f.zycie, state.current == f.id)


def prompt_panel(state: Duel, prompt_id: str) -> PromptPanel | None:
    prompt = state.prompt
    if prompt is None or prompt.id != prompt_id:
        return None
    return PromptPanel(state.combatants[prompt.defender].parry_threshold)


# --- prompts -----------------------------------------------------------------------------------


def open_prompts(state: Duel) -> list[PromptView]:
    if (prompt := state.prompt) is None:
        return []
    attacker, defender = state.combatants[prompt.attacker], state.combatants[prompt.defender]
    params = {"attacker": attacker.name, "target": defender.name}
    msgid = gettext_noop("Trafienie: %(attacker)s → %(target)s")
    parry = gettext_noop("Parowanie (k100 ≤ %(threshold)d)")
    options: tuple[tuple[str, str, Any], ...] = (
        (d.PARRY, parry, {"threshold": defender.parry_threshold}),
        (d.NO_REACTION, gettext_noop("Nic"), {}),
    )
    labels = tuple((key, fill(text, values)) for key, text, values in options)
    attack = d.Attack(actor=attacker.id, target=defender.id)
    view = PromptView(prompt.id, "parowanie", defender.id, fill(msgid, params), labels,
                      prompt.deadline, attacker.id, attack, msgid, params, options)  # fmt: skip
    return [view]


def prompt_command(state: Duel, prompt_id: str, option: str, now: float = 0.0) -> d.Answer:
    prompt = engine.open_prompt(state, prompt_id)
    engine.check_option(option)
    return d.Answer(actor=prompt.defender, prompt=prompt.id, option=option, now=now)


def auto_answer(state: Duel, prompt_id: str, policy: str, now: float) -> d.Answer | None:
    if policy not in dict(POLICIES):
        raise ValueError(f"unknown reaction policy: {policy}")
    prompt = state.prompt
    if policy == "ask" or prompt is None or prompt.id != prompt_id:
        return None
    return prompt_command(state, prompt_id, ANSWERS[policy], now)


# --- the log -----------------------------------------------------------------------------------

HIT = gettext_noop(
    "%(attacker)s atakuje: %(target)s, k20 %(face)d + Atak %(bonus)d = %(total)d"
    " ≥ %(need)d, trafienie."
)
MISS = gettext_noop(
    "%(attacker)s atakuje: %(target)s, k20 %(face)d + Atak %(bonus)d = %(total)d < %(need)d, pudło."
)
HELD = gettext_noop("%(name)s paruje: k100 %(face)d ≤ %(threshold)d, atak odparty.")
FAILED = gettext_noop("%(name)s paruje: k100 %(face)d > %(threshold)d, nieudane.")
STRUCK = {  # (falls, expired)
    (False, False): gettext_noop("%(name)s obrywa za %(damage)d."),
    (True, False): gettext_noop("%(name)s obrywa za %(damage)d i pada."),
    (False, True): gettext_noop("Czas minął: %(name)s obrywa za %(damage)d."),
    (True, True): gettext_noop("Czas minął: %(name)s obrywa za %(damage)d i pada."),
}


def describe(state: Duel, event: Event) -> LogLine | None:
    """The log line of an event, told against the state before it."""
    names = {cid: f.name for cid, f in state.combatants.items()}
    match event:
        case d.Joined():
            return vocabulary.joined(state, event)
        case d.HiddenSet():
            return vocabulary.hidden_set(state, event)
        case d.StatsRevealed():
            return vocabulary.stats_revealed(state, event)
        case d.CombatEnded():
            return vocabulary.combat_ended(state, event)
        case d.RoundStarted():
            return _line(gettext_noop("Runda %(n)d: nowa inicjatywa."), "turn", [], n=event.round)
        case d.InitiativeRolled(fighter=who, face=face, bonus=bonus, total=total):
            text = gettext_noop("%(name)s: inicjatywa k20 %(face)d + Atak %(bonus)d = %(total)d.")
            roll = _roll(gettext_noop("Inicjatywa"), face, 20, total, (("Atak", bonus),))
            values: dict[str, Any] = {
                "name": names[who],
                "face": face,
                "bonus": bonus,
                "total": total,
            }
            return _line(text, "roll", [who], (roll,), **values)
        case d.Attacked(attacker=a, target=t, face=face, bonus=bonus):
            roll = _roll(gettext_noop("Atak"), face, 20, face + bonus, (("Atak", bonus),))
            values = {
                "face": face,
                "bonus": bonus,
                "total": face + bonus,
                "need": d.TO_HIT,
            }
            text = HIT if event.hit else MISS
            return _line(
                text, "attack", [a, t], (roll,), attacker=names[a], target=names[t], **values
            )
        case d.Parried(defender=who, face=face, threshold=threshold):
            roll = _roll(gettext_noop("Parowanie"), face, 100, face)
            values = {"name": names[who], "face": face, "threshold": threshold}
            return _line(HELD if event.success else FAILED, "roll", [who], (roll,), **values)
        case d.Struck(target=who, face=face, bonus=bonus, damage=damage):
            text = STRUCK[damage >= state.combatants[who].life, event.expired]
            mods = (("Premia broni", bonus),) if bonus else ()
            roll = _roll(gettext_noop("Obrażenia"), face, 6, damage, mods)
            actors = [who, event.attacker]
            return _line(text, "damage", actors, (roll,), name=names[who], damage=damage)
        case d.TurnEnded(actor=who):
            return _line(gettext_noop("%(name)s kończy turę."), "turn", [who], name=names[who])
        case d.RoundExpired(missed=missed):
            text = gettext_noop("Termin rundy minął; bez akcji: %(names)s.")
            return _line(text, "turn", missed, names=", ".join(names[c] for c in missed) or "–")
        case d.SetLife(target=who, life=life):
            text = gettext_noop("Mistrz Gry ustawia Życie: %(name)s → %(life)d.")
            return _line(text, "gm", [who], secret=True, name=names[who], life=life)
        case d.MapEdited():
            return _line(gettext_noop("Mistrz Gry zmienia mapę."), "gm", [])
        case d.CombatantPlaced(combatant=who, to=None):
            return _line(gettext_noop("%(name)s schodzi z mapy."), "gm", [who], name=names[who])
        case d.CombatantPlaced(combatant=who, to=tuple() as to):
            text = gettext_noop("%(name)s staje na polu %(field)s.")
            return _line(text, "gm", [who], name=names[who], field=label(to))
        case d.Moved(actor=who, path=path, cost=cost):
            text = gettext_noop("%(name)s idzie na pole %(field)s (%(cost)d).")
            return _line(text, "move", [who], name=names[who], field=label(path[-1]), cost=cost)
    return None


def _roll(name: str, face: int, sides: int, result: int, mods: tuple = ()) -> RollView:
    return RollView(name, (face,), result, mods, sides, gettext_noop("wynik %(n)d"))


def _line(text: str, kind: str, actors: Iterable[str], rolls: tuple = (), secret: bool = False,
          **params: Any) -> LogLine:  # fmt: skip
    return LogLine(text, params, kind, tuple(actors), rolls, secret)


# --- the battle map ----------------------------------------------------------------------------


def route(
    state: Duel, actor: str, to: Field, mode: str, now: float, unseen: Iterable[str]
) -> RouteView:
    """The move of `actor` to `to`: the cheapest path around walls, obstacles and enemies
    (but those of the `unseen` seats, whom the asker does not know of), allowed exactly when
    the rules would take its command."""
    m, me = engine.require_map(state), state.combatants.get(actor)
    if me is None or me.position is None:
        raise RuleViolation("bez_pionka", gettext_noop("Ta postać nie stoi na mapie."))
    if (mode := mode or d.WALK) not in d.MOVE_FIELDS:
        raise RuleViolation("tryb", gettext_noop("Nieznany sposób ruchu."))
    others = [f for f in state.combatants.values() if f.id not in {actor, *unseen}]
    seen = [f.position for f in others if f.position]
    enemies = [f.position for f in others if f.position and f.side != me.side and not f.down]
    found = battlemap.route(m, me.position, to, closed=enemies, no_stop=seen)
    base: dict[str, Any] = {"actor": actor, "modes": MODES, "mode": mode}
    if found is None:
        reason, params = gettext_noop("Nie da się dojść na pole %(field)s."), {"field": label(to)}
        return RouteView(
            path=(me.position,), allowed=False, reason=reason, reason_params=params, **base
        )
    command = d.Move(actor=actor, path=found.path, mode=d.RUN if mode == d.RUN else d.WALK, now=now)
    refused = engine.refusal(state, command)
    difficult = gettext_noop("Trudny teren na %(field)s: 2 pola.")
    return RouteView(
        path=found.path,
        allowed=refused is None,
        cost=gettext_noop("%(used)d z %(left)d pól"),
        cost_params={"used": found.cost, "left": max(0, d.MOVE_FIELDS[mode] - state.moved)},
        reason=refused.template if refused else "",
        reason_params=refused.params if refused else {},
        notes=tuple((difficult, {"field": label(f)}) for f in found.path[1:] if m.is_difficult(f)),
        command={"type": command.type_key, **Codec().to_data(command)},
        **base,
    )
