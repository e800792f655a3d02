"""Pojedynek's records: the table settings, a fighter, the fight's state, commands and events.

Frozen dataclasses, each command and event with a `type_key`; the kernel's codec
(`combat.rules.codec`) reads and writes them by their type hints. The GM's shared commands and
events (join, hide, reveal, end, edit the map, place a token) are those of
`combat.rules.vocabulary`; setting Życie is the duel's own, its command its event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

from combat.rules import settings_json, vocabulary
from combat.rules.battlemap import BattleMap
from combat.rules.vocabulary import (
    CombatantPlaced,
    CombatEnded,
    Command,
    EditMap,
    EndCombat,
    Event,
    GMCommand,
    HiddenSet,
    JoinCombat,
    MapEdited,
    PlaceCombatant,
    RevealStats,
    SetHidden,
    StatsRevealed,
)

GM = vocabulary.GM  # the actor of the GM's own commands
PARRY, NO_REACTION = "parry", ""  # a prompt's options: parry, or take the hit
TO_HIT = 11  # d20 + Atak against this
ANSWER_S, POST_HOURS = (3, 120), (1, 336)  # the bounds a GM may set: seconds, hours
HOUR = 3600.0
WALK: Final = "walk"  # a walk keeps the attack
RUN: Final = "run"  # a run spends it
Mode = Literal["walk", "run"]
MOVE_FIELDS = {WALK: 6, RUN: 12}  # fields of movement a turn's move may use
Field = tuple[int, int]


@dataclass(frozen=True)
class Settings:
    """The seconds a defender has to answer; the pace, "live" (one fighter after another) or
    "post" (every fighter acts once, in any order, before a deadline `post_hours` away, and the
    defender parries by itself); how many hours before it the laggards are reminded (0: no)."""

    answer_s: int = 15
    pace: Literal["live", "post"] = "live"
    post_hours: int = 24
    reminder_hours: int = 6

    def validate(self) -> None:
        if self.pace not in ("live", "post"):
            raise ValueError("pace: live or post")
        bounds = {"answer_s": ANSWER_S, "post_hours": POST_HOURS}
        for name, (low, high) in {**bounds, "reminder_hours": (0, self.post_hours - 1)}.items():
            if not low <= getattr(self, name) <= high:
                raise ValueError(f"{name}: {low}–{high}")

    def to_dict(self) -> dict[str, Any]:
        return settings_json.to_json(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        return settings_json.from_json(cls, data, _same_type)


def _same_type(name: str, raw: Any, default: Any) -> Any:
    if type(raw) is not type(default):
        raise ValueError(f"{name}: expected {type(default).__name__}")
    return raw


@dataclass(frozen=True)
class Fighter:
    id: str
    name: str
    side: str
    controller: str | None
    atak: int
    obrona: int
    zycie: int  # the maximum
    weapon_bonus: int = 0  # the best weapon's Premia, added to the d6 of damage
    damage: int = 0
    hidden: bool = False
    revealed: bool = False
    initiative: int | None = None  # this round's d20 + Atak
    position: Field | None = None

    @property
    def life(self) -> int:
        return max(0, self.zycie - self.damage)

    @property
    def down(self) -> bool:
        return self.life == 0

    @property
    def parry_threshold(self) -> int:
        return 10 * self.obrona  # a parry holds on d100 at or under it


@dataclass(frozen=True)
class Prompt:
    """The defender's question after a hit: parry or take it, before `deadline`."""

    id: str
    attacker: str
    defender: str
    deadline: float


@dataclass(frozen=True)
class Duel:
    """The fight. Its `stage` is named unlike Eleora's `phase` on purpose: the table reaches a
    state only through the ruleset (`combatants` is the shared vocabulary's convention)."""

    settings: Settings
    combatants: Mapping[str, Fighter]
    stage: Literal["setup", "fight", "ended"] = "setup"
    round: int = 0
    order: tuple[str, ...] = ()
    turn: int = 0  # index into `order`
    attacked: bool = False  # the current fighter has attacked this turn
    prompt: Prompt | None = None
    prompts_opened: int = 0  # numbers the prompts' ids
    winner: str | None = None
    deadline: float | None = None  # by post: when the round's time runs out
    acted: tuple[str, ...] = ()  # by post: who has acted this round
    battlemap: BattleMap | None = None
    moved: int = 0  # fields of movement the current fighter used this turn

    @property
    def by_post(self) -> bool:
        return self.settings.pace == "post"

    @property
    def current(self) -> str | None:
        """Whose turn it is live; by post nobody's alone (all act at once: `to_act`)."""
        if self.stage != "fight" or self.by_post or self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    @property
    def to_act(self) -> tuple[str, ...]:
        """By post: the combatants of the round's order still standing who have not acted."""
        if self.stage != "fight" or not self.by_post:
            return ()
        return tuple(c for c in self.order if c not in self.acted and not self.combatants[c].down)


# --- commands --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StartRound(GMCommand):
    type_key: ClassVar[str] = "start_round"  # the server rolls everyone's initiative


@dataclass(frozen=True, kw_only=True)
class Attack(Command):
    type_key: ClassVar[str] = "attack"
    target: str


@dataclass(frozen=True, kw_only=True)
class Answer(Command):
    type_key: ClassVar[str] = "answer"
    prompt: str
    option: str = NO_REACTION


@dataclass(frozen=True, kw_only=True)
class EndTurn(Command):
    type_key: ClassVar[str] = "end_turn"


@dataclass(frozen=True, kw_only=True)
class EndFight(EndCombat):
    type_key: ClassVar[str] = "end_fight"  # the shared command, by the duel's key


@dataclass(frozen=True, kw_only=True)
class ResolveExpired(GMCommand):
    type_key: ClassVar[str] = "expire"  # the server: whatever waited past its deadline


@dataclass(frozen=True, kw_only=True)
class SetLife(GMCommand, Event):
    type_key: ClassVar[str] = "set_life"  # the GM's command is its own event
    target: str
    life: int


@dataclass(frozen=True, kw_only=True)
class Move(Command):
    type_key: ClassVar[str] = "move"
    path: tuple[Field, ...]
    mode: Mode = WALK


# --- events: what the rules decided (and the GM's edits above, as they were sent) ---------------


@dataclass(frozen=True)
class Joined(vocabulary.Joined):
    combatant: Fighter


@dataclass(frozen=True)
class RoundStarted(Event):
    type_key: ClassVar[str] = "round_started"
    round: int
    order: tuple[str, ...]
    deadline: float | None = None


@dataclass(frozen=True)
class InitiativeRolled(Event):
    type_key: ClassVar[str] = "initiative_rolled"
    fighter: str
    face: int
    bonus: int

    @property
    def total(self) -> int:  # d20 + Atak
        return self.face + self.bonus


@dataclass(frozen=True)
class Attacked(Event):
    """A hit opens the defender's `prompt`."""

    type_key: ClassVar[str] = "attacked"
    attacker: str
    target: str
    face: int
    bonus: int
    prompt: str | None = None
    deadline: float | None = None

    @property
    def hit(self) -> bool:
        return self.face + self.bonus >= TO_HIT


@dataclass(frozen=True)
class Parried(Event):
    type_key: ClassVar[str] = "parried"
    prompt: str
    defender: str
    face: int
    threshold: int

    @property
    def success(self) -> bool:  # d100 at or under 10 × Obrona
        return self.face <= self.threshold


@dataclass(frozen=True)
class Struck(Event):
    """The hit lands for face + bonus (`expired`: nobody answered in time)."""

    type_key: ClassVar[str] = "struck"
    prompt: str
    attacker: str
    target: str
    face: int
    bonus: int = 0
    expired: bool = False

    @property
    def damage(self) -> int:  # the d6 + Premia
        return self.face + self.bonus


@dataclass(frozen=True)
class TurnEnded(Event):
    type_key: ClassVar[str] = "turn_ended"
    actor: str


@dataclass(frozen=True)
class RoundExpired(Event):
    type_key: ClassVar[str] = "round_expired"
    missed: tuple[str, ...]  # by post: who loses the turn


@dataclass(frozen=True)
class DeadlineMoved(Event):
    type_key: ClassVar[str] = "deadline_moved"
    prompt: str  # "": the round's
    deadline: float


@dataclass(frozen=True)
class Moved(Event):
    type_key: ClassVar[str] = "moved"
    actor: str
    path: tuple[Field, ...]
    cost: int
    mode: str = WALK


FightEnded = CombatEnded  # the shared event
COMMANDS: tuple[type[Command], ...] = (JoinCombat, StartRound, Attack, Answer, EndTurn, EndFight)
COMMANDS += (ResolveExpired, SetHidden, RevealStats, SetLife, EditMap, PlaceCombatant, Move)
EVENTS: tuple[type[Event], ...] = (Joined, RoundStarted, InitiativeRolled, Attacked)
EVENTS += (Parried, Struck, TurnEnded, CombatEnded, RoundExpired, DeadlineMoved, Moved, SetLife)
EVENTS += (HiddenSet, StatsRevealed, MapEdited, CombatantPlaced)
