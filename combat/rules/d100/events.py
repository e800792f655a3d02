"""Events: what happened, as the d100 rules decided it. `evolve` folds them into the state
without rolling; every die rolled is inside an event (a `check.TestRoll` per d100 test, a
`CritRoll` per GM d6/d2 of the crit tables).

What a blow does to a combatant is a `Harm` (PŻ lost, Urazy, the standing it ends in); what a
crit or a spell puts on one is an `Applied` effect. An attack is two events: `AttackDeclared`
(the target's prompt opens, nothing rolled) and `AttackResolved` (every roll of it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from combat.rules import vocabulary
from combat.rules.d100.check import TestRoll
from combat.rules.d100.falls import FallResult
from combat.rules.d100.state import Combatant, Effect, Post, Prompt, Status
from combat.rules.vocabulary import (
    CombatantPlaced,
    CombatEnded,
    Event,
    HiddenSet,
    MapEdited,
    StatsRevealed,
)

# --- records inside events --------------------------------------------------------------------


@dataclass(frozen=True)
class CritRoll:
    """A GM die of the crit tables, rolled by the server: `table` ("trafienie_szczescie" d6,
    "trafienie_pech" d2, "obrona_szczescie" d2, "obrona_pech" d2), `sides`, the `roll` and the
    `effect` key it gave ("negacja", "ogluszenie", "powalenie", "rozbrojenie", "krwawienie",
    "zachwianie", "obrazenia_wlasne", "trafienie", "unik", "blok", "umysl")."""

    table: str
    sides: int
    roll: int
    effect: str


@dataclass(frozen=True)
class Harm:
    """What one blow (or bleeding, a fall, the GM) does to `target`: `amount` PŻ lost (never
    more than it had), `injuries` Urazy added, and `down` the standing it falls into ("" :
    still fighting or already out)."""

    target: str
    amount: int
    injuries: int = 0
    down: Status = ""


@dataclass(frozen=True)
class Applied:
    """An effect put on `target` (a crit's condition or modifier, a spell's effect)."""

    target: str
    effect: Effect


# --- setup and the GM -------------------------------------------------------------------------


@dataclass(frozen=True)
class Joined(vocabulary.Joined):
    combatant: Combatant


@dataclass(frozen=True)
class CombatStarted(Event):
    """The fight begins in `pace`."""

    type_key: ClassVar[str] = "combat_started"
    pace: str = "live"


@dataclass(frozen=True)
class OrderSet(Event):
    """The initiative order: computed at a turn's start (`fixed` False: descending Zwinność
    with Przemiana, ties Zmysły, then name), or the GM's (`fixed`: kept in later turns)."""

    type_key: ClassVar[str] = "order_set"
    order: tuple[str, ...]
    fixed: bool = False


@dataclass(frozen=True)
class PaceSet(Event):
    """The pace changes; to "post" the rest of the turn is open to posts until `deadline`."""

    type_key: ClassVar[str] = "pace_set"
    pace: str
    deadline: float | None = None


@dataclass(frozen=True)
class Damaged(Event):
    """PŻ taken by the GM (`source` "gm") or by crit bad luck on oneself ("pech")."""

    type_key: ClassVar[str] = "damaged"
    harm: Harm
    source: str = "gm"
    note: str = ""


@dataclass(frozen=True)
class Healed(Event):
    """PŻ given back (`amount`, capped at the maximum), `injuries` Urazy treated, Krwawienie
    stopped; `woke`: it was unconscious and wakes (any healing does)."""

    type_key: ClassVar[str] = "healed"
    target: str
    amount: int
    injuries: int = 0
    woke: bool = False
    stopped_bleeding: bool = False
    source: str = "gm"
    note: str = ""


@dataclass(frozen=True)
class ConditionAdded(Event):
    type_key: ClassVar[str] = "condition_added"
    target: str
    effect: Effect
    by_gm: bool = True


@dataclass(frozen=True)
class ConditionRemoved(Event):
    """Every effect of key `condition` on `target` ends."""

    type_key: ClassVar[str] = "condition_removed"
    target: str
    condition: str
    by_gm: bool = True


@dataclass(frozen=True)
class FallRolled(Event):
    """A fall (`falls.roll_fall`): its rolls and numbers, and what it did."""

    type_key: ClassVar[str] = "fall_rolled"
    target: str
    result: FallResult
    harm: Harm


@dataclass(frozen=True)
class GMRolled(Event):
    """The GM's own d100 test; `secret`: the GM's eyes only."""

    type_key: ClassVar[str] = "gm_rolled"
    label: str
    roll: TestRoll
    secret: bool = False
    target: str | None = None


@dataclass(frozen=True)
class FallenDecided(Event):
    """An NPC at 0 PŻ is "martwy" or "nieprzytomny", as the GM decided."""

    type_key: ClassVar[str] = "fallen_decided"
    target: str
    outcome: Status


@dataclass(frozen=True)
class DeadlineSet(Event):
    """The by-post turn's deadline moves (posting reopens when it is in the future)."""

    type_key: ClassVar[str] = "deadline_set"
    deadline: float
    reopened: bool = False


@dataclass(frozen=True)
class DeadlinesMoved(Event):
    """An undo brought waiting deadlines back: each gets the time it had left."""

    type_key: ClassVar[str] = "deadlines_moved"
    deadline: float | None = None
    prompts: Mapping[str, float] = field(default_factory=dict)


# --- the turn ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnStarted(Event):
    """Combat turn `turn` opens; by post, open to posts until `deadline`."""

    type_key: ClassVar[str] = "turn_started"
    turn: int
    deadline: float | None = None


@dataclass(frozen=True)
class TurnBegan(Event):
    """Live: `combatant` acts now."""

    type_key: ClassVar[str] = "turn_began"
    combatant: str


@dataclass(frozen=True)
class TurnSkipped(Event):
    """Live: `combatant` cannot act this turn (`reason`: "ogluszenie", "nieprzytomny",
    "martwy", "pokonany")."""

    type_key: ClassVar[str] = "turn_skipped"
    combatant: str
    reason: str


@dataclass(frozen=True)
class TurnEnded(Event):
    type_key: ClassVar[str] = "turn_ended"
    combatant: str


@dataclass(frozen=True)
class Posted(Event):
    """A post (or its replacement) of a by-post turn; hidden from the other players until the
    turn resolves when `settings.posts_hidden`."""

    type_key: ClassVar[str] = "posted"
    post: Post


@dataclass(frozen=True)
class PostingClosed(Event):
    """The by-post turn's deadline passed ("Termin minął"): players post no more; the GM
    resolves."""

    type_key: ClassVar[str] = "posting_closed"
    turn: int


@dataclass(frozen=True)
class PostsRevealed(Event):
    """The GM resolves the by-post turn: every post is shown, in initiative order."""

    type_key: ClassVar[str] = "posts_revealed"
    turn: int
    posts: tuple[Post, ...] = ()


@dataclass(frozen=True)
class PostSkipped(Event):
    """A post not carried out at the resolve: `reason` "brak" (nothing posted), "poza_walka"
    (its actor is out of the fight or stunned: "ogluszenie"), "cel_poza_walka" (its target was
    knocked out earlier in the order), "odmowa" (the rules refuse it now: `detail` says why)."""

    type_key: ClassVar[str] = "post_skipped"
    actor: str
    reason: str
    target: str | None = None
    detail: str = ""


@dataclass(frozen=True)
class Bled(Event):
    """Krwawienie at the turn's end."""

    type_key: ClassVar[str] = "bled"
    harm: Harm


@dataclass(frozen=True)
class RestResolved(Event):
    """Odpoczynek at the turn's end: `interrupted` (attacked this turn: no roll), or the Ogłada
    test and the PŻ it `healed` (OoP × rest_multiplier, capped at the maximum)."""

    type_key: ClassVar[str] = "rest_resolved"
    combatant: str
    roll: TestRoll | None = None
    healed: int = 0
    interrupted: bool = False


@dataclass(frozen=True)
class Vanished(Event):
    """A summoned creature leaves the fight (its time is up, or a hostile one's turn passed)."""

    type_key: ClassVar[str] = "vanished"
    combatant: str


@dataclass(frozen=True)
class TurnClosed(Event):
    """Turn `turn` ends: effects that end with it go, the turn's bookkeeping resets."""

    type_key: ClassVar[str] = "turn_closed"
    turn: int


# --- the battle map ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed(CombatantPlaced):
    type_key: ClassVar[str] = "placed"


@dataclass(frozen=True)
class Moved(Event):
    """A Ruch on the map: the fields walked (start first) and the fields of movement used."""

    type_key: ClassVar[str] = "moved"
    combatant: str
    path: tuple[tuple[int, int], ...]
    cost: int


# --- actions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FreeActed(Event):
    """A free action ("move", "reload", "change_weapon": `choice` becomes active, "other")."""

    type_key: ClassVar[str] = "free_acted"
    combatant: str
    kind: str
    choice: str = ""
    note: str = ""


@dataclass(frozen=True)
class FullActed(Event):
    """Another full action, told in `note`."""

    type_key: ClassVar[str] = "full_acted"
    combatant: str
    note: str = ""


@dataclass(frozen=True)
class RestDeclared(Event):
    """Odpoczynek: the full action; resolved at the turn's end."""

    type_key: ClassVar[str] = "rest_declared"
    combatant: str


@dataclass(frozen=True)
class Transformed(Event):
    """Przemiana into `form` ("wampir", "wilkolak"; "" back to its own form), with the
    attribute modifiers it gives."""

    type_key: ClassVar[str] = "transformed"
    combatant: str
    form: str
    mods: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class AttackDeclared(Event):
    """An attack (a weapon `choice`, or the damage spell `spell`) at `target`: its full
    action is spent and the target counts as attacked; `prompt` opens its reaction (None: it
    cannot react, the attack resolves at once)."""

    type_key: ClassVar[str] = "attack_declared"
    attacker: str
    target: str
    choice: str = ""
    spell: int = -1
    prompt: Prompt | None = None


@dataclass(frozen=True)
class AttackResolved(Event):
    """The whole attack, every roll as data: the hit test (`hit_crit`: the GM's d6 on crit
    luck, d2 on crit bad luck), the target's reaction `defence` ("" none) with its roll and
    crit, `avoided`; the damage test and its `raw` damage (OoP × multiplier), the resistance
    test and what it `soaked`, the armour percent and the points it took (`armour_negated` by
    a crit), the blow `dealt`; `harms` (the target's, the attacker's own from crit bad luck),
    the effects `applied`, the damage re-rolls of a Krwawienie after a blow that dealt
    nothing (`bleed_rolls`). `crits`: whether crit effects applied (the difficulty).
    `prompt` is the prompt it closes ("" : none), `expired` when nobody answered."""

    type_key: ClassVar[str] = "attack_resolved"
    attacker: str
    target: str
    hit: TestRoll
    choice: str = ""
    spell: int = -1
    label: str = ""
    prompt: str = ""
    expired: bool = False
    defence: str = ""
    hit_crit: CritRoll | None = None
    defence_roll: TestRoll | None = None
    defence_crit: CritRoll | None = None
    avoided: bool = False
    damage: TestRoll | None = None
    raw: int = 0
    resistance: TestRoll | None = None
    soaked: int = 0
    armour_percent: int = 0
    armour: int = 0
    armour_negated: bool = False
    dealt: int = 0
    harms: tuple[Harm, ...] = ()
    applied: tuple[Applied, ...] = ()
    bleed_rolls: tuple[TestRoll, ...] = ()
    crits: bool = True


@dataclass(frozen=True)
class PromptClosed(Event):
    """An open prompt closes unrolled: the attack it waited on fell through (its target or
    attacker left the fight meanwhile: `reason` the refusal's code, `detail` its text)."""

    type_key: ClassVar[str] = "prompt_closed"
    prompt: str
    reason: str = ""
    detail: str = ""


@dataclass(frozen=True)
class SpellResolved(Event):
    """An effect or summoning spell, its two rolls: `hit` then `effect` (the second roll); a
    negative spell's target may resist (`resistance`, Wytrzymałość or the mind attribute, with
    its crit `resistance_crit`), `resisted` when its OoP reaches the effect's. `success`: the
    effect lands (on `target` for `turns` turns) or the summon comes; `applied` are the
    effects put on anyone (the spell's, crit bad luck's on the caster). The full action is
    spent. `crits`: whether crit effects applied."""

    type_key: ClassVar[str] = "spell_resolved"
    caster: str
    spell: int
    name: str
    kind: str
    hit: TestRoll
    target: str | None = None
    effect: TestRoll | None = None
    resistance: TestRoll | None = None
    resistance_crit: CritRoll | None = None
    resisted: bool = False
    success: bool = False
    turns: int = 0
    applied: tuple[Applied, ...] = ()
    crits: bool = True


@dataclass(frozen=True)
class Summoned(Event):
    """A summoned creature joins the fight (after its caster in the order); a hostile one
    (crit bad luck) attacks its caster for one turn, then vanishes."""

    type_key: ClassVar[str] = "summoned"
    combatant: Combatant


EVENTS: dict[str, type[Event]] = {
    e.type_key: e
    for e in (
        Joined,
        HiddenSet,
        StatsRevealed,
        CombatStarted,
        CombatEnded,
        OrderSet,
        PaceSet,
        Damaged,
        Healed,
        ConditionAdded,
        ConditionRemoved,
        FallRolled,
        GMRolled,
        FallenDecided,
        DeadlineSet,
        DeadlinesMoved,
        TurnStarted,
        TurnBegan,
        TurnSkipped,
        TurnEnded,
        Posted,
        PostingClosed,
        PostsRevealed,
        PostSkipped,
        Bled,
        RestResolved,
        Vanished,
        TurnClosed,
        FreeActed,
        FullActed,
        RestDeclared,
        Transformed,
        AttackDeclared,
        AttackResolved,
        PromptClosed,
        SpellResolved,
        Summoned,
        MapEdited,
        Placed,
        Moved,
    )
}
