"""Kroniki Fallathanu (k100): the d100 combat ruleset of the FG stories (issue #13).

`D100Ruleset` implements the core `Ruleset` protocol and the `Prompts`, `Odds`, `Autoplay`,
`SecretRolls` and `BattleMaps` capabilities of `combat.rules.base`; every method is a thin
call into the modules that hold the rules (`engine`), the records (`state`, `commands`,
`events`, `codec`), the sheet (`sheet`, `derived`, `forms`), the log (`narrate`), the prompts
and odds (`prompts`), the table's view and panels (`table`), the NPCs' own play (`autoplay`)
and the optional battle map (`maps`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from combat.rules.base import (
    RNG,
    DerivedValue,
    LogLine,
    MapSpec,
    OddsView,
    PromptView,
    RouteView,
    Ruleset,
    StatSpec,
    TableView,
)
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
from combat.rules.d100.events import EVENTS, Event
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.sheet import flattened, sheet_problems
from combat.rules.d100.state import EncounterState

if TYPE_CHECKING:
    from combat.rules.battlemap import BattleMap, Edit
    from combat.rules.schema import SettingsGroup, SheetSection


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

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return derived.attribute_specs(settings)

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return derived.skill_specs(settings)

    def derived_values(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]:
        return derived.derived_values(flattened(sheet), settings)

    def sheet_problems(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None
    ) -> tuple[tuple[str, str], ...]:
        return sheet_problems(sheet, settings)

    def sheet_sections(self, settings: Mapping[str, Any] | None = None) -> tuple[SheetSection, ...]:
        return forms.sheet_sections(settings)

    def settings_groups(self) -> tuple[SettingsGroup, ...]:
        return forms.settings_groups()

    # --- encounters -----------------------------------------------------------------------

    def new_encounter(
        self, settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
    ) -> EncounterState:
        return engine.new_encounter(settings, combatants)

    def decide(self, state: EncounterState, command: Command, rng: RNG) -> list[Event]:
        return engine.decide(state, command, rng)

    def evolve(self, state: EncounterState, event: Event) -> EncounterState:
        return engine.evolve(state, event)

    def command_targets(self, command: Command) -> tuple[str, ...]:
        """The combatants a command names besides its actor (a target, a posted action's)."""
        named = super().command_targets(command)
        if isinstance(command, Post) and command.action.target:
            return (*named, command.action.target)
        return named

    def next_deadline(self, state: EncounterState) -> float | None:
        return engine.next_deadline(state)

    def resume(
        self, state: EncounterState, *, paused_at: float, now: float, minimum: float
    ) -> list[Event]:
        return engine.resume(state, paused_at=paused_at, now=now, minimum=minimum)

    # --- the live table -------------------------------------------------------------------

    def table_view(self, state: EncounterState) -> TableView:
        return table.table_view(state)

    def describe(self, state: EncounterState, event: Event) -> LogLine | None:
        return narrate.describe(state, event)

    def turn_panel(
        self, state: EncounterState, actor_id: str, visible: frozenset[str]
    ) -> table.TurnPanel | None:
        return table.turn_panel(state, actor_id, visible)

    def seat_panel(
        self, state: EncounterState, seat_id: str, visible: frozenset[str]
    ) -> table.SeatPanel | None:
        return table.seat_panel(state, seat_id, visible)

    def gm_panel(self, state: EncounterState) -> table.GMPanel | None:
        return table.gm_panel(state)

    def gm_seat_panel(self, state: EncounterState, seat_id: str) -> table.GMSeatPanel | None:
        return table.gm_seat_panel(state, seat_id)

    # --- Prompts --------------------------------------------------------------------------

    def open_prompts(self, state: EncounterState) -> list[PromptView]:
        return prompts.open_prompts(state)

    def prompt_command(
        self, state: EncounterState, prompt_id: str, option: str, now: float = 0.0
    ) -> Command:
        return prompts.prompt_command(state, prompt_id, option, now)

    def prompt_panel(self, state: EncounterState, prompt_id: str) -> prompts.PromptPanel | None:
        return prompts.prompt_panel(state, prompt_id)

    def reaction_policies(self) -> list[tuple[str, str]]:
        return list(prompts.POLICIES)

    def default_policy(self, state: EncounterState) -> str:
        return prompts.DEFAULT_POLICY

    def auto_answer(
        self, state: EncounterState, prompt_id: str, policy: str, now: float
    ) -> Command | None:
        return prompts.auto_answer(state, prompt_id, policy, now)

    # --- Odds -----------------------------------------------------------------------------

    def preview_odds(self, state: EncounterState, command: Command) -> OddsView:
        return prompts.preview_odds(state, command)

    def answer_odds(self, state: EncounterState, prompt_id: str) -> OddsView | None:
        return prompts.answer_odds(state, prompt_id)

    # --- Autoplay -------------------------------------------------------------------------

    def autoplay_policies(self) -> list[tuple[str, str]]:
        return list(autoplay.POLICIES)

    def autoplay_command(
        self, state: EncounterState, actor_id: str, policy: str, now: float
    ) -> Command | None:
        return autoplay.next_command(state, actor_id, policy, now)

    # --- SecretRolls ----------------------------------------------------------------------

    def secret_dice(self, command: Command) -> bool:
        """A secret GM roll draws from the GM's own seed."""
        return isinstance(command, GMRoll) and command.secret

    # --- BattleMaps -----------------------------------------------------------------------

    def map_spec(self) -> MapSpec:
        return maps.map_spec()

    def battle_map(self, state: EncounterState) -> BattleMap | None:
        return maps.battle_map(state)

    def map_command(self, edit: Edit, now: float) -> Command:
        return maps.map_command(edit, now)

    def place_command(self, seat: str, to: tuple[int, int] | None, now: float) -> Command:
        return maps.place_command(seat, to, now)

    def route(
        self,
        state: EncounterState,
        actor: str,
        to: tuple[int, int],
        mode: str,
        now: float,
        *,
        unseen: Iterable[str] = (),
    ) -> RouteView:
        return maps.route(state, actor, to, mode, now, unseen=unseen)


RULESET = D100Ruleset()
