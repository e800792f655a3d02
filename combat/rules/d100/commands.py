"""Commands: what a player or the GM asks of the d100 rules. Frozen dataclasses with a
`type_key` (their JSON "type"); `gm_only` ones are the GM's alone (`actor` = GM).

A combatant's command names it as `actor`; the table lets its controller or the GM send it
(the GM acts for an absent player that way). `now` is the sender's clock (epoch seconds), for
the deadlines a command opens or checks.

Attack choices (`choice`) are those of `equipment.attack_profile`: "w<i>" (weapon i of the
sheet), "two:<i>:<j>", "claws", "claws2", "unarmed"; "" uses the active weapon. Spells are
named by their index in the sheet's `spells`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from combat.rules import vocabulary
from combat.rules.d100.state import NO_REACTION, Action
from combat.rules.vocabulary import (
    Command,
    EditMap,
    EndCombat,
    GMCommand,
    JoinCombat,
    PlaceCombatant,
    RemoveCondition,
    RevealStats,
    SetHidden,
)

# --- the GM: setup and the fight as a whole ---------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StartCombat(GMCommand):
    """Begin combat turn 1 in the table's pace (settings.pace)."""

    type_key: ClassVar[str] = "start_combat"


@dataclass(frozen=True, kw_only=True)
class SetOrder(GMCommand):
    """The GM's initiative order (every combatant in the fight once); kept in later turns."""

    type_key: ClassVar[str] = "set_order"
    order: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class SetPace(GMCommand):
    """Switch between "live" and "post" between actions (not while a prompt is open)."""

    type_key: ClassVar[str] = "set_pace"
    pace: str


@dataclass(frozen=True, kw_only=True)
class Damage(GMCommand):
    """The GM takes `amount` PŻ off a combatant (and adds `injuries` Urazy)."""

    type_key: ClassVar[str] = "damage"
    target: str
    amount: int = 0
    injuries: int = 0
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class Heal(GMCommand):
    """The GM gives back `amount` PŻ (any healing wakes an unconscious one) and takes
    `injuries` Urazy off (Medycyna); `stop_bleeding`: a healing potion ends Krwawienie."""

    type_key: ClassVar[str] = "heal"
    target: str
    amount: int = 0
    injuries: int = 0
    stop_bleeding: bool = False
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class AddCondition(vocabulary.AddCondition):
    """Put a condition (a `conditions.GM_CONDITIONS` key) on a combatant for `turns` turns
    from this one (0: until removed); `value`: Krwawienie's PŻ per turn."""

    turns: int = 1
    value: int = 0


@dataclass(frozen=True, kw_only=True)
class Fall(GMCommand):
    """A fall of `height` metres (falls.roll_fall): `ground` "soft" | "normal" | "hard",
    `slope` the GM's cushioning modifier, `acrobatics` whether it tests Akrobatyka (up to the
    settings' height)."""

    type_key: ClassVar[str] = "fall"
    target: str
    height: int
    ground: str = "normal"
    slope: int = 0
    acrobatics: bool = False


@dataclass(frozen=True, kw_only=True)
class GMRoll(GMCommand):
    """A d100 test of the GM: against `threshold`, or (with `target` and `attribute`) that
    combatant's attribute; `modifiers` (reason, value); `secret`: behind the screen."""

    type_key: ClassVar[str] = "gm_roll"
    label: str = ""
    threshold: int = 50
    modifiers: tuple[tuple[str, int], ...] = ()
    secret: bool = False
    target: str | None = None
    attribute: str = ""


@dataclass(frozen=True, kw_only=True)
class DecideFallen(GMCommand):
    """An NPC at 0 PŻ ("pokonany"): the GM decides "martwy" or "nieprzytomny"."""

    type_key: ClassVar[str] = "decide_fallen"
    target: str
    outcome: str


@dataclass(frozen=True, kw_only=True)
class ExtendDeadline(GMCommand):
    """Move the by-post turn's deadline to `deadline` (epoch seconds) or, given `hours`, that
    many hours from `now` (the server's clock); it reopens posting when it was closed."""

    type_key: ClassVar[str] = "extend_deadline"
    deadline: float = 0.0
    hours: int = 0


@dataclass(frozen=True, kw_only=True)
class ResolveTurn(GMCommand):
    """Roll every post of the by-post turn in initiative order, end it, open the next."""

    type_key: ClassVar[str] = "resolve_turn"


@dataclass(frozen=True, kw_only=True)
class Expire(GMCommand):
    """The server: prompts past their deadline land as "no reaction"; a by-post turn past its
    deadline closes to posting."""

    type_key: ClassVar[str] = "expire"


# --- a combatant ------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Attack(Command):
    """The full action: attack `target` with `choice` ("" = the active weapon)."""

    type_key: ClassVar[str] = "attack"
    target: str
    choice: str = ""


@dataclass(frozen=True, kw_only=True)
class Cast(Command):
    """The full action: cast spell `spell` (its index in the sheet) at `target` (damage,
    negative: another combatant; positive: anyone, None = oneself; summon: none)."""

    type_key: ClassVar[str] = "cast"
    spell: int
    target: str | None = None


@dataclass(frozen=True, kw_only=True)
class Defend(Command):
    """The target answers its prompt: "unik", "blok" or "" (no reaction)."""

    type_key: ClassVar[str] = "defend"
    prompt: str
    option: str = NO_REACTION


@dataclass(frozen=True, kw_only=True)
class Rest(Command):
    """Odpoczynek: the full action; the Ogłada test is rolled at the turn's end."""

    type_key: ClassVar[str] = "rest"


@dataclass(frozen=True, kw_only=True)
class Transform(Command):
    """Przemiana: the full action into the sheet's `transformation` (or back)."""

    type_key: ClassVar[str] = "transform"


@dataclass(frozen=True, kw_only=True)
class FullAction(Command):
    """Another full action, told in `note` (draw an item from a backpack…)."""

    type_key: ClassVar[str] = "full_action"
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class FreeAction(Command):
    """A free action: "move", "reload", "change_weapon" (sets the active weapon to
    `choice`) or "other", told in `note`."""

    type_key: ClassVar[str] = "free_action"
    kind: str = "other"
    choice: str = ""
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class Move(Command):
    """Ruch on the battle map, a free action: `path` the fields walked, one step at a time
    (its start, the token's field, may be given first or left out); at most
    settings.move_fields fields a turn. Live on one's own turn; by post while posting is
    open (the token moves at once)."""

    type_key: ClassVar[str] = "move"
    path: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, kw_only=True)
class EndTurn(Command):
    type_key: ClassVar[str] = "end_turn"


@dataclass(frozen=True, kw_only=True)
class Post(Command):
    """A by-post turn's post: the structured `action`, the `defence` used if attacked this
    turn ("unik", "blok", "", "best") and free text (≤ 4000 characters); posting again
    replaces it. `by_gm` (the GM's field): posted by the GM for the seat, allowed after the
    deadline."""

    type_key: ClassVar[str] = "post"
    action: Action = field(default_factory=Action)
    defence: str = ""
    text: str = ""
    by_gm: bool = False


COMMANDS: dict[str, type[Command]] = {
    c.type_key: c
    for c in (
        JoinCombat,
        SetHidden,
        RevealStats,
        StartCombat,
        EndCombat,
        SetOrder,
        SetPace,
        Damage,
        Heal,
        AddCondition,
        RemoveCondition,
        Fall,
        GMRoll,
        DecideFallen,
        ExtendDeadline,
        ResolveTurn,
        Expire,
        EditMap,
        PlaceCombatant,
        Attack,
        Cast,
        Defend,
        Rest,
        Transform,
        FullAction,
        FreeAction,
        Move,
        EndTurn,
        Post,
    )
}
