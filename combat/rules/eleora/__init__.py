"""Opowieści Eleory: d6 pools, the primary ruleset."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from combat.rules import battlemap
from combat.rules.base import (
    Badge,
    DerivedValue,
    LegalAction,
    LogLine,
    MapSpec,
    OddsView,
    PromptView,
    RouteView,
    Ruleset,
    RuleViolation,
    StatSpec,
    TableView,
    gettext_noop,
)
from combat.rules.dice import RNG, pool_size
from combat.rules.eleora import autoplay, engine, maps, narrate, prompts, simulate, space, table
from combat.rules.eleora.attack import position_notes, weapon_profile
from combat.rules.eleora.commands import (
    COMMANDS,
    Command,
    DeclareAttack,
    EditMap,
    GMRoll,
    PlaceCombatant,
    ResolveExpired,
    command_from_dict,
    command_to_dict,
)
from combat.rules.eleora.engine import queries, setup
from combat.rules.eleora.environment import improvised_modifier
from combat.rules.eleora.events import EVENTS, Event, event_from_dict, event_to_dict
from combat.rules.eleora.forms import SETTINGS_GROUPS, SHEET_SECTIONS
from combat.rules.eleora.odds import AttackOdds
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import (
    ATTRIBUTES,
    SKILLS,
    Sheet,
    Weapon,
    attack_base,
    derive,
    sheet_from_dict,
)
from combat.rules.eleora.state import GM, EncounterState, state_from_dict, state_to_dict
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

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        s = TableSettings.from_dict(dict(settings or {}))
        return tuple(
            StatSpec(k, label, s.attribute_min, s.attribute_max) for k, label in ATTRIBUTES
        )

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]:
        s = TableSettings.from_dict(dict(settings or {}))
        return tuple(StatSpec(k, label, s.skill_min, s.skill_max) for k, label in SKILLS)

    def derived_values(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]:
        s = TableSettings.from_dict(dict(settings or {}))
        parsed = sheet_from_dict(sheet)
        d = derive(parsed, s)
        armour_bonus = d.obrona - parsed.attribute("zrecznosc") - parsed.attribute("intuicja")
        return [
            DerivedValue.explained(
                "obrona",
                gettext_noop("Obrona"),
                d.obrona,
                gettext_noop("Zręczność %(zr)s + Intuicja %(int)s + pancerz %(armour)s"),
                zr=parsed.attribute("zrecznosc"),
                int=parsed.attribute("intuicja"),
                armour=armour_bonus,
            ),
            DerivedValue(
                "zdrowie", "Zdrowie", d.zdrowie, f"9 + Krzepa² ({parsed.attribute('krzepa')}²)"
            ),
            DerivedValue(
                "pancerz", gettext_noop("Pancerz"), d.pancerz, gettext_noop("suma punktów pancerza")
            ),
            DerivedValue(
                "odpornosc", gettext_noop("Wola (redukcja ogłuszenia)"), d.odpornosc, "Wola"
            ),
            DerivedValue("inicjatywa", gettext_noop("Inicjatywa"), d.inicjatywa, "2k6 + Intuicja"),
            DerivedValue(
                "ruch",
                gettext_noop("Podstawowy Ruch"),
                d.ruch,
                gettext_noop("metry na akcję Ruchu"),
            ),
            *(_attack_value(parsed, weapon, s) for weapon in parsed.weapons),
        ]

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

    def decide(self, state: EncounterState, command: Command, rng: RNG) -> list[Event]:
        return engine.decide(state, command, rng)

    def evolve(self, state: EncounterState, event: Event) -> EncounterState:
        return engine.evolve(state, event)

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

    def legal_actions(self, state: EncounterState, actor_id: str) -> list[LegalAction]:
        return queries.legal_actions(state, actor_id)

    def condition_badges(self, state: EncounterState, combatant_id: str) -> list[Badge]:
        return queries.condition_badges(state, combatant_id)

    def attack_odds(self, state: EncounterState, command: DeclareAttack) -> AttackOdds:
        return queries.attack_odds(state, command)

    def next_deadline(self, state: EncounterState) -> float | None:
        return min((p.deadline for p in state.prompts), default=None)

    def expire_command(self, now: float) -> ResolveExpired:
        return ResolveExpired(now=now)

    def resume(
        self, state: EncounterState, *, paused_at: float, now: float, minimum: float
    ) -> list[Event]:
        return prompts.resume(state, paused_at=paused_at, now=now, minimum=minimum)

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

    def table_view(self, state: EncounterState) -> TableView:
        return table.table_view(state)

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

    def prompt_panel(self, state: EncounterState, prompt_id: str) -> table.PromptPanel | None:
        return table.prompt_panel(state, prompt_id)

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

    def describe(self, state: EncounterState, event: Event) -> LogLine | None:
        return narrate.describe(state, event)

    def wound_level(self, state: EncounterState, combatant_id: str) -> tuple[str, str]:
        return queries.wound_level(state, combatant_id)

    def initiative_action(self, state: EncounterState, combatant_id: str) -> LegalAction:
        return queries.initiative_action(state, combatant_id)

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

    def autoplay_command(
        self, state: EncounterState, actor_id: str, policy: str, now: float
    ) -> Command | None:
        return autoplay.next_command(state, actor_id, policy, now)

    def open_prompts(self, state: EncounterState) -> list[PromptView]:
        return prompts.open_prompts(state)

    def prompt_command(
        self, state: EncounterState, prompt_id: str, option: str, now: float = 0.0
    ) -> Command:
        prompt = state.prompt(prompt_id)
        if prompt is None:
            raise RuleViolation(
                "brak_pytania", gettext_noop("To pytanie jest już zamknięte."), prompt=prompt_id
            )
        return prompts.prompt_command(state, prompt, option, now)

    def prompt_odds(self, state: EncounterState, prompt_id: str) -> AttackOdds | None:
        return queries.prompt_odds(state, prompt_id)

    # --- the battle map -------------------------------------------------------------------

    def map_spec(self) -> MapSpec:
        """Square fields of 1 m; darkness levels as the document names them."""
        return MapSpec("square", 1, darkness=space.DARKNESS_NAMES)

    def battle_map(self, state: EncounterState) -> battlemap.BattleMap | None:
        return state.battlemap

    def map_command(self, edit: battlemap.Edit, now: float) -> EditMap:
        return EditMap(actor=GM, edit=edit, now=now)

    def place_command(self, seat: str, to: tuple[int, int] | None, now: float) -> PlaceCombatant:
        return PlaceCombatant(actor=GM, target=seat, to=to, now=now)

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


def _attack_value(sheet: Sheet, weapon: Weapon, settings: TableSettings) -> DerivedValue:
    """Dice an attack with this weapon starts from (before Celowanie, Szarża, flanks …)."""
    mods = list(attack_base(sheet, weapon.kind, settings))
    if weapon.improvised:
        mods.append(improvised_modifier(settings))
    explained = f"{mods[0].reason} {mods[0].dice}"
    for m in mods[1:]:
        explained += f" + {m.reason} {m.dice}" if m.dice >= 0 else f" − {-m.dice} ({m.reason})"
    value = DerivedValue(f"atak-{weapon.name}", "", pool_size(mods), explained)
    return value.labelled(gettext_noop("Atak: %(weapon)s"), weapon=weapon.name)


RULESET = EleoraRuleset()
