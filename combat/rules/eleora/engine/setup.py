"""Building an encounter before the fight: combatants from data, the initial state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from combat.rules import vocabulary
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import Sheet, sheet_from_dict
from combat.rules.eleora.state import GM, Combatant, EncounterState, Position

MAX_ID = 64


def new_encounter(settings: TableSettings, combatants: Iterable[Combatant]) -> EncounterState:
    """The setup-phase state; ValueError for duplicate ids, the GM id or a shared square."""
    by_id: dict[str, Combatant] = {}
    squares: set[Position] = set()
    for c in combatants:
        _check_id(c.id)
        if c.id in by_id:
            raise ValueError(f"two combatants share the id {c.id!r}")
        if not c.name.strip() or not c.side.strip():
            raise ValueError(f"combatant {c.id!r} needs a name and a side")
        if c.position is not None:
            if c.position in squares:
                raise ValueError(f"two combatants stand on {c.position}")
            squares.add(c.position)
        by_id[c.id] = c
    return EncounterState(settings=settings, combatants=by_id)


def _check_id(cid: str) -> None:
    if not cid or cid == GM or len(cid) > MAX_ID:
        raise ValueError(f"bad combatant id {cid!r} (1–{MAX_ID} characters, not {GM!r})")


def combatant_from_dict(data: Mapping[str, Any]) -> Combatant:
    """A combatant from the table layer's JSON (`vocabulary.seat`; its name, when missing, the
    sheet's). The sheet uses sheet.sheet_from_dict's shape. ValueError when malformed."""
    fields = vocabulary.seat(data, named=False)
    try:
        sheet: Sheet = sheet_from_dict(data.get("sheet") or {})
    except (TypeError, ValueError) as exc:
        raise ValueError(f"combatant {fields['id']!r}: bad sheet ({exc})") from None
    return Combatant(**fields | {"name": fields["name"] or sheet.name}, sheet=sheet)
