"""The 1 m square grid: adjacency, reach, flanking, Osaczenie, Szarża, movement and pushes.

Positions are (x, y) squares. A diagonal step is 1 m, so distance is the Chebyshev distance.
Movement helpers take a rolled `PoolRoll`, or a `RollWith` to roll it now through an injected
RNG; every result carries the roll it came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import ceil
from typing import Literal

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import RNG, Modifier, PoolRoll, roll_pool
from combat.rules.eleora.settings import DEFAULT_SETTINGS, CollisionRounding, TableSettings

Position = tuple[int, int]
Rounding = CollisionRounding

NEIGHBOUR_STEPS: tuple[Position, ...] = tuple(
    (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
)


@dataclass(frozen=True)
class RollWith:
    """A pool to roll now: the RNG and the modifiers that build the pool."""

    rng: RNG
    modifiers: tuple[Modifier, ...]


# --- geometry ---------------------------------------------------------------------------------


def distance(a: Position, b: Position) -> int:
    """Metres between two squares (a diagonal step is 1 m)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a: Position, b: Position) -> bool:
    """True for the 8 squares around `a` (not `a` itself)."""
    return distance(a, b) == 1


def neighbours(square: Position) -> tuple[Position, ...]:
    """The 8 squares adjacent to `square`."""
    return tuple((square[0] + dx, square[1] + dy) for dx, dy in NEIGHBOUR_STEPS)


def in_reach(attacker: Position, target: Position, reach: int = 1) -> bool:
    """Whether `target` is within `reach` metres (melee reach = 1: an adjacent square)."""
    if reach < 1:
        raise ValueError("reach is at least 1 m")
    return 1 <= distance(attacker, target) <= reach


def step_towards(start: Position, end: Position) -> Position:
    """The unit step (dx, dy) pointing from `start` towards `end` (e.g. a push away from it)."""
    if start == end:
        raise ValueError("no direction between a square and itself")
    return (_sign(end[0] - start[0]), _sign(end[1] - start[1]))


def check_path(path: Sequence[Position]) -> None:
    """ValueError unless `path` lists the start square and then one adjacent square per metre."""
    if not path:
        raise ValueError("a path needs at least its starting square")
    for a, b in zip(path, path[1:], strict=False):
        if not adjacent(a, b):
            raise ValueError(f"path jumps from {a} to {b}; each step must be to an adjacent square")


# --- flanking and Osaczenie -------------------------------------------------------------------


@dataclass(frozen=True)
class Flank:
    """The best flanking bonus an attacker gets: kind "pelna" (+2), "pol" (+1) or none."""

    kind: Literal["pelna", "pol"] | None
    ally: Position | None
    modifier: Modifier | None


def flanking(
    attacker: Position,
    target: Position,
    allies: Iterable[Position],
    settings: TableSettings = DEFAULT_SETTINGS,
) -> Flank:
    """Flankowanie: full flank with an ally exactly opposite, half flank beside that square.

    DEFAULT §9.13: half flank = an ally adjacent to the target and to the opposite square; only
    allies adjacent to the target count; the attacker must be adjacent; no stacking.
    """
    if not adjacent(attacker, target):
        return Flank(None, None, None)
    opposite = (2 * target[0] - attacker[0], 2 * target[1] - attacker[1])
    near = [a for a in allies if adjacent(a, target) and a != attacker]
    if opposite in near:
        bonus = Modifier(settings.full_flank_bonus, gettext_noop("Flankowanie pełne"))
        return Flank("pelna", opposite, bonus)
    for ally in sorted(near):
        if adjacent(ally, opposite):
            return Flank(
                "pol", ally, Modifier(settings.half_flank_bonus, gettext_noop("Pół-flanka"))
            )
    return Flank(None, None, None)


def osaczenie(
    square: Position, enemies: Iterable[Position], settings: TableSettings = DEFAULT_SETTINGS
) -> Modifier | None:
    """Osaczenie: enough enemies on adjacent squares → a penalty to the Obrona pool, else None."""
    count = sum(1 for e in set(enemies) if adjacent(e, square))
    if count < settings.surrounded_threshold:
        return None
    return Modifier(-settings.surrounded_penalty, f"Osaczenie ({count} przeciwników obok)")


# --- Szarża and terrain -----------------------------------------------------------------------


@dataclass(frozen=True)
class Charge:
    """A Szarża: metres moved in a straight line and the dice for the next attack this turn."""

    metres: int
    end: Position
    modifier: Modifier | None


def charge(
    path: Sequence[Position],
    target: Position | None = None,
    settings: TableSettings = DEFAULT_SETTINGS,
) -> Charge:
    """Szarża along `path` (start first): straight line only, +1 die per full 2 m, capped.

    With `target`, the attack must be on a character adjacent to the square the move ended on.
    """
    check_path(path)
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:], strict=False)}
    if len(steps) > 1:
        raise RuleViolation(
            "szarza_nie_prosto",
            gettext_noop("Szarża tylko w linii prostej (rząd, kolumna lub przekątna)."),
        )
    if target is not None and not adjacent(path[-1], target):
        raise RuleViolation(
            "szarza_cel",
            gettext_noop("Atak po Szarży musi być na postać obok pola, na którym skończyłeś ruch."),
        )
    metres = len(path) - 1
    bonus = metres // 2
    if settings.charge_cap is not None:
        bonus = min(bonus, settings.charge_cap)
    modifier = Modifier(bonus, f"Szarża ({metres} m)") if bonus else None
    return Charge(metres, path[-1], modifier)


def path_step(path: Sequence[Position]) -> Position | None:
    """The first step of a path as (dx, dy); None without at least two squares."""
    if len(path) < 2:
        return None
    return (path[1][0] - path[0][0], path[1][1] - path[0][1])


def path_cost(path: Sequence[Position], difficult: Iterable[Position] = ()) -> int:
    """Metres of movement a path uses: entering a Trudny Teren square costs 2, others 1."""
    check_path(path)
    rough = frozenset(difficult)
    return sum(2 if square in rough else 1 for square in path[1:])


def movement_allowance(
    settings: TableSettings = DEFAULT_SETTINGS,
    *,
    prone: bool = False,
    immobilized: bool = False,
    base: int | None = None,
) -> int:
    """Metres one Ruch allows: base 3 (or a reduced base), 1 when Obalony, 0 when Unieruchomiony."""
    if immobilized:
        return 0
    metres = settings.base_movement if base is None else max(0, base)
    return min(metres, settings.prone_movement) if prone else metres


# --- Ruch with a skill ------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveResult:
    """What one Ruch allowed: metres, and the consequences of the test behind it."""

    roll: PoolRoll | None
    metres: int
    wasted: bool = False
    prone: bool = False
    afloat: bool = True
    fell: bool = False
    stun_damage: int = 0
    explanation: str = ""


def run(
    check: PoolRoll | RollWith,
    *,
    on_difficult_terrain: bool = False,
    settings: TableSettings = DEFAULT_SETTINGS,
) -> MoveResult:
    """Bieg (Bieganie test): +1 m per success; a critical failure stumbles (Obalony on rough)."""
    roll = _rolled(check, settings)
    if _critical(roll, settings):
        why = "Potknięcie: akcja stracona" + (", Obalony" if on_difficult_terrain else "")
        return MoveResult(roll, 0, wasted=True, prone=on_difficult_terrain, explanation=why)
    metres = settings.base_movement + roll.successes
    return MoveResult(
        roll, metres, explanation=f"Bieg: {settings.base_movement} + {roll.successes} m"
    )


def swim(
    check: PoolRoll | RollWith,
    *,
    difficulty: int = 1,
    drowning_damage: int = 2,
    settings: TableSettings = DEFAULT_SETTINGS,
) -> MoveResult:
    """Pływanie vs `difficulty`: pass → 3 m + 1/przebicie; fail → not afloat (0 m), 2 stun."""
    roll = _rolled(check, settings)
    przebicia = roll.successes - _difficulty(difficulty)
    if przebicia < 0:
        why = f"Nie utrzymuje się na wodzie: {drowning_damage} obrażenia ogłuszające"
        return MoveResult(roll, 0, afloat=False, stun_damage=drowning_damage, explanation=why)
    metres = settings.base_movement + przebicia
    return MoveResult(roll, metres, explanation=f"Pływanie: {metres} m")


def climb(
    check: PoolRoll | RollWith,
    *,
    difficulty: int,
    fall_metres: int,
    settings: TableSettings = DEFAULT_SETTINGS,
) -> MoveResult:
    """Wspinaczka (Atletyka vs GM difficulty): pass → 3 m + 1/przebicie; fail → fall, 1 stun/m."""
    roll = _rolled(check, settings)
    if fall_metres < 0:
        raise ValueError("fall height cannot be negative")
    przebicia = roll.successes - _difficulty(difficulty)
    if przebicia < 0:
        why = f"Upadek z {fall_metres} m: {fall_metres} obrażeń ogłuszających"
        return MoveResult(roll, 0, fell=True, stun_damage=fall_metres, explanation=why)
    metres = settings.base_movement + przebicia
    return MoveResult(roll, metres, explanation=f"Wspinaczka: {metres} m")


def ride(
    pace: int,
    check: PoolRoll | RollWith | None = None,
    settings: TableSettings = DEFAULT_SETTINGS,
) -> MoveResult:
    """Jazda: Sterowanie pace + 1 m per Jeździectwo success; critical failure → fall, Obalony."""
    if pace < 0:
        raise ValueError("a pace cannot be negative")
    if check is None:
        return MoveResult(None, pace, explanation=f"Tempo: {pace} m")
    roll = _rolled(check, settings)
    if _critical(roll, settings):
        # DEFAULT: the rider falls where it is and moves no further.
        return MoveResult(roll, 0, fell=True, prone=True, explanation="Upadek z wierzchowca")
    return MoveResult(roll, pace + roll.successes, explanation=f"Tempo {pace} + {roll.successes} m")


def acrobatics_on_rough(
    check: PoolRoll | RollWith, *, difficulty: int = 2, settings: TableSettings = DEFAULT_SETTINGS
) -> MoveResult:
    """Akrobatyka on Trudny Teren (difficulty 2): metres of movement = 3 + 1 per przebicie.

    DEFAULT: the extra metres join the movement, which rough squares still charge at 2 each;
    a failed test leaves the plain 3 m.
    """
    roll = _rolled(check, settings)
    przebicia = max(0, roll.successes - _difficulty(difficulty))
    metres = settings.base_movement + przebicia
    return MoveResult(roll, metres, explanation=f"Akrobatyka: {metres} m ruchu")


def evade(
    check: PoolRoll | RollWith | None = None, settings: TableSettings = DEFAULT_SETTINGS
) -> MoveResult:
    """Ucieczka: 1 m, plus 1 m per two successes of an optional Bieganie test."""
    if check is None:
        return MoveResult(None, 1, explanation="Ucieczka: 1 m")
    roll = _rolled(check, settings)
    return MoveResult(
        roll, 1 + roll.successes // 2, explanation=f"Ucieczka: 1 + {roll.successes // 2} m"
    )


def _rolled(check: PoolRoll | RollWith, settings: TableSettings) -> PoolRoll:
    if isinstance(check, PoolRoll):
        return check
    return roll_pool(check.rng, check.modifiers, settings.success_faces)


def _critical(roll: PoolRoll, settings: TableSettings) -> bool:
    """Krytyczna porażka: 0 successes on a rolled pool (and a 1 showing, if the table says so)."""
    return roll.is_critical(settings.critical_failure_needs_one)


def _difficulty(value: int) -> int:
    if value < 0:
        raise ValueError("a difficulty (Trudność) cannot be negative")
    return value


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


# --- Wymuszone Poruszanie ---------------------------------------------------------------------


@dataclass(frozen=True)
class Body:
    """Something on the grid: a living creature (character, animal) or an object."""

    key: str
    position: Position
    living: bool = True


@dataclass(frozen=True)
class Push:
    """A forced movement: `metres` squares along the unit step `direction` (see step_towards)."""

    key: str
    direction: Position
    metres: int


@dataclass(frozen=True)
class PushDamage:
    """Stun damage from a forced movement, with the document's rule number (1–4) and why."""

    target: str
    amount: int
    rule: int
    reason: str
    other: str | None = None


@dataclass(frozen=True)
class PushResult:
    """Final squares of every body, metres each pushed body moved, and the damage dealt."""

    positions: Mapping[str, Position]
    moved: Mapping[str, int]
    damage: tuple[PushDamage, ...]


def forced_movement(
    bodies: Iterable[Body],
    pushes: Iterable[Push],
    walls: Iterable[Position] = (),
    *,
    collision_rounding: Rounding = "up",
) -> PushResult:
    """Resolve simultaneous pushes metre by metre, applying the four Wymuszone Poruszanie rules.

    (1) each metre a creature cannot complete: 1 stun; (2) a creature stopped by another living
    creature: that damage split equally, rounding up, each taking the half; (3) a moved object
    stopped by a creature: the creature takes it all; (4) two or more bodies entering one square
    (or swapping squares): none moves, each creature takes half its missing metres (DEFAULT:
    rounded up). Objects take no stun damage; a push meeting a contested square is rule 4 first.
    """
    state = _PushState.start(tuple(bodies), tuple(pushes), frozenset(walls), collision_rounding)
    while state.active():
        state.step()
    return PushResult(dict(state.positions), dict(state.moved), tuple(state.events))


class _PushState:
    """Mutable bookkeeping while pushes resolve; only `forced_movement` sees it."""

    def __init__(
        self, bodies: tuple[Body, ...], walls: frozenset[Position], rounding: Rounding
    ) -> None:
        self.positions = {b.key: b.position for b in bodies}
        self.living = {b.key: b.living for b in bodies}
        self.walls = walls
        self.rounding: Rounding = rounding
        self.direction: dict[str, Position] = {}
        self.remaining: dict[str, int] = {}
        self.moved: dict[str, int] = {}
        self.events: list[PushDamage] = []

    @classmethod
    def start(
        cls,
        bodies: tuple[Body, ...],
        pushes: tuple[Push, ...],
        walls: frozenset[Position],
        rounding: Rounding,
    ) -> _PushState:
        _check_bodies(bodies, walls)
        state = cls(bodies, walls, rounding)
        for push in pushes:
            _check_push(push, state.positions, state.remaining)
            state.direction[push.key] = push.direction
            state.remaining[push.key] = push.metres
            state.moved[push.key] = 0
        return state

    def active(self) -> list[str]:
        return [key for key, left in self.remaining.items() if left > 0]

    def step(self) -> None:
        """Advance every still-moving body one metre, stopping those that cannot go on."""
        intents = {k: _add(self.positions[k], self.direction[k]) for k in self.active()}
        for key in [k for k, square in intents.items() if square in self.walls]:
            self._hurt(key, self._stop(key, intents), 1, "uderzenie w przeszkodę")
        for key, partners in self._clashes(intents).items():
            missing = self._stop(key, intents)
            why = "zderzenie przy wejściu na to samo pole"
            self._hurt(key, _half(missing, self.rounding), 4, why, ", ".join(sorted(partners)))
        for key, blocker in self._blocked_by_bodies(intents).items():
            self._bump(key, blocker, self._stop(key, intents))
        for key, square in intents.items():
            self.positions[key] = square
            self.remaining[key] -= 1
            self.moved[key] += 1

    def _clashes(self, intents: Mapping[str, Position]) -> dict[str, set[str]]:
        """Rule 4: movers entering one square, or swapping squares, with whom each collides."""
        partners: dict[str, set[str]] = {}
        at = {square: key for key, square in self.positions.items()}
        for key, square in intents.items():
            same = {k for k, s in intents.items() if s == square and k != key}
            other = at.get(square)
            if other is not None and other in intents and intents[other] == self.positions[key]:
                same.add(other)  # a swap: both would pass through each other
            if same:
                partners[key] = same
        return partners

    def _blocked_by_bodies(self, intents: Mapping[str, Position]) -> dict[str, str]:
        """Movers whose next square holds a body that is not itself moving away this metre."""
        at = {square: key for key, square in self.positions.items()}
        blocked: dict[str, str] = {}
        changed = True
        while changed:
            changed = False
            for key, square in intents.items():
                occupant = at.get(square)
                if key in blocked or occupant is None:
                    continue
                if occupant not in intents or occupant in blocked:
                    blocked[key] = occupant
                    changed = True
        return blocked

    def _bump(self, key: str, blocker: str, missing: int) -> None:
        """Rules 1–3 for a mover stopped by the body in its way."""
        if self.living[key] and self.living[blocker]:
            half = _half(missing, "up")  # rule 2 says: odd numbers round up
            self._hurt(key, half, 2, "zderzenie z inną istotą", blocker)
            self._hurt(blocker, half, 2, "trafiony przez przesuniętą istotę", key)
        elif self.living[key]:
            self._hurt(key, missing, 1, "uderzenie w przedmiot", blocker)
        elif self.living[blocker]:
            self._hurt(blocker, missing, 3, "trafiony przesuniętym przedmiotem", key)

    def _stop(self, key: str, intents: dict[str, Position]) -> int:
        """Stop a mover where it stands; returns the metres it did not complete."""
        missing = self.remaining[key]
        self.remaining[key] = 0
        intents.pop(key, None)
        return missing

    def _hurt(
        self, target: str, amount: int, rule: int, reason: str, other: str | None = None
    ) -> None:
        # Objects take no stun damage; they only pass it on (rule 3).
        if amount > 0 and self.living[target]:
            self.events.append(PushDamage(target, amount, rule, reason, other))


def _check_bodies(bodies: tuple[Body, ...], walls: frozenset[Position]) -> None:
    keys = [b.key for b in bodies]
    squares = [b.position for b in bodies]
    if len(set(keys)) != len(keys):
        raise ValueError("two bodies share a key")
    if len(set(squares)) != len(squares):
        raise ValueError("two bodies stand on one square")
    if any(square in walls for square in squares):
        raise ValueError("a body stands inside a wall")


def _check_push(push: Push, positions: Mapping[str, Position], seen: Mapping[str, int]) -> None:
    if push.key not in positions:
        raise ValueError(f"nothing called {push.key!r} is on the grid")
    if push.key in seen:
        raise ValueError(f"{push.key!r} is pushed twice; combine the pushes first")
    if push.direction not in NEIGHBOUR_STEPS:
        raise ValueError(f"a push direction is a unit step such as (1, 0), got {push.direction}")
    if push.metres < 0:
        raise ValueError("a push cannot be negative")


def _add(square: Position, step: Position) -> Position:
    return (square[0] + step[0], square[1] + step[1])


def _half(value: int, rounding: Rounding) -> int:
    return ceil(value / 2) if rounding == "up" else value // 2
