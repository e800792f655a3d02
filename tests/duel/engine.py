"""Pojedynek's rules: `decide(state, command, rng) -> events`, `evolve(state, event)`, `replay`.

A round begins with every fighter still standing rolling d20 + Atak (the server rolls, anew
each round); they act in that order. In its turn a fighter may attack once: d20 + Atak ≥ 11
hits, and the defender is asked, before a deadline, whether to parry: d100 ≤ 10 × Obrona
cancels the hit, otherwise (or with no answer) it lands for d6 + the weapon's Premia. When
the last in order ends its turn the next round begins. A side left standing alone wins.

By post (the `pace` setting) a round has a deadline hours away and every fighter standing
acts once, in any order: attack (the defender parries by itself) or pass. When all have
acted, or the deadline passes, the next round begins.

`decide` rolls through the injected RNG and returns every die inside the events; `evolve`
never rolls, so a replay of the events is the state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from functools import reduce
from typing import Any

from combat.rules import battlemap
from combat.rules.base import RNG, RuleViolation, gettext_noop
from tests.duel.model import (
    ANSWERS,
    GM,
    HOUR,
    MOVE_FIELDS,
    PARRY,
    RUN,
    TO_HIT,
    Answer,
    Attack,
    Attacked,
    Command,
    DeadlineMoved,
    Duel,
    EditMap,
    EndFight,
    EndTurn,
    Event,
    FightEnded,
    Fighter,
    HiddenSet,
    InitiativeRolled,
    JoinCombat,
    Joined,
    LifeSet,
    MapEdited,
    Move,
    Moved,
    Parried,
    PlaceCombatant,
    Placed,
    Prompt,
    ResolveExpired,
    RevealStats,
    RoundExpired,
    RoundStarted,
    SetHidden,
    SetLife,
    Settings,
    StartRound,
    StatsRevealed,
    Struck,
    TurnEnded,
)
from tests.duel.sheet import fighter_from_dict


def new_encounter(
    settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
) -> Duel:
    """The setup state; ValueError for malformed settings or combatants, or a repeated id."""
    fighters = [fighter_from_dict(c) for c in combatants]
    by_id = {f.id: f for f in fighters}
    if len(by_id) != len(fighters):
        raise ValueError("combatants: every id once")
    return Duel(settings=Settings.from_dict(settings or {}), fighters=by_id)


def decide(state: Duel, command: Command, rng: RNG) -> list[Event]:
    """The events of one command, or RuleViolation with a reason a player can read."""
    match command:
        case JoinCombat():
            return _join(state, command)
        case StartRound():
            return _start(state, command, rng)
        case Attack():
            return _attack(state, command, rng)
        case Answer():
            return _answer(state, command, rng)
        case EndTurn():
            return _end_turn(state, command, rng)
        case ResolveExpired():
            return _expire(state, command, rng)
        case EndFight():
            return _end_fight(state, command)
        case SetHidden():
            return [HiddenSet(_fighter(state, command.target).id, command.hidden)]
        case RevealStats():
            return [StatsRevealed(_fighter(state, command.target).id, command.revealed)]
        case SetLife():
            return _set_life(state, command)
        case EditMap():
            return _edit_map(state, command)
        case PlaceCombatant():
            return _place(state, command)
        case Move():
            return _move(state, command)
    raise RuleViolation("polecenie", gettext_noop("Nieznane polecenie."))


# --- one small function per command -----------------------------------------------------------


def _join(state: Duel, command: JoinCombat) -> list[Event]:
    """Anyone may join in any phase; mid-fight they get a place in the next round's order."""
    try:
        fighter = fighter_from_dict(command.combatant)
    except ValueError as exc:
        refusal = gettext_noop("Błędna karta: %(detail)s")
        raise RuleViolation("karta", refusal, detail=str(exc)) from None
    if fighter.id in state.fighters:
        raise RuleViolation(
            "juz_jest", gettext_noop("%(name)s już walczy."), name=fighter.name, id=fighter.id
        )
    return [Joined(fighter)]


def _start(state: Duel, command: StartRound, rng: RNG) -> list[Event]:
    """The GM starts the fight once at least two sides have someone standing."""
    _require_stage(state, "setup")
    if len(_standing_sides(state)) < 2:
        raise RuleViolation(
            "za_malo", gettext_noop("Do pojedynku potrzeba co najmniej dwóch stron.")
        )
    return _new_round(state, rng, command.now)


def _attack(state: Duel, command: Attack, rng: RNG) -> list[Event]:
    """One attack a turn: d20 + Atak ≥ 11 hits, and a hit asks the defender."""
    if state.by_post:
        return _post_attack(state, command, rng)
    me = _require_turn(state, command.actor)
    _require_no_prompt(state)
    if state.attacked:
        raise RuleViolation("juz_atakowal", gettext_noop("W tej turze atak już był."))
    target = _target(state, me, command.target)
    face = rng.randint(1, 20)
    if face + me.atak < TO_HIT:
        return [Attacked(me.id, target.id, face, me.atak)]
    prompt = f"p{state.prompts_opened + 1}"
    deadline = command.now + state.settings.answer_s
    return [Attacked(me.id, target.id, face, me.atak, prompt=prompt, deadline=deadline)]


def _post_attack(state: Duel, command: Attack, rng: RNG) -> list[Event]:
    """By post: the attack, and at once the defender's own parry and the damage; the round
    ends when everyone has acted."""
    me = _require_poster(state, command.actor)
    target = _target(state, me, command.target)
    face = rng.randint(1, 20)
    attacked = Attacked(me.id, target.id, face, me.atak)
    events: list[Event] = [attacked]
    if attacked.hit:
        parried = Parried("", target.id, rng.randint(1, 100), target.parry_threshold)
        events.append(parried)
        if not parried.success:
            events += _land(state, Prompt("", me.id, target.id, command.now), rng)
    return _then_next_round(state, events, rng, command.now)


def _then_next_round(state: Duel, events: list[Event], rng: RNG, now: float) -> list[Event]:
    """By post: `events`, then the next round if nobody is left to act (and the fight goes
    on)."""
    after = replay(state, events)
    if after.stage != "fight" or after.to_act:
        return events
    return [*events, *_new_round(after, rng, now)]


def _target(state: Duel, me: Fighter, target_id: str) -> Fighter:
    target = _fighter(state, target_id)
    if target.id == me.id:
        raise RuleViolation("sam_siebie", gettext_noop("Nie można zaatakować samego siebie."))
    if target.down:
        raise RuleViolation(
            "cel_pokonany", gettext_noop("%(name)s jest już pokonany."), name=target.name
        )
    if target.side == me.side:
        raise RuleViolation(
            "sojusznik", gettext_noop("%(name)s walczy po tej samej stronie."), name=target.name
        )
    return target


def _answer(state: Duel, command: Answer, rng: RNG) -> list[Event]:
    """The defender parries (d100 ≤ 10 × Obrona cancels the hit) or takes it."""
    prompt = _open_prompt(state, command.prompt)
    defender = state.fighters[prompt.defender]
    if command.actor != defender.id:
        raise RuleViolation(
            "nie_twoje", gettext_noop("To pytanie jest do: %(name)s."), name=defender.name
        )
    if command.option not in ANSWERS:
        raise RuleViolation(
            "reakcja", gettext_noop("Tej reakcji nie można tu użyć."), option=command.option
        )
    if command.now > prompt.deadline:
        raise RuleViolation("po_czasie", gettext_noop("Czas na odpowiedź minął."))
    if command.option != PARRY:
        return _land(state, prompt, rng)
    parried = Parried(prompt.id, defender.id, rng.randint(1, 100), defender.parry_threshold)
    return [parried] if parried.success else [parried, *_land(state, prompt, rng)]


def _end_turn(state: Duel, command: EndTurn, rng: RNG) -> list[Event]:
    """The next standing fighter in order acts; after the last, a new round (and initiative).
    By post: the fighter passes its turn."""
    if state.by_post:
        me = _require_poster(state, command.actor)
        return _then_next_round(state, [TurnEnded(me.id)], rng, command.now)
    me = _require_turn(state, command.actor, standing=False)
    _require_no_prompt(state)
    ended = TurnEnded(me.id)
    after = evolve(state, ended)
    return [ended] if after.current is not None else [ended, *_new_round(after, rng, command.now)]


def _expire(state: Duel, command: ResolveExpired, rng: RNG) -> list[Event]:
    """A prompt past its deadline lands as "no reaction"; by post, a round past its deadline
    ends (who has not acted loses the turn) and the next begins."""
    prompt = state.prompt
    if prompt is not None and prompt.deadline <= command.now:
        return _land(state, prompt, rng, expired=True)
    deadline = state.deadline if state.by_post and state.stage == "fight" else None
    if prompt is not None or deadline is None or deadline > command.now:
        raise RuleViolation("nic_nie_czeka", gettext_noop("Nic nie czeka na rozstrzygnięcie."))
    expired = RoundExpired(state.to_act)
    return [expired, *_new_round(evolve(state, expired), rng, command.now)]


def _end_fight(state: Duel, command: EndFight) -> list[Event]:
    """The GM ends the fight, naming the winning side or none."""
    if state.stage == "ended":
        raise RuleViolation("koniec", gettext_noop("Pojedynek już się skończył."))
    sides = {f.side for f in state.fighters.values()}
    if command.winner is not None and command.winner not in sides:
        raise RuleViolation(
            "strona", gettext_noop("Nie ma takiej strony: %(side)s."), side=command.winner
        )
    return [FightEnded(command.winner)]


def _set_life(state: Duel, command: SetLife) -> list[Event]:
    """The GM sets Życie left, between 0 and the sheet's Życie."""
    target = _fighter(state, command.target)
    if not 0 <= command.life <= target.zycie:
        raise RuleViolation(
            "zycie", gettext_noop("Życie: od 0 do %(max)d."), max=target.zycie, name=target.name
        )
    return [LifeSet(target.id, command.life)]


# --- the battle map (a square map, a field a metre) ------------------------------------------


def _edit_map(state: Duel, command: EditMap) -> list[Event]:
    """GM: any edit the map allows; a smaller map may not drop a token."""
    if isinstance(command.edit, battlemap.Remove) and not command.edit.confirm:
        raise RuleViolation("potwierdz", gettext_noop("Potwierdź usunięcie mapy."))
    battlemap.check_edit(state.battlemap, command.edit, occupied(state))
    return [MapEdited(command.edit)]


def _place(state: Duel, command: PlaceCombatant) -> list[Event]:
    """GM: a token onto a free, passable field of the map (or off it)."""
    target = _fighter(state, command.target)
    m = _require_map(state)
    to = command.to
    if to is not None:
        if not m.inside(to):
            raise RuleViolation("poza_mapa", gettext_noop("Pole %(field)s jest poza mapą."),
                                field=battlemap.label(to))  # fmt: skip
        if not m.passable(to):
            raise RuleViolation(
                "sciana",
                gettext_noop("Pole %(field)s jest zablokowane."),
                field=battlemap.label(to),
            )
        if any(f.position == to for f in state.fighters.values() if f.id != target.id):
            raise RuleViolation(
                "zajete_pole",
                gettext_noop("Pole %(field)s jest zajęte."),
                field=battlemap.label(to),
            )
    return [Placed(target.id, to)]


def _move(state: Duel, command: Move) -> list[Event]:
    """Along a path from the token's field: never through an enemy nor onto anyone, within
    the turn's fields of movement (a run spends the attack)."""
    m = _require_map(state)
    me = _require_turn(state, command.actor)
    if me.position is None:
        raise RuleViolation("bez_pionka", gettext_noop("%(name)s nie stoi na mapie."), name=me.name)
    path = command.path
    if len(path) < 2 or path[0] != me.position:
        raise RuleViolation("sciezka", gettext_noop("Ścieżka zaczyna się na polu postaci."))
    cost = battlemap.path_cost(m, path)
    enemies = {f.position for f in state.fighters.values() if f.side != me.side and not f.down}
    crossed = next((f for f in path[1:] if f in enemies), None)
    if crossed is not None:
        raise RuleViolation(
            "wrog", gettext_noop("Na polu %(field)s stoi wróg."), field=battlemap.label(crossed)
        )
    if path[-1] in occupied(state):
        raise RuleViolation(
            "zajete_pole",
            gettext_noop("Pole %(field)s jest zajęte."),
            field=battlemap.label(path[-1]),
        )
    if command.mode == RUN and state.attacked:
        raise RuleViolation("bieg", gettext_noop("Po ataku nie można już biec."))
    left = MOVE_FIELDS[command.mode] - state.moved
    if cost > left:
        raise RuleViolation(
            "za_daleko", gettext_noop("Za daleko: %(cost)d pól, zostało %(left)d."),
            cost=cost, left=max(0, left),
        )  # fmt: skip
    return [Moved(me.id, path, cost, command.mode)]


def occupied(state: Duel) -> list[tuple[int, int]]:
    return [f.position for f in state.fighters.values() if f.position is not None]


def _require_map(state: Duel) -> battlemap.BattleMap:
    if state.battlemap is None:
        raise RuleViolation("brak_mapy", gettext_noop("To starcie nie ma mapy."))
    return state.battlemap


def _evolve_map(state: Duel, event: MapEdited) -> Duel:
    m = battlemap.apply_edit(state.battlemap, event.edit, "square", 1)
    if m is not None:
        return _replace(state, battlemap=m)
    fighters = {cid: _replace(f, position=None) for cid, f in state.fighters.items()}
    return _replace(state, battlemap=None, fighters=fighters)


# --- what follows from the rules --------------------------------------------------------------


def _new_round(state: Duel, rng: RNG, now: float) -> list[Event]:
    """Everyone standing rolls d20 + Atak; higher goes first (ties: higher Atak, then name).
    By post the round ends `post_hours` from `now`."""
    rolls = [
        InitiativeRolled(f.id, rng.randint(1, 20), f.atak)
        for f in state.fighters.values()
        if not f.down
    ]
    names = {f.id: f.name for f in state.fighters.values()}
    order = sorted(rolls, key=lambda r: (-r.total, -r.bonus, names[r.fighter], r.fighter))
    deadline = now + state.settings.post_hours * HOUR if state.by_post else None
    return [RoundStarted(state.round + 1, tuple(r.fighter for r in order), deadline), *rolls]


def _land(state: Duel, prompt: Prompt, rng: RNG, *, expired: bool = False) -> list[Event]:
    """The hit lands for d6 + the attacker's Premia; a side left standing alone wins."""
    attacker = state.fighters[prompt.attacker]
    struck = Struck(
        prompt.id, attacker.id, prompt.defender, rng.randint(1, 6), attacker.weapon_bonus, expired
    )
    sides = _standing_sides(evolve(state, struck))
    if len(sides) > 1:
        return [struck]
    return [struck, FightEnded(next(iter(sides), None))]


# --- checks -----------------------------------------------------------------------------------


def _require_stage(state: Duel, stage: str) -> None:
    if state.stage == stage:
        return
    if state.stage == "ended":
        raise RuleViolation("koniec", gettext_noop("Pojedynek już się skończył."))
    if state.stage == "setup":
        raise RuleViolation("przed_walka", gettext_noop("Pojedynek jeszcze się nie zaczął."))
    raise RuleViolation("trwa", gettext_noop("Pojedynek już trwa."))


def _require_turn(state: Duel, actor: str, *, standing: bool = True) -> Fighter:
    """The acting fighter, if it is its turn (and, to attack, it still stands)."""
    _require_stage(state, "fight")
    me = _fighter(state, actor)
    current = state.current
    if current != me.id:
        name = state.fighters[current].name if current else "–"
        raise RuleViolation(
            "nie_twoja_tura",
            gettext_noop("Nie twoja tura: teraz działa %(name)s."),
            name=name,
            current=current or "",
        )
    if standing and me.down:
        raise RuleViolation("pokonany", gettext_noop("%(name)s jest pokonany."), name=me.name)
    return me


def _require_poster(state: Duel, actor: str) -> Fighter:
    """By post: the fighter, if it still stands and has not acted this round."""
    _require_stage(state, "fight")
    me = _fighter(state, actor)
    if me.down:
        raise RuleViolation("pokonany", gettext_noop("%(name)s jest pokonany."), name=me.name)
    if me.id not in state.to_act:
        raise RuleViolation(
            "juz_dzialal", gettext_noop("%(name)s już działał w tej rundzie."), name=me.name
        )
    return me


def _require_no_prompt(state: Duel) -> None:
    if state.prompt is not None:
        defender = state.fighters[state.prompt.defender]
        raise RuleViolation(
            "czeka_na_odpowiedz",
            gettext_noop("Najpierw %(name)s musi odpowiedzieć na atak."),
            name=defender.name,
        )


def _open_prompt(state: Duel, prompt_id: str) -> Prompt:
    if state.prompt is None or state.prompt.id != prompt_id:
        raise RuleViolation(
            "brak_pytania", gettext_noop("To pytanie jest już zamknięte."), prompt=prompt_id
        )
    return state.prompt


def _fighter(state: Duel, fighter_id: str) -> Fighter:
    if fighter_id == GM or fighter_id not in state.fighters:
        raise RuleViolation("postac", gettext_noop("Nie ma takiej postaci: %(id)s."), id=fighter_id)
    return state.fighters[fighter_id]


def _standing_sides(state: Duel) -> set[str]:
    return {f.side for f in state.fighters.values() if not f.down}


# --- evolve -----------------------------------------------------------------------------------


def evolve(state: Duel, event: Event) -> Duel:
    """The state after one event; never rolls."""
    match event:
        case Joined(fighter=fighter):
            return _with(state, fighter)
        case RoundStarted():
            fighters = {cid: _replace(f, initiative=None) for cid, f in state.fighters.items()}
            return _replace(
                state,
                stage="fight",
                round=event.round,
                order=event.order,
                turn=0,
                attacked=False,
                fighters=fighters,
                deadline=event.deadline,
                acted=(),
                moved=0,
            )
        case InitiativeRolled():
            return _with(state, _replace(state.fighters[event.fighter], initiative=event.total))
        case Attacked():
            return _acted(_attacked(state, event), event.attacker)
        case Parried():
            return _replace(state, prompt=None) if event.success else state
        case Struck():
            target = state.fighters[event.target]
            hurt = _replace(target, damage=target.damage + event.damage)
            return _replace(_with(state, hurt), prompt=None)
        case TurnEnded() if state.by_post:
            return _acted(state, event.actor)
        case TurnEnded():
            return _replace(state, turn=_next_turn(state), attacked=False, moved=0)
        case MapEdited():
            return _evolve_map(state, event)
        case Placed():
            return _with(state, _replace(state.fighters[event.target], position=event.to))
        case Moved():
            moved = _with(state, _replace(state.fighters[event.actor], position=event.path[-1]))
            spent = event.mode == RUN or state.attacked
            return _replace(moved, moved=state.moved + event.cost, attacked=spent)
        case RoundExpired():
            return _replace(state, acted=(*state.acted, *event.missed))
        case FightEnded():
            return _replace(state, stage="ended", winner=event.winner, prompt=None)
        case HiddenSet():
            return _with(state, _replace(state.fighters[event.target], hidden=event.hidden))
        case StatsRevealed():
            fighter = _replace(state.fighters[event.target], revealed=event.revealed)
            return _with(state, fighter)
        case LifeSet():
            target = state.fighters[event.target]
            return _with(state, _replace(target, damage=target.zycie - event.life))
        case DeadlineMoved() if state.prompt is not None and state.prompt.id == event.prompt:
            return _replace(state, prompt=_replace(state.prompt, deadline=event.deadline))
        case DeadlineMoved() if event.prompt == "" and state.deadline is not None:
            return _replace(state, deadline=event.deadline)
    raise ValueError(f"unknown event: {event!r}")


def replay(initial: Duel, events: Iterable[Event]) -> Duel:
    return reduce(evolve, events, initial)


def _attacked(state: Duel, event: Attacked) -> Duel:
    if event.prompt is None or event.deadline is None:
        return _replace(state, attacked=True)
    prompt = Prompt(event.prompt, event.attacker, event.target, event.deadline)
    return _replace(state, attacked=True, prompt=prompt, prompts_opened=state.prompts_opened + 1)


def _acted(state: Duel, fighter: str) -> Duel:
    """By post: `fighter` has had its turn this round."""
    if not state.by_post or fighter in state.acted:
        return state
    return _replace(state, acted=(*state.acted, fighter))


def _next_turn(state: Duel) -> int:
    """The index of the next fighter in order still standing; past the end when none is."""
    for index in range(state.turn + 1, len(state.order)):
        if not state.fighters[state.order[index]].down:
            return index
    return len(state.order)


def _with(state: Duel, fighter: Fighter) -> Duel:
    return _replace(state, fighters={**state.fighters, fighter.id: fighter})


_replace = dataclasses.replace


def resume(state: Duel, *, paused_at: float, now: float, minimum: float) -> list[Event]:
    """The open prompt (by post, the round) gets the time it had left at `paused_at` (at least
    `minimum`)."""
    prompt = state.prompt
    if prompt is not None:
        left = max(prompt.deadline - paused_at, minimum)
        return [DeadlineMoved(prompt=prompt.id, deadline=now + left)]
    if state.by_post and state.stage == "fight" and state.deadline is not None:
        left = max(state.deadline - paused_at, minimum)
        return [DeadlineMoved(prompt="", deadline=now + left)]
    return []
