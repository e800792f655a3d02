"""Pojedynek's records: the table settings, a fighter, the fight's state, commands and events.

Frozen dataclasses, each command and event declared in one line by `command(...)` and
`event(...)` (its type key and its fields in order: a type, or a (type, default) pair); the
kernel's codec (`combat.rules.codec`) reads and writes them by their type hints. The GM's
shared commands and events (join, hide, reveal, end, edit the map, place a token) are those of
`combat.rules.vocabulary`; setting Życie is the duel's own, its command its event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, make_dataclass
from typing import Any, Literal

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
WALK, RUN = "walk", "run"  # a walk keeps the attack, a run spends it
MOVE_FIELDS = {WALK: 6, RUN: 12}  # fields of movement a turn's move may use
record = dataclass(frozen=True)
Field = tuple[int, int]


@record
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


@record
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


@record
class Prompt:
    """The defender's question after a hit: parry or take it, before `deadline`."""

    id: str
    attacker: str
    defender: str
    deadline: float


@record
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


def frozen(name: str, bases: tuple[type, ...] = (), kw_only: bool = False, /, **fields: Any) -> Any:
    """A frozen dataclass declared in one line: each field a type or a (type, default) pair; a
    `property` is a value computed from the fields."""
    spec = [
        (key, hint[0], field(default=hint[1])) if isinstance(hint, tuple) else (key, hint)
        for key, hint in fields.items()
        if not isinstance(hint, property)
    ]
    computed = {key: p for key, p in fields.items() if isinstance(p, property)}
    namespace = {"__module__": __name__, **computed}
    return make_dataclass(
        name, spec, bases=bases, namespace=namespace, frozen=True, kw_only=kw_only
    )


def command(key: str, *, gm: bool = False, **fields: Any) -> Any:
    """A command: `actor` (the GM's for a `gm` one) and `now`, then `fields`."""
    kind = frozen(_named(key), (GMCommand if gm else Command,), True, **fields)
    kind.type_key = key
    return kind


def event(key: str, **fields: Any) -> Any:
    kind = frozen(_named(key), (Event,), **fields)
    kind.type_key = key
    return kind


def _named(key: str) -> str:
    return "".join(part.title() for part in key.split("_"))


def maybe(hint: Any) -> tuple[Any, None]:
    """An optional field, None unless given."""
    return (hint | None, None)


# --- commands --------------------------------------------------------------------------------

StartRound = command("start_round", gm=True)  # the server rolls everyone's initiative
Attack = command("attack", target=str)
Answer = command("answer", prompt=str, option=(str, NO_REACTION))
EndTurn = command("end_turn")
EndFight = frozen("EndFight", (EndCombat,), True)  # the shared command, by the duel's key
EndFight.type_key = "end_fight"
ResolveExpired = command("expire", gm=True)  # the server: whatever waited past its deadline
SetLife = command("set_life", gm=True, target=str, life=int)
Move = command("move", path=tuple[Field, ...], mode=(Literal["walk", "run"], WALK))

# --- events: what the rules decided (and the GM's edits above, as they were sent) ---------------

TOTAL = property(lambda e: e.face + e.bonus)  # a d20 + Atak, the d6 + Premia of a hit
HELD = property(lambda e: e.face <= e.threshold)  # a parry: d100 at or under 10 × Obrona
Joined = frozen("Joined", (vocabulary.Joined,), combatant=Fighter)
RoundStarted = event("round_started", round=int, order=tuple[str, ...], deadline=maybe(float))
InitiativeRolled = event("initiative_rolled", fighter=str, face=int, bonus=int, total=TOTAL)
Attacked = event(  # a hit opens the defender's `prompt`
    "attacked",
    attacker=str,
    target=str,
    face=int,
    bonus=int,
    prompt=maybe(str),
    deadline=maybe(float),
    hit=property(lambda e: e.face + e.bonus >= TO_HIT),
)
Parried = event("parried", prompt=str, defender=str, face=int, threshold=int, success=HELD)
Struck = event(  # the hit lands for face + bonus (`expired`: nobody answered in time)
    "struck",
    prompt=str,
    attacker=str,
    target=str,
    face=int,
    bonus=(int, 0),
    expired=(bool, False),
    damage=TOTAL,
)
TurnEnded = event("turn_ended", actor=str)
FightEnded = CombatEnded  # the shared event
RoundExpired = event("round_expired", missed=tuple[str, ...])  # by post: who loses the turn
DeadlineMoved = event("deadline_moved", prompt=str, deadline=float)  # prompt "": the round's
Moved = event("moved", actor=str, path=tuple[Field, ...], cost=int, mode=(str, WALK))

COMMANDS = (JoinCombat, StartRound, Attack, Answer, EndTurn, EndFight, ResolveExpired)
COMMANDS += (SetHidden, RevealStats, SetLife, EditMap, PlaceCombatant, Move)
EVENTS = (Joined, RoundStarted, InitiativeRolled, Attacked, Parried, Struck, TurnEnded)
EVENTS += (CombatEnded, RoundExpired, DeadlineMoved, Moved, SetLife, HiddenSet, StatsRevealed)
EVENTS += (MapEdited, CombatantPlaced)
