"""Strict JSON round trips of commands, events and the state, driven by their type hints
(`combat.rules.codec.RulesetCodec`).

Unknown keys, missing fields and wrong types raise `ValueError` naming the field's path; the
table settings go through `MagusSettings.to_dict/from_dict` (their own validation).
"""

from __future__ import annotations

from combat.rules.codec import RulesetCodec
from combat.rules.magus.commands import COMMANDS, Command
from combat.rules.magus.events import EVENTS, Event
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.state import EncounterState

CODEC: RulesetCodec[Command, Event, EncounterState] = RulesetCodec(
    commands=COMMANDS, events=EVENTS, state=EncounterState, records=(MagusSettings,)
)
command_to_dict = CODEC.command_to_dict
command_from_dict = CODEC.command_from_dict
event_to_dict = CODEC.event_to_dict
event_from_dict = CODEC.event_from_dict
state_to_dict = CODEC.state_to_dict
state_from_dict = CODEC.state_from_dict
to_data = CODEC.to_data
from_data = CODEC.from_data
