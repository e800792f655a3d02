"""Test helpers for the Magus engine: sheets, an encounter, and a table that runs commands
(scripted dice), keeps the log and checks every step replays to the same state."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TypeVar

from combat.rules.base import RNG
from combat.rules.magus import codec, engine
from combat.rules.magus.commands import Command, Declare, RollInitiative, RollInitiatives
from combat.rules.magus.engine.common import must_declare, must_roll
from combat.rules.magus.events import Event
from combat.rules.magus.state import EncounterState
from tests.combat.rules.magus.scripted import Script


def sheet(
    *,
    attributes: dict[str, int] | None = None,
    skills: dict[str, int] | None = None,
    weapons: list[dict[str, Any]] | None = None,
    armour: list[dict[str, Any]] | None = None,
    shields: list[dict[str, Any]] | None = None,
    spells: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A plain fighter: Zręczność 6 (d10 initiative), Siła 5, OF 7, OM 6, WT 8, UR 25,
    DR 32, Movement Rate 12 m; Broń Biała 3 (step 9), a Miecz (+4: damage step 9, size 3)."""
    base = {
        "zrecznosc": 6,
        "sila": 5,
        "zywotnosc": 6,
        "percepcja": 5,
        "sila_woli": 5,
        "charyzma": 4,
        "obrona_fizyczna": 7,
        "obrona_magiczna": 6,
        "obrona_spoleczna": 6,
        "prog_ran": 8,
        "prog_przytomnosci": 25,
        "prog_smierci": 32,
        "testy_zdrowienia": 2,
        "ruch": 12,
    }
    return {
        "attributes": {**base, **(attributes or {})},
        "skills": {"bron_biala": 3, **(skills or {})},
        "weapons": [{"name": "Miecz", "damage": 4, "size": 3}] if weapons is None else weapons,
        "armour": armour or [],
        "shields": shields or [],
        "spells": spells or [],
    }


def fighter(cid: str, side: str, controller: str | None = None, **kw: Any) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.capitalize(),
        "side": side,
        "sheet": sheet(**kw),
        "controller": controller,
        "position": None,
        "hidden": False,
    }


def steed(cid: str, side: str, **kw: Any) -> dict[str, Any]:
    """A mount: no weapon, a saddle on its sheet (`Sheet.is_mount`)."""
    c = fighter(cid, side, weapons=[], **kw)
    c["sheet"]["items"] = [{"name": "Siodło", "kind": "siodlo"}]
    return c


class Table:
    """An encounter with its log; `do` decides, folds, and checks the replay and the JSON."""

    def __init__(self, *combatants: dict[str, Any], **settings: Any) -> None:
        self.initial = engine.new_encounter(settings, list(combatants))
        self.state: EncounterState = self.initial
        self.log: list[Event] = []

    def do(self, command: Command, dice: Iterable[int] | RNG = ()) -> list[Event]:
        rng: RNG = dice if hasattr(dice, "randint") else Script(dice)  # type: ignore[arg-type]
        events = engine.decide(self.state, command, rng)
        if isinstance(rng, Script):
            assert rng.faces == [], f"dice left over: {rng.faces}"
        for event in events:
            assert codec.event_from_dict(codec.event_to_dict(event)) == event
        self.state = engine.replay(self.state, events)
        self.log += events
        return events

    def random(self, command: Command, seed: int = 0) -> list[Event]:
        return self.do(command, random.Random(seed))

    @property
    def c(self) -> Any:
        return self.state.combatants

    def replayed(self) -> EncounterState:
        return engine.replay(self.initial, self.log)


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.type_key for e in events]


def of(events: Iterable[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def to_act(
    table: Table,
    declarations: dict[str, Declare] | None = None,
    initiative: dict[str, int] | None = None,
) -> None:
    """From the declaration phase to the act phase: everyone declares (default: nothing),
    the initiative faces as given (d10s; default first combatant 9, the others lower)."""
    declarations = declarations or {}
    ids = list(table.state.combatants)
    for cid in ids:
        c = table.state.get(cid)
        if not c.declared and table.state.phase == "declare" and must_declare(table.state, c):
            table.do(declarations.get(cid, Declare(actor=cid)))
    faces = initiative or {cid: 9 - i for i, cid in enumerate(ids)}
    for cid in ids:
        if table.state.phase != "initiative":
            break
        c = table.state.get(cid)
        if c.initiative is None and cid in faces and must_roll(table.state, c):
            command = RollInitiative(actor=cid) if c.controller else RollInitiatives(targets=(cid,))
            table.do(command, [faces[cid]])


Panel = TypeVar("Panel")


def shown(panel: Panel | None) -> Panel:
    """A panel the test expects to be shown (a ruleset's panel is None when it has nothing
    to show)."""
    assert panel is not None
    return panel
