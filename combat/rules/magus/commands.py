"""Commands: what a player or the GM asks of the Magus rules. Frozen dataclasses with a
`type_key` (their JSON "type"); `gm_only` ones are the GM's alone (`actor` = GM).

A combatant's command names it as `actor`; the table lets its controller or the GM send it
(the GM declares for an absent player that way). `now` is the sender's clock, for the
deadlines a command opens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from combat.rules import vocabulary
from combat.rules.battlemap import Field
from combat.rules.magus.state import NO_REACTION
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

# --- the GM --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StartCombat(GMCommand):
    """Begin round 1 with its declaration phase. `surprised`: the ids the surprise test (or
    the GM) left Zaskoczony for round 1."""

    type_key: ClassVar[str] = "start_combat"
    surprised: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class EditHealth(GMCommand):
    """Set a combatant's current damage, stun damage and Wounds (None: leave it)."""

    type_key: ClassVar[str] = "edit_health"
    target: str
    damage: int | None = None
    stun: int | None = None
    wounds: int | None = None


@dataclass(frozen=True, kw_only=True)
class AddCondition(vocabulary.AddCondition):
    """Put a condition on a combatant for `rounds` rounds (0: until removed)."""

    rounds: int = 0


@dataclass(frozen=True, kw_only=True)
class Advance(GMCommand):
    """Move the round on: reveal the declarations, roll the missing initiatives, or end the
    act phase (the round)."""

    type_key: ClassVar[str] = "advance"


@dataclass(frozen=True, kw_only=True)
class RollInitiatives(GMCommand):
    """The GM rolls the Initiative of `targets` (none named: every GM-run one still missing)."""

    type_key: ClassVar[str] = "roll_initiatives"
    targets: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SustainedTest(GMCommand):
    """The GM's end-of-round test of a sustained action this round: `success` records a test
    rolled at the table; None rolls it now (`sustained.round_test`). Without either, the
    round's end rolls it. The action must require a test (`SustainedCheck`, or declared)."""

    type_key: ClassVar[str] = "sustained_test"
    target: str
    success: bool | None = None


@dataclass(frozen=True, kw_only=True)
class SustainedCheck(GMCommand):
    """The GM requires (or, with `skill` "", drops) an end-of-round test of `target`'s
    sustained action: an attribute or talent key and its DN; `failure_stalls`: a failed round
    adds no progress."""

    type_key: ClassVar[str] = "sustained_check"
    target: str
    skill: str = ""
    dn: int = 0
    failure_stalls: bool = True


@dataclass(frozen=True, kw_only=True)
class SurpriseTest(GMCommand):
    """Before the fight, the surprise test of the side taken unawares (`side`): every one of
    it tests Percepcja vs the DN (the lowest Zręczność step of those met, or the lowest
    Podkradanie się result of `sneakers`, or the GM's `base`) plus the conditions; `unaware`
    are surprised without a test; `distances` (metres to the nearest attacker) matter to a
    Brosza ostrzeżenia. The failures are Zaskoczony in round 1."""

    type_key: ClassVar[str] = "surprise_test"
    side: str
    dusk: bool = False
    darkness: str = "none"  # none | partial | full | complete
    rain: str = "none"  # none | light | downpour
    camouflage: bool = False
    sneakers: tuple[str, ...] = ()
    unaware: tuple[str, ...] = ()
    base: int | None = None
    distances: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class PassTime(GMCommand):
    """Let game time pass (recovery waits): `seconds`, or a full night's rest (`night`)."""

    type_key: ClassVar[str] = "pass_time"
    seconds: int = 0
    night: bool = False


@dataclass(frozen=True, kw_only=True)
class Expire(GMCommand):
    """The server: resolve whatever's deadline passed at `now` (a prompt, a phase)."""

    type_key: ClassVar[str] = "expire"


# --- a combatant -------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Declare(Command):
    """The declaration of the round (replaceable until the reveal); see `state.Declaration`."""

    type_key: ClassVar[str] = "declare"
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
    preset: str = ""  # a sustained action of `sustained.PRESETS`
    test_skill: str = ""  # the sustained action's end-of-round test ("": none)
    test_dn: int = 0
    failure_stalls: bool = True


@dataclass(frozen=True, kw_only=True)
class RollInitiative(Command):
    """A player rolls its own character's Initiative."""

    type_key: ClassVar[str] = "roll_initiative"


@dataclass(frozen=True, kw_only=True)
class Move(Command):
    """Move `metres` (the one movement of the round; with Ruch dzielony, a part of it). On
    the battle map, `path` gives the hexes walked (the start may be left out) and the metres
    are the path's: 2 m a hex, 4 m a hex of difficult terrain."""

    type_key: ClassVar[str] = "move"
    metres: int = 0
    path: tuple[Field, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SimpleAction(Command):
    """Simple actions without a test (draw a weapon, a short sentence), `count` of them.
    `test`: it needs a test of another ability, so it counts as the standard action (one)."""

    type_key: ClassVar[str] = "simple_action"
    note: str = ""
    count: int = 1
    test: bool = False


@dataclass(frozen=True, kw_only=True)
class UseAction(Command):
    """The standard action spent on something the GM judges (a test of another ability, one
    round of a sustained action)."""

    type_key: ClassVar[str] = "use_action"
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class Attack(Command):
    """An attack test with a weapon (or a spell) against a target. `blindside`: Atak z tyłu;
    `called_weapon`: a Precyzyjny atak at the target's weapon; `sever`: Oderwanie kończyn;
    `damage_item`: an aimed attack at the target's weapon, shield or armour (by name)."""

    type_key: ClassVar[str] = "attack"
    target: str
    weapon: str = ""
    spell: str = ""
    blindside: bool = False
    called_weapon: bool = False
    sever: bool = False  # Oderwanie kończyn: an aimed attack of a much stronger attacker
    charge_m: int = 0  # Szarża of a rider: the metres its mount covers (0: no charge)
    damage_item: str = ""  # Uszkodzenie broni, tarczy lub zbroi: the item's name ("": none)


@dataclass(frozen=True, kw_only=True)
class Hold(Command):
    """Powstrzymanie działania: do not act now; act first when `trigger` happens."""

    type_key: ClassVar[str] = "hold"
    trigger: str = ""


@dataclass(frozen=True, kw_only=True)
class Interrupt(Command):
    """A holder's trigger happened: it acts now, before the one whose turn it is."""

    type_key: ClassVar[str] = "interrupt"


@dataclass(frozen=True, kw_only=True)
class Delay(Command):
    """Opóźnienie: act later this round (at a turn boundary), or in the next round."""

    type_key: ClassVar[str] = "delay"
    next_round: bool = False


@dataclass(frozen=True, kw_only=True)
class StepIn(Command):
    """One who delayed acts now, between two turns."""

    type_key: ClassVar[str] = "step_in"


@dataclass(frozen=True, kw_only=True)
class GetUp(Command):
    """Powstanie: a Zręczność test (− armour penalty) against DN 6; 2 Strain."""

    type_key: ClassVar[str] = "get_up"


@dataclass(frozen=True, kw_only=True)
class MountUp(Command):
    """The rider (`actor`) mounts `mount`: before the fight, or on its turn (a simple action)."""

    type_key: ClassVar[str] = "mount"
    mount: str


@dataclass(frozen=True, kw_only=True)
class Dismount(Command):
    """The rider (`actor`) gets off its mount: before the fight, or on its turn (simple)."""

    type_key: ClassVar[str] = "dismount"


@dataclass(frozen=True, kw_only=True)
class RecoveryTest(Command):
    """Test zdrowienia of `actor`: heals "damage", or "stun" (Siła Woli added); `revived`:
    someone brings the unconscious character round (no minute's wait)."""

    type_key: ClassVar[str] = "recovery_test"
    heals: str = "damage"
    revived: bool = False


@dataclass(frozen=True, kw_only=True)
class HealWound(Command):
    """A Wound heals after a full night's rest by spending a recovery test (no damage left)."""

    type_key: ClassVar[str] = "heal_wound"


@dataclass(frozen=True, kw_only=True)
class EndTurn(Command):
    type_key: ClassVar[str] = "end_turn"


@dataclass(frozen=True, kw_only=True)
class Answer(Command):
    """The defender answers its prompt: "unik", "riposta" or "" (no reaction)."""

    type_key: ClassVar[str] = "answer"
    prompt: str
    option: str = NO_REACTION


COMMANDS: dict[str, type[Command]] = {
    c.type_key: c
    for c in (
        JoinCombat,
        SetHidden,
        RevealStats,
        StartCombat,
        EndCombat,
        EditHealth,
        AddCondition,
        RemoveCondition,
        Advance,
        RollInitiatives,
        SustainedTest,
        SustainedCheck,
        SurpriseTest,
        PassTime,
        EditMap,
        PlaceCombatant,
        Expire,
        Declare,
        RollInitiative,
        Move,
        SimpleAction,
        UseAction,
        Attack,
        Hold,
        Interrupt,
        Delay,
        StepIn,
        GetUp,
        MountUp,
        Dismount,
        RecoveryTest,
        HealWound,
        EndTurn,
        Answer,
    )
}
