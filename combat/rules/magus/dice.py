"""Step rolls: the step's action dice, each open-ended, summed; every face returned as data.

A die showing its maximum is rolled again and the new face added (ED "bonus die"), again and
again, but at most MAX_REROLLS times: the last allowed throw counts as it falls. The cap keeps
a roll finite; a die reaches it with probability (1/sides)^(MAX_REROLLS + 1) ≤ 4^-21 ≈ 2e-13,
and the exact odds (magus/odds.py) use the very same cap, so they are exact for these rolls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from combat.rules.base import RNG, RollView, gettext_noop
from combat.rules.magus.steps import ActionDice, StepTable

MAX_REROLLS = 20


@dataclass(frozen=True)
class Adjustment:
    """A bonus (positive) or penalty (negative) added to the result ("do wyniku"), with why."""

    value: int
    reason: str


@dataclass(frozen=True)
class DieRoll:
    """One open-ended die: its size and every face, the first throw then each reroll."""

    sides: int
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces)


@dataclass(frozen=True)
class StepRoll:
    """One rolled step: its dice, every face, the adjustments and the result.

    `total` is the sum of the dice plus the table's flat modifier and the adjustments, raised
    to `minimum` when one was given. `rule_of_one`: every die's first throw showed 1 (an
    action test then fails whatever the total; an effect test ignores it)."""

    step: int
    dice: ActionDice
    rolls: tuple[DieRoll, ...]
    adjustments: tuple[Adjustment, ...]
    total: int
    rule_of_one: bool

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face rolled, die by die, rerolls included."""
        return tuple(face for roll in self.rolls for face in roll.faces)

    @property
    def sides(self) -> tuple[int, ...]:
        """The die size of each face of `faces`."""
        return tuple(roll.sides for roll in self.rolls for _ in roll.faces)

    def view(self, label: str = gettext_noop("Test akcji")) -> RollView:
        """The roll as the table shows it; the table's flat modifier is listed first."""
        flat = ((self.dice.notation("k"), self.dice.modifier),) if self.dice.modifier else ()
        return RollView(
            label=label,
            dice=self.faces,
            result=self.total,
            modifiers=flat + tuple((a.reason, a.value) for a in self.adjustments),
            sides=self.sides,
            summary=gettext_noop("wynik %(n)s"),
        )


def roll_open_ended(rng: RNG, sides: int, max_rerolls: int = MAX_REROLLS) -> DieRoll:
    """Throw one die; while it shows its maximum, throw again and add (at most `max_rerolls`)."""
    faces = [rng.randint(1, sides)]
    while faces[-1] == sides and len(faces) <= max_rerolls:
        faces.append(rng.randint(1, sides))
    return DieRoll(sides, tuple(faces))


def roll_step(
    rng: RNG,
    step: int,
    table: StepTable,
    *,
    reasons: Iterable[Adjustment] = (),
    minimum: int | None = None,
) -> StepRoll:
    """Roll a step of `table` (RuleViolation for a step it does not hold).

    `reasons` are the adjustments to the result; `minimum` the lowest result allowed (None:
    no floor; a recovery test passes 1: "minimalny wynik testu zdrowienia to 1")."""
    dice = table.dice_for(step)
    rolls = tuple(roll_open_ended(rng, sides) for sides in dice.dice)
    return _step_roll(step, dice, rolls, tuple(reasons), minimum)


def replay_step(
    step: int,
    table: StepTable,
    faces: Sequence[Sequence[int]],
    *,
    reasons: Iterable[Adjustment] = (),
    minimum: int | None = None,
) -> StepRoll:
    """Rebuild a roll from recorded faces, one sequence per die (a replay never re-rolls);
    ValueError when they cannot be this step's open-ended dice."""
    dice = table.dice_for(step)
    if len(faces) != len(dice.dice):
        raise ValueError(f"step {step} rolls {len(dice.dice)} dice, got faces for {len(faces)}")
    rolls = tuple(_recorded(sides, tuple(f)) for sides, f in zip(dice.dice, faces, strict=True))
    return _step_roll(step, dice, rolls, tuple(reasons), minimum)


def _recorded(sides: int, faces: tuple[int, ...]) -> DieRoll:
    if not 1 <= len(faces) <= MAX_REROLLS + 1 or any(not 1 <= f <= sides for f in faces):
        raise ValueError(f"faces {list(faces)} cannot be rolled on a d{sides}")
    rerolled = faces[:-1]
    final_may_be_max = len(faces) == MAX_REROLLS + 1
    if any(f != sides for f in rerolled) or (faces[-1] == sides and not final_may_be_max):
        raise ValueError(f"faces {list(faces)}: a d{sides} rerolls exactly on {sides}")
    return DieRoll(sides, faces)


def _step_roll(
    step: int,
    dice: ActionDice,
    rolls: tuple[DieRoll, ...],
    adjustments: tuple[Adjustment, ...],
    minimum: int | None,
) -> StepRoll:
    total = sum(r.total for r in rolls) + dice.modifier + sum(a.value for a in adjustments)
    if minimum is not None:
        total = max(total, minimum)
    return StepRoll(
        step=step,
        dice=dice,
        rolls=rolls,
        adjustments=adjustments,
        total=total,
        rule_of_one=all(r.faces[0] == 1 for r in rolls),
    )
