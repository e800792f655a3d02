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

from combat.rules.dice import PoolRoll, pool_size
from combat.rules.eleora.settings import TableSettings

# Types with their own JSON shape: (encode, decode).
_CUSTOM: dict[type, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    TableSettings: (
        lambda s: s.to_dict(),
        lambda d: TableSettings.from_dict(dict(_as_dict(d, "settings"))),
    ),
}


def to_data(obj: Any) -> Any:
    """JSON-ready data for a dataclass, enum, tuple, set or mapping (recursively)."""
    custom = _CUSTOM.get(type(obj))
    if custom is not None:
        return custom[0](obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        data = {f.name: to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        type_key = getattr(type(obj), "type_key", None)
        if isinstance(type_key, str):
            data = {"type": type_key, **data}
        return data
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, frozenset | set):
        return sorted(to_data(x) for x in obj)
    if isinstance(obj, tuple | list):
        return [to_data(x) for x in obj]
    if isinstance(obj, Mapping):
        return {str(k): to_data(v) for k, v in obj.items()}
    return obj


def from_data(tp: Any, data: Any, path: str = "") -> Any:
    """Rebuild a value of type `tp` from JSON data; raises ValueError naming the bad path."""
    return _decode(tp, data, path or "$")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _decode(tp: Any, data: Any, path: str) -> Any:
    """Decoding follows the type, so its depth is bounded by the type's (not the input's)."""
    if tp is Any:
        return data
    if tp in _CUSTOM:
        return _CUSTOM[tp][1](data)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return _decode_union(tp, data, path)
    if origin is Literal:
        if data not in get_args(tp):
            allowed = ", ".join(repr(a) for a in get_args(tp))
            raise ValueError(f"{path}: expected one of {allowed}")
        return data
    if origin in (tuple, frozenset, dict, Mapping, typing.Mapping, list):
        return _decode_container(origin, get_args(tp), data, path)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, data, path)
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(data)
        except ValueError:
            raise ValueError(f"{path}: unknown value {data!r}") from None
    return _decode_scalar(tp, data, path)


def _decode_scalar(tp: Any, data: Any, path: str) -> Any:
    if tp is bool:
        if not isinstance(data, bool):
            raise ValueError(f"{path}: expected true or false")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"{path}: expected a whole number")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise ValueError(f"{path}: expected a number")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise ValueError(f"{path}: expected text")
        return data
    raise ValueError(f"{path}: cannot decode type {tp!r}")


def _decode_union(tp: Any, data: Any, path: str) -> Any:
    args = get_args(tp)
    if data is None and type(None) in args:
        return None
    options = [a for a in args if a is not type(None)]
    errors = []
    for option in options:
        try:
            return _decode(option, data, path)
        except ValueError as exc:
            errors.append(str(exc))
    raise ValueError(errors[0] if len(errors) == 1 else f"{path}: no allowed shape fits")


def _decode_container(origin: Any, args: tuple[Any, ...], data: Any, path: str) -> Any:
    if origin in (dict, Mapping, typing.Mapping):
        mapping = _as_dict(data, path)
        key_tp, value_tp = args or (str, Any)
        return {
            _decode(key_tp, k, f"{path}.{k}"): _decode(value_tp, v, f"{path}.{k}")
            for k, v in mapping.items()
        }
    if not isinstance(data, list | tuple):
        raise ValueError(f"{path}: expected a list")
    if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
        if len(data) != len(args):
            raise ValueError(f"{path}: expected {len(args)} items")
        pairs = enumerate(zip(args, data, strict=True))
        return tuple(_decode(a, x, f"{path}[{i}]") for i, (a, x) in pairs)
    item_tp = args[0] if args else Any
    items = [_decode(item_tp, x, f"{path}[{i}]") for i, x in enumerate(data)]
    if origin is frozenset:
        return frozenset(items)
    return tuple(items) if origin is tuple else items


def _decode_dataclass(cls: type, data: Any, path: str) -> Any:
    mapping = dict(_as_dict(data, path))
    type_key = getattr(cls, "type_key", None)
    given = mapping.pop("type", type_key) if isinstance(type_key, str) else type_key
    if given != type_key:
        raise ValueError(f"{path}: expected type {type_key!r}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = set(mapping) - set(fields)
    if unknown:
        raise ValueError(f"{path}: unknown fields: {', '.join(sorted(unknown))}")
    hints = _hints(cls)
    values = {}
    for name, f in fields.items():
        if name in mapping:
            values[name] = _decode(hints[name], mapping[name], f"{path}.{name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ValueError(f"{path}: missing field {name!r}")
    obj = cls(**values)
    _check(obj, path)
    return obj


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
