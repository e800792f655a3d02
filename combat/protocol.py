"""The table socket's message schema: what a browser may send, checked before anything runs.

A message is a JSON object of at most `MAX_BYTES`; anything else is refused with a readable
error to that socket alone. Parsing only checks shape and sizes; the service authorises.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field, replace
from typing import Any

MAX_BYTES = 8 * 1024
MAX_LIST = 20
MAX_COUNT = 10
ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
KINDS = frozenset(
    {"command", "preview", "add", "undo", "policy", "play", "autoplay", "sync", "route", "place"}
)
MAX_FIELD = 60  # a battle map's fields per side, at most (combat.rules.battlemap.MAX_SIDE)
MODE_RE = re.compile(r"^[a-z0-9_]{0,20}$")


class BadMessage(ValueError):
    """A message that does not fit the schema; the text says what is wrong (in English)."""


@dataclass(frozen=True)
class Message:
    kind: str
    id: str | None = None
    seq: int | None = None
    command: dict[str, Any] = field(default_factory=dict)
    characters: tuple[int, ...] = ()
    creatures: dict[int, int] = field(default_factory=dict)
    side: str | None = None
    hidden: bool = False
    to: int | None = None
    combatant: str = ""
    policy: str = ""
    at: tuple[int, int] | None = None  # a battle map's field (route: where to; place: None = off)
    mode: str = ""  # route: the move mode ("" = the first the actor may use)


def parse(text: str) -> Message:
    """The message in `text`, or BadMessage."""
    if len(text.encode()) > MAX_BYTES:
        raise BadMessage(f"message larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(text)
    except ValueError:
        raise BadMessage("not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object")
    if has_nul(data):  # PostgreSQL stores no NUL: refuse it here, not as a server error
        raise BadMessage("text may not contain a NUL character")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        raise BadMessage(f"unknown message type: {str(kind)[:40]!r}")
    message_id = _optional_id(data.get("id"))
    if kind in ("command", "add", "undo", "play", "place") and message_id is None:
        raise BadMessage("this message needs an id")
    seq = _optional_int(data.get("seq"), "seq")
    return _by_kind(kind, data, message_id, seq)


def _by_kind(kind: str, data: dict[str, Any], message_id: str | None, seq: int | None) -> Message:
    base = Message(kind=kind, id=message_id, seq=seq)
    if kind in ("command", "preview"):
        command = data.get("command")
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise BadMessage("command must be an object with a type")
        return replace(base, command=command)
    if kind == "add":
        return replace(
            base,
            characters=_ints(data.get("characters", []), "characters", 1, 2**31),
            creatures=_counts(data.get("creatures", {})),
            side=_optional_text(data.get("side"), "side", 40),
            hidden=_bool(data.get("hidden", False), "hidden"),
        )
    if kind == "undo":
        to = _optional_int(data.get("to"), "to")
        if to is None:
            raise BadMessage("undo needs to")
        return replace(base, to=to)
    if kind == "route":
        # route: the path and cost of a token's move, for this socket only; nothing changes.
        mode = data.get("mode", "")
        if not isinstance(mode, str) or not MODE_RE.match(mode):
            raise BadMessage("mode: up to 20 letters, digits or _")
        return replace(base, combatant=_id(data.get("actor"), "actor"), at=_field(data.get("to")),
                       mode=mode)  # fmt: skip
    if kind == "place":
        # place: the GM puts a seat's token on a field (null: takes it off the map).
        to = data.get("to")
        return replace(
            base, combatant=_id(data.get("seat"), "seat"), at=None if to is None else _field(to)
        )
    if kind in ("policy", "play", "autoplay"):
        # policy: how an NPC reacts; play: play its turn now ("" = by the first policy);
        # autoplay: it plays every turn by this policy ("" = the GM plays it).
        return replace(
            base,
            combatant=_optional_text(data.get("combatant"), "combatant", 64) or "",
            policy=_optional_text(data.get("policy"), "policy", 20) or "",
        )
    return base


def _optional_id(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not ID_RE.match(value):
        raise BadMessage("id: 1–64 letters, digits or -_.:")
    return value


def _id(value: Any, name: str) -> str:
    if not isinstance(value, str) or not ID_RE.match(value):
        raise BadMessage(f"{name}: 1–64 letters, digits or -_.:")
    return value


def _field(value: Any) -> tuple[int, int]:
    """A map field: [column, row], whole numbers from 0 to MAX_FIELD - 1."""
    if not isinstance(value, list) or len(value) != 2:
        raise BadMessage("to: a field [column, row]")
    for number in value:
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < MAX_FIELD:
            raise BadMessage(f"to: whole numbers 0–{MAX_FIELD - 1}")
    return (value[0], value[1])


def _optional_int(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
        raise BadMessage(f"{name}: a whole number ≥ 0")
    return value


def _optional_text(value: Any, name: str, limit: int) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise BadMessage(f"{name}: text of at most {limit} characters")
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise BadMessage(f"{name}: true or false")
    return value


def _ints(value: Any, name: str, low: int, high: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise BadMessage(f"{name}: a list of at most {MAX_LIST} numbers")
    result = []
    for item in value:
        number = int(item) if isinstance(item, str) and item.isdigit() else item
        if not isinstance(number, int) or isinstance(number, bool) or not low <= number < high:
            raise BadMessage(f"{name}: whole numbers {low}–{high - 1}")
        result.append(number)
    return tuple(dict.fromkeys(result))


def _counts(value: Any) -> dict[int, int]:
    if not isinstance(value, dict) or len(value) > MAX_LIST:
        raise BadMessage(f"creatures: an object of at most {MAX_LIST} kinds")
    result = {}
    for key, count in value.items():
        if not str(key).isdigit():
            raise BadMessage("creatures: keys are creature ids")
        number = int(count) if isinstance(count, str) and count.isdigit() else count
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= MAX_COUNT:
            raise BadMessage(f"creatures: counts 0–{MAX_COUNT}")
        if number:
            result[int(key)] = number
    return result


def has_nul(value: object) -> bool:
    """Whether a parsed JSON value holds a NUL character anywhere (PostgreSQL refuses it)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_nul(v) for v in value)
    return False


class TokenBucket:
    """A socket's rate limit: `rate` messages a second on average, bursts of `burst`."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
