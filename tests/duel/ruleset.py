"""Pojedynek as a `Ruleset`: the core protocol, the `Prompts` and `BattleMaps` capabilities.

No odds and no simulator, so the table must show neither for it. Every method is a thin
call into the modules that hold the rules (`engine`), the records (`model`), the sheet
(`sheet`) and the table's view of it (`table`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from combat.rules.base import (
    RNG,
    DerivedValue,
    LogLine,
    MapSpec,
    PromptView,
    RouteView,
    Ruleset,
    StatSpec,
    TableView,
    gettext_noop,
)
from combat.rules.battlemap import BattleMap, Edit
from combat.rules.schema import SettingsGroup, SheetSection
from tests.duel import engine, model, sheet, table
from tests.duel.model import (
    GM,
    Command,
    Duel,
    EditMap,
    Event,
    JoinCombat,
    PlaceCombatant,
    ResolveExpired,
    RevealStats,
    SetHidden,
    Settings,
)

FRESH_STATE_COMMANDS = frozenset({"start_round", "end_turn", "end_fight"})


class DuelRuleset(Ruleset):
    key = "duel"
    label = "Pojedynek"

    # --- the sheet ----------------------------------------------------------------------------

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return sheet.ATTRIBUTES

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        return ()

    def sheet_sections(self, settings: Mapping[str, Any] | None = None) -> tuple[SheetSection, ...]:
        return (sheet.WEAPONS,)

    def settings_groups(self) -> tuple[SettingsGroup, ...]:
        return sheet.SETTINGS

    def default_settings(self) -> dict[str, Any]:
        return model.to_data(Settings())

    def validate_settings(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return model.to_data(Settings.from_dict(data))

    def derived_values(
        self, sheet_data: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]:
        return sheet.derived_values(sheet_data)

    # --- encounters ---------------------------------------------------------------------------

    def new_encounter(
        self, settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
    ) -> Duel:
        return engine.new_encounter(settings, combatants)

    def decide(self, state: Duel, command: Command, rng: RNG) -> list[Event]:
        return engine.decide(state, command, rng)

    def evolve(self, state: Duel, event: Event) -> Duel:
        return engine.evolve(state, event)

    def replay(self, initial: Duel, events: Iterable[Event]) -> Duel:
        return engine.replay(initial, events)

    def command_from_dict(self, data: Mapping[str, Any]) -> Command:
        return model.command_from_dict(data)

    def command_to_dict(self, command: Command) -> dict[str, Any]:
        return model.command_to_dict(command)

    def event_from_dict(self, data: Mapping[str, Any]) -> Event:
        return model.event_from_dict(data)

    def event_to_dict(self, event: Event) -> dict[str, Any]:
        return model.event_to_dict(event)

    def state_to_dict(self, state: Duel) -> dict[str, Any]:
        return model.state_to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> Duel:
        return model.state_from_dict(data)

    def join_command(self, combatant: Mapping[str, Any], now: float) -> JoinCombat:
        return JoinCombat(combatant=dict(combatant), now=now)

    def visibility_command(
        self, target: str, *, hidden: bool | None = None, revealed: bool | None = None
    ) -> Command:
        if hidden is not None:
            return SetHidden(actor=GM, target=target, hidden=hidden)
        return RevealStats(actor=GM, target=target, revealed=bool(revealed))

    def command_actor(self, command: Command) -> str | None:
        return None if command.gm_only else command.actor

    def command_targets(self, command: Command) -> tuple[str, ...]:
        target = getattr(command, "target", None)
        return (target,) if isinstance(target, str) else ()

    def gm_judged_fields(self, command: Command) -> list[str]:
        return []  # nothing in a duel is left to the GM's judgement

    def needs_fresh_state(self, command: Command) -> bool:
        return command.type_key in FRESH_STATE_COMMANDS

    def next_deadline(self, state: Duel) -> float | None:
        """The open prompt's, else (by post) the round's."""
        if state.prompt is not None:
            return state.prompt.deadline
        return state.deadline if state.by_post and state.stage == "fight" else None

    def expire_command(self, now: float) -> ResolveExpired:
        return ResolveExpired(now=now)

    def resume(self, state: Duel, *, paused_at: float, now: float, minimum: float) -> list[Event]:
        return engine.resume(state, paused_at=paused_at, now=now, minimum=minimum)

    # --- the live table -----------------------------------------------------------------------

    def table_view(self, state: Duel) -> TableView:
        return table.table_view(state)

    def describe(self, state: Duel, event: Event) -> LogLine | None:
        return table.describe(state, event)

    def turn_panel(
        self, state: Duel, actor_id: str, visible: frozenset[str]
    ) -> table.TurnPanel | None:
        return table.turn_panel(state, actor_id, visible)

    def seat_panel(
        self, state: Duel, seat_id: str, visible: frozenset[str]
    ) -> table.SeatPanel | None:
        return table.seat_panel(state, seat_id, visible)

    def gm_panel(self, state: Duel) -> table.GMPanel | None:
        return table.gm_panel(state)

    def gm_seat_panel(self, state: Duel, seat_id: str) -> table.GMSeatPanel | None:
        return table.gm_seat_panel(state, seat_id)

    # --- Prompts ------------------------------------------------------------------------------

    def open_prompts(self, state: Duel) -> list[PromptView]:
        return table.open_prompts(state)

    def prompt_command(self, state: Duel, prompt_id: str, option: str, now: float = 0.0) -> Command:
        return table.prompt_command(state, prompt_id, option, now)

    def prompt_panel(self, state: Duel, prompt_id: str) -> table.PromptPanel | None:
        return table.prompt_panel(state, prompt_id)

    def reaction_policies(self) -> list[tuple[str, str]]:
        return list(table.POLICIES)

    def default_policy(self, state: Duel) -> str:
        return "ask"  # a duel has no table setting for it: the GM answers by hand

    def auto_answer(self, state: Duel, prompt_id: str, policy: str, now: float) -> Command | None:
        return table.auto_answer(state, prompt_id, policy, now)

    # --- BattleMaps ---------------------------------------------------------------------------

    def map_spec(self) -> MapSpec:
        darkness = (gettext_noop("Półmrok"), gettext_noop("Ciemność"), gettext_noop("Mrok"))
        return MapSpec("square", 1, 12, 8, darkness)

    def battle_map(self, state: Duel) -> BattleMap | None:
        return state.battlemap

    def map_command(self, edit: Edit, now: float) -> EditMap:
        return EditMap(edit=edit, now=now)

    def place_command(self, seat: str, to: tuple[int, int] | None, now: float) -> PlaceCombatant:
        return PlaceCombatant(target=seat, to=to, now=now)

    def route(
        self,
        state: Duel,
        actor: str,
        to: tuple[int, int],
        mode: str,
        now: float,
        *,
        unseen: Iterable[str] = (),
    ) -> RouteView:
        return table.route(state, actor, to, mode, now, unseen=unseen)


RULESET = DuelRuleset()
