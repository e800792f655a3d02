"""The Eleora encounter as one immutable value: combatants, turn order, pending prompts.

`EncounterState` is only ever replaced, never mutated: `engine.evolve(state, event)` returns a
new one. Snapshots go to JSON with `state_to_dict` / `state_from_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.battlemap import BattleMap
from combat.rules.codec import Codec, with_key
from combat.rules.dice import Modifier, PoolRoll, check_roll
from combat.rules.eleora import conditions as cond
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.environment import Darkness
from combat.rules.eleora.maiming import MaimingResult
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import Sheet, Weapon, derive
from combat.rules.records import replace

Phase = Literal["setup", "surprise", "combat", "ended"]
Status = Literal["active", "unconscious", "dead"]
PromptKind = Literal["reakcja", "atak_okazyjny", "ucieczka"]
Position = tuple[int, int]

GM = "gm"  # the actor of GM overrides; no combatant may use this id
UNARMED = "wrecz"  # weapon key of an unarmed attack (each limb counts as its own weapon)


@dataclass(frozen=True)
class Injury:
    """A maiming result kept on the character (Okaleczenie)."""

    location: str
    effect: str
    label: str


@dataclass(frozen=True)
class Combatant:
    """One character in the encounter; damage and conditions live here, the sheet is read-only."""

    id: str
    name: str
    side: str
    sheet: Sheet
    controller: str | None = None  # owner id; None = the GM runs it
    initiative: int | None = None
    initiative_roll: tuple[int, ...] = ()
    setup_roll: tuple[int, ...] = ()  # the 2d6 of Inicjatywa rolled before the fight, if any
    actions_left: int = 0
    drowned_this_turn: bool = False  # Tonięcie already hurt it this turn
    turn_actions: int = 0  # the action budget this turn started with (1 in the surprise turn)
    reactions_left: int = 0
    has_acted: bool = False  # its first turn (or surprise action) has begun: reactions allowed
    damage_physical: int = 0
    damage_stun: int = 0
    status: Status = "active"
    maiming_pending: bool = False
    conditions: tuple[ConditionInstance, ...] = ()
    aim: Mapping[str, int] = field(default_factory=dict)  # target id -> Celowanie tokens
    charge_bonus: int = 0
    charge_end: Position | None = None
    charge_metres: int = 0  # Szarża this turn: straight-line metres over all its Ruch legs
    charge_step: Position | None = None  # ... and the one direction they keep (map only)
    reload_progress: Mapping[str, int] = field(default_factory=dict)
    unloaded: frozenset[str] = frozenset()
    weapons_used: tuple[str, ...] = ()
    guard_bonus: int = 0
    shields_used: frozenset[str] = frozenset()  # shield bonuses used since own turn began
    position: Position | None = None
    hidden: bool = False
    stats_revealed: bool = False
    magic_healing: int = 0
    injuries: tuple[Injury, ...] = ()
    last_maiming: MaimingResult | None = None  # the Okaleczenie roll first aid may re-read
    maiming_zdrowie: int = 0  # Zdrowie when that roll was made
    first_aid_given: bool = False
    held: tuple[str, ...] | None = None  # None = everything on the sheet is in hand
    spell_parts: Mapping[str, int] = field(default_factory=dict)
    mounted: bool = False
    steered: bool = False
    mount_pace: int = 0
    let_pass: frozenset[str] = frozenset()  # allies granted Przepuszczenie through this square
    frenzy_bound: bool = False  # began the turn in Szał: the first action must be an Atak

    @property
    def max_health(self) -> int:
        return derive(self.sheet).zdrowie

    @property
    def health(self) -> int:
        return self.max_health - self.damage_physical - self.damage_stun

    @property
    def conscious(self) -> bool:
        return self.status == "active"

    @property
    def heroism_dice(self) -> int:
        return cond.stacks(self.conditions, "inspiracja")

    @property
    def fatigue(self) -> int:
        return cond.stacks(self.conditions, "zmeczenie")

    def has(self, key: str) -> bool:
        return cond.has(self.conditions, key)

    def stacks(self, key: str) -> int:
        return cond.stacks(self.conditions, key)

    def weapon(self, key: str) -> Weapon | None:
        """The sheet weapon called `key` (None for the unarmed key or an unknown name)."""
        return next((w for w in self.sheet.weapons if w.name == key), None)

    def held_items(self) -> tuple[str, ...]:
        """What is in hand: by default every weapon and shield on the sheet."""
        if self.held is not None:
            return self.held
        return tuple(w.name for w in self.sheet.weapons) + tuple(s.name for s in self.sheet.shields)

    def holds(self, item: str) -> bool:
        return item in self.held_items()


@dataclass(frozen=True)
class PendingAttack:
    """An attack declared and waiting for the defender's blind choice of reaction."""

    id: str
    attacker: str
    target: str
    weapon: str
    special: str | None
    modifiers: tuple[Modifier, ...]  # the attack pool, fixed at declaration
    ranged: bool = False
    flat: bool = False
    opportunity: bool = False
    auto_hit: bool = False
    surprised: bool = False  # the defender counts as Surprised (Zaskoczenie/Rozproszenie)
    reactions: tuple[str, ...] = ()
    parry_bonus: int = 0  # Parowanie: +1 or the shield's bonus, fixed when chosen
    defence_heroism: bool = False  # a Kostka Heroizmu added to the Obrona roll


@dataclass(frozen=True)
class Prompt:
    """A question to one character with an absolute deadline (epoch seconds)."""

    id: str
    kind: PromptKind
    actor: str
    options: tuple[str, ...]
    deadline: float
    attack_id: str | None = None
    target: str | None = None  # atak_okazyjny: who provoked it
    trigger: str = ""


@dataclass(frozen=True)
class EncounterState:
    """A whole encounter at one point of its log."""

    ruleset: ClassVar[str] = "eleora"

    settings: TableSettings
    combatants: Mapping[str, Combatant]
    phase: Phase = "setup"
    round: int = 0
    order: tuple[str, ...] = ()
    current: str | None = None
    surprise_side: str | None = None
    attacks: tuple[PendingAttack, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    darkness: Darkness = Darkness.SWIATLO
    difficult_terrain: frozenset[Position] = frozenset()
    acted: tuple[str, ...] = ()  # whose turn has begun this round
    next_id: int = 1
    winner: str | None = None
    battlemap: BattleMap | None = None  # the GM's map (square, 1 m per field), if laid

    def get(self, combatant_id: str) -> Combatant:
        """The combatant with this id; RuleViolation (readable) when there is none."""
        try:
            return self.combatants[combatant_id]
        except KeyError:
            raise RuleViolation(
                "unknown_combatant",
                gettext_noop("Nie ma takiej postaci: %(id)s"),
                id=combatant_id,
            ) from None

    def put(self, combatant: Combatant) -> EncounterState:
        return replace(self, combatants=with_key(self.combatants, combatant.id, combatant))

    def update(self, combatant_id: str, **changes: Any) -> EncounterState:
        return self.put(replace(self.get(combatant_id), **changes))

    def attack(self, attack_id: str) -> PendingAttack | None:
        return next((a for a in self.attacks if a.id == attack_id), None)

    def prompt(self, prompt_id: str) -> Prompt | None:
        return next((p for p in self.prompts if p.id == prompt_id), None)

    def enemies_of(self, combatant_id: str) -> list[Combatant]:
        side = self.get(combatant_id).side
        return [c for c in self.combatants.values() if c.side != side]

    def allies_of(self, combatant_id: str) -> list[Combatant]:
        side = self.get(combatant_id).side
        return [c for c in self.combatants.values() if c.side == side and c.id != combatant_id]

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.side for c in self.combatants.values()))


def standing_sides(state: EncounterState) -> tuple[str, ...]:
    """Sides that still have a conscious combatant."""
    return tuple(dict.fromkeys(c.side for c in state.combatants.values() if c.conscious))


# Eleora's records through the shared codec (commands.py and events.py use it too): the table
# settings validate themselves, every recorded roll must be a possible one.
CODEC = Codec(records=(TableSettings,), checks={PoolRoll: check_roll})


def state_to_dict(state: EncounterState) -> dict[str, Any]:
    """A JSON-ready snapshot of the state."""
    data: dict[str, Any] = CODEC.to_data(state)
    data["ruleset"] = EncounterState.ruleset
    return data


def state_from_dict(data: Mapping[str, Any]) -> EncounterState:
    """The state of a snapshot; ValueError with the bad path when the data does not fit."""
    payload = dict(data)
    if payload.pop("ruleset", EncounterState.ruleset) != EncounterState.ruleset:
        raise ValueError("snapshot of another ruleset")
    state: EncounterState = CODEC.from_data(EncounterState, payload, "state")
    return state
