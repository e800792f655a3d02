"""Strict JSON round trips of commands, events and the state, driven by their type hints.

Unknown keys, missing fields and wrong types raise `ValueError` naming the field's path; the
table settings go through `D100Settings.to_dict/from_dict` (their own validation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.codec import Codec
from combat.rules.d100.commands import COMMANDS, Command
from combat.rules.d100.events import EVENTS, Event
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.state import EncounterState


def command_to_dict(command: Command) -> dict[str, Any]:
    return {"type": command.type_key, **to_data(command)}


def command_from_dict(data: Mapping[str, Any]) -> Command:
    return _typed(COMMANDS, data, "command")


def event_to_dict(event: Event) -> dict[str, Any]:
    return {"type": event.type_key, **to_data(event)}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    return _typed(EVENTS, data, "event")


def state_to_dict(state: EncounterState) -> dict[str, Any]:
    data: dict[str, Any] = to_data(state)
    return data


def state_from_dict(data: Mapping[str, Any]) -> EncounterState:
    state: EncounterState = from_data(EncounterState, data, "state")
    return state


_CODEC = Codec(records=(D100Settings,))
to_data = _CODEC.to_data
from_data = _CODEC.from_data
_typed = _CODEC.typed
