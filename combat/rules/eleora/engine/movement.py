"""Ruch (with Bieg, Pływanie, wspinaczka, jazda, Akrobatyka), Szarża and Ucieczka.

The grid maths is grid.py's; this module checks who may move where and records it. With no
map (positions None) the player states the metres and the GM keeps the picture.
"""

from __future__ import annotations

from collections.abc import Sequence

from combat.rules import battlemap, naming
from combat.rules.base import Names, RuleViolation, gettext_noop
from combat.rules.dice import RNG
from combat.rules.eleora import grid
from combat.rules.eleora.attack import skill_pool
from combat.rules.eleora.commands import Evade, Move
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine import space
from combat.rules.eleora.engine.attacks import find_prompt, require_in_time
from combat.rules.eleora.engine.common import (
    Batch,
    require_action,
    require_difficulty,
    require_heroism,
    require_no_prompts,
    require_reaction,
    roll_test,
)
from combat.rules.eleora.events import (
    ActionSpent,
    CombatantChanged,
    ConditionAdded,
    Event,
    HealthChanged,
    MountChanged,
    Moved,
    PromptClosed,
)
from combat.rules.eleora.sheet import derive
from combat.rules.eleora.state import Combatant, EncounterState, Position

_MODE_SKILL = {
    "bieg": "bieganie",
    "plywanie": "plywanie",
    "wspinaczka": "atletyka",
    "jazda": "jezdziectwo",
    "akrobatyka": "akrobatyka",
}


def move(state: EncounterState, cmd: Move, rng: RNG) -> list[Event]:
    """Ruch: a test where the mode needs one, then the move itself (and anyone held, dragged)."""
    require_no_prompts(state)
    c = require_action(state, cmd.actor)
    require_heroism(c, cmd.heroism)
    _check_can_move(c, cmd)
    path = checked_path(state, c, cmd.path)
    batch = Batch(state).add(ActionSpent(actor=c.id, action="ruch", detail=cmd.mode))
    result = _allowance(batch, rng, c, cmd, path)
    _aftermath(batch, c, result)
    if result.wasted or result.metres <= 0:
        return batch.events
    if path and cmd.mode in ROLLED_MODES and not (cmd.mode == "jazda" and not cmd.accelerate):
        # A rolled move on the map goes as far along the path as the test allows.
        path = _cut(state, c, path, result.metres)
        if len(path) < 2:
            return batch.events
    metres = _distance(state, path, cmd.metres, result.metres)
    path, met = ambush(state, c, path)
    if met is not None:
        metres = grid.path_cost(path, space.difficult(state))
    if len(path) != 1:  # () off the map; (start,) when it stopped before its first step
        bonus, leg = _charge_bonus(state, c, path, metres) if cmd.charge else (0, 0)
        batch.add(
            Moved(
                combatant=c.id,
                metres=metres,
                path=path,
                mode=cmd.mode,
                charge_bonus=bonus,
                charge_metres=leg,
            )
        )
        _drag_held(batch, c, path, metres)
    if met is not None:
        batch.add(
            CombatantChanged(
                combatant=met.id,
                hidden=False,
                stopped=c.id,
                name=naming.shown_at(state.combatants, met.id),
            )
        )
    return batch.events


ROLLED_MODES = frozenset({"bieg", "plywanie", "wspinaczka", "jazda", "akrobatyka"})


def _cut(
    state: EncounterState, c: Combatant, path: tuple[Position, ...], allowed: int
) -> tuple[Position, ...]:
    """The longest start of `path` within `allowed` metres that ends on a free field (as far
    as the mover sees: `ambush` stops it at a token it cannot see)."""
    rough = space.difficult(state)
    taken = _seen_taken(state, c)
    used, best = 0, 0
    for i, square in enumerate(path[1:], 1):
        used += 2 if square in rough else 1
        if used > allowed:
            break
        if square not in taken:
            best = i
    return path[: best + 1]


def _seen_taken(state: EncounterState, c: Combatant) -> set[Position]:
    """The fields `c` sees taken: every standing token's but its own and those it cannot see."""
    hidden = space.unseen(state, c)
    return {
        o.position
        for o in state.combatants.values()
        if o.id != c.id and o.status != "dead" and o.position is not None
        if o.position not in hidden
    }


def ambush(
    state: EncounterState, c: Combatant, path: tuple[Position, ...]
) -> tuple[tuple[Position, ...], Combatant | None]:
    """Where a move stops when it runs into a token its mover cannot see (`space.unseen`):
    on the last field before it that it may stand on, also when someone it drags along would
    step onto one; and the token it met (None: the whole path is walked). DEFAULT: the
    document has no rule for it; the move, its action spent, ends there and the token is
    revealed."""
    hidden = space.unseen(state, c)
    if not hidden or len(path) < 2:
        return path, None
    start = path[0]
    meets = dict(hidden)
    for held in _held_by(state, c):
        if held.position is not None:
            dx, dy = held.position[0] - start[0], held.position[1] - start[1]
            for f, who in hidden.items():
                meets.setdefault((f[0] - dx, f[1] - dy), who)
    walked, hit = battlemap.walk_until(path, meets, _seen_taken(state, c))
    return walked, None if hit is None else meets[hit]


def _held_by(state: EncounterState, grabber: Combatant) -> list[Combatant]:
    """Those `grabber` holds Unieruchomieni (they move along with it)."""
    return [
        other
        for other in state.combatants.values()
        if other.status != "dead"
        and any(x.key == "unieruchomienie" and x.source == grabber.id for x in other.conditions)
    ]


def _check_can_move(c: Combatant, cmd: Move) -> None:
    if c.has("unieruchomienie"):
        raise RuleViolation(
            "unieruchomienie", gettext_noop("Unieruchomienie: nie możesz się poruszyć.")
        )
    if c.has("powalenie") and (cmd.mode != "ruch" or cmd.charge):
        raise RuleViolation(
            "powalenie",
            gettext_noop("Powalenie: tylko 1 m zwykłego ruchu, albo wstań (akcja Ruchu)."),
        )
    if cmd.mode == "jazda" and not c.mounted:
        raise RuleViolation(
            "bez_wierzchowca", gettext_noop("Jazda wymaga wierzchowca lub pojazdu.")
        )
    if cmd.mode == "jazda" and not c.steered:
        raise RuleViolation(
            "bez_sterowania",
            gettext_noop(
                "Jazda: bez udanego Sterowania w tej turze wierzchowiec idzie tam, "
                "gdzie zdecyduje Mistrz Gry."
            ),
        )
    if cmd.charge and cmd.mode not in ("ruch", "bieg", "jazda"):
        raise RuleViolation("szarza", gettext_noop("Szarża tylko w ruchu po ziemi lub wierzchem."))


def checked_path(
    state: EncounterState, c: Combatant, path: Sequence[Position]
) -> tuple[Position, ...]:
    """A path on the map (start added if missing), through free or let-pass squares only."""
    if c.position is None:
        if path:
            raise RuleViolation(
                "bez_mapy",
                gettext_noop("%(name)s nie stoi na mapie: podaj tylko metry."),
                name=c.name,
            )
        return ()
    if not path:
        raise RuleViolation("trasa", gettext_noop("Podaj trasę ruchu (kolejne pola)."))
    full = tuple(path) if path[0] == c.position else (c.position, *path)
    try:
        grid.check_path(full)
    except ValueError:
        raise RuleViolation(
            "trasa", gettext_noop("Trasa musi prowadzić przez sąsiednie pola.")
        ) from None
    if state.battlemap is not None:
        battlemap.path_cost(state.battlemap, full)  # off the map, a jump, a wall, an obstacle
    hidden = space.unseen(state, c)  # not checked: the move stops where it meets one
    for i, square in enumerate(full[1:], 1):
        if square not in hidden:
            _check_square(state, c, square, last=i == len(full) - 1)
    return full


def _check_square(state: EncounterState, c: Combatant, square: Position, *, last: bool) -> None:
    for other in state.combatants.values():
        if other.id == c.id or other.position != square or other.status == "dead":
            continue
        if last:
            raise RuleViolation(
                "zajete",
                gettext_noop("Pole %(square)s zajmuje %(name)s."),
                square=space.field_label(state, square),
                name=Names.of(other),
            )
        if not other.conscious:
            continue  # a body on the ground can be stepped over
        if other.side != c.side:
            raise RuleViolation(
                "zajete",
                gettext_noop("Nie można przejść przez pole wroga (%(name)s)."),
                name=Names.of(other),
            )
        if c.id not in other.let_pass:
            raise RuleViolation(
                "przepuszczenie",
                gettext_noop(
                    "Przejście przez pole postaci %(name)s wymaga jej Przepuszczenia (reakcja)."
                ),
                name=Names.of(other),
            )


def _allowance(
    batch: Batch, rng: RNG, c: Combatant, cmd: Move, path: tuple[Position, ...]
) -> grid.MoveResult:
    """Metres this Ruch allows, rolling the mode's test (grid.py reads the result)."""
    s = batch.state.settings
    if cmd.mode == "ruch":
        metres = grid.movement_allowance(s, prone=c.has("powalenie"))
        return grid.MoveResult(None, metres)
    if cmd.mode == "jazda" and not cmd.accelerate:
        return grid.ride(c.mount_pace, None, s)
    skill = _MODE_SKILL[cmd.mode]
    difficulty = _mode_difficulty(cmd)
    pool = skill_pool(batch.state, c, skill, heroism=cmd.heroism)
    roll = roll_test(batch, rng, c.id, skill, pool, difficulty)
    rough = bool(space.difficult(batch.state).intersection(path[1:]))
    match cmd.mode:
        case "bieg":
            return grid.run(roll, on_difficult_terrain=rough, settings=s)
        case "plywanie":
            return grid.swim(roll, difficulty=difficulty or 0, settings=s)
        case "wspinaczka":
            return grid.climb(
                roll, difficulty=difficulty or 0, fall_metres=cmd.fall_metres, settings=s
            )
        case "jazda":
            return grid.ride(c.mount_pace, roll, s)
    return grid.acrobatics_on_rough(roll, difficulty=difficulty or 0, settings=s)


def _mode_difficulty(cmd: Move) -> int | None:
    if cmd.mode == "plywanie":
        return require_difficulty(1 if cmd.difficulty is None else cmd.difficulty, "Pływanie")
    if cmd.mode == "wspinaczka":
        return require_difficulty(cmd.difficulty, "Wspinaczka")
    if cmd.mode == "akrobatyka":
        return require_difficulty(2 if cmd.difficulty is None else cmd.difficulty, "Akrobatyka")
    return None


def _aftermath(batch: Batch, c: Combatant, result: grid.MoveResult) -> None:
    """A stumble on rough ground or a fall leaves the character Powalona; falls and drowning hurt.

    Wola reduces that stun damage unless the table says otherwise (fall_stun_reduced_by_wola).
    """
    if result.prone:
        batch.add(ConditionAdded(combatant=c.id, condition=ConditionInstance("powalenie")))
    if result.fell and c.mounted:
        batch.add(MountChanged(combatant=c.id, mounted=False))  # thrown from the saddle
    drowning = not result.afloat
    if drowning and c.drowned_this_turn:
        return  # „w każdej turze … 2 Obrażenia”: once per turn, not per failed Pływanie
    if result.stun_damage:
        wola = derive(c.sheet).odpornosc if batch.state.settings.fall_stun_reduced_by_wola else 0
        stun = max(0, result.stun_damage - wola)
        reason = result.explanation or "upadek"
        batch.add(HealthChanged(combatant=c.id, stun=stun, reason=reason, drowning=drowning))


def _distance(
    state: EncounterState, path: tuple[Position, ...], stated: int | None, allowed: int
) -> int:
    """Metres actually used: the path's cost on the map, else what the player states."""
    if path:
        metres = grid.path_cost(path, space.difficult(state))
    else:
        metres = allowed if stated is None else stated
    if metres < 0:
        raise RuleViolation("metry", gettext_noop("Odległość nie może być ujemna."))
    if metres > allowed:
        raise RuleViolation(
            "za_daleko",
            gettext_noop("Za daleko: ten Ruch pozwala na %(allowed)s m, trasa to %(metres)s m."),
            allowed=allowed,
            metres=metres,
        )
    return metres


def _charge_bonus(
    state: EncounterState, c: Combatant, path: tuple[Position, ...], metres: int
) -> tuple[int, int]:
    """Szarża: (dice this leg adds, its metres). +1 die per full 2 m of the whole charge this
    turn (every Ruch leg in the same straight line), within the table's cap if any."""
    leg = grid.charge(path, settings=state.settings).metres if path else metres
    if c.charge_step is not None and path and grid.path_step(path) != c.charge_step:
        raise RuleViolation(
            "szarza_nie_prosto",
            gettext_noop(
                "Szarża: kolejny Ruch w tej turze musi biec dalej w tej samej linii prostej."
            ),
        )
    bonus = (c.charge_metres + leg) // 2
    cap = state.settings.charge_cap
    if cap is not None:
        bonus = min(bonus, cap)
    return max(0, bonus - c.charge_bonus), leg


def _drag_held(batch: Batch, grabber: Combatant, path: tuple[Position, ...], metres: int) -> None:
    """Whoever this character holds Unieruchomiony moves along with it.

    It keeps its offset to the grabber; a Ruch that would drag it onto a taken square is
    refused (two bodies never share a square).
    """
    for other in _held_by(batch.state, grabber):
        if path and other.position is not None:
            dx, dy = path[-1][0] - path[0][0], path[-1][1] - path[0][1]
            end = (other.position[0] + dx, other.position[1] + dy)
            _require_free_for_dragged(batch.state, other, end)
            batch.add(
                Moved(
                    combatant=other.id,
                    metres=metres,
                    path=(other.position, end),
                    mode="ciagniety",
                    forced=True,
                )
            )
        else:
            batch.add(Moved(combatant=other.id, metres=metres, mode="ciagniety", forced=True))


def _require_free_for_dragged(state: EncounterState, held: Combatant, end: Position) -> None:
    if state.battlemap is not None and not state.battlemap.passable(end):
        raise RuleViolation(
            "zajete",
            gettext_noop("Nie można pociągnąć postaci %(held)s: pole %(square)s jest zablokowane."),
            held=held.name,
            square=battlemap.label(end),
        )
    for c in state.combatants.values():
        if c.id != held.id and c.position == end and c.status != "dead":
            raise RuleViolation(
                "zajete",
                gettext_noop(
                    "Nie można pociągnąć postaci %(held)s: pole %(square)s zajmuje %(name)s."
                ),
                held=held.name,
                square=space.field_label(state, end),
                name=c.name,
            )


def evade(state: EncounterState, cmd: Evade, rng: RNG) -> list[Event]:
    """Ucieczka: 1 m out of an area attack, +1 m per two Bieganie successes when running."""
    prompt = find_prompt(state, cmd.actor, cmd.prompt, "ucieczka")
    require_in_time(prompt, cmd.now)
    c = require_reaction(state, cmd.actor, defensive=True)
    require_heroism(c, cmd.heroism)
    if c.has("unieruchomienie"):
        raise RuleViolation(
            "unieruchomienie", gettext_noop("Unieruchomienie: nie możesz się poruszyć.")
        )
    path = checked_path(state, c, cmd.path) if c.position is not None else ()
    batch = Batch(state).add(
        PromptClosed(prompt=prompt.id),
        ActionSpent(actor=c.id, action="ucieczka", reaction=True),
    )
    if cmd.run:
        pool = skill_pool(state, c, "bieganie", heroism=cmd.heroism)
        result = grid.evade(roll_test(batch, rng, c.id, "bieganie", pool), state.settings)
    else:
        result = grid.evade(None, state.settings)
    metres = _distance(state, path, None, result.metres)
    path, met = ambush(state, c, path)
    if met is not None:
        metres = grid.path_cost(path, space.difficult(state))
    if len(path) != 1:
        batch.add(Moved(combatant=c.id, metres=metres, path=path, mode="ucieczka"))
    if met is not None:
        batch.add(
            CombatantChanged(
                combatant=met.id,
                hidden=False,
                stopped=c.id,
                name=naming.shown_at(state.combatants, met.id),
            )
        )
    return batch.events
