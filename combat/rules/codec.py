"""Strict JSON round trips of a ruleset's frozen records, driven by their type hints.

A ruleset whose commands, events and state are plain dataclasses (enums, tuples, frozensets,
mappings, literals, unions, ints, strs, bools, floats) needs no codec of its own:
`Codec().to_data(obj)` and `Codec().from_data(Type, data, path)`. Unknown keys, missing fields
and wrong types raise `ValueError` naming the field's path. A record that validates itself (a
ruleset's table settings) is listed in `records`: it is written with `obj.to_dict()` and read
with `Type.from_dict(data)`; `checks` holds what a decoded value of a type must keep (a
recorded roll must be a possible roll). A record with a `type_key` (a command, an event) is
written with its "type" key first. `RulesetCodec` adds the six round trips a ruleset's protocol
asks for (commands and events by their "type" key, and the state).

Compiled: each type's encoder and decoder is worked out once and kept. Every action stores the
whole state and a replay decodes thousands of events of a few dozen types; asking each value
what it is, and each dataclass for its fields and type hints, dominated both. A decoder takes
no path: a failure names its step on the way out, so a valid value pays for no path.

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
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, Generic, Literal, TypeVar, get_args, get_origin, get_type_hints

T = TypeVar("T")
C = TypeVar("C")
E = TypeVar("E")
S = TypeVar("S")
K = TypeVar("K")
V = TypeVar("V")

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]


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


class _Invalid(Exception):
    """A value that does not fit, with the steps from where it was met down to the value
    (`steps` is filled on the way out, innermost first); `Codec.from_data` words it."""

    def __init__(self, reason: str, inner: _Invalid | None = None) -> None:
        self.reason, self.inner = reason, inner
        self.steps: list[str] = []

    def at(self, step: str) -> _Invalid:
        self.steps.append(step)
        return self

    def message(self, path: str) -> str:
        where = path + "".join(reversed(self.steps))
        if self.inner is None:
            return f"{where}: {self.reason}"
        return f"{where}: {self.reason}: {self.inner.message(where).removeprefix(f'{where}: ')}"


_PLAIN = frozenset({str, int, float, bool, type(None)})  # JSON as they are


class Codec:
    """Records to JSON-ready data and back; `records` write and read themselves, `checks`
    hold what a decoded value of a type (or a subclass) must keep."""

    def __init__(
        self,
        records: tuple[type, ...] = (),
        checks: Mapping[type, Callable[[Any], None]] | None = None,
    ) -> None:
        self.records = records
        self.checks = dict(checks or {})
        self._encoders: dict[type, Encoder] = {}
        self._decoders: dict[Any, Decoder] = {}

    def typed(self, kinds: Mapping[str, type[T]], data: Mapping[str, Any], what: str) -> T:
        """A command or event from its dict: the "type" key picks the record in `kinds`."""
        if not isinstance(data, Mapping):
            raise ValueError(f"{what}: expected an object")
        kind = kinds.get(str(data.get("type")))
        if kind is None:
            raise ValueError(f"unknown {what} type: {str(data.get('type'))[:40]!r}")
        value: T = self.from_data(kind, data, what)
        return value

    # --- encoding ----------------------------------------------------------------------------

    def to_data(self, obj: Any) -> Any:
        """JSON-ready data for a dataclass, enum, tuple, set or mapping (recursively)."""
        cls = type(obj)
        if cls in _PLAIN:
            return obj
        encode = self._encoders.get(cls)
        if encode is None:
            encode = self._encoders[cls] = self._encoder(cls)
        return encode(obj)

    def _encoder(self, cls: type) -> Encoder:
        to_data = self.to_data
        if issubclass(cls, self.records):
            return lambda obj: obj.to_dict()
        if dataclasses.is_dataclass(cls):
            names = tuple(f.name for f in dataclasses.fields(cls))
            type_key = getattr(cls, "type_key", None)
            if not isinstance(type_key, str):
                return lambda obj: {name: to_data(getattr(obj, name)) for name in names}
            return lambda obj: {"type": type_key, **{n: to_data(getattr(obj, n)) for n in names}}
        if issubclass(cls, Enum):
            return lambda obj: obj.value
        if issubclass(cls, frozenset | set):
            return lambda obj: sorted(to_data(x) for x in obj)
        if issubclass(cls, tuple | list):
            return lambda obj: [to_data(x) for x in obj]
        if issubclass(cls, Mapping):
            return lambda obj: {str(k): to_data(v) for k, v in obj.items()}
        return lambda obj: obj

    # --- decoding ----------------------------------------------------------------------------

    def from_data(self, hint: Any, data: Any, path: str) -> Any:
        """`data` decoded as the type `hint`; ValueError naming `path` when it does not fit."""
        try:
            return self.decoder(hint)(data)
        except _Invalid as invalid:
            raise ValueError(invalid.message(path)) from None

    def decoder(self, hint: Any) -> Decoder:
        """The decoder of a type, worked out on first use. Decoding follows the type, so its
        depth is bounded by the type's (not the input's)."""
        decode = self._decoders.get(hint)
        if decode is None:
            decode = self._decoders[hint] = self._compile(hint)
        return decode

    def _compile(self, hint: Any) -> Decoder:
        origin, args = get_origin(hint), get_args(hint)
        if hint is Any:
            return canonical
        if isinstance(hint, type) and issubclass(hint, self.records):
            return self._record(hint)
        if origin in (typing.Union, types.UnionType):
            return self._union(args)
        if origin is Literal:
            return _literal(args)
        if origin in (dict, Mapping) or hint in (dict, Mapping):
            return self._mapping(*(args or (str, Any)))
        if origin in (tuple, frozenset, list):
            return self._sequence(origin, args)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self._dataclass(hint)
        if isinstance(hint, type) and issubclass(hint, Enum):
            return _enum(hint)
        return _SCALARS.get(hint) or _undecodable(hint)

    def _record(self, cls: Any) -> Decoder:
        def decode(data: Any) -> Any:
            try:
                return cls.from_dict(canonical(_as_dict(data)))
            except ValueError as error:
                raise _Invalid(str(error)) from None

        return decode

    def _union(self, args: tuple[Any, ...]) -> Decoder:
        """The first option that fits; None when the union allows it. The error names the
        value and, for a single option (X | None), why it is no X."""
        nullable = type(None) in args
        options = [self.decoder(a) for a in args if a is not type(None)]

        def decode(data: Any) -> Any:
            if data is None and nullable:
                return None
            errors = []
            for option in options:
                try:
                    return option(data)
                except _Invalid as invalid:
                    errors.append(invalid)
            if len(errors) == 1:
                raise _Invalid(f"unexpected {data!r:.40}", errors[0])
            raise _Invalid(f"unexpected {data!r:.40}: no allowed shape fits")

        return decode

    def _mapping(self, key_hint: Any, value_hint: Any) -> Decoder:
        key, value = self.decoder(key_hint), self.decoder(value_hint)

        def decode(data: Any) -> Any:
            """In sorted key order (the canonical order)."""
            mapping = _as_dict(data)
            decoded = {}
            for k in sorted(mapping):
                try:
                    decoded[k if key is _decode_str else key(k)] = value(mapping[k])
                except _Invalid as invalid:
                    raise invalid.at(f".{k}") from None
            return decoded

        return decode

    def _sequence(self, origin: Any, args: tuple[Any, ...]) -> Decoder:
        """A fixed-length tuple item by item; a tuple[X, ...], list or frozenset of one type."""
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            items = [self.decoder(a) for a in args]

            def fixed(data: Any) -> Any:
                if len(_as_list(data)) != len(items):
                    raise _Invalid(f"expected {len(items)} items")
                return tuple(_items(zip(items, data, strict=True)))

            return fixed
        item = self.decoder(args[0] if args else Any)
        build: Callable[[Any], Any] = {frozenset: frozenset, list: list}.get(origin, tuple)
        exact = _EXACT.get(item)

        def variadic(data: Any) -> Any:
            if exact is not None and all(type(x) is exact for x in _as_list(data)):
                return build(data)
            return build(_items((item, x) for x in _as_list(data)))

        return variadic

    def _dataclass(self, cls: type) -> Decoder:
        """Fields by name, strictly: the "type" key of a typed record, no unknown or missing
        field. The field decoders are looked up on the first call, so a record may refer to
        its own type."""
        type_key = getattr(cls, "type_key", None)
        typed = isinstance(type_key, str)
        fields = [f for f in dataclasses.fields(cls) if f.init]
        allowed = frozenset(f.name for f in fields) | ({"type"} if typed else set())
        required = frozenset(
            f.name
            for f in fields
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        )
        check = next((c for t, c in self.checks.items() if issubclass(cls, t)), None)
        plan: tuple[tuple[str, Decoder], ...] | None = None

        def decode(data: Any) -> Any:
            nonlocal plan
            mapping = data if type(data) is dict else _as_dict(data)
            known = allowed.issuperset(mapping)
            if not known:
                _as_dict(data)  # a key that is not text: "expected an object"
            if typed and mapping.get("type", type_key) != type_key:
                raise _Invalid(f"expected type {type_key!r}")
            if not known:
                first = min(mapping.keys() - allowed)
                raise _Invalid(f"unknown field {first!r} (a record takes no unknown fields)")
            if plan is None:  # built whole, then published: a thread never sees half of it
                hints = get_type_hints(cls)
                plan = tuple((f.name, self.decoder(hints[f.name])) for f in fields)
            values = {}
            for name, field_decoder in plan:
                if name in mapping:
                    try:
                        values[name] = field_decoder(mapping[name])
                    except _Invalid as invalid:
                        raise invalid.at(f".{name}") from None
                elif name in required:
                    raise _Invalid(f"missing field {name!r}")
            try:
                obj = cls(**values)
                if check is not None:
                    check(obj)
            except (TypeError, ValueError) as error:
                raise _Invalid(str(error)) from None
            return obj

        return decode


def _items(pairs: Any) -> list[Any]:
    """Each (decoder, item) decoded, a failure naming the item's index."""
    decoded: list[Any] = []
    try:
        for decode, x in pairs:
            decoded.append(decode(x))
    except _Invalid as invalid:
        raise invalid.at(f"[{len(decoded)}]") from None
    return decoded


def _as_dict(data: Any) -> Mapping[str, Any]:
    if not isinstance(data, Mapping) or not all(isinstance(k, str) for k in data):
        raise _Invalid("expected an object")
    return data


def _as_list(data: Any) -> list[Any] | tuple[Any, ...]:
    if not isinstance(data, list | tuple):
        raise _Invalid("expected a list")
    return data


def _undecodable(hint: Any) -> Decoder:
    def decode(data: Any) -> Any:
        raise _Invalid(f"cannot decode type {hint!r}")

    return decode


def _wrong(name: str, data: Any, plain: str) -> _Invalid:
    return _Invalid(f"expected {name}, got {data!r:.40} (expected {plain})")


def _decode_bool(data: Any) -> Any:
    if not isinstance(data, bool):
        raise _wrong("bool", data, "true or false")
    return data


def _decode_int(data: Any) -> Any:
    if isinstance(data, bool) or not isinstance(data, int):
        raise _wrong("int", data, "a whole number")
    return data


def _decode_float(data: Any) -> Any:
    if isinstance(data, bool) or not isinstance(data, int | float):
        raise _wrong("float", data, "a number")
    return float(data)


def _decode_str(data: Any) -> Any:
    if not isinstance(data, str):
        raise _wrong("str", data, "text")
    return data


_SCALARS: dict[Any, Decoder] = {
    bool: _decode_bool,
    int: _decode_int,
    float: _decode_float,
    str: _decode_str,
}
# Items of exactly these types decode to themselves (dice faces, ids): no call per item.
_EXACT: dict[Decoder, type] = {_decode_int: int, _decode_str: str, _decode_bool: bool}


def _enum(cls: type[Enum]) -> Decoder:
    def decode(data: Any) -> Any:
        try:
            return cls(data)
        except ValueError:
            raise _Invalid(f"unknown value {data!r:.40}") from None

    return decode


def _literal(allowed: tuple[Any, ...]) -> Decoder:
    def decode(data: Any) -> Any:
        if data not in allowed:
            raise _Invalid(f"expected one of {', '.join(map(repr, allowed))}")
        return data

    return decode


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
        data: dict[str, Any] = self.to_data(command)  # with its "type" key first
        return data

    def command_from_dict(self, data: Mapping[str, Any]) -> C:
        return self.typed(self.commands, data, "command")

    def event_to_dict(self, event: E) -> dict[str, Any]:
        data: dict[str, Any] = self.to_data(event)
        return data

    def event_from_dict(self, data: Mapping[str, Any]) -> E:
        return self.typed(self.events, data, "event")

    def state_to_dict(self, state: S) -> dict[str, Any]:
        data: dict[str, Any] = self.to_data(state)
        return data

    def state_from_dict(self, data: Mapping[str, Any]) -> S:
        state: S = self.from_data(self.state, data, "state")
        return state
