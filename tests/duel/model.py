"""Pojedynek's records: table settings, a fighter, the fight's state, commands and events.

Frozen dataclasses, and strict JSON round trips driven by their type hints: unknown keys,
missing fields and wrong types raise `ValueError` naming the field. Commands and events carry
their `type` key; the state is what `evolve` folds them into.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from combat.rules.battlemap import BattleMap, Edit
from combat.rules.codec import Codec

GM = "gm"  # the actor of the GM's own commands
PARRY = "parry"
NO_REACTION = ""  # the option key of "no reaction" on every prompt
ANSWERS = (PARRY, NO_REACTION)
TO_HIT = 11  # d20 + Atak against this
ANSWER_S = (3, 120)  # the bounds of the answer time a GM may set
POST_HOURS = (1, 336)  # the bounds of a by-post round's time, in hours (two weeks at most)
HOUR = 3600.0
Mode = Literal["walk", "run"]  # a walk keeps the attack, a run spends it
WALK: Mode = "walk"
RUN: Mode = "run"
MOVE_FIELDS: dict[str, int] = {WALK: 6, RUN: 12}  # fields of movement a turn's move may use

Pace = Literal["live", "post"]

Stage = Literal["setup", "fight", "ended"]


@dataclass(frozen=True)
class Settings:
    """What the GM may set for a table: the seconds a defender has to answer an attack; the
    pace, "live" (one fighter after another) or "post" (a round by post: every fighter acts
    once, in any order, before a deadline `post_hours` away; the defender parries by itself),
    and how many hours before that deadline the players still to act are reminded (0: no
    reminder)."""

    answer_s: int = 15
    pace: Pace = "live"
    post_hours: int = 24
    reminder_hours: int = 6

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        settings = from_data(cls, dict(data), "settings")
        low, high = ANSWER_S
        if not low <= settings.answer_s <= high:
            raise ValueError(f"answer_s: {low}–{high} seconds")
        low, high = POST_HOURS
        if not low <= settings.post_hours <= high:
            raise ValueError(f"post_hours: {low}–{high} hours")
        if not 0 <= settings.reminder_hours < settings.post_hours:
            raise ValueError("reminder_hours: 0 or more, under post_hours")
        return settings


@dataclass(frozen=True)
class Fighter:
    """One combatant: its sheet's numbers, who plays it and how hurt it is."""

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
    position: tuple[int, int] | None = None  # the token's field on the battle map

    @property
    def life(self) -> int:
        return max(0, self.zycie - self.damage)

    @property
    def down(self) -> bool:
        return self.life == 0

    @property
    def parry_threshold(self) -> int:
        """A parry succeeds on d100 at or under this."""
        return 10 * self.obrona


@dataclass(frozen=True)
class Prompt:
    """The defender's question after a hit: parry or take it, before `deadline`."""

    id: str
    attacker: str
    defender: str
    deadline: float


@dataclass(frozen=True)
class Duel:
    """The fight: every fighter, the round's order and whose turn it is, the open prompt.

    Named unlike Eleora's state on purpose (`fighters`, `stage`): the table reaches a state
    only through the ruleset, and a table that reads one by Eleora's names fails here."""

    settings: Settings
    fighters: Mapping[str, Fighter]
    stage: Stage = "setup"
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
        """By post: the fighters of the round's order still standing who have not acted."""
        if self.stage != "fight" or not self.by_post:
            return ()
        return tuple(
            cid
            for cid in self.order
            if cid not in self.acted and cid in self.fighters and not self.fighters[cid].down
        )


# --- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Command:
    """Who acts (a fighter's id, or `GM`), and the caller's clock for a deadline it opens."""

    type_key: ClassVar[str] = ""
    gm_only: ClassVar[bool] = False

    actor: str
    now: float = 0.0


@dataclass(frozen=True, kw_only=True)
class JoinCombat(Command):
    type_key: ClassVar[str] = "join_combat"
    gm_only: ClassVar[bool] = True
    actor: str = GM
    combatant: Mapping[str, Any]


@dataclass(frozen=True, kw_only=True)
class StartRound(Command):
    """GM: begin the fight (the server rolls everyone's initiative)."""

    type_key: ClassVar[str] = "start_round"
    gm_only: ClassVar[bool] = True
    actor: str = GM


@dataclass(frozen=True, kw_only=True)
class Attack(Command):
    type_key: ClassVar[str] = "attack"
    target: str


@dataclass(frozen=True, kw_only=True)
class Answer(Command):
    """The defender answers its prompt: `PARRY`, or `NO_REACTION`."""

    type_key: ClassVar[str] = "answer"
    prompt: str
    option: str = NO_REACTION


@dataclass(frozen=True, kw_only=True)
class EndTurn(Command):
    type_key: ClassVar[str] = "end_turn"


@dataclass(frozen=True, kw_only=True)
class EndFight(Command):
    type_key: ClassVar[str] = "end_fight"
    gm_only: ClassVar[bool] = True
    actor: str = GM
    winner: str | None = None


@dataclass(frozen=True, kw_only=True)
class ResolveExpired(Command):
    """The server: a prompt whose deadline passed lands as "no reaction"."""

    type_key: ClassVar[str] = "resolve_expired"
    gm_only: ClassVar[bool] = True
    actor: str = GM


@dataclass(frozen=True, kw_only=True)
class SetHidden(Command):
    type_key: ClassVar[str] = "set_hidden"
    gm_only: ClassVar[bool] = True
    actor: str = GM
    target: str
    hidden: bool


@dataclass(frozen=True, kw_only=True)
class RevealStats(Command):
    type_key: ClassVar[str] = "reveal_stats"
    gm_only: ClassVar[bool] = True
    actor: str = GM
    target: str
    revealed: bool


@dataclass(frozen=True, kw_only=True)
class SetLife(Command):
    """GM: set a fighter's Życie left (0 to its maximum)."""

    type_key: ClassVar[str] = "set_life"
    gm_only: ClassVar[bool] = True
    actor: str = GM
    target: str
    life: int


@dataclass(frozen=True, kw_only=True)
class EditMap(Command):
    """GM: lay, resize, paint, restyle or remove the battle map."""

    type_key: ClassVar[str] = "edit_map"
    gm_only: ClassVar[bool] = True
    actor: str = GM
    edit: Edit


@dataclass(frozen=True, kw_only=True)
class PlaceCombatant(Command):
    """GM: put a fighter's token on a field (None: off the map)."""

    type_key: ClassVar[str] = "place_combatant"
    gm_only: ClassVar[bool] = True
    actor: str = GM
    target: str
    to: tuple[int, int] | None = None


@dataclass(frozen=True, kw_only=True)
class Move(Command):
    """A fighter walks (or runs) along `path`, its own field first."""

    type_key: ClassVar[str] = "move"
    path: tuple[tuple[int, int], ...]
    mode: Mode = WALK


# --- events -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    type_key: ClassVar[str] = ""


@dataclass(frozen=True)
class Joined(Event):
    type_key: ClassVar[str] = "joined"
    fighter: Fighter


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round begins in `order` (the initiative rolls that follow it decided it); by post
    it ends at `deadline`."""

    type_key: ClassVar[str] = "round_started"
    round: int
    order: tuple[str, ...]
    deadline: float | None = None


@dataclass(frozen=True)
class InitiativeRolled(Event):
    """One fighter's initiative for the round: d20 + Atak."""

    type_key: ClassVar[str] = "initiative_rolled"
    fighter: str
    face: int
    bonus: int

    @property
    def total(self) -> int:
        return self.face + self.bonus


@dataclass(frozen=True)
class Attacked(Event):
    """d20 + Atak against `TO_HIT`; a hit opens the defender's prompt."""

    type_key: ClassVar[str] = "attacked"
    attacker: str
    target: str
    face: int
    bonus: int
    prompt: str | None = None  # the prompt's id, when it hit
    deadline: float | None = None

    @property
    def hit(self) -> bool:
        return self.face + self.bonus >= TO_HIT


@dataclass(frozen=True)
class Parried(Event):
    """The defender's d100 against 10 × Obrona; at or under it the hit is cancelled."""

    type_key: ClassVar[str] = "parried"
    prompt: str
    defender: str
    face: int
    threshold: int

    @property
    def success(self) -> bool:
        return self.face <= self.threshold


@dataclass(frozen=True)
class Struck(Event):
    """The hit lands: d6 + the weapon's Premia off the target's Życie; closes the prompt."""

    type_key: ClassVar[str] = "struck"
    prompt: str
    attacker: str
    target: str
    face: int
    bonus: int = 0
    expired: bool = False  # nobody answered in time

    @property
    def damage(self) -> int:
        return self.face + self.bonus


@dataclass(frozen=True)
class TurnEnded(Event):
    type_key: ClassVar[str] = "turn_ended"
    actor: str


@dataclass(frozen=True)
class FightEnded(Event):
    type_key: ClassVar[str] = "fight_ended"
    winner: str | None = None


@dataclass(frozen=True)
class HiddenSet(Event):
    type_key: ClassVar[str] = "hidden_set"
    target: str
    hidden: bool


@dataclass(frozen=True)
class StatsRevealed(Event):
    type_key: ClassVar[str] = "stats_revealed"
    target: str
    revealed: bool


@dataclass(frozen=True)
class LifeSet(Event):
    type_key: ClassVar[str] = "life_set"
    target: str
    life: int


@dataclass(frozen=True)
class RoundExpired(Event):
    """By post: the round's deadline passed; those who had not acted lose their turn."""

    type_key: ClassVar[str] = "round_expired"
    missed: tuple[str, ...]


@dataclass(frozen=True)
class DeadlineMoved(Event):
    """An undo brought the prompt back (or, with no prompt id, the by-post round): it gets
    the time it had left, from now."""

    type_key: ClassVar[str] = "deadline_moved"
    prompt: str
    deadline: float


@dataclass(frozen=True)
class MapEdited(Event):
    type_key: ClassVar[str] = "map_edited"
    edit: Edit


@dataclass(frozen=True)
class Placed(Event):
    type_key: ClassVar[str] = "placed"
    target: str
    to: tuple[int, int] | None


@dataclass(frozen=True)
class Moved(Event):
    type_key: ClassVar[str] = "moved"
    actor: str
    path: tuple[tuple[int, int], ...]
    cost: int
    mode: Mode = WALK


COMMANDS: dict[str, type[Command]] = {
    c.type_key: c
    for c in (
        JoinCombat,
        StartRound,
        Attack,
        Answer,
        EndTurn,
        EndFight,
        ResolveExpired,
        SetHidden,
        RevealStats,
        SetLife,
        EditMap,
        PlaceCombatant,
        Move,
    )
}
EVENTS: dict[str, type[Event]] = {
    e.type_key: e
    for e in (
        Joined,
        RoundStarted,
        InitiativeRolled,
        Attacked,
        Parried,
        Struck,
        TurnEnded,
        FightEnded,
        HiddenSet,
        StatsRevealed,
        LifeSet,
        RoundExpired,
        DeadlineMoved,
        MapEdited,
        Placed,
        Moved,
    )
}


# --- JSON -------------------------------------------------------------------------------------


def command_to_dict(command: Command) -> dict[str, Any]:
    return {"type": command.type_key, **to_data(command)}


def command_from_dict(data: Mapping[str, Any]) -> Command:
    return _typed(COMMANDS, data, "command")


def event_to_dict(event: Event) -> dict[str, Any]:
    return {"type": event.type_key, **to_data(event)}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    return _typed(EVENTS, data, "event")


def state_to_dict(state: Duel) -> dict[str, Any]:
    return to_data(state)


def state_from_dict(data: Mapping[str, Any]) -> Duel:
    return from_data(Duel, data, "state")


_CODEC = Codec()
to_data = _CODEC.to_data
from_data = _CODEC.from_data
_typed = _CODEC.typed
