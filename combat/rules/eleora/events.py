"""What happened in an Eleora encounter: facts the engine folds into the state.

Events carry every die rolled (`PoolRoll` data), so `evolve` never rolls and a replayed log
gives the identical state. They are stored as JSON: `event_to_dict` / `event_from_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from combat.rules.dice import PoolRoll
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.environment import Darkness
from combat.rules.eleora.initiative import InitiativeOrder
from combat.rules.eleora.maiming import MaimingResult
from combat.rules.eleora.state import CODEC, Combatant, PendingAttack, Position, Prompt
from combat.rules.vocabulary import CombatantPlaced, CombatEnded, Event, MapEdited

EVENTS: dict[str, type[Event]] = {}
E = TypeVar("E", bound=type[Event])


def _register(cls: E) -> E:
    EVENTS[cls.type_key] = cls
    return cls


for _shared in (CombatEnded, CombatantPlaced, MapEdited):
    _register(_shared)


@_register
@dataclass(frozen=True, kw_only=True)
class CombatStarted(Event):
    type_key: ClassVar[str] = "combat_started"
    initiative: InitiativeOrder
    surprise_side: str | None = None
    surprised: tuple[str, ...] = ()


@_register
@dataclass(frozen=True, kw_only=True)
class InitiativeRolled(Event):
    """Inicjatywa rolled in the setup phase; the start of the fight uses these two d6."""

    type_key: ClassVar[str] = "initiative_rolled"
    combatant: str
    faces: tuple[int, int]
    supplied: bool = False  # the player's own 2d6, typed in: not the server's dice


@_register
@dataclass(frozen=True, kw_only=True)
class InitiativeTieBroken(Event):
    """One round of extra d6 among characters still tied for Inicjatywa (`faces[i]` is
    `contenders[i]`'s); told in the log so the server's dice are checkable, the order itself
    comes from `CombatStarted.initiative`."""

    type_key: ClassVar[str] = "initiative_tie_broken"
    contenders: tuple[str, ...]
    faces: tuple[int, ...]


@_register
@dataclass(frozen=True, kw_only=True)
class RoundStarted(Event):
    type_key: ClassVar[str] = "round_started"
    round: int
    surprise: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class TurnStarted(Event):
    type_key: ClassVar[str] = "turn_started"
    combatant: str
    actions: int
    reactions: int


@_register
@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    type_key: ClassVar[str] = "turn_ended"
    combatant: str


@_register
@dataclass(frozen=True, kw_only=True)
class ActionSpent(Event):
    """One action (or reaction) used; `action` is its key, e.g. "atak", "ruch", "unik"."""

    type_key: ClassVar[str] = "action_spent"
    actor: str
    action: str
    reaction: bool = False
    detail: str = ""


@_register
@dataclass(frozen=True, kw_only=True)
class TestRolled(Event):
    """A test: against a difficulty (passed/przebicia) or open (difficulty None)."""

    type_key: ClassVar[str] = "test_rolled"
    __test__: ClassVar[bool] = False  # a rules event, not a pytest class
    actor: str
    test: str
    roll: PoolRoll
    difficulty: int | None = None
    passed: bool | None = None
    critical_failure: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    type_key: ClassVar[str] = "moved"
    combatant: str
    metres: int
    path: tuple[Position, ...] = ()
    mode: str = "ruch"
    charge_bonus: int = 0  # Szarża: dice this leg adds for the next attack this turn
    forced: bool = False
    charge_metres: int = 0  # Szarża: straight-line metres of this leg


@_register
@dataclass(frozen=True, kw_only=True)
class AimTaken(Event):
    type_key: ClassVar[str] = "aim_taken"
    actor: str
    target: str


@_register
@dataclass(frozen=True, kw_only=True)
class InitiativeChanged(Event):
    type_key: ClassVar[str] = "initiative_changed"
    combatant: str
    initiative: int
    order: tuple[str, ...]


@_register
@dataclass(frozen=True, kw_only=True)
class ReloadProgressed(Event):
    type_key: ClassVar[str] = "reload_progressed"
    actor: str
    weapon: str
    progress: int
    loaded: bool


@_register
@dataclass(frozen=True, kw_only=True)
class SpellPartPrepared(Event):
    type_key: ClassVar[str] = "spell_part_prepared"
    actor: str
    spell: str
    parts: int


@_register
@dataclass(frozen=True, kw_only=True)
class ReactionGained(Event):
    type_key: ClassVar[str] = "reaction_gained"
    actor: str


@_register
@dataclass(frozen=True, kw_only=True)
class GuardRaised(Event):
    type_key: ClassVar[str] = "guard_raised"
    actor: str
    bonus: int
    shield: str | None = None


@_register
@dataclass(frozen=True, kw_only=True)
class ItemMoved(Event):
    """An item changes hands: drawn, stowed, dropped, picked up or handed over."""

    type_key: ClassVar[str] = "item_moved"
    combatant: str
    item: str
    held: bool
    to: str | None = None  # handed to this combatant


@_register
@dataclass(frozen=True, kw_only=True)
class ItemUsed(Event):
    """A salve or potion used on someone; its effect is the GM's (alchemy is not published)."""

    type_key: ClassVar[str] = "item_used"
    actor: str
    target: str
    item: str


@_register
@dataclass(frozen=True, kw_only=True)
class MountChanged(Event):
    type_key: ClassVar[str] = "mount_changed"
    combatant: str
    mounted: bool


@_register
@dataclass(frozen=True, kw_only=True)
class Steered(Event):
    type_key: ClassVar[str] = "steered"
    actor: str
    passed: bool
    pace: int = 0


@_register
@dataclass(frozen=True, kw_only=True)
class MountAdrift(Event):
    """Not steered (or steering failed) this turn: the GM moves the mount where they choose."""

    type_key: ClassVar[str] = "mount_adrift"
    combatant: str


@_register
@dataclass(frozen=True, kw_only=True)
class PassGranted(Event):
    type_key: ClassVar[str] = "pass_granted"
    actor: str
    ally: str


@_register
@dataclass(frozen=True, kw_only=True)
class Note(Event):
    """A free Interakcja or a Komenda, for the GM to adjudicate; the text is the player's."""

    type_key: ClassVar[str] = "note"
    actor: str
    text: str


@_register
@dataclass(frozen=True, kw_only=True)
class ConditionAdded(Event):
    type_key: ClassVar[str] = "condition_added"
    combatant: str
    condition: ConditionInstance


@_register
@dataclass(frozen=True, kw_only=True)
class ConditionRemoved(Event):
    type_key: ClassVar[str] = "condition_removed"
    combatant: str
    key: str
    source: str | None = None


@_register
@dataclass(frozen=True, kw_only=True)
class ConditionSpent(Event):
    """Tokens used up (Kostka Heroizmu, Odsłonięcie, Rozproszenie)."""

    type_key: ClassVar[str] = "condition_spent"
    combatant: str
    key: str
    stacks: int = 1


@_register
@dataclass(frozen=True, kw_only=True)
class DifficultyLowered(Event):
    """A failed Wyzwolenie lowers the effect's difficulty by the successes rolled."""

    type_key: ClassVar[str] = "difficulty_lowered"
    combatant: str
    key: str
    source: str | None
    difficulty: int


@_register
@dataclass(frozen=True, kw_only=True)
class ConditionTicked(Event):
    """Start of the bearer's turn: a damaging condition deals its damage (no Pancerz, no Wola)."""

    type_key: ClassVar[str] = "condition_ticked"
    combatant: str
    key: str
    damage: int


@_register
@dataclass(frozen=True, kw_only=True)
class HealthChanged(Event):
    """Damage (positive) or healing (negative) from outside an attack, already reduced."""

    type_key: ClassVar[str] = "health_changed"
    combatant: str
    physical: int = 0
    stun: int = 0
    magic: bool = False  # healing counted toward Magiczne Leczenie
    reason: str = ""
    drowning: bool = False  # Tonięcie: its damage comes once per turn in the water


@_register
@dataclass(frozen=True, kw_only=True)
class MaimingRolled(Event):
    """Okaleczenie i Śmierć: the 2d6 (location, effect) and what they mean."""

    type_key: ClassVar[str] = "maiming_rolled"
    combatant: str
    result: MaimingResult
    zdrowie: int  # Zdrowie at the roll (first aid re-reads the table with it)


@_register
@dataclass(frozen=True, kw_only=True)
class FirstAidGiven(Event):
    """A medic's first aid within the hour: the same dice, + its Medycyna successes."""

    type_key: ClassVar[str] = "first_aid_given"
    combatant: str
    medic: str
    result: MaimingResult


@_register
@dataclass(frozen=True, kw_only=True)
class AttackDeclared(Event):
    type_key: ClassVar[str] = "attack_declared"
    attack: PendingAttack
    prompt: Prompt | None = None


@_register
@dataclass(frozen=True, kw_only=True)
class ReactionChosen(Event):
    type_key: ClassVar[str] = "reaction_chosen"
    prompt: str
    actor: str
    reactions: tuple[str, ...] = ()
    shield: str | None = None
    parry_bonus: int = 0
    heroism: bool = False
    expired: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class AttackResolved(Event):
    """Both rolls, the hit, przebicia and the damage before and after Pancerz/Wola."""

    type_key: ClassVar[str] = "attack_resolved"
    attack: str
    attacker: str
    target: str
    attack_roll: PoolRoll
    defence_roll: PoolRoll | None
    hit: bool
    przebicia: int = 0
    damage_type: str = ""
    damage: int = 0  # before reduction
    reduction: int = 0
    physical: int = 0  # taken
    stun: int = 0  # taken
    bleed: bool = True  # False: a ranged Atak Płazem cannot start Krwawienie
    critical_failure: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class AttackCancelled(Event):
    type_key: ClassVar[str] = "attack_cancelled"
    attack: str
    reason: str


@_register
@dataclass(frozen=True, kw_only=True)
class PromptOpened(Event):
    type_key: ClassVar[str] = "prompt_opened"
    prompt: Prompt


@_register
@dataclass(frozen=True, kw_only=True)
class PromptClosed(Event):
    type_key: ClassVar[str] = "prompt_closed"
    prompt: str
    expired: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class DeadlinesMoved(Event):
    """Open prompts get new deadlines (an undo brought them back: the time they had left)."""

    type_key: ClassVar[str] = "deadlines_moved"
    deadlines: Mapping[str, float]  # prompt id -> its new deadline (epoch seconds)


@_register
@dataclass(frozen=True, kw_only=True)
class GMRolled(Event):
    type_key: ClassVar[str] = "gm_rolled"
    label: str
    roll: PoolRoll
    secret: bool = True  # shown to the GM only


@_register
@dataclass(frozen=True, kw_only=True)
class CombatantChanged(Event):
    """A GM override of what players may see: hidden on the map, stats revealed; or a hidden
    token revealed because `stopped` (a combatant's id) ran into it on its move. Shown, a
    placeholder's seat takes `name` (`naming.shown`: the next number the players count)."""

    type_key: ClassVar[str] = "combatant_changed"
    combatant: str
    hidden: bool | None = None
    stats_revealed: bool | None = None
    stopped: str | None = None
    name: str | None = None


@_register
@dataclass(frozen=True, kw_only=True)
class EnvironmentChanged(Event):
    type_key: ClassVar[str] = "environment_changed"
    darkness: Darkness
    difficult_terrain: tuple[Position, ...] = ()


@_register
@dataclass(frozen=True, kw_only=True)
class CombatantJoined(Event):
    type_key: ClassVar[str] = "combatant_joined"
    combatant: Combatant
    supplied: bool = False  # its Inicjatywa 2d6 typed in by the player, not the server's dice


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-ready data with the event's "type" key."""
    data: dict[str, Any] = CODEC.to_data(event)
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Parse a stored event; ValueError with a clear message when it does not fit."""
    if not isinstance(data, Mapping):
        raise ValueError("an event must be a JSON object")
    type_key = data.get("type")
    cls = EVENTS.get(type_key) if isinstance(type_key, str) else None
    if cls is None:
        raise ValueError(f"unknown event type: {type_key!r}")
    event: Event = CODEC.from_data(cls, data, str(type_key))
    return event
