"""The GM's vocabulary every ruleset shares: bringing a combatant in, hiding a seat or showing
it, showing its numbers, the battle map and its tokens, taking a condition off, ending the
fight. Each command and event here is a record of every ruleset that uses it (its JSON the
same in all of them); the functions are their decide, evolve and log lines.

They read only what every ruleset's state has: `combatants` by id, each with `id`, `name`
and `side` (the shared `evolve` sets `hidden`, `name`, `revealed` or `position`); a ruleset
passes what is its own (how it reads a joining combatant, which fields are taken). It
overrides a record by subclassing it (more fields, another default) and a function by not
calling it where its document differs (Eleora tells hiding and the numbers in one event of
its own, and its log words differ from the others').
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from combat.rules import battlemap, naming
from combat.rules.base import LogLine, RuleViolation, gettext_noop
from combat.rules.battlemap import Edit, Field
from combat.rules.codec import with_key
from combat.rules.narration import line, name_of
from combat.rules.records import replace

GM = "gm"  # the actor of the GM's own commands; no combatant may use this id


class Seat(Protocol):
    """What the shared functions read of a combatant."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


C = TypeVar("C", bound=Seat)
S = TypeVar("S", bound="Table[Any]")


class Table(Protocol[C]):  # type: ignore[misc]  # a read-only member: covariant use only
    """What the shared functions read of an encounter's state."""

    @property
    def combatants(self) -> Mapping[str, C]: ...


# --- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Command:
    """Base of every command: who acts (a combatant's id, or `GM`), and the sender's clock
    (epoch seconds: the rules have none) for the deadlines a command opens."""

    type_key: ClassVar[str] = ""
    gm_only: ClassVar[bool] = False

    actor: str
    now: float = 0.0


@dataclass(frozen=True, kw_only=True)
class GMCommand(Command):
    """A command of the GM alone (`actor` GM)."""

    gm_only: ClassVar[bool] = True
    actor: str = GM


@dataclass(frozen=True, kw_only=True)
class JoinCombat(GMCommand):
    """Bring one combatant in (a dict as for `new_encounter`), in any phase."""

    type_key: ClassVar[str] = "join_combat"
    combatant: Mapping[str, Any]


@dataclass(frozen=True, kw_only=True)
class SetHidden(GMCommand):
    type_key: ClassVar[str] = "set_hidden"
    target: str
    hidden: bool


@dataclass(frozen=True, kw_only=True)
class RevealStats(GMCommand):
    type_key: ClassVar[str] = "reveal_stats"
    target: str
    revealed: bool


@dataclass(frozen=True, kw_only=True)
class EndCombat(GMCommand):
    type_key: ClassVar[str] = "end_combat"
    winner: str | None = None


@dataclass(frozen=True, kw_only=True)
class EditMap(GMCommand):
    """The GM lays, paints, resizes, restyles or removes the battle map (`battlemap.Edit`),
    in any phase."""

    type_key: ClassVar[str] = "edit_map"
    edit: Edit


@dataclass(frozen=True, kw_only=True)
class PlaceCombatant(GMCommand):
    """The GM puts `target`'s token on a field of the map (None: takes it off), in any phase;
    no action is used."""

    type_key: ClassVar[str] = "place_combatant"
    target: str
    to: Field | None


@dataclass(frozen=True, kw_only=True)
class AddCondition(GMCommand):
    """Put a condition on a combatant; a ruleset adds how long it lasts and its own values."""

    type_key: ClassVar[str] = "add_condition"
    target: str
    condition: str


@dataclass(frozen=True, kw_only=True)
class RemoveCondition(GMCommand):
    type_key: ClassVar[str] = "remove_condition"
    target: str
    condition: str


# --- events -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """Base of every event: a fact `evolve` folds in without rolling."""

    type_key: ClassVar[str] = ""


@dataclass(frozen=True)
class Joined(Event):
    """A combatant joins; a ruleset's subclass names its `Combatant` type (its JSON shape)."""

    type_key: ClassVar[str] = "joined"
    combatant: Any


@dataclass(frozen=True)
class HiddenSet(Event):
    """The GM hides a seat or shows it; shown, a placeholder's seat takes `name`
    (`naming.shown`: the next number the players count)."""

    type_key: ClassVar[str] = "hidden_set"
    target: str
    hidden: bool
    stopped: str | None = None  # revealed as this combatant's move ran into it
    name: str | None = None


@dataclass(frozen=True)
class StatsRevealed(Event):
    type_key: ClassVar[str] = "stats_revealed"
    target: str
    revealed: bool


@dataclass(frozen=True)
class CombatEnded(Event):
    type_key: ClassVar[str] = "combat_ended"
    winner: str | None = None


@dataclass(frozen=True)
class MapEdited(Event):
    """The GM's edit of the battle map (checked by `battlemap.check_edit`)."""

    type_key: ClassVar[str] = "map_edited"
    edit: Edit


@dataclass(frozen=True)
class CombatantPlaced(Event):
    """The GM put a token on a field (None: off the map)."""

    type_key: ClassVar[str] = "combatant_placed"
    combatant: str
    to: Field | None


# --- the table's combatant --------------------------------------------------------------------


def seat(
    data: object, *, reserved: str = "", named: bool = True, placed: bool = True
) -> dict[str, Any]:
    """The shared fields of the table's combatant dict, checked (ValueError when malformed):
    `id`, `name`, `side` (non-blank texts; the id not `GM`'s nor holding a `reserved`
    character), `controller` (a text or None), `position` ([x, y] or None; not `placed`: not
    read, None) and `hidden`. Not `named`, a missing name is "" (the ruleset's sheet names it)."""
    if not isinstance(data, Mapping):
        raise ValueError("a combatant must be a JSON object")
    for key in ("id", "name", "side") if named or data.get("name") else ("id", "side"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise ValueError(f"combatant: {key!r} must be a non-empty text")
    if data["id"] == GM or any(c in data["id"] for c in reserved):
        raise ValueError(f"combatant: the id {data['id']!r} is reserved")
    controller, position = data.get("controller"), data.get("position") if placed else None
    if controller is not None and not isinstance(controller, str):
        raise ValueError("combatant: 'controller' must be a text or null")
    if position is not None and (
        not isinstance(position, list | tuple)
        or len(position) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in position)
    ):
        raise ValueError("combatant: 'position' must be [x, y] in whole numbers or null")
    return {
        "id": data["id"],
        "name": data.get("name") or "",
        "side": data["side"],
        "controller": controller,
        "position": None if position is None else (position[0], position[1]),
        "hidden": bool(data.get("hidden", False)),
    }


# --- decide -----------------------------------------------------------------------------------


def combatant(state: Table[C], combatant_id: str | None) -> C:
    """The combatant with this id; RuleViolation when there is none (the GM is none)."""
    if combatant_id is None or combatant_id == GM or combatant_id not in state.combatants:
        raise RuleViolation(
            "postac", gettext_noop("Nie ma takiej postaci: %(id)s."), id=combatant_id or "–"
        )
    return state.combatants[combatant_id]


def joining(state: Table[C], command: JoinCombat, read: Callable[[Mapping[str, Any]], C]) -> C:
    """The combatant `command` brings in, read by the ruleset's `read` (ValueError when
    malformed); refused when its card is malformed or it already fights."""
    try:
        c = read(command.combatant)
    except ValueError as error:
        raise RuleViolation(
            "karta", gettext_noop("Błędna karta: %(detail)s"), detail=str(error)
        ) from None
    if c.id in state.combatants:
        raise RuleViolation("juz_jest", gettext_noop("%(name)s już walczy."), name=c.name)
    return c


def set_hidden(state: Table[Any], command: SetHidden) -> list[Event]:
    """Hidden from the players or shown; shown, a placeholder takes the next number."""
    target = combatant(state, command.target).id
    name = None if command.hidden else naming.shown_at(state.combatants, target)
    return [HiddenSet(target, command.hidden, name=name)]


def reveal_stats(state: Table[Any], command: RevealStats) -> list[Event]:
    return [StatsRevealed(combatant(state, command.target).id, command.revealed)]


def end_combat(state: Table[Any], command: EndCombat, *, ended: bool) -> list[Event]:
    """The GM ends the fight (`ended`: it is over already), maybe naming the winning side."""
    if ended:
        raise RuleViolation("koniec", gettext_noop("Walka już się skończyła."))
    sides = {c.side for c in state.combatants.values()}
    if command.winner is not None and command.winner not in sides:
        raise RuleViolation(
            "strona", gettext_noop("Nie ma takiej strony: %(side)s."), side=command.winner
        )
    return [CombatEnded(command.winner)]


def edit_map(
    m: battlemap.BattleMap | None, command: EditMap, occupied: Iterable[Field]
) -> list[Event]:
    """The GM's edit of the map `m`, checked against the fields tokens stand on."""
    battlemap.check_edit(m, command.edit, occupied=occupied)
    return [MapEdited(command.edit)]


# --- evolve -----------------------------------------------------------------------------------


def edit(state: S, cid: str, **changes: object) -> S:
    """The state with combatant `cid` changed."""
    changed = replace(state.combatants[cid], **changes)
    return replace(state, combatants=with_key(state.combatants, cid, changed))


def evolve(state: S, event: Event) -> S:
    """The state after a shared event about one seat (hidden, shown, its numbers, its token)."""
    match event:
        case HiddenSet(target=target, hidden=hidden, name=name):
            name = naming.after_change(state.combatants, target, hidden, name)
            return edit(state, target, hidden=hidden, name=name)
        case StatsRevealed(target=target, revealed=revealed):
            return edit(state, target, revealed=revealed)
        case CombatantPlaced(combatant=cid, to=to):
            return edit(state, cid, position=to)
    raise TypeError(f"not a shared event: {event!r}")  # pragma: no cover


# --- the log ----------------------------------------------------------------------------------


def joined(state: Table[Any], e: Joined) -> LogLine:
    c = e.combatant
    return line(gettext_noop("Do walki dołącza: %(name)s."), "join", [c.id], name=c.name)


def hidden_set(state: Table[Any], e: HiddenSet) -> LogLine:
    """Hidden or shown (the GM's line); shown as a move ran into it (everyone's)."""
    t, name = e.target, name_of(state, e.target)
    if e.stopped is not None:
        mover = name_of(state, e.stopped)
        return line(battlemap.STOPPED, "move", [e.stopped, t], name=mover, other=e.name or name)
    if not e.hidden and e.name is not None and e.name != name:
        text = gettext_noop("Widoczny dla graczy: %(old)s, teraz %(name)s.")
        return line(text, "gm", [t], secret=True, old=name, name=e.name)
    text = (
        gettext_noop("Ukryty przed graczami: %(name)s.")
        if e.hidden
        else gettext_noop("Widoczny dla graczy: %(name)s.")
    )
    return line(text, "gm", [t], secret=True, name=name)


def stats_revealed(state: Table[Any], e: StatsRevealed) -> LogLine:
    text = (
        gettext_noop("Liczby odkryte: %(name)s.")
        if e.revealed
        else gettext_noop("Liczby ukryte: %(name)s.")
    )
    return line(text, "gm", [e.target], secret=True, name=name_of(state, e.target))


def combat_ended(state: Table[Any], e: CombatEnded) -> LogLine:
    if e.winner is None:
        return line(gettext_noop("Walka zakończona."), "turn")
    text = gettext_noop("Walka zakończona: wygrywa strona %(side)s.")
    return line(text, "turn", side=e.winner)
