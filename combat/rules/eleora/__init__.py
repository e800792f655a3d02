"""Opowieści Eleory: d6 pools, the primary ruleset."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, cast

from combat.rules.base import (
    MapSpec,
    OddsView,
    Ruleset,
    RuleViolation,
    gettext_noop,
)
from combat.rules.eleora import (
    autoplay,
    derived,
    engine,
    maps,
    narrate,
    prompts,
    simulate,
    table,
)
from combat.rules.eleora.attack import position_notes, weapon_profile
from combat.rules.eleora.commands import (
    COMMANDS,
    Command,
    DeclareAttack,
    GMRoll,
    ResolveExpired,
    command_from_dict,
    command_to_dict,
)
from combat.rules.eleora.engine import queries, setup, space
from combat.rules.eleora.events import EVENTS, Event, event_from_dict, event_to_dict
from combat.rules.eleora.forms import SETTINGS_GROUPS, SHEET_SECTIONS
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import EncounterState, state_from_dict, state_to_dict
from combat.rules.schema import SettingsGroup, SheetSection


class EleoraRuleset(Ruleset):
    key = "eleora"
    label = "Opowieści Eleory"
    commands = tuple(COMMANDS.values())
    events = tuple(EVENTS.values())
    state = EncounterState
    settings = TableSettings
    fresh_state = frozenset({"start_combat", "end_turn", "end_combat"})
    # Values a player must not set: the GM judges them (the document leaves them to the GM).
    gm_judged = {
        "declare_attack": ("screened",),
        "move": ("difficulty", "fall_metres"),
        "steer": ("difficulty",),
    }
    target_fields = ("target", "ally", "targets")

    attributes = staticmethod(derived.attribute_specs)
    skills = staticmethod(derived.skill_specs)
    derived_values = staticmethod(derived.derived_values)

    def sheet_sections(self, settings: Mapping[str, Any] | None = None) -> tuple[SheetSection, ...]:
        """Weapons, armour and shields; no table setting changes them today."""
        return SHEET_SECTIONS

    def settings_groups(self) -> tuple[SettingsGroup, ...]:
        return SETTINGS_GROUPS

    # --- encounters -----------------------------------------------------------------------

    def new_encounter(
        self, settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
    ) -> EncounterState:
        table = TableSettings.from_dict(dict(settings or {}))
        return setup.new_encounter(table, [setup.combatant_from_dict(c) for c in combatants])

    decide = staticmethod(engine.decide)
    evolve = staticmethod(engine.evolve)

    def command_from_dict(self, data: Mapping[str, Any]) -> Command:
        return command_from_dict(data)

    def command_to_dict(self, command: Command) -> dict[str, Any]:
        return command_to_dict(command)

    def event_from_dict(self, data: Mapping[str, Any]) -> Event:
        return event_from_dict(data)

    def event_to_dict(self, event: Event) -> dict[str, Any]:
        return event_to_dict(event)

    def state_to_dict(self, state: EncounterState) -> dict[str, Any]:
        return state_to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> EncounterState:
        return state_from_dict(data)

    legal_actions = staticmethod(queries.legal_actions)
    condition_badges = staticmethod(queries.condition_badges)
    attack_odds = staticmethod(queries.attack_odds)

    def next_deadline(self, state: EncounterState) -> float | None:
        return min((p.deadline for p in state.prompts), default=None)

    def expire_command(self, now: float) -> ResolveExpired:
        return ResolveExpired(now=now)

    resume = staticmethod(prompts.resume)

    def simulation_policies(self) -> list[tuple[str, str]]:
        return [
            ("lepsza", gettext_noop("Parowanie z tarczą, inaczej Unik")),
            ("unik", gettext_noop("zawsze Unik")),
            ("parowanie", gettext_noop("zawsze Parowanie")),
            ("brak", gettext_noop("bez reakcji")),
        ]

    def simulate(
        self,
        settings: Mapping[str, Any] | None,
        combatants: Sequence[Mapping[str, Any]],
        *,
        runs: int,
        seed: int,
        policy: str,
    ) -> simulate.SimulationResult:
        if policy not in dict(self.simulation_policies()):
            raise ValueError(f"unknown simulation policy: {policy}")
        state = self.new_encounter(settings, combatants)
        chosen = simulate.Policy(defence=policy)  # type: ignore[arg-type]
        return simulate.simulate(state, runs, seed=seed, policy=chosen)

    def secret_dice(self, command: Command) -> bool:
        """SecretRolls: a secret GM roll draws from the GM's own seed."""
        return isinstance(command, GMRoll) and command.secret

    # --- the live table -------------------------------------------------------------------

    table_view = staticmethod(table.table_view)
    turn_panel = staticmethod(table.turn_panel)
    seat_panel = staticmethod(table.seat_panel)
    gm_panel = staticmethod(table.gm_panel)
    gm_seat_panel = staticmethod(table.gm_seat_panel)
    prompt_panel = staticmethod(table.prompt_panel)

    def preview_odds(self, state: EncounterState, command: Command) -> OddsView:
        """The odds of an attack about to be declared, per defender option; RuleViolation,
        as the command would get, for one the rules refuse."""
        if not isinstance(command, DeclareAttack):
            raise RuleViolation("podglad", gettext_noop("Szanse można policzyć tylko dla ataku."))
        # The command's own checks, as declaring it would run them (the dice are dropped).
        engine.decide(state, command, simulate.SeededRNG(0))
        view = table.odds_view(self.attack_odds(state, command), command.target, prompt=False)
        attacker, target = state.get(command.actor), state.get(command.target)
        profile = weapon_profile(attacker, command.weapon, thrown=command.thrown)
        notes = position_notes(state, attacker, target, profile)
        return dataclasses.replace(view, notes=(*notes, *view.notes))

    def answer_odds(self, state: EncounterState, prompt_id: str) -> OddsView | None:
        """The odds of each answer to a prompt, by the prompt's option keys."""
        found = self.prompt_odds(state, prompt_id)
        return None if found is None else table.odds_view(found, None, prompt=True)

    describe = staticmethod(narrate.describe)
    wound_level = staticmethod(queries.wound_level)
    initiative_action = staticmethod(queries.initiative_action)

    def reaction_policies(self) -> list[tuple[str, str]]:
        return [("ask", gettext_noop("Pytaj MG")), *self.simulation_policies()]

    def default_policy(self, state: EncounterState) -> str:
        """The table's setting for GM-run characters the GM set no policy for."""
        return state.settings.npc_default_policy

    def auto_answer(
        self, state: EncounterState, prompt_id: str, policy: str, now: float
    ) -> Command | None:
        if policy not in dict(self.reaction_policies()):
            raise ValueError(f"unknown reaction policy: {policy}")
        prompt = state.prompt(prompt_id)
        if policy == "ask" or prompt is None:
            return None
        defence = cast(prompts.Defence, policy)
        return prompts.auto_answer(state, prompt, defence, opportunity=True, now=now)

    # --- Autoplay -------------------------------------------------------------------------

    def autoplay_policies(self) -> list[tuple[str, str]]:
        return list(autoplay.POLICIES)

    autoplay_command = staticmethod(autoplay.next_command)
    open_prompts = staticmethod(prompts.open_prompts)

    def prompt_command(
        self, state: EncounterState, prompt_id: str, option: str, now: float = 0.0
    ) -> Command:
        prompt = state.prompt(prompt_id)
        if prompt is None:
            raise RuleViolation(
                "brak_pytania", gettext_noop("To pytanie jest już zamknięte."), prompt=prompt_id
            )
        return prompts.prompt_command(state, prompt, option, now)

    prompt_odds = staticmethod(queries.prompt_odds)

    # --- the battle map -------------------------------------------------------------------

    def map_spec(self) -> MapSpec:
        """Square fields of 1 m; darkness levels as the document names them."""
        return MapSpec("square", 1, darkness=space.DARKNESS_NAMES)

    route = staticmethod(maps.route)


RULESET = EleoraRuleset()
