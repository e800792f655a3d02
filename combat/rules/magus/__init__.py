"""Magus (Earthdawn-derived): steps, open-ended action dice, success levels, and the encounter
engine with declarations, initiative every round and exact odds.

`MagusRuleset` subclasses the `Ruleset` kernel and adds the `Prompts`, `Odds`, `Simulator`,
`Autoplay` and `BattleMaps` capabilities of `combat.rules.base`; each method is a function of
the module that holds that part: the rules (`engine`), the records (`state`, `commands`,
`events`, `codec`), the log (`narrate`), the prompts and odds (`prompts`), the table's view
(`table`) and the battle map (`maps`).
"""

from __future__ import annotations

from combat.rules.base import Ruleset
from combat.rules.magus import (
    autoplay,
    codec,
    derived,
    engine,
    forms,
    maps,
    narrate,
    prompts,
    simulate,
    table,
)
from combat.rules.magus.commands import COMMANDS
from combat.rules.magus.events import EVENTS
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.state import EncounterState


class MagusRuleset(Ruleset):
    key = "magus"
    label = "Magus"
    commands = tuple(COMMANDS.values())
    events = tuple(EVENTS.values())
    state = EncounterState
    settings = MagusSettings
    codec = codec.CODEC
    fresh_state = frozenset({"start_combat", "end_turn", "end_combat", "advance"})
    target_fields = ("target", "targets", "surprised", "mount", "sneakers", "unaware")

    # --- the sheet ------------------------------------------------------------------------

    attributes = staticmethod(derived.attribute_specs)
    skills = staticmethod(derived.skill_specs)
    derived_values = staticmethod(derived.derived_values)
    sheet_sections = staticmethod(forms.sheet_sections)
    settings_groups = staticmethod(forms.settings_groups)

    # --- encounters -----------------------------------------------------------------------

    new_encounter = staticmethod(engine.new_encounter)
    decide = staticmethod(engine.decide)
    evolve = staticmethod(engine.evolve)
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
        return state.settings.npc_default_policy

    auto_answer = staticmethod(prompts.auto_answer)

    # --- Odds -----------------------------------------------------------------------------

    preview_odds = staticmethod(prompts.preview_odds)
    answer_odds = staticmethod(prompts.answer_odds)

    # --- BattleMaps -----------------------------------------------------------------------

    map_spec = staticmethod(maps.map_spec)
    route = staticmethod(maps.route)

    # --- Simulator ------------------------------------------------------------------------

    def simulation_policies(self) -> list[tuple[str, str]]:
        return list(simulate.POLICIES)

    simulate = staticmethod(simulate.simulate)

    # --- Autoplay -------------------------------------------------------------------------

    def autoplay_policies(self) -> list[tuple[str, str]]:
        return list(autoplay.POLICIES)

    autoplay_command = staticmethod(autoplay.next_command)


RULESET = MagusRuleset()
