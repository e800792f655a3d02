"""Pojedynek at the live table: the neutral records of `combat.rules.base` (the round, the
order, seats with health), its prompts, the log's lines, and the data of its own partials
(tests/duel/templates/combat/rulesets/duel/).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from combat.rules import battlemap
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
from tests.duel.model import Duel, Event, Field, Fighter, Prompt
from tests.duel.sheet import hit_chance

MODES = ((d.WALK, gettext_noop("Chód")), (d.RUN, gettext_noop("Bieg")))
STAGES = {"setup": "setup", "fight": "running", "ended": "ended"}
POLICIES = (
    ("ask", gettext_noop("Pytaj MG")),
    ("parry", gettext_noop("zawsze paruj")),
    ("none", gettext_noop("nigdy nie paruj")),
)
POLICY_ANSWERS = {"parry": d.PARRY, "none": d.NO_REACTION}


def table_view(state: Duel) -> TableView:
    placed = [cid for cid in state.order if cid in state.fighters]
    ids = placed + [cid for cid in state.fighters if cid not in placed]
    # By post every fighter still to act does so at once, before the round's deadline.
    post = state.by_post and state.stage == "fight"
    deadline = state.deadline if post else None
    hours = state.settings.reminder_hours
    return TableView(
        stage=STAGES[state.stage],  # type: ignore[arg-type]
        round=state.round,
        label=_round_label(state),
        label_params={"n": state.round},
        seats={cid: _seat(state, state.fighters[cid]) for cid in ids},
        order=tuple(ids),
        current=state.current,
        winner=state.winner,
        acting=state.to_act,
        waiting=state.to_act,
        deadline=deadline,
        pace="post" if post else "live",
        remind_at=deadline - hours * d.HOUR if deadline is not None and hours else None,
    )


def _round_label(state: Duel) -> str:
    if state.stage == "setup":
        return gettext_noop("Przygotowanie")
    if state.stage == "ended":
        return gettext_noop("Pojedynek zakończony")
    return gettext_noop("Runda %(n)d")


def _seat(state: Duel, f: Fighter) -> SeatView:
    counters: tuple[Counter, ...] = ()
    if state.stage == "fight":
        if state.by_post:
            left = int(f.id in state.to_act)
        else:
            left = int(not (state.attacked and state.current == f.id))
        counters = (Counter("atak", gettext_noop("Atak"), left, 1),)
    return SeatView(
        id=f.id,
        name=f.name,
        side=f.side,
        controller=f.controller,
        hidden=f.hidden,
        revealed=f.revealed,
        current=state.current == f.id,
        initiative=f.initiative,
        health=health(f),
        counters=counters,
        ready=True,  # nothing to do before the fight: the server rolls initiative
        position=f.position,
    )


def health(f: Fighter) -> HealthView:
    """Numbers, and what those who may not see them see: bez ran, ranny, ciężko ranny."""
    if f.down:
        level, label = "martwy", gettext_noop("Pokonany")
    elif f.damage == 0:
        level, label = "bez_ran", gettext_noop("Bez ran")
    elif 2 * f.life > f.zycie:
        level, label = "ranny", gettext_noop("Ranny")
    else:
        level, label = "ciezko_ranny", gettext_noop("Ciężko ranny")
    return HealthView(
        current=f.life,
        maximum=f.zycie,
        level=level,
        level_label=label,
        out=f.down,
        dead=f.down,
        status_label=gettext_noop("pokonany") if f.down else "",
    )


# --- the partials -----------------------------------------------------------------------------
# Each panel is a frozen record of plain values: all its partial reads of the fight.


@dataclass(frozen=True, slots=True)
class Ref:
    """A fighter as a form lists it."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class TurnPanel:
    """Before and after the fight only `stage` and `actor`; in it, whether the actor may attack
    (whom) or end its turn, and why not (`why`: a key the partial words)."""

    stage: str
    actor: Ref
    my_turn: bool = False
    can_attack: bool = False
    can_end: bool = False
    why: str = ""
    waiting_for: str | None = None
    targets: tuple[Ref, ...] = ()
    hit_chance: int = 0


@dataclass(frozen=True, slots=True)
class SeatPanel:
    atak: int
    obrona: int
    parry: int
    hit_chance: int
    weapon_bonus: int


@dataclass(frozen=True, slots=True)
class GMPanel:
    stage: str
    can_start: bool
    can_end: bool
    sides: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GMSeatPanel:
    id: str
    life: int
    maximum: int
    current: bool


@dataclass(frozen=True, slots=True)
class PromptPanel:
    threshold: int


def turn_panel(state: Duel, actor_id: str, visible: frozenset[str]) -> TurnPanel:
    """Before the fight: nothing to do. In the fight: whether `actor_id` may attack (whom)
    or end its turn, and why not (`why`: a key the partial words)."""
    actor = state.fighters[actor_id]
    if state.stage != "fight":
        return TurnPanel(stage=STAGES[state.stage], actor=_ref(actor))
    mine = state.current == actor_id or actor_id in state.to_act
    targets = tuple(
        _ref(f)
        for f in state.fighters.values()
        if f.id in visible and f.side != actor.side and not f.down
    )
    waiting = state.fighters[state.prompt.defender].name if state.prompt else None
    why = ""
    if not mine:
        why = "not_turn"
    elif waiting:
        why = "waiting"
    elif state.attacked and not state.by_post:
        why = "attacked"
    elif not targets:
        why = "no_targets"
    return TurnPanel(
        stage=STAGES[state.stage],
        actor=_ref(actor),
        my_turn=mine,
        can_attack=mine and not why,
        can_end=mine and not waiting,
        why=why,
        waiting_for=waiting,
        targets=targets,
        hit_chance=hit_chance(actor.atak),
    )


def seat_panel(state: Duel, seat_id: str, visible: frozenset[str]) -> SeatPanel:
    """A player's own card: its numbers and what they give."""
    f = state.fighters[seat_id]
    return SeatPanel(
        atak=f.atak,
        obrona=f.obrona,
        parry=f.parry_threshold,
        hit_chance=hit_chance(f.atak),
        weapon_bonus=f.weapon_bonus,
    )


def gm_panel(state: Duel) -> GMPanel:
    """Start the fight (once two sides stand), end it with a winner."""
    return GMPanel(
        stage=STAGES[state.stage],
        can_start=state.stage == "setup" and len(_sides(state, standing=True)) >= 2,
        can_end=state.stage != "ended",
        sides=tuple(sorted(_sides(state, standing=False))),
    )


def gm_seat_panel(state: Duel, seat_id: str) -> GMSeatPanel:
    """Życie left, which the GM may set, and ending the turn of the one whose turn it is."""
    f = state.fighters[seat_id]
    return GMSeatPanel(id=f.id, life=f.life, maximum=f.zycie, current=state.current == f.id)


def prompt_panel(state: Duel, prompt_id: str) -> PromptPanel | None:
    """The parry's threshold on the defender's card."""
    prompt = state.prompt
    if prompt is None or prompt.id != prompt_id:
        return None
    return PromptPanel(threshold=state.fighters[prompt.defender].parry_threshold)


def _ref(f: Fighter) -> Ref:
    return Ref(f.id, f.name)


def _sides(state: Duel, *, standing: bool) -> set[str]:
    return {f.side for f in state.fighters.values() if not (standing and f.down)}


# --- prompts ----------------------------------------------------------------------------------


def open_prompts(state: Duel) -> list[PromptView]:
    return [] if state.prompt is None else [prompt_view(state, state.prompt)]


def prompt_view(state: Duel, prompt: Prompt) -> PromptView:
    attacker = state.fighters[prompt.attacker]
    defender = state.fighters[prompt.defender]
    params = {"attacker": attacker.name, "target": defender.name}
    msgid = gettext_noop("Trafienie: %(attacker)s → %(target)s")
    parry = {"threshold": defender.parry_threshold}
    templates: tuple[tuple[str, str, Any], ...] = (
        (d.PARRY, gettext_noop("Parowanie (k100 ≤ %(threshold)d)"), parry),
        (d.NO_REACTION, gettext_noop("Nic"), {}),
    )
    return PromptView(
        id=prompt.id,
        kind="parowanie",
        actor=defender.id,
        label=fill(msgid, params),
        options=tuple((key, fill(t, p)) for key, t, p in templates),
        deadline=prompt.deadline,
        attacker=attacker.id,
        attack_command=d.Attack(actor=attacker.id, target=defender.id),
        label_template=msgid,
        label_params=params,
        option_templates=templates,
    )


def prompt_command(state: Duel, prompt_id: str, option: str, now: float = 0.0) -> d.Answer:
    prompt = state.prompt
    if prompt is None or prompt.id != prompt_id:
        raise RuleViolation(
            "brak_pytania", gettext_noop("To pytanie jest już zamknięte."), prompt=prompt_id
        )
    if option not in (d.PARRY, d.NO_REACTION):
        refusal = gettext_noop("Tej reakcji nie można tu użyć.")
        raise RuleViolation("reakcja", refusal, option=option)
    return d.Answer(actor=prompt.defender, prompt=prompt.id, option=option, now=now)


def auto_answer(state: Duel, prompt_id: str, policy: str, now: float) -> d.Answer | None:
    if policy not in dict(POLICIES):
        raise ValueError(f"unknown reaction policy: {policy}")
    prompt = state.prompt
    if policy == "ask" or prompt is None or prompt.id != prompt_id:
        return None
    return prompt_command(state, prompt_id, POLICY_ANSWERS[policy], now)


# --- the log ----------------------------------------------------------------------------------


def describe(state: Duel, event: Event) -> LogLine | None:
    """The log line of an event, told against the state before it."""
    names = {cid: f.name for cid, f in state.fighters.items()}
    match event:
        case d.Joined(fighter=f):
            text = gettext_noop("Do pojedynku dołącza: %(name)s.")
            return _line(text, "join", [f.id], name=f.name)
        case d.RoundStarted():
            return _line(gettext_noop("Runda %(n)d: nowa inicjatywa."), "turn", [], n=event.round)
        case d.InitiativeRolled():
            return _initiative(names[event.fighter], event)
        case d.Attacked():
            return _attacked(names, event)
        case d.Parried():
            return _parried(names[event.defender], event)
        case d.Struck():
            return _struck(state, event)
        case d.TurnEnded():
            name = names[event.actor]
            return _line(gettext_noop("%(name)s kończy turę."), "turn", [event.actor], name=name)
        case d.RoundExpired(missed=missed):
            who = ", ".join(names[cid] for cid in missed) or "–"
            text = gettext_noop("Termin rundy minął; bez akcji: %(names)s.")
            return _line(text, "turn", list(missed), names=who)
        case d.FightEnded(winner=None):
            return _line(gettext_noop("Pojedynek zakończony."), "turn", [])
        case d.FightEnded(winner=side):
            text = gettext_noop("Pojedynek zakończony: wygrywa strona %(side)s.")
            return _line(text, "turn", [], side=side or "")
        case d.SetHidden(target=target, hidden=hidden):
            text = (
                gettext_noop("Ukryty przed graczami: %(name)s.")
                if hidden
                else gettext_noop("Widoczny dla graczy: %(name)s.")
            )
            return _line(text, "gm", [target], secret=True, name=names[target])
        case d.RevealStats(target=target, revealed=revealed):
            text = (
                gettext_noop("Liczby odkryte: %(name)s.")
                if revealed
                else gettext_noop("Liczby ukryte: %(name)s.")
            )
            return _line(text, "gm", [target], secret=True, name=names[target])
        case d.EditMap():
            return _line(gettext_noop("Mistrz Gry zmienia mapę."), "gm", [])
        case d.PlaceCombatant(target=target, to=None):
            return _line(
                gettext_noop("%(name)s schodzi z mapy."), "gm", [target], name=names[target]
            )
        case d.PlaceCombatant(target=target, to=(col, row)):
            text = gettext_noop("%(name)s staje na polu %(field)s.")
            return _line(
                text, "gm", [target], name=names[target], field=battlemap.label((col, row))
            )
        case d.Moved(actor=actor, path=path, cost=cost):
            text = gettext_noop("%(name)s idzie na pole %(field)s (%(cost)d).")
            field = battlemap.label(path[-1])
            return _line(text, "move", [actor], name=names[actor], field=field, cost=cost)
        case d.SetLife(target=target, life=life):
            text = gettext_noop("Mistrz Gry ustawia Życie: %(name)s → %(life)d.")
            return _line(text, "gm", [target], secret=True, name=names[target], life=life)
    return None


def _initiative(name: str, e: d.InitiativeRolled) -> LogLine:
    roll = _roll(gettext_noop("Inicjatywa"), e.face, 20, e.total, (("Atak", e.bonus),))
    text = gettext_noop("%(name)s: inicjatywa k20 %(face)d + Atak %(bonus)d = %(total)d.")
    params: dict[str, str | int] = {
        "name": name,
        "face": e.face,
        "bonus": e.bonus,
        "total": e.total,
    }
    return LogLine(text, params, "roll", (e.fighter,), (roll,))


def _attacked(names: dict[str, str], e: d.Attacked) -> LogLine:
    total = e.face + e.bonus
    roll = _roll(gettext_noop("Atak"), e.face, 20, total, (("Atak", e.bonus),))
    if e.hit:
        text = gettext_noop(
            "%(attacker)s atakuje: %(target)s, k20 %(face)d + Atak %(bonus)d = %(total)d"
            " ≥ %(need)d, trafienie."
        )
    else:
        text = gettext_noop(
            "%(attacker)s atakuje: %(target)s, k20 %(face)d + Atak %(bonus)d = %(total)d"
            " < %(need)d, pudło."
        )
    params: dict[str, str | int] = {
        "attacker": names[e.attacker],
        "target": names[e.target],
        "face": e.face,
        "bonus": e.bonus,
        "total": total,
        "need": d.TO_HIT,
    }
    return LogLine(text, params, "attack", (e.attacker, e.target), (roll,))


def _parried(name: str, e: d.Parried) -> LogLine:
    roll = _roll(gettext_noop("Parowanie"), e.face, 100, e.face, ())
    if e.success:
        text = gettext_noop("%(name)s paruje: k100 %(face)d ≤ %(threshold)d, atak odparty.")
    else:
        text = gettext_noop("%(name)s paruje: k100 %(face)d > %(threshold)d, nieudane.")
    return _line(
        text, "roll", [e.defender], rolls=(roll,), name=name, face=e.face, threshold=e.threshold
    )


def _struck(state: Duel, e: d.Struck) -> LogLine:
    target = state.fighters[e.target]
    mods = (("Premia broni", e.bonus),) if e.bonus else ()
    roll = _roll(gettext_noop("Obrażenia"), e.face, 6, e.damage, mods)
    falls = e.damage >= target.life
    if e.expired:
        text = (
            gettext_noop("Czas minął: %(name)s obrywa za %(damage)d i pada.")
            if falls
            else gettext_noop("Czas minął: %(name)s obrywa za %(damage)d.")
        )
    else:
        text = (
            gettext_noop("%(name)s obrywa za %(damage)d i pada.")
            if falls
            else gettext_noop("%(name)s obrywa za %(damage)d.")
        )
    actors = [e.target, e.attacker]
    return _line(text, "damage", actors, rolls=(roll,), name=target.name, damage=e.damage)


def _roll(
    label: str, face: int, sides: int, result: int, mods: tuple[tuple[str, int], ...]
) -> RollView:
    return RollView(
        label=label,
        dice=(face,),
        result=result,
        modifiers=mods,
        sides=sides,
        summary=gettext_noop("wynik %(n)d"),
    )


def _line(
    text: str,
    kind: str,
    actors: list[str],
    *,
    rolls: tuple[RollView, ...] = (),
    secret: bool = False,
    **params: str | int,
) -> LogLine:
    return LogLine(text, params, kind, tuple(actors), rolls, secret)


def route(
    state: Duel, actor: str, to: Field, mode: str, now: float, unseen: Iterable[str]
) -> RouteView:
    """The move of `actor` to `to`: the cheapest path around walls, obstacles and enemies
    (but those of the `unseen` seats, whom the asker does not know of), allowed exactly when
    the rules would take its command."""
    m, me = state.battlemap, state.fighters.get(actor)
    if m is None:
        raise RuleViolation("brak_mapy", gettext_noop("To starcie nie ma mapy."))
    if me is None or me.position is None:
        raise RuleViolation("bez_pionka", gettext_noop("Ta postać nie stoi na mapie."))
    if (mode := mode or d.WALK) not in d.MOVE_FIELDS:
        raise RuleViolation("tryb", gettext_noop("Nieznany sposób ruchu."))
    seen = [f for f in state.fighters.values() if f.position and f.id not in {actor, *unseen}]
    enemies = [f.position for f in seen if f.side != me.side and not f.down]
    found = battlemap.route(m, me.position, to, closed=enemies, no_stop=[f.position for f in seen])
    base: dict[str, Any] = {"actor": actor, "modes": MODES, "mode": mode}
    if found is None:
        reason, params = gettext_noop("Nie da się dojść na pole %(field)s."), {"field": label(to)}
        return RouteView(
            path=(me.position,), allowed=False, reason=reason, reason_params=params, **base
        )
    command = d.Move(actor=actor, path=found.path, mode=mode, now=now)
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
