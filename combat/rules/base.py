"""The ruleset interface the rest of the app talks to, without naming a game system.

A ruleset describes a character sheet (attributes, skills, derived values) and runs encounters
(see the encounter methods added by each ruleset). Eleora is the first; Magus and d100 plug in
behind the same protocol.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from combat.rules.dice import RNG


@dataclass(frozen=True)
class StatSpec:
    """One attribute or skill of a sheet: its key, its Polish rule term and its allowed range."""

    key: str
    label: str
    minimum: int
    maximum: int


@dataclass(frozen=True)
class DerivedValue:
    """A value the rules compute from a sheet, with how it was computed."""

    key: str
    label: str
    value: int
    explanation: str


class RuleViolation(Exception):  # noqa: N818 - a refusal, named as the rules name it
    """A command the rules refuse. `message` is readable by a player; the state is unchanged."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


@dataclass(frozen=True)
class SheetError:
    """One problem found in a sheet: where (dotted path) and what."""

    path: str
    message: str


@dataclass
class SheetErrors(Exception):  # noqa: N818
    errors: list[SheetError] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join(f"{e.path}: {e.message}" for e in self.errors)


@dataclass(frozen=True)
class LegalAction:
    """One action or reaction for the UI: whether a character may use it now, and why not."""

    key: str
    label: str
    available: bool
    reason: str = ""
    reaction: bool = False


@dataclass(frozen=True)
class Badge:
    """A condition (or similar marker) on a combatant, ready to show: "Krwawienie ×2 (3 tury)"."""

    key: str
    label: str
    detail: str = ""
    description: str = ""


class SimulationSummary(Protocol):
    """What a ruleset's encounter simulator reports: win share per side, draws, mean rounds."""

    @property
    def runs(self) -> int: ...

    @property
    def wins(self) -> Mapping[str, float]: ...

    @property
    def draws(self) -> float: ...

    @property
    def mean_rounds(self) -> float: ...


class Ruleset(Protocol):
    key: str
    label: str

    def attributes(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]: ...

    def skills(self, settings: Mapping[str, Any] | None = None) -> tuple[StatSpec, ...]: ...

    def default_settings(self) -> dict[str, Any]: ...

    def validate_settings(self, data: Mapping[str, Any]) -> dict[str, Any]: ...

    def derived_values(
        self, sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> list[DerivedValue]: ...

    # --- encounters -------------------------------------------------------------------------
    # State, commands and events are the ruleset's own frozen dataclasses; the table layer
    # handles them only through these methods (and stores their JSON dicts).

    def new_encounter(
        self, settings: Mapping[str, Any] | None, combatants: Sequence[Mapping[str, Any]]
    ) -> Any:
        """The setup-phase state. Combatant dicts: id, name, side, sheet, controller,
        position ([x, y] or None), hidden. ValueError when malformed."""
        ...

    def decide(self, state: Any, command: Any, rng: RNG) -> list[Any]:
        """Events for a command (pure; dice inside), or RuleViolation with a readable reason."""
        ...

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one event; never rolls."""
        ...

    def replay(self, initial: Any, events: Iterable[Any]) -> Any:
        """Fold events onto the initial state."""
        ...

    def command_from_dict(self, data: Mapping[str, Any]) -> Any:
        """Parse a command (has a "type" key); ValueError with a clear message when bad."""
        ...

    def command_to_dict(self, command: Any) -> dict[str, Any]: ...

    def event_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    def event_to_dict(self, event: Any) -> dict[str, Any]: ...

    def state_to_dict(self, state: Any) -> dict[str, Any]: ...

    def state_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    def command_actor(self, command: Any) -> str | None:
        """The combatant a command acts for (authorise its controller), None if GM-only."""
        ...

    def legal_actions(self, state: Any, actor_id: str) -> list[LegalAction]: ...

    def condition_badges(self, state: Any, combatant_id: str) -> list[Badge]:
        """Conditions to show on a combatant, derived ones (e.g. unconscious) included."""
        ...

    def attack_odds(self, state: Any, command: Any) -> Any:
        """Exact odds of a declared attack per defender option (for the UI)."""
        ...

    def next_deadline(self, state: Any) -> float | None:
        """The earliest open prompt deadline (epoch seconds), None if nothing waits."""
        ...

    def expire_command(self, now: float) -> Any:
        """The command that resolves every prompt expired at `now` as "no reaction"."""
        ...

    def simulation_policies(self) -> list[tuple[str, str]]:
        """Defence policies the simulator can play (key, Polish label)."""
        ...

    def simulate(
        self,
        settings: Mapping[str, Any] | None,
        combatants: Sequence[Mapping[str, Any]],
        *,
        runs: int,
        seed: int,
        policy: str,
    ) -> SimulationSummary:
        """Monte-Carlo fights of these combatants (as for new_encounter), seeded."""
        ...

    def is_secret(self, event: Any) -> bool:
        """Whether only the GM may see this event (e.g. a secret GM roll)."""
        ...


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.key] = ruleset
    return ruleset


def get_ruleset(key: str) -> Ruleset:
    _load_builtin()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise LookupError(f"unknown ruleset: {key}") from None


def ruleset_choices() -> list[tuple[str, str]]:
    _load_builtin()
    return [(r.key, r.label) for r in _REGISTRY.values()]


def _load_builtin() -> None:
    if not _REGISTRY:
        from combat.rules import eleora  # noqa: F401  (registers itself)
