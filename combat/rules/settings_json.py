"""Table settings as every ruleset stores them: a frozen dataclass kept as JSON, read back
validated (the defaults with the stored values, each coerced by the ruleset's own rules)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, fields, replace
from typing import Any, ClassVar, Protocol, TypeVar


class _Settings(Protocol):
    """A frozen dataclass of settings that can check itself."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def validate(self) -> None: ...


S = TypeVar("S", bound=_Settings)


def to_json(settings: Any) -> dict[str, Any]:
    """The settings as stored: tuples become lists."""
    data = asdict(settings)
    return {name: list(v) if isinstance(v, tuple) else v for name, v in data.items()}


def from_json(
    cls: type[S], data: Mapping[str, Any] | None, coerce: Callable[[str, Any, Any], Any]
) -> S:
    """Validated settings from stored JSON: each stored value through `coerce(name, raw,
    default)`, the rest the defaults; unknown keys and bad values raise ValueError."""
    data = dict(data or {})
    defaults = cls()
    unknown = set(data) - {f.name for f in fields(cls)}
    if unknown:
        raise ValueError(f"nieznane ustawienia stołu: {', '.join(sorted(map(str, unknown)))}")
    values = {name: coerce(name, raw, getattr(defaults, name)) for name, raw in data.items()}
    settings = replace(defaults, **values)
    settings.validate()
    return settings
