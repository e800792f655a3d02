"""Kroniki Fallathanu (k100): the d100 combat ruleset of the FG stories (issue #13).

`D100Ruleset` subclasses the `Ruleset` kernel and adds the `Prompts`, `Odds`, `Autoplay`,
`SecretRolls` and `BattleMaps` capabilities of `combat.rules.base`; each method is a function
of the module that holds that part: the rules (`engine`), the records (`state`, `commands`,
`events`, `codec`), the sheet (`sheet`, `derived`, `forms`), the log (`narrate`), the prompts
and odds (`prompts`), the table's view and panels (`table`), the NPCs' own play (`autoplay`)
and the optional battle map (`maps`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import DerivedValue, Ruleset
from combat.rules.d100 import (
    autoplay,
    codec,
    derived,
    engine,
    forms,
    maps,
    narrate,
    prompts,
    table,
)
from combat.rules.d100.commands import COMMANDS, Command, GMRoll, Post
from combat.rules.d100.events import EVENTS
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.sheet import flattened, sheet_problems
from combat.rules.d100.state import EncounterState


class D100Ruleset(Ruleset):
    key = "d100"
    label = "Kroniki Fallathanu (k100)"
    commands = tuple(COMMANDS.values())
    events = tuple(EVENTS.values())
    state = EncounterState
    settings = D100Settings
    codec = codec.CODEC
    fresh_state = frozenset(
        {"start_combat", "end_turn", "end_combat", "resolve_turn", "set_pace", "set_order"}
    )
    gm_judged = {"post": ("by_gm",)}  # a post the GM writes for a player
    target_fields = ("target", "order")

    # --- the sheet ------------------------------------------------------------------------

    attributes = staticmethod(derived.attribute_specs)
    skills = staticmethod(derived.skill_specs)

    def derived_values(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]:
        return derived.derived_values(flattened(sheet), settings)

    def sheet_problems(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None
    ) -> tuple[tuple[str, str], ...]:
        return sheet_problems(sheet, settings)

    sheet_sections = staticmethod(forms.sheet_sections)
    settings_groups = staticmethod(forms.settings_groups)

    # --- encounters -----------------------------------------------------------------------

    new_encounter = staticmethod(engine.new_encounter)
    decide = staticmethod(engine.decide)
    evolve = staticmethod(engine.evolve)

    def command_targets(self, command: Command) -> tuple[str, ...]:
        """The combatants a command names besides its actor (a target, a posted action's)."""
        named = super().command_targets(command)
        if isinstance(command, Post) and command.action.target:
            return (*named, command.action.target)
        return named

    next_deadline = staticmethod(engine.next_deadline)
    resume = staticmethod(engine.resume)

    # --- the live table -------------------------------------------------------------------

    table_view = staticmethod(table.table_view)
    describe = staticmethod(narrate.describe)
    turn_panel = staticmethod(table.turn_panel)
    seat_panel = staticmethod(table.seat_panel)
    gm_panel = staticmethod(table.gm_panel)
    gm_seat_panel = staticmethod(table.gm_seat_panel)

    # --- Prompts --------------------------------------------------------------------------

    open_prompts = staticmethod(prompts.open_prompts)
    prompt_command = staticmethod(prompts.prompt_command)
    prompt_panel = staticmethod(prompts.prompt_panel)

    def reaction_policies(self) -> list[tuple[str, str]]:
        return list(prompts.POLICIES)

    def default_policy(self, state: EncounterState) -> str:
        return prompts.DEFAULT_POLICY

    auto_answer = staticmethod(prompts.auto_answer)

    # --- Odds -----------------------------------------------------------------------------

    preview_odds = staticmethod(prompts.preview_odds)
    answer_odds = staticmethod(prompts.answer_odds)

    # --- Autoplay -------------------------------------------------------------------------

    def autoplay_policies(self) -> list[tuple[str, str]]:
        return list(autoplay.POLICIES)

    autoplay_command = staticmethod(autoplay.next_command)

    # --- SecretRolls ----------------------------------------------------------------------

    def secret_dice(self, command: Command) -> bool:
        """A secret GM roll draws from the GM's own seed."""
        return isinstance(command, GMRoll) and command.secret

    # --- BattleMaps -----------------------------------------------------------------------

    map_spec = staticmethod(maps.map_spec)
    route = staticmethod(maps.route)


RULESET = D100Ruleset()
