"""What a player or the GM asks the Eleora engine to do: one frozen dataclass per intent.

Every command names its `actor` (a combatant id, or `GM` for overrides) and carries `now`
(epoch seconds, supplied by the caller: the rules have no clock) for any deadline it opens.
Commands cross the websocket as JSON: `command_to_dict` / `command_from_dict` (strict).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from combat.rules import vocabulary
from combat.rules.eleora.environment import Darkness
from combat.rules.eleora.state import CODEC, GM, Position
from combat.rules.vocabulary import (
    Command,
    EditMap,
    EndCombat,
    GMCommand,
    PlaceCombatant,
    SetHidden,
)

Special = Literal["odepchniecie", "schwytanie", "powalenie", "oslepienie"]
MoveMode = Literal["ruch", "bieg", "plywanie", "wspinaczka", "jazda", "akrobatyka"]
InteractionKind = Literal[
    "ugaszenie",
    "tamowanie",
    "podanie",
    "uzycie",
    "podniesienie",
    "pomoc_w_wyrwaniu",
    "wyrwanie",
    "dosiadanie",
    "zsiadanie",
    "pierwsza_pomoc",
    "swobodna",
]
DrawMode = Literal["dobadz", "schowaj", "podnies"]
Reaction = Literal["parowanie", "unik"]

MAX_TEXT = 500  # free text (a description, a command to a companion) is capped


COMMANDS: dict[str, type[Command]] = {}
C = TypeVar("C", bound=type[Command])


def _register(cls: C) -> C:
    COMMANDS[cls.type_key] = cls
    return cls


for _shared in (EndCombat, SetHidden, EditMap, PlaceCombatant):
    _register(_shared)


# --- turn structure ---------------------------------------------------------------------


@_register
@dataclass(frozen=True, kw_only=True)
class StartCombat(Command):
    """Roll initiative (players may bring their own 2d6) and begin, maybe with a surprise turn."""

    type_key: ClassVar[str] = "start_combat"
    gm_only: ClassVar[bool] = True
    actor: str = GM
    surprise_side: str | None = None  # the side that starts the fight unexpected by the others
    rolls: Mapping[str, tuple[int, int]] | None = None  # player-rolled 2d6 by combatant id


@_register
@dataclass(frozen=True, kw_only=True)
class RollInitiative(Command):
    """Inicjatywa before the fight: a player rolls for their own character (the GM for anyone).

    `roll` is the 2d6 rolled at the table; None lets the engine roll them."""

    type_key: ClassVar[str] = "roll_initiative"
    roll: tuple[int, int] | None = None


@_register
@dataclass(frozen=True, kw_only=True)
class EndTurn(Command):
    type_key: ClassVar[str] = "end_turn"


@_register
@dataclass(frozen=True, kw_only=True)
class ResolveExpired(Command):
    """Anyone (usually the server) resolves prompts whose deadline passed, as "no reaction"."""

    type_key: ClassVar[str] = "resolve_expired"
    actor: str = GM


# --- actions ----------------------------------------------------------------------------


@_register
@dataclass(frozen=True, kw_only=True)
class DeclareAttack(Command):
    """Atak: weapon name from the sheet or `UNARMED`; the target answers before the roll."""

    type_key: ClassVar[str] = "declare_attack"
    target: str
    weapon: str
    special: Special | None = None
    flat: bool = False  # Atak Płazem
    screened: bool = False  # ranged: target screened by someone or behind an obstacle
    heroism: bool = False  # spend a Kostka Heroizmu: +1 die
    thrown: bool = False  # DEFAULT: a throwable weapon attacks at range only when thrown


@_register
@dataclass(frozen=True, kw_only=True)
class Aim(Command):
    type_key: ClassVar[str] = "aim"
    target: str


@_register
@dataclass(frozen=True, kw_only=True)
class Incantation(Command):
    type_key: ClassVar[str] = "incantation"
    spell: str


@_register
@dataclass(frozen=True, kw_only=True)
class Interact(Command):
    """Interakcja: one of the document's examples, or a free one the GM adjudicates."""

    type_key: ClassVar[str] = "interact"
    kind: InteractionKind
    target: str | None = None  # another combatant (defaults to the actor)
    item: str | None = None
    source: str | None = None  # wyrwanie / pomoc: which Unieruchomienie (by source)
    description: str = ""
    heroism: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class GiveOrder(Command):
    """Komenda: one order to the animal companion(s)."""

    type_key: ClassVar[str] = "give_order"
    order: str


@_register
@dataclass(frozen=True, kw_only=True)
class YieldInitiative(Command):
    type_key: ClassVar[str] = "yield_initiative"
    by: int


@_register
@dataclass(frozen=True, kw_only=True)
class Reload(Command):
    type_key: ClassVar[str] = "reload"
    weapon: str


@_register
@dataclass(frozen=True, kw_only=True)
class Prepare(Command):
    type_key: ClassVar[str] = "prepare"


@_register
@dataclass(frozen=True, kw_only=True)
class Move(Command):
    """Ruch: a path of squares when the map has positions, else the metres walked."""

    type_key: ClassVar[str] = "move"
    mode: MoveMode = "ruch"
    path: tuple[Position, ...] = ()
    metres: int | None = None
    charge: bool = False  # Szarża: straight line, +1 die per 2 m to the next attack this turn
    difficulty: int | None = None  # Pływanie (default 1), wspinaczka (GM), akrobatyka (2)
    fall_metres: int = 0  # wspinaczka: how far a failed climb falls
    accelerate: bool = False  # jazda: Jeździectwo test for +1 m per success
    heroism: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class StandUp(Command):
    """Wstanie: a Ruch action spent getting up from Powalenie."""

    type_key: ClassVar[str] = "stand_up"


@_register
@dataclass(frozen=True, kw_only=True)
class Steer(Command):
    """Sterowanie: Jeździectwo vs the GM's difficulty for the mount or vehicle this turn."""

    type_key: ClassVar[str] = "steer"
    difficulty: int
    pace: int = 0  # metres the mount or vehicle moves per Ruch (jazda)
    heroism: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class Draw(Command):
    """Dobycie: draw or stow one item, or pick up a dropped weapon/projectile."""

    type_key: ClassVar[str] = "draw"
    item: str
    mode: DrawMode = "dobadz"


@_register
@dataclass(frozen=True, kw_only=True)
class Guard(Command):
    """Zasłona: +1, or a held shield's bonus, to Obrona until the start of the next own turn."""

    type_key: ClassVar[str] = "guard"
    shield: str | None = None


# --- reactions --------------------------------------------------------------------------


@_register
@dataclass(frozen=True, kw_only=True)
class ChooseReaction(Command):
    """Answer a prompt: Parowanie and/or Unik against an attack, or nothing (empty)."""

    type_key: ClassVar[str] = "choose_reaction"
    prompt: str | None = None  # None: the actor's only open prompt
    reactions: tuple[Reaction, ...] = ()
    shield: str | None = None  # Parowanie with this shield
    heroism: bool = False  # a Kostka Heroizmu on the Obrona roll


@_register
@dataclass(frozen=True, kw_only=True)
class AcceptOpportunity(Command):
    """Atak okazyjny: take the offered attack (the target then gets its own prompt)."""

    type_key: ClassVar[str] = "accept_opportunity"
    prompt: str | None = None
    weapon: str
    special: Special | None = None
    flat: bool = False
    heroism: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class DeclineOpportunity(Command):
    type_key: ClassVar[str] = "decline_opportunity"
    prompt: str | None = None


@_register
@dataclass(frozen=True, kw_only=True)
class Evade(Command):
    """Ucieczka: move 1 m out of an area attack (+1 m per two Bieganie successes if running)."""

    type_key: ClassVar[str] = "evade"
    prompt: str | None = None
    path: tuple[Position, ...] = ()
    run: bool = False
    heroism: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class LetPass(Command):
    """Przepuszczenie: an ally may move through this character's square."""

    type_key: ClassVar[str] = "let_pass"
    ally: str


@_register
@dataclass(frozen=True, kw_only=True)
class DropItem(Command):
    """Upuszczenie: drop a held item (a reaction)."""

    type_key: ClassVar[str] = "drop_item"
    item: str


@_register
@dataclass(frozen=True, kw_only=True)
class BreakFree(Command):
    """Wyzwolenie: doubled Siła vs Unieruchomienie (by source), doubled Wola vs a mind effect."""

    type_key: ClassVar[str] = "break_free"
    source: str | None = None  # Unieruchomienie source; None = the only one
    condition: str = "unieruchomienie"  # or the key of a mind-affecting condition
    heroism: bool = False


# --- GM overrides -----------------------------------------------------------------------


@_register
@dataclass(frozen=True, kw_only=True)
class EditHealth(GMCommand):
    """Set a combatant's physical and stun damage taken (the checks run as for any change)."""

    type_key: ClassVar[str] = "edit_health"
    target: str
    damage_physical: int
    damage_stun: int


@_register
@dataclass(frozen=True, kw_only=True)
class ApplyDamage(GMCommand):
    """Damage from outside an attack (a spell, a fall); `reduce` lets Pancerz/Wola apply."""

    type_key: ClassVar[str] = "apply_damage"
    target: str
    physical: int = 0
    stun: int = 0
    reduce: bool = False
    reason: str = ""


@_register
@dataclass(frozen=True, kw_only=True)
class Heal(GMCommand):
    """Healing during the fight; magic healing counts toward the Magiczne Leczenie limit."""

    type_key: ClassVar[str] = "heal"
    target: str
    amount: int
    magic: bool = False


@_register
@dataclass(frozen=True, kw_only=True)
class AddCondition(vocabulary.AddCondition):
    stacks: int = 1
    turns: int | None = None  # None: the condition's default duration
    source: str | None = None
    difficulty: int | None = None
    mind: bool = False
    note: str = ""


@_register
@dataclass(frozen=True, kw_only=True)
class RemoveCondition(vocabulary.RemoveCondition):
    source: str | None = None


@_register
@dataclass(frozen=True, kw_only=True)
class RevealStats(vocabulary.RevealStats):
    revealed: bool = True


@_register
@dataclass(frozen=True, kw_only=True)
class GMRoll(GMCommand):
    """Any pool the GM rolls; `secret` keeps it from the players' screens."""

    type_key: ClassVar[str] = "gm_roll"
    dice: int
    label: str = ""
    secret: bool = True


@_register
@dataclass(frozen=True, kw_only=True)
class SetEnvironment(GMCommand):
    type_key: ClassVar[str] = "set_environment"
    darkness: Darkness = Darkness.SWIATLO
    difficult_terrain: tuple[Position, ...] = ()


@_register
@dataclass(frozen=True, kw_only=True)
class OfferOpportunity(GMCommand):
    """The GM rules an Atak okazyjny is due (e.g. no map positions to tell reach)."""

    type_key: ClassVar[str] = "offer_opportunity"
    attacker: str
    target: str
    trigger: str = ""


@_register
@dataclass(frozen=True, kw_only=True)
class DeclareAreaAttack(GMCommand):
    """An area attack covers these characters, everyone standing on `fields` of the battle
    map, and everyone within `radius` metres of the character `around` (its own field
    included): each may react with Ucieczka."""

    type_key: ClassVar[str] = "declare_area_attack"
    targets: tuple[str, ...] = ()
    label: str = ""
    fields: tuple[Position, ...] = ()
    around: str = ""
    radius: int = 0


@_register
@dataclass(frozen=True, kw_only=True)
class JoinCombat(vocabulary.JoinCombat):
    """Reinforcements: a combatant joins; mid-fight it rolls initiative (or brings its 2d6).

    `combatant` has the table layer's shape (see engine.setup.combatant_from_dict)."""

    roll: tuple[int, int] | None = None


def command_to_dict(command: Command) -> dict[str, Any]:
    """JSON-ready data with the command's "type" key."""
    data: dict[str, Any] = CODEC.to_data(command)
    return data


def command_from_dict(data: Mapping[str, Any]) -> Command:
    """Parse a command from JSON; ValueError with a clear message for anything malformed."""
    if not isinstance(data, Mapping):
        raise ValueError("a command must be a JSON object")
    type_key = data.get("type")
    cls = COMMANDS.get(type_key) if isinstance(type_key, str) else None
    if cls is None:
        raise ValueError(f"unknown command type: {type_key!r}")
    command: Command = CODEC.from_data(cls, data, str(type_key))
    _check_text(command)
    return command


def _check_text(command: Command) -> None:
    for name, value in vars(command).items():
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ValueError(f"{command.type_key}.{name}: text longer than {MAX_TEXT} characters")
