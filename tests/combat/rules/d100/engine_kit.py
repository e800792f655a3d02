"""Test helpers for the d100 engine: sheets, fighters, and a table that runs commands
(scripted dice), keeps the log and checks every event's JSON and the replay."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, cast

from combat.rules.base import RNG
from combat.rules.d100 import codec, engine
from combat.rules.d100.commands import Command, Defend, StartCombat
from combat.rules.d100.events import Event
from combat.rules.d100.state import EncounterState
from tests.combat.rules.d100.scripted import Script

ATTRIBUTES = ("zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada")


def sheet(
    *,
    pz: int = 200,
    weapons: list[dict[str, Any]] | None = None,
    spells: list[dict[str, Any]] | None = None,
    armour: str = "",
    shield: bool = False,
    race: str = "czlowiek",
    transformation: str = "",
    skills: dict[str, int] | None = None,
    **attributes: int,
) -> dict[str, Any]:
    """Every attribute 50 unless given; 200 PŻ; a Miecz (traditional: +20 to damage)."""
    return {
        "attributes": {key: attributes.get(key, 50) for key in ATTRIBUTES},
        "skills": {"akrobatyka": 0, "medycyna": 0, **(skills or {})},
        "pz": pz,
        "race": race,
        "transformation": transformation,
        "weapons": [{"name": "Miecz", "kind": "traditional"}] if weapons is None else weapons,
        "armour": armour,
        "shield": shield,
        "spells": spells or [],
    }


def fighter(
    cid: str, side: str, controller: str | None = None, *, hidden: bool = False, **kw: Any
) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.capitalize(),
        "side": side,
        "sheet": sheet(**kw),
        "controller": controller,
        "position": None,
        "hidden": hidden,
    }


class Table:
    """An encounter with its log; `do` decides, folds, and checks the JSON and the replay."""

    def __init__(self, *combatants: dict[str, Any], **settings: Any) -> None:
        self.initial = engine.new_encounter(settings, list(combatants))
        self.state: EncounterState = self.initial
        self.log: list[Event] = []

    def do(self, command: Command, dice: Iterable[int] | RNG = ()) -> list[Event]:
        rng = cast(RNG, dice) if hasattr(dice, "randint") else Script(dice)
        assert codec.command_from_dict(codec.command_to_dict(command)) == command
        events = engine.decide(self.state, command, rng)
        if isinstance(rng, Script):
            assert rng.faces == [], f"dice left over: {rng.faces}"
        for event in events:
            assert codec.event_from_dict(codec.event_to_dict(event)) == event
        self.state = engine.replay(self.state, events)
        self.log += events
        assert engine.replay(self.initial, self.log) == self.state
        return events

    def random(self, command: Command, seed: int = 0) -> list[Event]:
        return self.do(command, random.Random(seed))

    def start(self, now: float = 0.0) -> list[Event]:
        return self.do(StartCombat(now=now))

    def defend(self, option: str, dice: Iterable[int], now: float = 1.0) -> list[Event]:
        """The one open prompt answered with `option`."""
        (prompt,) = self.state.prompts
        return self.do(Defend(actor=prompt.actor, prompt=prompt.id, option=option, now=now), dice)

    @property
    def c(self) -> Any:
        return self.state.combatants

    @property
    def current(self) -> str | None:
        return self.state.current


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.type_key for e in events]


def of(events: Iterable[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def one(events: Iterable[Event], kind: type) -> Any:
    (found,) = of(events, kind)
    return found
