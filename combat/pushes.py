"""What a socket is sent of the regions it shows, and what a page shows after it (pure Python).

A push carries only what changed since the socket's last one: a region whose HTML changed,
whole, except for the regions made of items (`LISTS`: the order's rows, the log's lines, each
between <!--i--> and <!--/i--> with an id), which get only their new, changed and departed
items as htmx out-of-band swaps while the rest of the region and the order of the items kept
stay: one row and one log line instead of the whole order and the log window. `apply` is the
inverse, what htmx does to the page: the test tabs and the benchmark's bot read pushes with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Regions made of items, by the id of the list that holds them.
LISTS = {"table-order": "table-order-list", "table-log": "table-log-lines"}
_ITEM = re.compile(r"<!--i-->(.*?)<!--/i-->", re.S)
_ID = re.compile(r'\sid="([^"]+)"')
_TAG = re.compile(r"<([a-z][a-z0-9]*)")
_ITEMS = re.compile(r"<!--items ([a-z-]+)-->(.*?)<!--/items-->", re.S)
_PREPEND = re.compile(
    r'<div hx-swap-oob="afterbegin:#[^"]+">((?:<!--i-->.*?<!--/i-->)*)</div>', re.S
)
_DELETE = re.compile(r'<div id="([^"]+)" hx-swap-oob="delete"></div>')
OOB = ' hx-swap-oob="true"'


@dataclass(frozen=True)
class Items:
    """A region of items as a socket was sent it: the rest of its HTML (hashed) and each item
    by its id."""

    frame: int
    ids: tuple[str, ...]
    hashes: tuple[int, ...]
    html: tuple[str, ...]


@lru_cache(maxsize=256)
def items_of(text: str) -> Items:
    """A region's items (the same string for every socket of an audience: worked out once).
    Only the sockets of one push share a string, so a few hundred are enough; each socket keeps
    the `Items` it was sent, and a longer cache would hold a copy of every item's HTML."""
    parts = _ITEM.split(text)  # the rest, an item, the rest, an item, …, the rest
    html = tuple(parts[1::2])
    ids = tuple(m.group(1) if (m := _ID.search(h)) else "" for h in html)
    if any(part.strip() for part in parts[2:-1:2]):  # more than space between items
        ids = ("",) * len(html)  # no item diffs: the region goes whole
    frame = hash((parts[0], parts[-1]))  # before the first item, after the last
    return Items(frame, ids, tuple(hash(h) for h in html), html)


def changed(
    sent: dict[str, Any], regions: dict[str, str], *, everything: bool
) -> tuple[str, dict[str, Any]]:
    """What a socket must be sent of these regions, given what it was sent last (`sent`:
    region id -> the hash of its HTML, or its `Items`; all of it if `everything`), and what it
    will have been sent. A region shared by many sockets is one string object, so its hash
    and its items are worked out once."""
    out, now = [], {}
    for name, text in regions.items():
        before = sent.get(name)
        after: Any
        if name in LISTS:
            after = items_of(text)
            out.append(text if everything else item_changes(name, before, after, text))
        else:
            after = hash(text)
            out.append(text if everything or before != after else "")
        now[name] = after
    return "".join(out), now


def item_changes(name: str, before: Any, after: Items, text: str) -> str:
    """From `before` to `after`: new items at the top of the list, each changed one in place,
    those that left the end (the log's window) deleted, all in an <!--items--> envelope; the
    whole region (`text`) when its rest changed or the items kept are not in their order."""
    if not isinstance(before, Items) or before.frame != after.frame or not all(after.ids):
        return text
    if before.hashes == after.hashes and before.ids == after.ids:
        return ""
    old = dict(zip(before.ids, before.hashes, strict=True))
    new = 0
    while new < len(after.ids) and after.ids[new] not in old:
        new += 1
    kept = after.ids[new:]
    if kept != before.ids[: len(kept)] or len(set(after.ids)) != len(after.ids):
        return text  # reordered (initiative), or an item back from before: the whole region
    parts = []
    if new:
        added = "".join(f"<!--i-->{h}<!--/i-->" for h in after.html[:new])
        parts.append(f'<div hx-swap-oob="afterbegin:#{LISTS[name]}">{added}</div>')
    for item_id, digest, html in zip(kept, after.hashes[new:], after.html[new:], strict=True):
        if old[item_id] != digest:
            swapped = _TAG.sub(r'<\1 hx-swap-oob="true"', html, count=1)
            parts.append(f"<!--i-->{swapped}<!--/i-->")
    parts += [f'<div id="{i}" hx-swap-oob="delete"></div>' for i in before.ids[len(kept) :]]
    return f"<!--items {name}-->{''.join(parts)}<!--/items-->"


def apply(shown: dict[str, str], html: str) -> list[str]:
    """What a page shows after a push (`shown`: region id -> its HTML, updated in place), as
    htmx swaps it; the ids of the regions it touched."""
    touched = []
    for name, body in _ITEMS.findall(html):
        shown[name] = _apply_items(name, shown.get(name, ""), body)
        touched.append(name)
    rest = _ITEMS.sub("", html)  # now only whole elements, each marked for its swap
    starts = []
    at = rest.find(OOB)
    while at >= 0:
        starts.append(rest.rfind("<", 0, at))
        at = rest.find(OOB, at + len(OOB))
    for i, start in enumerate(starts):
        head = rest[start : rest.find(">", start)]
        key = head.find(' id="')
        if key >= 0:
            name = head[key + 5 : head.find('"', key + 5)]
            shown[name] = rest[start : starts[i + 1] if i + 1 < len(starts) else len(rest)]
            touched.append(name)
    return touched


def _apply_items(name: str, region: str, body: str) -> str:
    """A region of items after an <!--items--> envelope: its changed items in place, the
    deleted ones gone, the new ones at the top of its list."""
    rest = _PREPEND.sub("", body)
    replaced = {}
    for item in _ITEM.findall(rest):
        if found := _ID.search(item):
            replaced[found.group(1)] = item.replace(OOB, "", 1)
    gone = set(_DELETE.findall(rest))

    def swap(m: re.Match[str]) -> str:
        found = _ID.search(m.group(1))
        item_id = found.group(1) if found else ""
        return "" if item_id in gone else f"<!--i-->{replaced.get(item_id, m.group(1))}<!--/i-->"

    text = _ITEM.sub(swap, region)
    added = "".join(_PREPEND.findall(body))
    opening = re.search(rf'id="{LISTS[name]}"[^>]*>', text)
    if added and opening is not None:
        text = text[: opening.end()] + added + text[opening.end() :]
    return text
