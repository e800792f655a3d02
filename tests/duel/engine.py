"""Pojedynek's rules: `decide(state, command, rng) -> events` and `evolve(state, event)`.

A round begins with every fighter standing rolling d20 + Atak (the server rolls); they act in
that order. In its turn a fighter may move and attack once: d20 + Atak ≥ 11 hits, and the
defender is asked, before a deadline, whether to parry: d100 ≤ 10 × Obrona cancels the hit,
otherwise (or with no answer) it lands for d6 + the weapon's Premia. After the last in order,
a new round. A side left standing alone wins. By post (the `pace` setting) every fighter
standing acts once, in any order, before the round's deadline: it attacks (the defender
parries by itself) or passes; when all have acted, or the time is up, the next round begins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import reduce
from typing import Any

from combat.rules import battlemap, vocabulary
from combat.rules.base import RNG, RuleViolation, gettext_noop
from combat.rules.records import replace
from tests.duel import model as d
from tests.duel.model import Command, Duel, Event, Fighter, Prompt
from tests.duel.sheet import fighter_from_dict


def new_encounter(settings: Mapping[str, Any] | None, combatants: Sequence[Any]) -> Duel:
    fighters = {f.id: f for f in map(fighter_from_dict, combatants)}
    if len(fighters) != len(combatants):
        raise ValueError("combatants: every id once")
    return Duel(d.Settings.from_dict(settings or {}), fighters)


def decide(state: Duel, command: Command, rng: RNG) -> list[Event]:
    """The events of one command, or RuleViolation with a reason a player can read."""
    match command:
        case d.JoinCombat():
            return [d.Joined(vocabulary.joining(state, command, fighter_from_dict))]
        case d.StartRound():
            _require_stage(state, "setup")
            if len(_standing_sides(state)) < 2:
                msg = gettext_noop("Do pojedynku potrzeba co najmniej dwóch stron.")
                raise RuleViolation("za_malo", msg)
            return _new_round(state, rng, command.now)
        case d.Attack():
            return _attack(state, command, rng)
        case d.Answer():
            return _answer(state, command, rng)
        case d.EndTurn():
            return _end_turn(state, command, rng)
        case d.ResolveExpired():
            return _expire(state, command, rng)
        case d.EndFight():
            return vocabulary.end_combat(state, command, ended=state.stage == "ended")
        case d.SetHidden():
            return vocabulary.set_hidden(state, command)
        case d.RevealStats():
            return vocabulary.reveal_stats(state, command)
        case d.SetLife():
            target = vocabulary.combatant(state, command.target)
            if not 0 <= command.life <= target.zycie:
                msg = gettext_noop("Życie: od 0 do %(max)d.")
                raise RuleViolation("zycie", msg, max=target.zycie, name=target.name)
            return [command]
        case d.EditMap():
            return vocabulary.edit_map(state.battlemap, command, _occupied(state))
        case d.PlaceCombatant():
            return _place(state, command)
        case d.Move():
            return _move(state, command)
    raise RuleViolation("polecenie", gettext_noop("Nieznane polecenie."))


def _attack(state: Duel, command: d.Attack, rng: RNG) -> list[Event]:
    """One attack a turn. Live, a hit asks the defender; by post, the defender parries by
    itself at once."""
    me = _actor(state, command.actor)
    _require_no_prompt(state)
    if state.attacked and not state.by_post:
        raise RuleViolation("juz_atakowal", gettext_noop("W tej turze atak już był."))
    target = _target(state, me, command.target)
    attacked = d.Attacked(me.id, target.id, rng.randint(1, 20), me.atak)
    if attacked.hit and not state.by_post:
        prompt, deadline = f"p{state.prompts_opened + 1}", command.now + state.settings.answer_s
        return [replace(attacked, prompt=prompt, deadline=deadline)]
    events: list[Event] = [attacked]
    if attacked.hit:
        events.append(parried := _parry(target, "", rng))
        if not parried.success:
            events += _land(state, Prompt("", me.id, target.id, command.now), rng)
    return _then_next_round(state, events, rng, command.now)


def _then_next_round(state: Duel, events: list[Event], rng: RNG, now: float) -> list[Event]:
    """`events`, then the next round if nobody is left to act in this one."""
    after = reduce(evolve, events, state)
    if after.stage != "fight" or after.current or after.to_act:
        return events
    return [*events, *_new_round(after, rng, now)]


def _target(state: Duel, me: Fighter, target_id: str) -> Fighter:
    target = vocabulary.combatant(state, target_id)
    if target.id == me.id:
        raise RuleViolation("sam_siebie", gettext_noop("Nie można zaatakować samego siebie."))
    name = target.name
    if target.down:
        raise RuleViolation("cel_pokonany", gettext_noop("%(name)s jest już pokonany."), name=name)
    if target.side == me.side:
        msg = gettext_noop("%(name)s walczy po tej samej stronie.")
        raise RuleViolation("sojusznik", msg, name=name)
    return target


def _answer(state: Duel, command: d.Answer, rng: RNG) -> list[Event]:
    """The defender parries or takes the hit."""
    prompt = open_prompt(state, command.prompt)
    defender = state.combatants[prompt.defender]
    if command.actor != defender.id:
        msg = gettext_noop("To pytanie jest do: %(name)s.")
        raise RuleViolation("nie_twoje", msg, name=defender.name)
    check_option(command.option)
    if command.now > prompt.deadline:
        raise RuleViolation("po_czasie", gettext_noop("Czas na odpowiedź minął."))
    if command.option != d.PARRY:
        return _land(state, prompt, rng)
    parried = _parry(defender, prompt.id, rng)
    return [parried] if parried.success else [parried, *_land(state, prompt, rng)]


def check_option(option: str) -> None:
    if option not in (d.PARRY, d.NO_REACTION):
        msg = gettext_noop("Tej reakcji nie można tu użyć.")
        raise RuleViolation("reakcja", msg, option=option)


def _end_turn(state: Duel, command: d.EndTurn, rng: RNG) -> list[Event]:
    """The next standing fighter in order acts; after the last, a new round. By post: a pass."""
    me = _actor(state, command.actor, standing=False)
    _require_no_prompt(state)
    return _then_next_round(state, [d.TurnEnded(me.id)], rng, command.now)


def _expire(state: Duel, command: d.ResolveExpired, rng: RNG) -> list[Event]:
    """A prompt past its deadline lands as no reaction; by post, a round past its deadline
    ends (who has not acted loses the turn) and the next begins."""
    prompt = state.prompt
    if prompt is not None and prompt.deadline <= command.now:
        return _land(state, prompt, rng, expired=True)
    deadline = next_deadline(state)
    if prompt is not None or deadline is None or deadline > command.now:
        raise RuleViolation("nic_nie_czeka", gettext_noop("Nic nie czeka na rozstrzygnięcie."))
    return _then_next_round(state, [d.RoundExpired(state.to_act)], rng, command.now)


# --- the battle map: square fields, a metre each -----------------------------------------------


def _place(state: Duel, command: d.PlaceCombatant) -> list[Event]:
    """A token onto a free, passable field (or off the map)."""
    target, m = vocabulary.combatant(state, command.target), require_map(state)
    if command.to is not None:
        _check_free(state, m, command.to, but=target.id)
    return [d.CombatantPlaced(target.id, command.to)]


def _check_free(state: Duel, m: battlemap.BattleMap, to: d.Field, but: str = "") -> None:
    """A token may stand on `to`: a passable field of the map nobody else stands on."""
    if not m.passable(to):
        msg = gettext_noop("Pole %(field)s jest poza mapą lub zablokowane.")
        raise RuleViolation("sciana", msg, field=battlemap.label(to))
    if to in _occupied(state, but):
        msg = gettext_noop("Pole %(field)s jest zajęte.")
        raise RuleViolation("zajete_pole", msg, field=battlemap.label(to))


def _move(state: Duel, command: d.Move) -> list[Event]:
    """Along a path from the token's field, never through an enemy nor onto anyone, within the
    turn's fields of movement (a run spends the attack)."""
    m, me, path = require_map(state), _actor(state, command.actor, post=False), command.path
    if me.position is None:
        raise RuleViolation("bez_pionka", gettext_noop("%(name)s nie stoi na mapie."), name=me.name)
    if len(path) < 2 or path[0] != me.position:
        raise RuleViolation("sciezka", gettext_noop("Ścieżka zaczyna się na polu postaci."))
    cost = battlemap.path_cost(m, path)
    enemies = {f.position for f in state.combatants.values() if f.side != me.side and not f.down}
    crossed = next((f for f in path[1:] if f in enemies), None)
    if crossed is not None:
        field = battlemap.label(crossed)
        raise RuleViolation("wrog", gettext_noop("Na polu %(field)s stoi wróg."), field=field)
    _check_free(state, m, path[-1])
    if command.mode == d.RUN and state.attacked:
        raise RuleViolation("bieg", gettext_noop("Po ataku nie można już biec."))
    if cost > (left := d.MOVE_FIELDS[command.mode] - state.moved):
        msg = gettext_noop("Za daleko: %(cost)d pól, zostało %(left)d.")
        raise RuleViolation("za_daleko", msg, cost=cost, left=max(0, left))
    return [d.Moved(me.id, path, cost, command.mode)]


def refusal(state: Duel, command: d.Move) -> RuleViolation | None:
    """Why the rules would refuse this move (None: they take it); a move rolls nothing."""
    try:
        _move(state, command)
    except RuleViolation as refused:
        return refused
    return None


def _occupied(state: Duel, but: str = "") -> list[tuple[int, int]]:
    return [f.position for f in state.combatants.values() if f.position and f.id != but]


def require_map(state: Duel) -> battlemap.BattleMap:
    if state.battlemap is None:
        raise RuleViolation("brak_mapy", gettext_noop("To starcie nie ma mapy."))
    return state.battlemap


# --- what follows from the rules ---------------------------------------------------------------


def _new_round(state: Duel, rng: RNG, now: float) -> list[Event]:
    """Everyone standing rolls d20 + Atak; higher goes first (ties: higher Atak, then name).
    By post the round ends `post_hours` from `now`."""
    standing = [f for f in state.combatants.values() if not f.down]
    rolls = {f: d.InitiativeRolled(f.id, rng.randint(1, 20), f.atak) for f in standing}
    order = sorted(standing, key=lambda f: (-rolls[f].total, -f.atak, f.name, f.id))
    deadline = now + state.settings.post_hours * d.HOUR if state.by_post else None
    return [d.RoundStarted(state.round + 1, tuple(f.id for f in order), deadline), *rolls.values()]


def _parry(defender: Fighter, prompt: str, rng: RNG) -> d.Parried:
    return d.Parried(prompt, defender.id, rng.randint(1, 100), defender.parry_threshold)


def _land(state: Duel, prompt: Prompt, rng: RNG, *, expired: bool = False) -> list[Event]:
    """The hit lands for d6 + the attacker's Premia; a side left standing alone wins."""
    bonus = state.combatants[prompt.attacker].weapon_bonus
    struck = d.Struck(
        prompt.id, prompt.attacker, prompt.defender, rng.randint(1, 6), bonus, expired
    )
    sides = _standing_sides(evolve(state, struck))
    return [struck] if len(sides) > 1 else [struck, d.CombatEnded(next(iter(sides), None))]


# --- checks ------------------------------------------------------------------------------------


def _require_stage(state: Duel, *stages: str) -> None:
    if state.stage in stages:
        return
    if state.stage == "ended":
        raise RuleViolation("koniec", gettext_noop("Pojedynek już się skończył."))
    if state.stage == "setup":
        raise RuleViolation("przed_walka", gettext_noop("Pojedynek jeszcze się nie zaczął."))
    raise RuleViolation("trwa", gettext_noop("Pojedynek już trwa."))


def _actor(state: Duel, actor: str, *, standing: bool = True, post: bool = True) -> Fighter:
    """The acting fighter, if it may act now: live, in its turn (and, but to end it, still
    standing); by post (where `post` allows it), standing and yet to act this round."""
    _require_stage(state, "fight")
    me, current = vocabulary.combatant(state, actor), state.current
    if current != me.id and not (post and state.by_post):
        name = state.combatants[current].name if current else "–"
        msg = gettext_noop("Nie twoja tura: teraz działa %(name)s.")
        raise RuleViolation("nie_twoja_tura", msg, name=name, current=current or "")
    if me.down and (standing or state.by_post):
        raise RuleViolation("pokonany", gettext_noop("%(name)s jest pokonany."), name=me.name)
    if state.by_post and me.id not in state.to_act:
        msg = gettext_noop("%(name)s już działał w tej rundzie.")
        raise RuleViolation("juz_dzialal", msg, name=me.name)
    return me


def _require_no_prompt(state: Duel) -> None:
    if state.prompt is not None:
        name = state.combatants[state.prompt.defender].name
        msg = gettext_noop("Najpierw %(name)s musi odpowiedzieć na atak.")
        raise RuleViolation("czeka_na_odpowiedz", msg, name=name)


def open_prompt(state: Duel, prompt_id: str) -> Prompt:
    if state.prompt is None or state.prompt.id != prompt_id:
        msg = gettext_noop("To pytanie jest już zamknięte.")
        raise RuleViolation("brak_pytania", msg, prompt=prompt_id)
    return state.prompt


def _standing_sides(state: Duel) -> set[str]:
    return {f.side for f in state.combatants.values() if not f.down}


def next_deadline(state: Duel) -> float | None:
    """The open prompt's, else (by post) the round's."""
    if state.prompt is not None:
        return state.prompt.deadline
    return state.deadline if state.by_post and state.stage == "fight" else None


def resume(state: Duel, *, paused_at: float, now: float, minimum: float) -> list[Event]:
    """The open prompt (by post, the round) gets the time it had left at `paused_at`."""
    deadline = next_deadline(state)
    if deadline is None:
        return []
    prompt = state.prompt.id if state.prompt else ""
    return [d.DeadlineMoved(prompt, now + max(deadline - paused_at, minimum))]


# --- evolve: the state after one event; never rolls --------------------------------------------


def evolve(state: Duel, event: Event) -> Duel:
    match event:
        case d.Joined(combatant=c):
            return replace(state, combatants={**state.combatants, c.id: c})
        case d.RoundStarted():
            combatants = {cid: replace(f, initiative=None) for cid, f in state.combatants.items()}
            return replace(state, stage="fight", round=event.round, order=event.order, turn=0,
                           attacked=False, combatants=combatants, deadline=event.deadline, acted=(),
                           moved=0)  # fmt: skip
        case d.InitiativeRolled():
            return vocabulary.edit(state, event.fighter, initiative=event.total)
        case d.Attacked(prompt=str(pid)) if event.deadline is not None:
            prompt = Prompt(pid, event.attacker, event.target, event.deadline)
            opened = state.prompts_opened + 1
            return replace(state, attacked=True, prompt=prompt, prompts_opened=opened)
        case d.Attacked():
            return _acted(replace(state, attacked=True), event.attacker)
        case d.Parried():
            return replace(state, prompt=None) if event.success else state
        case d.Struck():
            damage = state.combatants[event.target].damage + event.damage
            return replace(vocabulary.edit(state, event.target, damage=damage), prompt=None)
        case d.TurnEnded() if state.by_post:
            return _acted(state, event.actor)
        case d.TurnEnded():
            return replace(state, turn=_next_turn(state), attacked=False, moved=0)
        case d.MapEdited():
            m = battlemap.apply_edit(state.battlemap, event.edit, "square", 1)
            if m is not None:
                return replace(state, battlemap=m)
            gone = {cid: replace(f, position=None) for cid, f in state.combatants.items()}
            return replace(state, battlemap=None, combatants=gone)
        case d.HiddenSet() | d.StatsRevealed() | d.CombatantPlaced():
            return vocabulary.evolve(state, event)
        case d.Moved():
            moved = vocabulary.edit(state, event.actor, position=event.path[-1])
            spent = event.mode == d.RUN or state.attacked
            return replace(moved, moved=state.moved + event.cost, attacked=spent)
        case d.RoundExpired():
            return replace(state, acted=(*state.acted, *event.missed))
        case d.CombatEnded():
            return replace(state, stage="ended", winner=event.winner, prompt=None)
        case d.SetLife():
            return vocabulary.edit(
                state, event.target, damage=state.combatants[event.target].zycie - event.life
            )
        case d.DeadlineMoved() if state.prompt and state.prompt.id == event.prompt:
            return replace(state, prompt=replace(state.prompt, deadline=event.deadline))
        case d.DeadlineMoved() if event.prompt == "" and state.deadline is not None:
            return replace(state, deadline=event.deadline)
    raise ValueError(f"unknown event: {event!r}")


def _acted(state: Duel, fighter: str) -> Duel:
    """By post: `fighter` has had its turn this round."""
    if not state.by_post or fighter in state.acted:
        return state
    return replace(state, acted=(*state.acted, fighter))


def _next_turn(state: Duel) -> int:
    """The index of the next fighter in order still standing; past the end when none is."""
    later = range(state.turn + 1, len(state.order))
    return next((i for i in later if not state.combatants[state.order[i]].down), len(state.order))
