"""make_* helpers for the Eleora engine tests: sheets, combatants, scripted dice, one step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from combat.rules.eleora.commands import Command, StartCombat
from combat.rules.eleora.engine import decide, replay
from combat.rules.eleora.events import Event
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import (
    Armour,
    Sheet,
    Shield,
    Weapon,
    WeaponKind,
)
from combat.rules.eleora.state import Combatant, EncounterState, Position

SZABLA = Weapon("Szabla", WeaponKind.LIGHT, 2)
TOPOR = Weapon("Topór", WeaponKind.HEAVY, 3, two_handed=True)
SZTYLET = Weapon("Sztylet", WeaponKind.LIGHT, 1, short=True)
KASTET = Weapon("Kastet", WeaponKind.UNARMED, 1, short=True)
LUK = Weapon("Łuk", WeaponKind.LIGHT, 2, ranged=True, reload_actions=2)
TARCZA = Shield("Tarcza", 2)


class Dice:
    """An RNG that hands out the given d6 faces in order and fails loudly when it runs out."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise AssertionError("the test did not expect another roll")
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


def make_sheet(
    name: str = "Ala",
    *,
    weapons: Sequence[Weapon] = (SZABLA,),
    armour: Sequence[Armour] = (),
    shields: Sequence[Shield] = (),
    skills: dict[str, int] | None = None,
    **attributes: int,
) -> Sheet:
    attrs = {
        "sila": 2,
        "krzepa": 2,
        "zrecznosc": 2,
        "intuicja": 2,
        "intelekt": 1,
        "charyzma": 1,
        "wola": 1,
    }
    attrs.update(attributes)
    base_skills = {"bron_lekka": 3, "bron_ciezka": 2, "walka_wrecz": 2, "medycyna": 2}
    base_skills.update(skills or {})
    return Sheet(name, attrs, base_skills, tuple(weapons), tuple(armour), tuple(shields))


def make_combatant(
    cid: str,
    side: str = "party",
    *,
    position: Position | None = None,
    sheet: Sheet | None = None,
    **changes: Any,
) -> Combatant:
    c = Combatant(
        id=cid,
        name=cid.capitalize(),
        side=side,
        sheet=sheet or make_sheet(cid.capitalize()),
        position=position,
    )
    return replace(c, **changes)


# The rules tests play a turn's actions out and end it by hand: the live table's automatic
# end of a turn (`auto_end_turn`, on by default) is off unless a test turns it on.
KIT_SETTINGS = TableSettings(auto_end_turn=False)


def make_state(*combatants: Combatant, settings: TableSettings | None = None) -> EncounterState:
    return EncounterState(
        settings=settings or KIT_SETTINGS, combatants={c.id: c for c in combatants}
    )


def step(
    state: EncounterState, command: Command, rng: Any = None
) -> tuple[EncounterState, list[Event]]:
    """decide + fold: the new state and the events (scripted dice default to none at all)."""
    events = decide(state, command, rng if rng is not None else Dice())
    return replay(state, events), events


def begin(
    state: EncounterState, order: Iterable[str], *, surprise_side: str | None = None
) -> EncounterState:
    """Start combat with player-rolled initiative that puts `order` first to last."""
    ids = list(order)
    # Totals 12, 10, 8, 6, 4 (+ Intuicja): distinct while Intuicja differs by less than 2.
    faces = [(6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1)]
    rolls = {cid: faces[i] for i, cid in enumerate(ids)}
    new, _ = step(state, StartCombat(surprise_side=surprise_side, rolls=rolls))
    assert new.order[: len(ids)] == tuple(ids), new.order
    return new


def of_type(events: Iterable[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
