"""The GM's shared vocabulary (combat/rules/vocabulary.py), on the least state it reads."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from combat.rules import vocabulary
from combat.rules.base import fill
from combat.rules.vocabulary import HiddenSet, SetHidden


@dataclass(frozen=True)
class Seat:
    id: str
    name: str
    side: str = "wrogowie"
    hidden: bool = False


@dataclass(frozen=True)
class Table:
    combatants: Mapping[str, Seat]


def test_a_placeholder_the_gm_shows_takes_the_next_number_and_its_line_says_so() -> None:
    table = Table({"w1": Seat("w1", "Wilk 1"), "w2": Seat("w2", "Wilk ?KX", hidden=True)})
    (event,) = vocabulary.set_hidden(table, SetHidden(target="w2", hidden=False))
    assert event == HiddenSet("w2", False, name="Wilk 2") and event.stopped is None
    assert vocabulary.evolve(table, event).combatants["w2"] == Seat("w2", "Wilk 2")
    line = vocabulary.hidden_set(table, event)
    assert fill(line.text, line.params) == "Widoczny dla graczy: Wilk ?KX, teraz Wilk 2."
