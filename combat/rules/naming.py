"""Creature names as the players count them: pure, the same for every ruleset.

Creatures of one kind are numbered among those the players have been shown ("Wilk 1",
"Wilk 2"). A hidden one is named with a placeholder ("Wilk ?KX"): the GM tells it apart, and
its tag says nothing of how many came before it. Shown to the players, it takes the next free
number of its kind, so the numbers they see have no gap where a hidden creature stands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

TAG_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no O/0 or I/1 to mix up
_PLACEHOLDER = re.compile(r"(?P<base>.+) \?(?P<tag>[A-Z0-9]{1,8})")


def number_in(name: str, base: str) -> int | None:
    """The number of "<base> <n>" (None: `name` is not numbered in this kind)."""
    rest = name.removeprefix(f"{base} ")
    return int(rest) if rest != name and rest.isdigit() else None


def numbered(base: str, names: Iterable[str]) -> str:
    """The next name of this kind the players may see: one above the highest "<base> n" among
    `names` (placeholders carry no number, so hidden creatures are not counted)."""
    used = [n for n in (number_in(name, base) for name in names) if n is not None]
    return f"{base} {max(used, default=0) + 1}"


def placeholder(base: str, tag: str) -> str:
    """A hidden creature's name: "<base> ?<tag>" (the tag drawn by the caller, at random)."""
    if not _PLACEHOLDER.fullmatch(f"{base} ?{tag}"):
        raise ValueError(f"not a placeholder tag: {tag!r}")
    return f"{base} ?{tag}"


def tag_of(name: str) -> str | None:
    """The tag of a placeholder name ("Wilk ?KX": "KX"); None for any other name."""
    match = _PLACEHOLDER.fullmatch(name)
    return match.group("tag") if match else None


def shown(name: str, others: Iterable[str]) -> str | None:
    """The name a seat called `name` takes when the players are shown it (`others`: the other
    seats' names): the next free number of its kind for a placeholder; None: it keeps its
    name (a creature they have seen before, a character)."""
    match = _PLACEHOLDER.fullmatch(name)
    return numbered(match.group("base"), others) if match else None


def shown_at(combatants: Mapping[str, Any], cid: str) -> str | None:
    """`shown` for seat `cid` of a state's `combatants` (records with a `name`)."""
    others = (c.name for other, c in combatants.items() if other != cid)
    return shown(combatants[cid].name, others)


def after_change(
    combatants: Mapping[str, Any], cid: str, hidden: bool | None, name: str | None
) -> str:
    """Seat `cid`'s name once a change of its visibility is applied: the `name` the event
    carries, else what `shown_at` gives when it is shown (a reveal that came without one)."""
    if name:
        return name
    current: str = combatants[cid].name
    return (shown_at(combatants, cid) if hidden is False else None) or current
