"""The Magus encounter as one immutable value: combatants, the round's phase, open prompts.

Stages: setup → running → ended. A running round goes through three phases: "declare" (every
one who may act declares at once, hidden from the others until the reveal), "initiative"
(everyone's Initiative test) and "act" (in initiative order, with holds and delays). The
state is only ever replaced: `engine.evolve(state, event)` returns a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from combat.rules.battlemap import BattleMap
from combat.rules.codec import with_key
from combat.rules.magus.recovery import RecoveryState
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import Sheet, Shield, Spell, Weapon
from combat.rules.magus.sustained import Sustained
from combat.rules.records import replace

GM = "gm"  # the actor of the GM's own commands; no combatant may use this id
NO_REACTION = ""  # the option key of "no reaction" on every prompt

Stage = Literal["setup", "running", "ended"]
Phase = Literal["", "declare", "initiative", "act"]
ActionKind = Literal["none", "attack", "spell", "test", "sustained"]
ACTION_KINDS: tuple[str, ...] = ("none", "attack", "spell", "test", "sustained")
Position = tuple[int, ...]


@dataclass(frozen=True)
class Declaration:
    """What a character said it will do this round (in general), and its combat options.

    `action` is the standard action's kind; `weapon` names the weapon (or `spell` the spell)
    of an attack; `target` is whom it means to attack (Ominięcie tarczy takes that target's
    shield off its Initiative); `simple` the simple actions it means to take and `move` the
    metres (both informative: the act phase counts what is done); `ground` the metres of
    Oddawanie pola; `rounds` the length of a sustained action and `note` what it is (or
    `preset` one of `sustained.PRESETS`, its rounds the top of the range when `rounds` is 0),
    `test_skill`/`test_dn` the GM's end-of-round test it requires ("" : none) and
    `failure_stalls` whether a failed test adds no progress."""

    action: str = "none"
    options: tuple[str, ...] = ()
    weapon: str = ""
    spell: str = ""
    target: str | None = None
    simple: int = 0
    move: int = 0
    ground: int = 0
    rounds: int = 0
    note: str = ""
    empty: bool = False  # given by the rules to one who did not declare in time
    preset: str = ""
    test_skill: str = ""
    test_dn: int = 0
    failure_stalls: bool = True


@dataclass(frozen=True)
class Combatant:
    """One character: its sheet (read-only), what it has taken, and this round's bookkeeping."""

    id: str
    name: str
    side: str
    sheet: Sheet
    controller: str | None = None  # owner id; None = the GM runs it
    position: Position | None = None
    hidden: bool = False
    revealed: bool = False
    damage: int = 0  # current damage (Strain included)
    stun: int = 0  # stun damage (Atak by ogłuszyć)
    wounds: int = 0
    conditions: Mapping[str, int] = field(default_factory=dict)  # key → rounds left (0: open)
    bleeds_from: int = 0  # Krwotok from a hit: the first round at whose end it bleeds
    shield_broken: bool = False
    disarmed: bool = False
    damaged_items: tuple[str, ...] = ()  # Uszkodzenie broni, tarczy lub zbroi (the GM's story)
    initiative: int | None = None
    declaration: Declaration | None = None
    declared: bool = False
    paid: tuple[str, ...] = ()  # the options whose Strain is paid this round
    standard_used: bool = False
    simple_used: int = 0
    moved: int = 0  # metres moved this round
    moves: int = 0  # movements made this round
    changes: int = 0  # Zmiana akcji this round
    done: bool = False  # its part of this round is over
    started: bool = False  # it has done something in its current turn
    holding: str = ""  # the trigger of a held action (Powstrzymanie działania)
    held: bool = False  # it held this round: +2 DN to all its tests
    delayed: bool = False  # Opóźnienie: acts later this round at a turn boundary
    delay_next: bool = False  # delayed into the next round: initiative = highest + 1
    got_up: bool = False  # stood up this round: no more movement
    aim: int = 0  # rounds aimed in a row (Przycelowanie)
    sustained: Sustained | None = None  # sustained.Sustained: rounds, progress, the GM's test
    sustained_result: bool | None = None  # this round's end-of-round test, rolled or recorded
    melee_attackers: tuple[str, ...] = ()  # this round (Otoczony from many attackers)
    joined_round: int = 0
    recovery: RecoveryState = field(default_factory=lambda: RecoveryState(tests_left=0))
    mount: str | None = None  # a rider: its mount's id
    rider: str | None = None  # a mount: its rider's id (it acts on the rider's initiative)
    ignores_blindside: bool = False  # warned by a Brosza ostrzeżenia: no Atak z tyłu penalty

    # --- numbers of the sheet ----------------------------------------------------------------

    @property
    def wound_threshold(self) -> int:
        return self.sheet.stat("prog_ran")

    @property
    def unconsciousness_rating(self) -> int:
        return self.sheet.stat("prog_przytomnosci")

    @property
    def death_rating(self) -> int:
        return self.sheet.stat("prog_smierci")

    @property
    def movement_rate(self) -> int:
        return self.sheet.stat("ruch")

    @property
    def dexterity(self) -> int:
        return self.sheet.step("zrecznosc")

    # --- status --------------------------------------------------------------------------------

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def dead(self) -> bool:
        return self.death_rating > 0 and self.damage >= self.death_rating

    @property
    def unconscious(self) -> bool:
        rating = self.unconsciousness_rating
        return self.has("nieprzytomny") or (rating > 0 and self.damage + self.stun >= rating)

    @property
    def out(self) -> bool:
        return self.dead or self.unconscious

    @property
    def knocked_down(self) -> bool:
        return self.has("powalony")

    @property
    def options(self) -> tuple[str, ...]:
        return self.declaration.options if self.declaration else ()

    def weapon(self, name: str) -> Weapon | None:
        return next((w for w in self.sheet.weapons if w.name == name), None)

    def spell(self, name: str) -> Spell | None:
        return next((s for s in self.sheet.spells if s.name == name), None)

    @property
    def shield(self) -> Shield | None:
        return None if self.shield_broken else self.sheet.shield

    @property
    def wound_penalty(self) -> int:
        """−1 per Wound after the first (on action and effect tests), as a positive number."""
        return max(0, self.wounds - 1)


@dataclass(frozen=True)
class Strike:
    """An attack that hit and waits for the defender's answer: all that resolving it needs."""

    attacker: str
    target: str
    weapon: str
    spell: str
    total: int
    dn: int
    level: str
    flags: tuple[str, ...] = ()  # the options and flags that shape its damage
    item: str = ""  # the target's weapon, shield or armour it means to damage ("": none)


@dataclass(frozen=True)
class Prompt:
    """A question to one combatant with a deadline: the defender's reaction to an attack."""

    id: str
    actor: str
    deadline: float
    strike: Strike
    options: tuple[str, ...] = ()  # the defensive talents it may use ("unik", "riposta")
    kind: str = "obrona"


@dataclass(frozen=True)
class EncounterState:
    """The whole fight. `order` is this round's initiative order; `current` who acts now;
    `returns` the actors an interrupt (a held action) put aside, the last first back;
    `battlemap` the encounter's map, on which a combatant's `position` is its hex."""

    settings: MagusSettings
    combatants: Mapping[str, Combatant]
    stage: Stage = "setup"
    round: int = 0
    phase: Phase = ""
    deadline: float | None = None  # of the declaration or initiative phase
    order: tuple[str, ...] = ()
    current: str | None = None
    returns: tuple[str, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    prompts_opened: int = 0
    winner: str | None = None
    time_s: int = 0  # game time since the encounter began: round_seconds a round, + time passed
    surprise_sides: tuple[str, ...] = ()  # the sides whose surprise test is rolled
    battlemap: BattleMap | None = None  # the GM's hex map (2 m a hex), None: no map

    def get(self, combatant_id: str) -> Combatant:
        return self.combatants[combatant_id]

    def prompt(self, prompt_id: str) -> Prompt | None:
        return next((p for p in self.prompts if p.id == prompt_id), None)

    def with_combatant(self, combatant: Combatant) -> EncounterState:
        return replace(self, combatants=with_key(self.combatants, combatant.id, combatant))
