"""The table socket's message schema: what a browser may send, checked before anything runs.

A message is a JSON object of at most `MAX_BYTES`; anything else is refused with a readable
error to that socket alone. Parsing only checks shape and sizes; the service authorises.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

MAX_BYTES = 8 * 1024
MAX_DEPTH = 16  # objects and lists nested in one another, the message itself counted
MAX_LIST = 20
MAX_COUNT = 10
ID_RE = re.compile(r"[A-Za-z0-9_.:-]{1,64}")  # whole text (fullmatch): ASCII only
NUMBER_RE = re.compile(r"[0-9]{1,10}")  # a number sent as text: ASCII digits only
# A message's id as text, for an error about a message too broken to parse: the page then
# knows which of its forms was refused.
ID_IN_TEXT = re.compile(r'"id"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"')
SURROGATE = re.compile(r"[\ud800-\udfff]")  # JSON's \ud800 escapes: no text in UTF-8
KINDS = frozenset(
    {"command", "preview", "add", "undo", "policy", "play", "autoplay", "sync", "route", "place"}
)
MAX_FIELD = 60  # a battle map's fields per side, at most (combat.rules.battlemap.MAX_SIDE)
MODE_RE = re.compile(r"^[a-z0-9_]{0,20}$")


class BadMessage(ValueError):
    """A message that does not fit the schema; the text says what is wrong (in English), `id`
    the message's id where one could be read (its error goes to the form that sent it)."""

    def __init__(self, detail: str, message_id: str | None = None) -> None:
        super().__init__(detail)
        self.id = message_id


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
    """The message in `text`, or BadMessage (with the message's id where one was readable).

    Whatever the text: no other exception, however deep, long or strange the input."""
    if len(text) > MAX_BYTES or len(text.encode(errors="surrogatepass")) > MAX_BYTES:
        raise BadMessage(f"message larger than {MAX_BYTES} bytes", _id_in(text))
    try:
        data = json.loads(text)
    except RecursionError:  # the decoder recurses per level: a few thousand "[" exhaust it
        raise BadMessage(f"nested more than {MAX_DEPTH} levels deep", _id_in(text)) from None
    except ValueError:
        raise BadMessage("not JSON", _id_in(text)) from None
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object")
    readable = data.get("id")
    message_id = readable if isinstance(readable, str) and ID_RE.fullmatch(readable) else None
    try:
        return _checked(data, message_id)
    except BadMessage as exc:
        exc.id = message_id
        raise


def _checked(data: dict[str, Any], message_id: str | None) -> Message:
    problem = text_problem(data)
    if problem is not None:
        raise BadMessage(problem)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        raise BadMessage(f"unknown message type: {str(kind)[:40]!r}")
    _optional_id(data.get("id"))
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
        if not isinstance(mode, str) or not MODE_RE.fullmatch(mode):
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
    if not isinstance(value, str) or not ID_RE.fullmatch(value):
        raise BadMessage("id: 1–64 letters, digits or -_.:")
    return value


def _id(value: Any, name: str) -> str:
    if not isinstance(value, str) or not ID_RE.fullmatch(value):
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
        number = int(item) if isinstance(item, str) and NUMBER_RE.fullmatch(item) else item
        if not isinstance(number, int) or isinstance(number, bool) or not low <= number < high:
            raise BadMessage(f"{name}: whole numbers {low}–{high - 1}")
        result.append(number)
    return tuple(dict.fromkeys(result))


def _counts(value: Any) -> dict[int, int]:
    if not isinstance(value, dict) or len(value) > MAX_LIST:
        raise BadMessage(f"creatures: an object of at most {MAX_LIST} kinds")
    result = {}
    for key, count in value.items():
        if not NUMBER_RE.fullmatch(key):
            raise BadMessage("creatures: keys are creature ids")
        number = int(count) if isinstance(count, str) and NUMBER_RE.fullmatch(count) else count
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= MAX_COUNT:
            raise BadMessage(f"creatures: counts 0–{MAX_COUNT}")
        if number:
            result[int(key)] = number
    return result


def text_problem(value: object, max_depth: int = MAX_DEPTH) -> str | None:
    """What makes a parsed JSON value unfit to run or store, or None: nested deeper than
    `max_depth`, or text (a key or a value) with a NUL (PostgreSQL stores none) or a lone
    surrogate (no UTF-8 text holds one). Walked without recursion, so any depth is safe."""
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "text may not contain a NUL character"
            if SURROGATE.search(item):
                return "text may not contain a lone surrogate (\\ud800–\\udfff)"
            continue
        if isinstance(item, dict | list):
            if depth > max_depth:
                return f"nested more than {max_depth} levels deep"
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending += [(child, depth + 1) for child in children]
    return None


def has_nul(value: object) -> bool:
    """Whether a parsed JSON value holds a NUL character anywhere (PostgreSQL refuses it)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str) and "\x00" in item:
            return True
        if isinstance(item, dict):
            pending += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            pending += item
    return False


def _id_in(text: str) -> str | None:
    """The id in the text of a message JSON could not read, where one stands out."""
    found = ID_IN_TEXT.search(text)
    return found.group(1) if found else None


class TokenBucket:
    """A rate limit: `rate` takes a second on average, bursts of `burst`; `clock` in seconds
    (monotonic: a wall clock set back would stall it)."""

    def __init__(
        self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
