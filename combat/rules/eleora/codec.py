"""Frozen dataclasses to plain JSON data and back, driven by their type hints.

Commands, events and state snapshots cross the wire and the database as JSON; this module is
the only place that converts them. Decoding is strict: unknown keys, missing fields and wrong
types raise `ValueError` with the dotted path of the problem, never a crash deeper in.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from combat.rules.codec import canonical
from combat.rules.dice import PoolRoll, pool_size
from combat.rules.eleora.settings import TableSettings

# Types with their own JSON shape: (encode, decode).
_CUSTOM: dict[type, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    TableSettings: (
        lambda s: s.to_dict(),
        lambda d: TableSettings.from_dict(canonical(_as_dict(d, "settings"))),
    ),
}


def to_data(obj: Any) -> Any:
    """JSON-ready data for a dataclass, enum, tuple, set or mapping (recursively)."""
    cls = type(obj)
    if cls in _PLAIN:
        return obj
    encode = _encoders.get(cls)
    if encode is None:
        encode = _encoders[cls] = _encoder(cls)
    return encode(obj)


_PLAIN = frozenset({str, int, float, bool, type(None)})  # JSON as they are
Encoder = Callable[[Any], Any]
# The encoder of each type met, worked out once: every action stores the whole state, and
# asking each value what it is (and each dataclass for its fields) dominated that.
_encoders: dict[type, Encoder] = {}


def _encoder(cls: type) -> Encoder:
    custom = _CUSTOM.get(cls)
    if custom is not None:
        return custom[0]
    if dataclasses.is_dataclass(cls):
        names = tuple(f.name for f in dataclasses.fields(cls))
        type_key = getattr(cls, "type_key", None)
        head = {"type": type_key} if isinstance(type_key, str) else {}

        def encode_dataclass(obj: Any) -> dict[str, Any]:
            return {**head, **{name: to_data(getattr(obj, name)) for name in names}}

        return encode_dataclass
    if issubclass(cls, Enum):
        return _enum_value
    if issubclass(cls, frozenset | set):
        return _sorted_list
    if issubclass(cls, tuple | list):
        return _list
    if issubclass(cls, Mapping):
        return _dict
    return _same


def _same(obj: Any) -> Any:
    return obj


def _enum_value(obj: Enum) -> Any:
    return obj.value


def _sorted_list(obj: Any) -> list[Any]:
    return sorted(to_data(x) for x in obj)


def _list(obj: Any) -> list[Any]:
    return [to_data(x) for x in obj]


def _dict(obj: Mapping[Any, Any]) -> dict[str, Any]:
    return {str(k): to_data(v) for k, v in obj.items()}


def from_data(tp: Any, data: Any, path: str = "") -> Any:
    """Rebuild a value of type `tp` from JSON data; raises ValueError naming the bad path."""
    return _decoder(tp)(data, path or "$")


Decoder = Callable[[Any, str], Any]


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


@cache
def _decoder(tp: Any) -> Decoder:
    """The decoder for a type, worked out once: replaying a log decodes thousands of events of
    a few dozen types, and reading the type hints again for every value dominated its profile.

    Decoding follows the type, so its depth is bounded by the type's (not the input's)."""
    if tp is Any:
        return _identity
    if tp in _CUSTOM:
        return _custom_decoder(_CUSTOM[tp][1])
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return _union_decoder(get_args(tp))
    if origin is Literal:
        return _literal_decoder(get_args(tp))
    if origin in (dict, Mapping, typing.Mapping):
        return _mapping_decoder(*(get_args(tp) or (str, Any)))
    if origin in (tuple, frozenset, list):
        return _sequence_decoder(origin, get_args(tp))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _enum_decoder(tp)
    return _SCALARS.get(tp) or _undecodable(tp)


def _identity(data: Any, path: str) -> Any:
    """JSON of any shape, its objects in sorted key order (`combat.rules.codec.canonical`)."""
    return canonical(data)


def _custom_decoder(decode: Callable[[Any], Any]) -> Decoder:
    return lambda data, path: decode(data)


def _undecodable(tp: Any) -> Decoder:
    def decode(data: Any, path: str) -> Any:
        raise ValueError(f"{path}: cannot decode type {tp!r}")

    return decode


def _decode_bool(data: Any, path: str) -> Any:
    if not isinstance(data, bool):
        raise ValueError(f"{path}: expected true or false")
    return data


def _decode_int(data: Any, path: str) -> Any:
    if isinstance(data, bool) or not isinstance(data, int):
        raise ValueError(f"{path}: expected a whole number")
    return data


def _decode_float(data: Any, path: str) -> Any:
    if isinstance(data, bool) or not isinstance(data, int | float):
        raise ValueError(f"{path}: expected a number")
    return float(data)


def _decode_str(data: Any, path: str) -> Any:
    if not isinstance(data, str):
        raise ValueError(f"{path}: expected text")
    return data


_SCALARS: dict[Any, Decoder] = {
    bool: _decode_bool,
    int: _decode_int,
    float: _decode_float,
    str: _decode_str,
}
# Items of exactly these types decode to themselves (dice faces, ids): no call per item.
_EXACT: dict[Decoder, type] = {_decode_int: int, _decode_str: str, _decode_bool: bool}


def _enum_decoder(tp: type[Enum]) -> Decoder:
    def decode(data: Any, path: str) -> Any:
        try:
            return tp(data)
        except ValueError:
            raise ValueError(f"{path}: unknown value {data!r}") from None

    return decode


def _literal_decoder(allowed: tuple[Any, ...]) -> Decoder:
    def decode(data: Any, path: str) -> Any:
        if data not in allowed:
            raise ValueError(f"{path}: expected one of {', '.join(repr(a) for a in allowed)}")
        return data

    return decode


def _union_decoder(args: tuple[Any, ...]) -> Decoder:
    """The first option that fits; None when the union allows it. One error is passed on as
    it is, several become "no allowed shape fits"."""
    nullable = type(None) in args
    options = [_decoder(a) for a in args if a is not type(None)]

    def decode(data: Any, path: str) -> Any:
        if data is None and nullable:
            return None
        errors = []
        for option in options:
            try:
                return option(data, path)
            except ValueError as exc:
                errors.append(str(exc))
        raise ValueError(errors[0] if len(errors) == 1 else f"{path}: no allowed shape fits")

    return decode


def _mapping_decoder(key_tp: Any, value_tp: Any) -> Decoder:
    key, value = _decoder(key_tp), _decoder(value_tp)

    def decode(data: Any, path: str) -> Any:
        """In sorted key order (the canonical order, `combat.rules.codec`)."""
        mapping = _as_dict(data, path)
        return {key(k, f"{path}.{k}"): value(mapping[k], f"{path}.{k}") for k in sorted(mapping)}

    return decode


def _sequence_decoder(origin: Any, args: tuple[Any, ...]) -> Decoder:
    """A fixed-length tuple item by item; a tuple[X, ...], list or frozenset of one type."""
    if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
        items = [_decoder(a) for a in args]

        def fixed(data: Any, path: str) -> Any:
            if not isinstance(data, list | tuple):
                raise ValueError(f"{path}: expected a list")
            if len(data) != len(items):
                raise ValueError(f"{path}: expected {len(items)} items")
            return tuple(
                item(x, f"{path}[{i}]") for i, (item, x) in enumerate(zip(items, data, strict=True))
            )

        return fixed
    item = _decoder(args[0] if args else Any)
    build: Callable[[Any], Any] = {frozenset: frozenset, list: list}.get(origin, tuple)
    exact = _EXACT.get(item)

    def variadic(data: Any, path: str) -> Any:
        if not isinstance(data, list | tuple):
            raise ValueError(f"{path}: expected a list")
        if exact is not None and all(type(x) is exact for x in data):
            return build(data)
        return build([item(x, f"{path}[{i}]") for i, x in enumerate(data)])

    return variadic


def _dataclass_decoder(cls: type) -> Decoder:
    """Fields by name, strictly: the "type" key of a typed record, no unknown or missing
    field. The field decoders are looked up on the first call, so a record may refer to its
    own type."""
    type_key = getattr(cls, "type_key", None)
    typed = isinstance(type_key, str)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    allowed = frozenset(f.name for f in fields) | ({"type"} if typed else set())
    required = frozenset(
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    checked = issubclass(cls, PoolRoll)
    plan: tuple[tuple[str, Decoder], ...] | None = None

    def decode(data: Any, path: str) -> Any:
        nonlocal plan
        if not isinstance(data, Mapping):
            _as_dict(data, path)  # raises "expected an object"
        mapping: Mapping[str, Any] = data
        unknown = mapping.keys() - allowed
        if unknown:
            _as_dict(data, path)  # a key that is not text is unknown too: refused as before
        if typed and mapping.get("type", type_key) != type_key:
            raise ValueError(f"{path}: expected type {type_key!r}")
        if unknown:
            raise ValueError(f"{path}: unknown fields: {', '.join(sorted(unknown))}")
        if plan is None:  # built whole, then published: a thread never sees half of it
            hints = _hints(cls)
            plan = tuple((f.name, _decoder(hints[f.name])) for f in fields)
        values = {}
        for name, field_decoder in plan:
            if name in mapping:
                values[name] = field_decoder(mapping[name], f"{path}.{name}")
            elif name in required:
                raise ValueError(f"{path}: missing field {name!r}")
        obj = cls(**values)
        if checked:
            _check(obj, path)
        return obj

    return decode


def _check(obj: Any, path: str) -> None:
    """Invariants a decoded value must keep (a recorded roll must be a possible roll)."""
    if isinstance(obj, PoolRoll):
        if len(obj.faces) != pool_size(obj.modifiers):
            raise ValueError(f"{path}: recorded faces do not match the pool size")
        if any(not 1 <= f <= 6 for f in obj.faces) or not 0 <= obj.successes <= len(obj.faces):
            raise ValueError(f"{path}: impossible roll")


def _as_dict(data: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping) or not all(isinstance(k, str) for k in data):
        raise ValueError(f"{path or '$'}: expected an object")
    return data
