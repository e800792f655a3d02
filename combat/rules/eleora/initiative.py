"""Inicjatywa: 2d6 + Intuicja rolled once per combat, the order, its tie-breaks and yielding.

Ties are broken as the document says: higher Intuicja first; still tied, each tied character
rolls one more d6, again and again until one is higher. Every tie-break roll is recorded, so
an order can be replayed from the log without an RNG.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.dice import RNG
from combat.rules.eleora.settings import DEFAULT_SETTINGS, TableSettings


@dataclass(frozen=True)
class InitiativeRoll:
    """One character's initiative: the two d6, its Intuicja, and whether the player rolled."""

    combatant: str
    faces: tuple[int, int]
    intuicja: int
    supplied: bool = False

    @property
    def total(self) -> int:
        return sum(self.faces) + self.intuicja


@dataclass(frozen=True)
class TieBreak:
    """One round of extra d6 among characters still tied: `faces[i]` belongs to `contenders[i]`."""

    contenders: tuple[str, ...]
    faces: tuple[int, ...]


@dataclass(frozen=True)
class InitiativeOrder:
    """Who acts first to last, from which rolls, and every tie-break roll made to decide it."""

    order: tuple[str, ...]
    rolls: tuple[InitiativeRoll, ...]
    tiebreaks: tuple[TieBreak, ...]


def roll_initiative(rng: RNG, combatant: str, intuicja: int) -> InitiativeRoll:
    """Roll 2d6 for a character through the injected RNG."""
    return InitiativeRoll(combatant, (rng.randint(1, 6), rng.randint(1, 6)), intuicja)


def supplied_initiative(combatant: str, faces: Sequence[int], intuicja: int) -> InitiativeRoll:
    """A 2d6 the player rolled at the table; exactly two faces of 1–6, or ValueError."""
    if len(faces) != 2:
        raise ValueError(f"initiative is two d6, got {len(faces)} faces")
    if any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6 for f in faces):
        raise ValueError(f"a d6 face must be a whole number from 1 to 6, got {list(faces)}")
    return InitiativeRoll(combatant, (faces[0], faces[1]), intuicja, supplied=True)


def order_initiative(rolls: Iterable[InitiativeRoll], rng: RNG) -> InitiativeOrder:
    """Order highest first, breaking ties by Intuicja and then by d6 roll-offs via `rng`."""

    def draw(contenders: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in contenders)

    return _order(tuple(rolls), draw)


def replay_initiative(
    rolls: Iterable[InitiativeRoll], tiebreaks: Sequence[TieBreak]
) -> InitiativeOrder:
    """The same order again from recorded tie-breaks; ValueError if the record does not fit."""
    recorded: Iterator[TieBreak] = iter(tiebreaks)

    def draw(contenders: tuple[str, ...]) -> tuple[int, ...]:
        entry = next(recorded, None)
        if entry is None or entry.contenders != contenders:
            raise ValueError(f"no recorded tie-break for {', '.join(contenders)}")
        if any(not 1 <= f <= 6 for f in entry.faces) or len(entry.faces) != len(contenders):
            raise ValueError(f"bad recorded tie-break faces {entry.faces}")
        return entry.faces

    result = _order(tuple(rolls), draw)
    if next(recorded, None) is not None:
        raise ValueError("more tie-breaks recorded than the order needs")
    return result


def yield_initiative(current: int, by: int) -> int:
    """Oddanie inicjatywy: the lowered value (by ≥ 1); it stays lowered for the whole combat."""
    if isinstance(by, bool) or not isinstance(by, int) or by < 1:
        raise RuleViolation(
            "oddanie_inicjatywy", gettext_noop("Inicjatywę można obniżyć o co najmniej 1."), by=by
        )
    return current - by


def reorder_after_yield(
    order: Sequence[str], values: Mapping[str, int], yielded: str
) -> tuple[str, ...]:
    """Move `yielded` behind everyone whose initiative is ≥ its new value; others keep order.

    DEFAULT: a character who yields into a tie acts after the ones it ties with (it chose to
    wait), so no new tie-break is rolled.
    """
    if yielded not in order:
        raise ValueError(f"{yielded} is not in the initiative order")
    others = [c for c in order if c != yielded]
    position = 0
    for index, combatant in enumerate(others):
        if values[combatant] >= values[yielded]:
            position = index + 1
    return (*others[:position], yielded, *others[position:])


def dazed_by_initiative(before: int, after: int) -> bool:
    """Initiative falling to 0 or below leaves the character Ogłuszona for that turn."""
    return after <= 0 < before


def actions_this_turn(dazed: bool, settings: TableSettings = DEFAULT_SETTINGS) -> int:
    """Actions in a turn: one when Ogłuszona/Oszołomiona, else the table's usual two."""
    return 1 if dazed else settings.actions_per_turn


def _order(
    rolls: tuple[InitiativeRoll, ...], draw: Callable[[tuple[str, ...]], tuple[int, ...]]
) -> InitiativeOrder:
    names = [r.combatant for r in rolls]
    if len(set(names)) != len(names):
        raise ValueError("each combatant may roll initiative only once")
    ranked = sorted(rolls, key=lambda r: (-r.total, -r.intuicja))
    tiebreaks: list[TieBreak] = []
    order: list[str] = []
    for _, group in groupby(ranked, key=lambda r: (r.total, r.intuicja)):
        tied = tuple(r.combatant for r in group)
        order.extend(_roll_off(tied, draw, tiebreaks))
    return InitiativeOrder(tuple(order), rolls, tuple(tiebreaks))


def _roll_off(
    tied: tuple[str, ...],
    draw: Callable[[tuple[str, ...]], tuple[int, ...]],
    record: list[TieBreak],
) -> list[str]:
    """Order characters with equal initiative and Intuicja by repeated d6 (highest first)."""
    if len(tied) == 1:
        return list(tied)
    faces = draw(tied)
    record.append(TieBreak(tied, faces))
    by_face = sorted(zip(tied, faces, strict=True), key=lambda pair: -pair[1])
    ordered: list[str] = []
    # Each set still equal rolls again among itself; a 3-way tie may split 1 + 2, and so on.
    for _, same in groupby(by_face, key=lambda pair: pair[1]):
        ordered.extend(_roll_off(tuple(c for c, _ in same), draw, record))
    return ordered
