"""Pojedynek (key `duel`): a tiny second ruleset that lives in the tests, and the model of how
small a new system is.

One d20 to hit, one d100 to parry, initiative every round, a square battle map. It subclasses
the `Ruleset` kernel of `combat.rules.base` (which derives the codec, the replay and the GM's
shared commands from the records in `model`) and adds the `Prompts` and `BattleMaps`
capabilities, nothing else, so the table must run it, and hide the odds and the simulator,
without naming it. The rules are in `engine`, the sheet in `sheet`, the table's view of it and
the log in `table`. Pure like `combat/rules`: no Django, RNG injected, every roll returned as
data. The test settings register it (`tests/settings.py`) with its partials in
`tests/duel/templates/combat/rulesets/duel/`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from combat.rules.base import DerivedValue, MapSpec, RouteView, Ruleset, StatSpec, gettext_noop
from combat.rules.schema import SettingsGroup, SheetSection
from tests.duel import engine, model, sheet, table
from tests.duel.model import Duel, Field

DARKNESS = (gettext_noop("Półmrok"), gettext_noop("Ciemność"), gettext_noop("Mrok"))


class DuelRuleset(Ruleset):
    key = "duel"
    label = "Pojedynek"
    commands = model.COMMANDS
    events = model.EVENTS
    state = Duel
    settings = model.Settings
    fresh_state = frozenset({"start_round", "end_turn", "end_fight"})

    # --- the sheet --------------------------------------------------------------------------

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return sheet.ATTRIBUTES

    def sheet_sections(self, settings: Mapping[str, Any] | None = None) -> tuple[SheetSection, ...]:
        return (sheet.WEAPONS,)

    def settings_groups(self) -> tuple[SettingsGroup, ...]:
        return (sheet.SETTINGS,)

    def derived_values(
        self, data: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]:
        return sheet.derived_values(data)

    # --- the fight ----------------------------------------------------------------------------

    new_encounter = staticmethod(engine.new_encounter)
    decide = staticmethod(engine.decide)
    evolve = staticmethod(engine.evolve)
    next_deadline = staticmethod(engine.next_deadline)
    resume = staticmethod(engine.resume)
    describe = staticmethod(table.describe)
    table_view = staticmethod(table.table_view)
    turn_panel = staticmethod(table.turn_panel)
    seat_panel = staticmethod(table.seat_panel)
    gm_panel = staticmethod(table.gm_panel)
    gm_seat_panel = staticmethod(table.gm_seat_panel)

    # --- Prompts ------------------------------------------------------------------------------

    open_prompts = staticmethod(table.open_prompts)
    prompt_command = staticmethod(table.prompt_command)
    prompt_panel = staticmethod(table.prompt_panel)
    auto_answer = staticmethod(table.auto_answer)

    def reaction_policies(self) -> list[tuple[str, str]]:
        return list(table.POLICIES)

    def default_policy(self, state: Duel) -> str:
        return "ask"  # no table setting for it: the GM answers by hand

    # --- BattleMaps ---------------------------------------------------------------------------

    def map_spec(self) -> MapSpec:
        return MapSpec("square", 1, 12, 8, DARKNESS)

    def route(
        self,
        state: Duel,
        actor: str,
        to: Field,
        mode: str,
        now: float,
        *,
        unseen: Iterable[str] = (),
    ) -> RouteView:
        return table.route(state, actor, to, mode, now, unseen)


RULESET = DuelRuleset()
