"""Dice pools rolled through an injected RNG; every roll is returned as data."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from combat.rules.base import RNG


@dataclass(frozen=True)
class Modifier:
    """Dice added to (positive) or removed from (negative) a pool, with the rule that did it."""

    dice: int
    reason: str


@dataclass(frozen=True)
class PoolRoll:
    """One rolled pool of d6: the modifiers that built it, every face and the successes."""

    modifiers: tuple[Modifier, ...]
    faces: tuple[int, ...]
    successes: int

    @property
    def size(self) -> int:
        return len(self.faces)

    @property
    def critical_failure(self) -> bool:
        """Zero successes on a pool that was actually rolled (a pool of 0 dice is not one)."""
        return self.size > 0 and self.successes == 0

    def is_critical(self, needs_one: bool = False) -> bool:
        """Critical failure under a table's rule (`critical_failure_needs_one`: a 1 must show)."""
        return self.critical_failure and (not needs_one or 1 in self.faces)


def pool_size(modifiers: Iterable[Modifier]) -> int:
    """Dice in a pool built from modifiers; a pool reduced below 0 rolls no dice."""
    return max(0, sum(m.dice for m in modifiers))


def count_successes(faces: Iterable[int], success_faces: frozenset[int]) -> int:
    return sum(1 for face in faces if face in success_faces)


def roll_pool(rng: RNG, modifiers: Iterable[Modifier], success_faces: frozenset[int]) -> PoolRoll:
    """Roll the pool the modifiers describe and count the success faces."""
    mods = tuple(modifiers)
    faces = tuple(rng.randint(1, 6) for _ in range(pool_size(mods)))
    return PoolRoll(modifiers=mods, faces=faces, successes=count_successes(faces, success_faces))


def replay_pool(
    modifiers: Iterable[Modifier], faces: Iterable[int], success_faces: frozenset[int]
) -> PoolRoll:
    """Rebuild a roll from recorded faces (replaying a log never re-rolls)."""
    mods = tuple(modifiers)
    recorded = tuple(faces)
    if len(recorded) != pool_size(mods):
        raise ValueError("recorded faces do not match the pool size")
    if any(not 1 <= f <= 6 for f in recorded):
        raise ValueError("a d6 face must be between 1 and 6")
    return PoolRoll(
        modifiers=mods, faces=recorded, successes=count_successes(recorded, success_faces)
    )


def check_roll(roll: PoolRoll) -> None:
    """A recorded roll must be a possible roll (the codec checks every roll it reads)."""
    if len(roll.faces) != pool_size(roll.modifiers):
        raise ValueError("recorded faces do not match the pool size")
    if any(not 1 <= f <= 6 for f in roll.faces) or not 0 <= roll.successes <= len(roll.faces):
        raise ValueError("impossible roll")
