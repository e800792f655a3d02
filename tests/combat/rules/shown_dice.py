"""Every die a ruleset rolls is shown by the log (issue 22, point 8): the verification page
checks the faces the log lines show, so a die drawn and told by no line could never be checked.

`CountingDice` counts the dice an engine draws; `unshown(...)` compares them with the faces the
lines of the events show."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any


class CountingDice(random.Random):
    """A seeded RNG that counts its `randint` results (one die each)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.rolled = 0

    def randint(self, a: int, b: int) -> int:
        self.rolled += 1
        return super().randint(a, b)


def shown_faces(
    describe: Callable[[Any, Any], Any],
    evolve: Callable[[Any, Any], Any],
    state: Any,
    events: Iterable[Any],
) -> int:
    """How many faces the log lines of `events` show, each told against the state before it."""
    faces = 0
    for event in events:
        line = describe(state, event)
        if line is not None:
            faces += sum(len(roll.dice) for roll in line.rolls)
        state = evolve(state, event)
    return faces
