"""Events: what happened, as the Magus rules decided it. `evolve` folds them into the state
without rolling; every die rolled is inside an event (a `StepRoll`, every face kept).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from combat.rules import vocabulary
from combat.rules.battlemap import Field
from combat.rules.magus.dice import StepRoll
from combat.rules.magus.state import Combatant, Declaration, Prompt
from combat.rules.vocabulary import (
    CombatantPlaced,
    CombatEnded,
    Event,
    HiddenSet,
    MapEdited,
    StatsRevealed,
)

# --- setup and the GM -------------------------------------------------------------------------


@dataclass(frozen=True)
class Joined(vocabulary.Joined):
    combatant: Combatant


@dataclass(frozen=True)
class GroundGiven(Event):
    """Oddawanie pola on the map: the defender steps back along `path` (its start first)
    away from its attacker; no movement of its own is used."""

    type_key: ClassVar[str] = "ground_given"
    combatant: str
    path: tuple[Field, ...]


@dataclass(frozen=True)
class CombatStarted(Event):
    """The fight begins; `surprised` are Zaskoczony for round 1."""

    type_key: ClassVar[str] = "combat_started"
    surprised: tuple[str, ...] = ()


@dataclass(frozen=True)
class HealthEdited(Event):
    type_key: ClassVar[str] = "health_edited"
    target: str
    damage: int
    stun: int
    wounds: int


@dataclass(frozen=True)
class ConditionAdded(Event):
    type_key: ClassVar[str] = "condition_added"
    target: str
    condition: str
    rounds: int = 0
    by_gm: bool = False


@dataclass(frozen=True)
class ConditionRemoved(Event):
    type_key: ClassVar[str] = "condition_removed"
    target: str
    condition: str
    by_gm: bool = False


@dataclass(frozen=True)
class DeadlinesMoved(Event):
    """An undo brought waiting deadlines back: each gets the time it had left."""

    type_key: ClassVar[str] = "deadlines_moved"
    phase: float | None = None
    prompts: Mapping[str, float] = field(default_factory=dict)


# --- the round --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round begins with its declaration phase, open until `deadline`."""

    type_key: ClassVar[str] = "round_started"
    round: int
    deadline: float | None = None


@dataclass(frozen=True)
class Announced(Event):
    """The public trace of a declaration: "X zadeklarował(a)" (its content stays secret)."""

    type_key: ClassVar[str] = "announced"
    combatant: str


@dataclass(frozen=True)
class Declared(Event):
    """A declaration (or its replacement); told to the GM only until the reveal."""

    type_key: ClassVar[str] = "declared"
    combatant: str
    declaration: Declaration


@dataclass(frozen=True)
class StrainPaid(Event):
    """Wyczerpanie paid as damage: `points` of Strain for `reason` (an option key)."""

    type_key: ClassVar[str] = "strain_paid"
    combatant: str
    reason: str
    points: int
    damage: int


@dataclass(frozen=True)
class Revealed(Event):
    """Every declaration is shown; `defaulted` got the empty one; the initiative phase begins
    (open until `deadline` when players roll their own)."""

    type_key: ClassVar[str] = "revealed"
    defaulted: tuple[str, ...] = ()
    expired: bool = False
    deadline: float | None = None


@dataclass(frozen=True)
class InitiativeRolled(Event):
    """One Initiative test: the roll (its adjustments hold Ominięcie tarczy), its total."""

    type_key: ClassVar[str] = "initiative_rolled"
    combatant: str
    roll: StepRoll
    by: str = ""  # who pressed: the combatant, "gm", or "" (the server at the deadline)


@dataclass(frozen=True)
class InitiativeSet(Event):
    """An initiative given, not rolled: delayed into this round (the highest + 1), or a
    mount's, its `rider`'s result (it acts right after the rider)."""

    type_key: ClassVar[str] = "initiative_set"
    combatant: str
    value: int
    rider: str = ""


@dataclass(frozen=True)
class OrderSet(Event):
    """The act phase begins in this order."""

    type_key: ClassVar[str] = "order_set"
    order: tuple[str, ...]


@dataclass(frozen=True)
class TurnBegan(Event):
    """`combatant` acts now; `interrupting` is the one a held action interrupts."""

    type_key: ClassVar[str] = "turn_began"
    combatant: str
    interrupting: str | None = None


@dataclass(frozen=True)
class TurnEnded(Event):
    type_key: ClassVar[str] = "turn_ended"
    combatant: str


@dataclass(frozen=True)
class Held(Event):
    type_key: ClassVar[str] = "held"
    combatant: str
    trigger: str


@dataclass(frozen=True)
class Delayed(Event):
    type_key: ClassVar[str] = "delayed"
    combatant: str
    next_round: bool = False


@dataclass(frozen=True)
class Moved(Event):
    """A movement of `metres`; `running` with Bieg; `initiative_cost` with initiative-based
    movement; `path` the hexes walked on the battle map (the start first; () off the map)."""

    type_key: ClassVar[str] = "moved"
    combatant: str
    metres: int
    running: bool = False
    initiative_cost: int = 0
    path: tuple[Field, ...] = ()


@dataclass(frozen=True)
class SimpleActed(Event):
    type_key: ClassVar[str] = "simple_acted"
    combatant: str
    count: int
    note: str = ""


@dataclass(frozen=True)
class ActionUsed(Event):
    """The standard action spent on something the GM judges."""

    type_key: ClassVar[str] = "action_used"
    combatant: str
    note: str = ""


@dataclass(frozen=True)
class ActionChanged(Event):
    """Zmiana akcji: the declared action changes to `action` (+2 DN per change)."""

    type_key: ClassVar[str] = "action_changed"
    combatant: str
    action: str


@dataclass(frozen=True)
class GotUp(Event):
    """Powstanie: Zręczność − armour vs DN; success ends Powalony."""

    type_key: ClassVar[str] = "got_up"
    combatant: str
    roll: StepRoll
    dn: int
    success: bool


@dataclass(frozen=True)
class SustainedTested(Event):
    type_key: ClassVar[str] = "sustained_tested"
    combatant: str
    success: bool


@dataclass(frozen=True)
class SustainedCompleted(Event):
    type_key: ClassVar[str] = "sustained_completed"
    combatant: str


@dataclass(frozen=True)
class SustainedRolled(Event):
    """The GM's end-of-round test of a sustained action, rolled (`sustained.round_test`)."""

    type_key: ClassVar[str] = "sustained_rolled"
    combatant: str
    roll: StepRoll
    dn: int
    level: str
    passed: bool


@dataclass(frozen=True)
class SustainedAdvanced(Event):
    """A round of a sustained action at the round's end (`sustained.advance`); `passed` is
    its test's result, None when no test is required."""

    type_key: ClassVar[str] = "sustained_advanced"
    combatant: str
    passed: bool | None = None


@dataclass(frozen=True)
class SustainedCheckSet(Event):
    """The GM requires an end-of-round test of the sustained action (`skill` "": none)."""

    type_key: ClassVar[str] = "sustained_check_set"
    combatant: str
    skill: str = ""
    dn: int = 0
    failure_stalls: bool = True


@dataclass(frozen=True)
class Bled(Event):
    """Blood loss at the round's end: Krwotok (fixed points) or a severed limb (a roll)."""

    type_key: ClassVar[str] = "bled"
    combatant: str
    cause: str
    damage: int
    roll: StepRoll | None = None


@dataclass(frozen=True)
class RoundEnded(Event):
    """Conditions tick; one-round options and Otoczony end; Zaskoczony ends after round 1."""

    type_key: ClassVar[str] = "round_ended"
    round: int


# --- attacks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackRolled(Event):
    """The attack test against the defence: `dn` with its (reason, value) parts, the level;
    `prompt` opens the defender's reaction when it hit and the defender may react."""

    type_key: ClassVar[str] = "attack_rolled"
    attacker: str
    target: str
    weapon: str
    spell: str
    roll: StepRoll
    dn: int
    dn_parts: tuple[tuple[str, int], ...]
    level: str
    prompt: Prompt | None = None
    notes: tuple[tuple[str, Mapping[str, str | int]], ...] = ()  # why, from the map


@dataclass(frozen=True)
class DefenceRolled(Event):
    """A defensive talent's test (Unik, Riposta) that must reach the attack's result."""

    type_key: ClassVar[str] = "defence_rolled"
    prompt: str
    defender: str
    talent: str
    roll: StepRoll
    needed: int
    success: bool


@dataclass(frozen=True)
class PromptClosed(Event):
    type_key: ClassVar[str] = "prompt_closed"
    prompt: str
    expired: bool = False


@dataclass(frozen=True)
class DamageRolled(Event):
    """The damage test and what it came to: `dealt` after armour; `kind` "damage", "stun"
    (Atak by ogłuszyć) or "none" (Atak by powalić, Strzaskanie tarczy, a weapon shot);
    `wound` whether it inflicts a Wound."""

    type_key: ClassVar[str] = "damage_rolled"
    attacker: str
    target: str
    roll: StepRoll
    damage_step: int
    capped: int
    armour: int
    dealt: int
    penetrated: bool
    kind: str = "damage"
    wound: bool = False


@dataclass(frozen=True)
class CheckRolled(Event):
    """A test that follows an attack: "rownowaga" (knockdown), "powalenie" (Atak by
    powalić), "bron" (keeping the weapon), "tarcza" (Strzaskanie tarczy, an effect vs the
    shield's threshold). `success` is the tested one's (the shield's: it broke).

    `result` set: the check rolls no dice of its own but compares a value built on a roll
    another line shows (Strzaskanie tarczy: the damage result + the weapon's size; `roll` is
    that damage test), so its line shows `result` and no faces."""

    type_key: ClassVar[str] = "check_rolled"
    combatant: str
    kind: str
    roll: StepRoll
    dn: int
    success: bool
    result: int | None = None


@dataclass(frozen=True)
class ItemDamaged(Event):
    """Uszkodzenie broni, tarczy lub zbroi: an aimed hit reached Excellent (Extraordinary for
    a magic item); `item` (of `kind` "bron", "tarcza", "zbroja") is damaged. What that does
    (PG224) is the GM's to tell."""

    type_key: ClassVar[str] = "item_damaged"
    combatant: str
    item: str
    kind: str
    magic: bool = False


# --- surprise, mounts, recovery ----------------------------------------------------------------


@dataclass(frozen=True)
class SurpriseDifficulty(Event):
    """The DN of `side`'s surprise test: its base (from `source`, a msgid), the conditions'
    modifiers, and the Podkradanie się rolls of the sneakers. Told to the GM only."""

    type_key: ClassVar[str] = "surprise_difficulty"
    side: str
    dn: int
    base: int
    source: str
    modifiers: tuple[tuple[str, int], ...] = ()
    sneaks: tuple[tuple[str, StepRoll], ...] = ()


@dataclass(frozen=True)
class BroochRolled:
    """A Brosza ostrzeżenia's test inside a surprise test (no roll: out of its range)."""

    dn: int
    roll: StepRoll | None
    level: str
    detected: bool
    damage: int
    reason: str


@dataclass(frozen=True)
class SurpriseRolled(Event):
    """One character's surprise test: Percepcja vs `dn` (no roll: unaware), `surprised`
    (Zaskoczony in round 1), `reason` (a msgid), and the brooch's test when it had one."""

    type_key: ClassVar[str] = "surprise_rolled"
    combatant: str
    dn: int
    surprised: bool
    reason: str
    roll: StepRoll | None = None
    level: str = ""
    brooch: BroochRolled | None = None


@dataclass(frozen=True)
class Mounted(Event):
    type_key: ClassVar[str] = "mounted"
    rider: str
    mount: str


@dataclass(frozen=True)
class Dismounted(Event):
    type_key: ClassVar[str] = "dismounted"
    rider: str
    mount: str


@dataclass(frozen=True)
class ImpactRolled(Event):
    """After a charge hit: the rider's Siła (or Szarża) vs the target's Żywotność; failed with
    a lance it falls (`fall`: the fall's damage, Powalony), with another weapon loses it."""

    type_key: ClassVar[str] = "impact_rolled"
    rider: str
    target: str
    roll: StepRoll
    dn: int
    success: bool
    lance: bool
    falls: bool
    loses_weapon: bool
    fall: StepRoll | None = None


@dataclass(frozen=True)
class SaddleRolled(Event):
    """A wounded rider's balance test to stay in the saddle (Siła + Pewny dosiad vs the
    knockdown DN); failed: it falls (`fall`: the fall's damage, Powalony)."""

    type_key: ClassVar[str] = "saddle_rolled"
    rider: str
    roll: StepRoll
    dn: int
    success: bool
    fall: StepRoll | None = None


@dataclass(frozen=True)
class RecoveryTested(Event):
    """Test zdrowienia: the roll (minimum 1, Wounds lower it), what it `healed` of the
    damage or the stun damage (`heals`); `revived`: someone brought it round."""

    type_key: ClassVar[str] = "recovery_tested"
    combatant: str
    heals: str
    roll: StepRoll
    healed: int
    revived: bool = False


@dataclass(frozen=True)
class WoundHealed(Event):
    """A Wound healed after a night's rest, spending a recovery test."""

    type_key: ClassVar[str] = "wound_healed"
    combatant: str


@dataclass(frozen=True)
class TimePassed(Event):
    """Game time passes (`seconds`); `night`: a full night's rest ends (the day's tests back)."""

    type_key: ClassVar[str] = "time_passed"
    seconds: int
    night: bool = False


EVENTS: dict[str, type[Event]] = {
    e.type_key: e
    for e in (
        Joined,
        MapEdited,
        CombatantPlaced,
        GroundGiven,
        HiddenSet,
        StatsRevealed,
        CombatStarted,
        CombatEnded,
        HealthEdited,
        ConditionAdded,
        ConditionRemoved,
        DeadlinesMoved,
        RoundStarted,
        Announced,
        Declared,
        StrainPaid,
        Revealed,
        InitiativeRolled,
        InitiativeSet,
        OrderSet,
        TurnBegan,
        TurnEnded,
        Held,
        Delayed,
        Moved,
        SimpleActed,
        ActionUsed,
        ActionChanged,
        GotUp,
        SustainedTested,
        SustainedCompleted,
        SustainedRolled,
        SustainedAdvanced,
        SustainedCheckSet,
        SurpriseDifficulty,
        SurpriseRolled,
        Mounted,
        Dismounted,
        ImpactRolled,
        SaddleRolled,
        RecoveryTested,
        WoundHealed,
        TimePassed,
        Bled,
        RoundEnded,
        AttackRolled,
        DefenceRolled,
        PromptClosed,
        DamageRolled,
        CheckRolled,
        ItemDamaged,
    )
}
