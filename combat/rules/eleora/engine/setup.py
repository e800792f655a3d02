"""Building an encounter before the fight: combatants from data, the initial state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

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
    """A combatant from the table layer's JSON: id, name, side, sheet, controller, position,
    hidden. The sheet uses sheet.sheet_from_dict's shape. ValueError when malformed."""
    if not isinstance(data, Mapping):
        raise ValueError("a combatant must be a JSON object")
    try:
        sheet: Sheet = sheet_from_dict(data.get("sheet") or {})
    except (TypeError, ValueError) as exc:
        raise ValueError(f"combatant {data.get('id')!r}: bad sheet ({exc})") from None
    position = data.get("position")
    return Combatant(
        id=_text(data, "id"),
        name=_text(data, "name") if data.get("name") else sheet.name,
        side=_text(data, "side"),
        sheet=sheet,
        controller=None if data.get("controller") is None else str(data["controller"]),
        position=_position(position),
        hidden=bool(data.get("hidden", False)),
    )


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"combatant needs a text {key!r}")
    return value


def _position(value: Any) -> Position | None:
    if value is None:
        return None
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError("a position is [x, y] in whole metres")
    return (value[0], value[1])
