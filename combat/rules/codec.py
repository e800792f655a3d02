"""Strict JSON round trips of a ruleset's frozen records, driven by their type hints.

A ruleset whose commands, events and state are plain dataclasses (tuples, mappings, literals,
unions, ints, strs, bools, floats) needs no codec of its own: `Codec().to_data(obj)` and
`Codec().from_data(Type, data, path)`. Unknown keys, missing fields and wrong types raise
`ValueError` naming the field's path. A record that validates itself (a ruleset's table
settings) is listed in `records`: it is written with `obj.to_dict()` and read with
`Type.from_dict(dict(data))`. `RulesetCodec` adds the six round trips a ruleset's protocol
asks for (commands and events by their "type" key, and the state).

Canonical order: every mapping decoded here (typed, or JSON inside an `Any`) comes back in
sorted key order, and the engines keep it (`with_key` adds a key where sorting puts it), so a
state iterates its mappings in the same order whether it was folded from the log or read back
from PostgreSQL, whose jsonb keeps an object's keys in an order of its own. The rules roll
while they iterate (initiative for each combatant): the seeded dice of an entry then depend
on its content alone.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, Generic, Literal, TypeVar, get_args, get_origin, get_type_hints

T = TypeVar("T")
C = TypeVar("C")
E = TypeVar("E")
S = TypeVar("S")

_HINTS: dict[type, dict[str, Any]] = {}
K = TypeVar("K")
V = TypeVar("V")


def canonical(data: Any) -> Any:
    """JSON data with every object's keys in sorted order (recursively); lists keep theirs."""
    if isinstance(data, Mapping):
        return {key: canonical(data[key]) for key in sorted(data, key=str)}
    if isinstance(data, list | tuple):
        return [canonical(item) for item in data]
    return data


def with_key(mapping: Mapping[K, V], key: K, value: V) -> dict[K, V]:
    """The mapping with `key` set to `value`, still in sorted key order (a new key goes where
    sorting puts it, not last)."""
    if key in mapping:
        return {**mapping, key: value}
    return dict(sorted({**mapping, key: value}.items(), key=lambda item: str(item[0])))


class Codec:
    def __init__(self, records: tuple[type, ...] = ()) -> None:
        self.records = records

    def typed(self, kinds: Mapping[str, type[T]], data: Mapping[str, Any], what: str) -> T:
        """A command or event from its dict: the "type" key picks the record in `kinds`."""
        if not isinstance(data, Mapping):
            raise ValueError(f"{what}: expected an object")
        kind = kinds.get(str(data.get("type")))
        if kind is None:
            raise ValueError(f"unknown {what} type: {str(data.get('type'))[:40]!r}")
        value: T = self.from_data(kind, {k: v for k, v in data.items() if k != "type"}, what)
        return value

    def to_data(self, obj: Any) -> Any:
        """JSON-ready data for a dataclass, tuple or mapping (recursively)."""
        if isinstance(obj, self.records):
            return obj.to_dict()  # type: ignore[attr-defined]  # a record listed for it
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            return {f.name: self.to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        if isinstance(obj, tuple | list):
            return [self.to_data(x) for x in obj]
        if isinstance(obj, Mapping):
            return {str(k): self.to_data(v) for k, v in obj.items()}
        return obj

    def from_data(self, hint: Any, data: Any, path: str) -> Any:
        """`data` decoded as the type `hint`; ValueError naming `path` when it does not fit."""
        if hint in self.records:
            if not isinstance(data, Mapping):
                raise ValueError(f"{path}: expected an object")
            try:
                return hint.from_dict(canonical(data))
            except ValueError as error:
                raise ValueError(f"{path}: {error}") from None
        origin, args = get_origin(hint), get_args(hint)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self._dataclass(hint, data, path)
        if origin in (typing.Union, types.UnionType):
            errors = []
            for option in args:
                try:
                    return self.from_data(option, data, path)
                except ValueError as error:
                    errors.append(str(error))
            raise ValueError(errors[0] if len(errors) == 1 else f"{path}: unexpected {data!r:.40}")
        if origin is Literal:
            if data not in args:
                raise ValueError(f"{path}: one of {', '.join(map(repr, args))}")
            return data
        if origin is tuple:
            return self._tuple(args, data, path)
        if origin in (Mapping, dict) or hint is Mapping:
            if not isinstance(data, Mapping):
                raise ValueError(f"{path}: expected an object")
            value_hint = args[1] if args else Any
            return {
                str(k): self.from_data(value_hint, data[k], f"{path}.{k}")
                for k in sorted(data, key=str)
            }
        return _plain(hint, data, path)

    def _tuple(self, args: tuple[Any, ...], data: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(data, list | tuple):
            raise ValueError(f"{path}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis or len(args) == 1:
            return tuple(self.from_data(args[0], x, f"{path}[{i}]") for i, x in enumerate(data))
        if len(args) != len(data):
            raise ValueError(f"{path}: expected {len(args)} values")
        pairs = enumerate(zip(args, data, strict=True))
        return tuple(self.from_data(a, x, f"{path}[{i}]") for i, (a, x) in pairs)

    def _dataclass(self, cls: type[T], data: Any, path: str) -> T:
        if not isinstance(data, Mapping):
            raise ValueError(f"{path}: expected an object")
        fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise ValueError(f"{path}: unknown field {unknown[0]!r}")
        hints = _hints(cls)
        values = {}
        for name, f in fields.items():
            if not f.init:
                continue
            if name in data:
                values[name] = self.from_data(hints[name], data[name], f"{path}.{name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{path}: missing field {name!r}")
        try:
            return cls(**values)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{path}: {error}") from None


def _plain(hint: Any, data: Any, path: str) -> Any:
    if hint is Any:
        return canonical(data)
    if hint is type(None):
        if data is not None:
            raise ValueError(f"{path}: expected null")
        return None
    if hint is float and isinstance(data, int | float) and not isinstance(data, bool):
        return float(data)
    if hint in (int, str, bool) and type(data) is hint:
        return data
    raise ValueError(f"{path}: expected {getattr(hint, '__name__', hint)}, got {data!r:.40}")


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    return _HINTS[cls]


class RulesetCodec(Codec, Generic[C, E, S]):
    """A ruleset's commands and events (each record with a `type_key`, found by it in
    `commands` / `events`) and its state, to JSON-ready dicts and back."""

    def __init__(
        self,
        *,
        commands: Mapping[str, type[C]],
        events: Mapping[str, type[E]],
        state: type[S],
        records: tuple[type, ...] = (),
    ) -> None:
        super().__init__(records)
        self.commands, self.events, self.state = commands, events, state

    def command_to_dict(self, command: C) -> dict[str, Any]:
        return {"type": command.type_key, **self.to_data(command)}  # type: ignore[attr-defined]

    def command_from_dict(self, data: Mapping[str, Any]) -> C:
        return self.typed(self.commands, data, "command")

    def event_to_dict(self, event: E) -> dict[str, Any]:
        return {"type": event.type_key, **self.to_data(event)}  # type: ignore[attr-defined]

    def event_from_dict(self, data: Mapping[str, Any]) -> E:
        return self.typed(self.events, data, "event")

    def state_to_dict(self, state: S) -> dict[str, Any]:
        data: dict[str, Any] = self.to_data(state)
        return data

    def state_from_dict(self, data: Mapping[str, Any]) -> S:
        state: S = self.from_data(self.state, data, "state")
        return state
