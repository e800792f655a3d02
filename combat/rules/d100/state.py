"""The d100 encounter as one immutable value: combatants, the combat turn, open prompts, posts.

Stages: setup → running → ended. A running fight goes in combat turns (`turn` n). Two paces
share one log (`pace`): "live" (one actor at a time in `order`, `current` acts; an attack opens
a reaction prompt for its target) and "post" (the whole turn is open at once: every seat that
may act posts its action and defence until `deadline`, the GM resolves the turn). The state is
only ever replaced: `engine.evolve(state, event)` returns a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from combat.rules.battlemap import BattleMap
from combat.rules.codec import with_key
from combat.rules.d100.settings import D100Settings
from combat.rules.records import replace

GM = "gm"  # the actor of the GM's own commands; no combatant may use this id
NO_REACTION = ""  # the option key of "no reaction" on every prompt

Stage = Literal["setup", "running", "ended"]
Pace = Literal["live", "post"]
# A combatant's standing: "" fights; "nieprzytomny" (a PC at 0 PŻ, or an NPC the GM left
# alive), "martwy", "pokonany" (an NPC at 0 PŻ waiting for the GM's DecideFallen).
Status = Literal["", "nieprzytomny", "martwy", "pokonany"]
STATUSES: tuple[str, ...] = ("", "nieprzytomny", "martwy", "pokonany")
# The kinds of a structured action (a live command or a post's `Action.kind`).
ACTION_KINDS: tuple[str, ...] = ("none", "attack", "cast", "rest", "transform", "full")
DEFENCES: tuple[str, ...] = ("unik", "blok")  # the reactions to an attack ("" = none)


@dataclass(frozen=True)
class Effect:
    """A condition or a timed modifier on a combatant, acting in turns `start`..`until`
    (inclusive; `until` 0 = until removed).

    `key` is a `conditions` key: "ogluszenie", "powalenie", "rozbrojenie", "krwawienie",
    "zachwianie", "modyfikator" (a number added to one kind of test), "czar" (a spell's effect,
    told by the GM). `value`: Krwawienie's PŻ lost per tick, Zachwianie's penalty (a positive
    number), a modifier's signed value. `roll`: which tests a modifier changes
    (`conditions.ROLLS`: "trafienie", "obrazenia", "unik", "blok", "umysl", "czar_trafienie",
    "czar_obrazenia"). `label`: the reason shown (a msgid, or the spell's name for "czar").
    `source`: who caused it (a combatant id, "" for the GM). `hand`: the weapon choice a
    Rozbrojenie of two weapons took ("w1"); "" for a single weapon."""

    key: str
    start: int
    until: int = 0
    value: int = 0
    roll: str = ""
    label: str = ""
    source: str = ""
    hand: str = ""

    def active(self, turn: int) -> bool:
        return self.start <= turn and (self.until == 0 or turn <= self.until)


@dataclass(frozen=True)
class Summon:
    """What makes a combatant a summoned creature: its caster and spell, its attack and
    damage thresholds (the sheet's `summon` values, `hit_bonus` from a crit), the last turn it
    stays (`until`, 0: the whole fight), and `hostile`: crit bad luck made it attack its caster
    for one turn, then vanish."""

    caster: str
    spell: str
    attack: int
    damage: int
    hit_bonus: int = 0
    until: int = 0
    hostile: bool = False


@dataclass(frozen=True)
class Combatant:
    """One character: its validated sheet (read-only, the dict of `sheet.validate_sheet`),
    its PŻ and Urazy, its conditions, and this turn's bookkeeping."""

    id: str
    name: str
    side: str
    sheet: Mapping[str, Any]
    max_pz: int
    pz: int
    controller: str | None = None  # owner id; None = the GM runs it
    hidden: bool = False
    revealed: bool = False
    injuries: int = 0  # Urazy taken in this fight
    status: Status = ""
    effects: tuple[Effect, ...] = ()
    transformed: str = ""  # "" | "wampir" | "wilkolak": the form it has taken (Przemiana)
    weapon: str = ""  # the active attack choice ("w0", "two:0:1", "claws"…); "" = the first
    joined_turn: int = 0
    summon: Summon | None = None
    position: tuple[int, int] | None = None  # its token's field on the battle map (None: off)
    # --- this turn -------------------------------------------------------------------------
    full_used: bool = False  # the one full action of the turn is spent
    free_used: int = 0  # free actions taken this turn (counted, not limited)
    resting: bool = False  # Odpoczynek declared: resolved at the turn's end
    attacked: bool = False  # an attack was declared at it this turn (Odpoczynek fails)
    done: bool = False  # live: its part of this turn is over (it acted or was skipped)
    moved: int = 0  # fields walked on the battle map this turn (settings.move_fields a turn)

    # --- numbers of the sheet --------------------------------------------------------------

    def attribute(self, key: str) -> int:
        """The sheet's value of an attribute (0 when missing), before any modifier."""
        value = self.sheet.get("attributes", {}).get(key, 0)
        return int(value)

    def skill(self, key: str) -> int:
        value = self.sheet.get("skills", {}).get(key, 0)
        return int(value)

    @property
    def weapons(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(self.sheet.get("weapons", ()))

    @property
    def spells(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(self.sheet.get("spells", ()))

    @property
    def transformation(self) -> str:
        """What the sheet lets it become ("" : nothing)."""
        return str(self.sheet.get("transformation", "") or "")

    # --- status ----------------------------------------------------------------------------

    @property
    def out(self) -> bool:
        """Out of the fight: unconscious, dead, or fallen and waiting for the GM."""
        return self.status != ""

    @property
    def dead(self) -> bool:
        return self.status == "martwy"

    @property
    def unconscious(self) -> bool:
        return self.status == "nieprzytomny"

    def effects_at(self, turn: int, key: str | None = None) -> tuple[Effect, ...]:
        """Its effects acting in `turn` (of one key when given)."""
        return tuple(e for e in self.effects if e.active(turn) and (key is None or e.key == key))

    def has(self, key: str, turn: int) -> bool:
        return any(e.key == key and e.active(turn) for e in self.effects)


@dataclass(frozen=True)
class Prompt:
    """A live attack waiting for its target's reaction: `options` are the reactions allowed
    now ("unik", "blok"; "" = none is always allowed), `deadline` when it lands as "no
    reaction". The attack itself is not rolled yet: the answer rolls all of it. `spell` is
    the index of the damage spell cast (-1: a weapon attack with `choice`)."""

    id: str
    actor: str  # the target, who answers
    attacker: str
    deadline: float
    choice: str = ""
    spell: int = -1
    options: tuple[str, ...] = ()
    kind: str = "obrona"


@dataclass(frozen=True)
class Action:
    """A structured action, in the shapes of the live commands: `kind` one of ACTION_KINDS
    ("none", "attack" with `target` and `choice`, "cast" with `spell` (index) and `target`,
    "rest", "transform", "full" with `note`)."""

    kind: str = "none"
    target: str | None = None
    choice: str = ""
    spell: int = -1
    note: str = ""


@dataclass(frozen=True)
class Post:
    """One seat's post in a by-post turn: its action, the defence it uses if attacked this
    turn ("unik", "blok", "" none, "best"), its narrative text, when (`at`) and whether the
    GM posted it for the seat (`by_gm`)."""

    actor: str
    action: Action = field(default_factory=Action)
    defence: str = ""
    text: str = ""
    at: float = 0.0
    by_gm: bool = False


@dataclass(frozen=True)
class EncounterState:
    """The whole fight. `order` is this turn's initiative order (`order_fixed`: the GM set
    it, kept in later turns); `current` who acts now (live); `deadline` the by-post turn's
    deadline and `closed` whether it passed (posting closed; the GM resolves); `posts` the
    posts of the open by-post turn by seat id; `summons` counts summoned creatures (ids);
    `battlemap` the optional battle map the GM laid (None: positions stay narrative)."""

    settings: D100Settings
    combatants: Mapping[str, Combatant]
    stage: Stage = "setup"
    turn: int = 0
    pace: Pace = "live"
    order: tuple[str, ...] = ()
    order_fixed: bool = False
    current: str | None = None
    prompts: tuple[Prompt, ...] = ()
    prompts_opened: int = 0
    deadline: float | None = None
    closed: bool = False
    posts: Mapping[str, Post] = field(default_factory=dict)
    winner: str | None = None
    summons: int = 0
    battlemap: BattleMap | None = None

    def get(self, combatant_id: str) -> Combatant:
        return self.combatants[combatant_id]

    def prompt(self, prompt_id: str) -> Prompt | None:
        return next((p for p in self.prompts if p.id == prompt_id), None)

    def with_combatant(self, combatant: Combatant) -> EncounterState:
        return replace(self, combatants=with_key(self.combatants, combatant.id, combatant))
