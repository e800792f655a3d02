"""The ruleset interface the rest of the app talks to, without naming a game system.

A ruleset describes a character sheet (attributes, skills, derived values) and runs encounters
(see the encounter methods added by each ruleset). Eleora is the first; Magus and d100 plug in
behind the same protocol.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


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
