"""The Step/Action Dice table as data: which dice a step rolls, GM-editable.

DEFAULT is the ED1 table of the digest (shared/rules/magus.md §1): steps 1–38 as listed there,
39–100 by the table's own rule, read off its listed rows: from step 14 on, a step rolls the
dice of the step 11 below plus d20 (steps 14–24, 36–46, 58–68, 80–90) or plus d10+d8 (steps
25–35, 47–57, 69–79, 91–100), the two alternating every 11 steps. The same rows are the
"first edition" table of the Foundry system the digest names (module/dice/step-tables.mjs).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from combat.rules.base import RuleViolation, gettext_noop

MAX_DIE_SIZE = 100
MAX_DICE = 40
MAX_MODIFIER = 100
DEFAULT_HIGHEST_STEP = 100

_TERM = re.compile(r"([+-])\s*(?:(\d+)?\s*[dk]\s*(\d+)|(\d+))", re.IGNORECASE)


@dataclass(frozen=True)
class ActionDice:
    """The dice of one step: die sizes (largest first) summed, plus a flat modifier."""

    dice: tuple[int, ...]
    modifier: int = 0

    def notation(self, letter: str = "d") -> str:
        """ "d20+d10+2d8", "d4-2"; `letter="k"` gives the Polish "k20+k10+2k8"."""
        parts = []
        for size in sorted(set(self.dice), reverse=True):
            count = self.dice.count(size)
            parts.append(f"{count if count > 1 else ''}{letter}{size}")
        text = "+".join(parts)
        return text + (f"{self.modifier:+d}" if self.modifier else "")

    def __str__(self) -> str:
        return self.notation()


def parse_dice(text: str) -> ActionDice:
    """ "d20+d10+2d8", "1d4 - 2", "k12+k10" (Polish k) → ActionDice; ValueError when malformed."""
    if not isinstance(text, str):
        raise ValueError(f"kości trzeba zapisać tekstem, np. „d20+d4”, jest {text!r}")
    source = text.strip().replace("−", "-").replace("–", "-")
    if not source:
        raise ValueError("brak kości: zapis jest pusty")
    if source[0] not in "+-":
        source = "+" + source
    dice: list[int] = []
    modifier = 0
    position = 0
    for match in _TERM.finditer(source):
        if source[position : match.start()].strip():
            break
        sign, count, size, flat = match.groups()
        position = match.end()
        if flat is not None:
            modifier += int(flat) if sign == "+" else -int(flat)
            continue
        if sign == "-":
            raise ValueError(f"kości nie można odejmować: {text!r}")
        dice += _dice_term(int(count) if count else 1, int(size), text)
    if source[position:].strip():
        raise ValueError(f"nie można odczytać {text!r}: zapisz kości np. „d20+d10+2d8” albo „d4-2”")
    return _checked(dice, modifier, text)


def _dice_term(count: int, size: int, text: str) -> list[int]:
    if count < 1:
        raise ValueError(f"liczba kości musi wynosić co najmniej 1: {text!r}")
    if not 2 <= size <= MAX_DIE_SIZE:
        raise ValueError(f"kość musi mieć od 2 do {MAX_DIE_SIZE} ścianek, jest d{size} w {text!r}")
    return [size] * count


def _checked(dice: list[int], modifier: int, text: str) -> ActionDice:
    if not dice:
        raise ValueError(f"stopień musi rzucać co najmniej jedną kością, jest {text!r}")
    if len(dice) > MAX_DICE:
        raise ValueError(
            f"stopień może rzucać najwyżej {MAX_DICE} kośćmi, jest {len(dice)} w {text!r}"
        )
    if abs(modifier) > MAX_MODIFIER:
        raise ValueError(f"stała premia musi mieścić się w ±{MAX_MODIFIER}, jest {modifier:+d}")
    return ActionDice(tuple(sorted(dice, reverse=True)), modifier)


@dataclass(frozen=True)
class StepTable:
    """Steps 1..len(rows): `rows[i]` are the dice of step i + 1."""

    rows: tuple[ActionDice, ...]

    def __post_init__(self) -> None:
        if not self.rows:
            raise ValueError("tabela stopni musi mieć co najmniej stopień 1")

    @property
    def highest(self) -> int:
        return len(self.rows)

    def dice_for(self, step: int) -> ActionDice:
        """The dice of a step; RuleViolation for a step the table does not hold."""
        if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= self.highest:
            raise RuleViolation(
                "step_out_of_table",
                gettext_noop("Stopień %(step)s poza tabelą stopni (1–%(highest)s)"),
                step=step,
                highest=self.highest,
            )
        return self.rows[step - 1]

    def to_dict(self) -> dict[str, str]:
        """{"1": "d4-2", …}: the JSON form of a table setting; `parse_step_table` reads it."""
        return {str(step): dice.notation() for step, dice in enumerate(self.rows, start=1)}


def parse_step_table(data: Mapping[Any, object]) -> StepTable:
    """A GM-edited table {step: "d20+d10+2d8"} (keys ints or digit strings, steps 1..N, none
    missing) → StepTable; ValueError naming the bad entry."""
    if not isinstance(data, Mapping) or not data:
        raise ValueError(
            "tabela stopni musi przypisywać kości stopniom (stopień → kości) i nie może być pusta"
        )
    rows: dict[int, ActionDice] = {}
    for key, value in data.items():
        step = _step_key(key)
        if step in rows:
            raise ValueError(f"stopień {step} podano dwa razy")
        try:
            rows[step] = parse_dice(value)  # type: ignore[arg-type]  # parse_dice checks it
        except ValueError as error:
            raise ValueError(f"stopień {step}: {error}") from None
    missing = [s for s in range(1, max(rows) + 1) if s not in rows]
    if missing:
        raise ValueError(f"brak stopnia {missing[0]}: tabela podaje każdy stopień od 1 w górę")
    return StepTable(tuple(rows[s] for s in range(1, len(rows) + 1)))


def _step_key(key: object) -> int:
    if isinstance(key, str) and key.strip().isdigit():
        key = int(key.strip())
    if isinstance(key, bool) or not isinstance(key, int) or key < 1:
        raise ValueError(f"stopień {key!r}: stopień to liczba całkowita od 1 w górę")
    return key


# The digest's ED1 rows, as it lists them (steps 1–38).
ED1_LISTED = (
    *("d4-2", "d4-1", "d4", "d6", "d8", "d10", "d12", "2d6", "d8+d6", "d10+d6", "d10+d8"),
    *("2d10", "d12+d10", "d20+d4", "d20+d6", "d20+d8", "d20+d10", "d20+d12", "d20+2d6"),
    *("d20+d8+d6", "d20+d10+d6", "d20+d10+d8", "d20+2d10", "d20+d12+d10", "d20+d10+d8+d4"),
    *("d20+d10+d8+d6", "d20+d10+2d8", "d20+2d10+d8", "d20+d12+d10+d8", "d20+d10+d8+2d6"),
    *("d20+d10+2d8+d6", "d20+2d10+d8+d6", "d20+2d10+2d8", "d20+3d10+d8", "d20+d12+2d10+d8"),
    *("2d20+d10+d8+d4", "2d20+d10+d8+d6", "2d20+d10+2d8"),
)


def extend_ed1(rows: tuple[ActionDice, ...], highest: int) -> tuple[ActionDice, ...]:
    """The ED1 rows up to `highest`: step n ≥ 14 = step n − 11 plus d20, or plus d10+d8 in
    every second run of 11 steps (25–35, 47–57, …); the rows given are kept as they are."""
    out = list(rows)
    for step in range(len(out) + 1, highest + 1):
        base = out[step - 12]
        extra = (20,) if (step - 14) // 11 % 2 == 0 else (10, 8)
        out.append(ActionDice(tuple(sorted(base.dice + extra, reverse=True)), base.modifier))
    return tuple(out)


DEFAULT_TABLE = StepTable(
    extend_ed1(tuple(parse_dice(text) for text in ED1_LISTED), DEFAULT_HIGHEST_STEP)
)
