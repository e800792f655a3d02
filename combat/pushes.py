"""What a socket is sent: the table's view as records, and only the records that changed.

A viewer's page is a tree of records (`Part`: a region by its element id, what it shows as
plain comparable data and, for the order and the log, its items). After an entry each socket's
new tree is compared with the tree it was sent last: a region whose data changed is sent whole,
a list sends its new items at its top, its changed items in place and deletes those that left
it, each as an htmx out-of-band swap by id; what did not change is neither rendered nor sent.
Phoenix LiveView's rule: if the value is the same, nothing is executed and nothing is sent.

The HTML of a record is rendered once per content, audience variant and language in this
process and kept with the data it came from (`Track`, one per table): every socket of the
variant, a reconnect and a first page reuse it until the data changes. That is the one cache of
the live pipeline (`python -m scripts.bench.caches` measures it).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any, Protocol, TypeVar, cast

TABLES = 512  # tables whose records a process keeps (those with open sockets, and pages)
RECORDS = 1024  # a table's records kept beside the HTML (its log entries, per audience)
T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class Item:
    """One element of a list region: an order row, or a log entry (one element per line)."""

    id: str
    ids: tuple[str, ...]  # the elements it renders, in page order
    data: Any  # what it shows (compared)


@dataclass(frozen=True, eq=False)
class Part:
    """A region of the page as one audience variant sees it (`variant`: who else sees exactly
    this), what it shows (`data`) and, for a list, its items (`items`, in page order) inside
    the element `list_id`."""

    id: str
    variant: Any
    data: Any
    items: tuple[Item, ...] | None = None
    list_id: str = ""
    wrapper: str = "div"  # the element new items come in ("svg": an SVG list's, read as SVG)

    def same(self, other: Part | None) -> bool:
        return other is not None and (other is self or other.data == self.data)


class Renderer(Protocol):
    """How one viewer's records become HTML (combat.fragments)."""

    def region(self, part: Part, items: str) -> str:
        """The region whole; `items`: a list's items, rendered (else "")."""

    def item(self, part: Part, item: Item, *, swap: bool) -> str:
        """An item in its list, or (`swap`) as out-of-band swaps by id."""


@dataclass
class _Kept:
    data: Any
    html: str


class Track:
    """One table's rendered records in this process, each with the data it was rendered
    from. Safe across threads (the pool's, a page's)."""

    def __init__(self) -> None:
        self._parts: dict[tuple[Any, ...], _Kept] = {}
        self._items: dict[tuple[Any, ...], dict[tuple[str, bool], _Kept]] = {}
        self._records: dict[Hashable, Any] = {}
        self._lock = Lock()

    def record(self, key: Hashable, current: Callable[[Any], bool], make: Callable[[], T]) -> T:
        """A record worked out from the table's data that does not change from entry to entry
        (a log entry as one audience sees it): the one kept under `key` while `current` says
        it still is, else `make()`."""
        with self._lock:
            found = self._records.get(key)
        if found is not None and current(found):
            return cast(T, found)
        made = make()
        with self._lock:
            if len(self._records) > RECORDS:
                self._records.clear()  # the log's window moved on far: start again
            self._records[key] = made
        return made

    def region(self, part: Part, language: str, render: Renderer) -> str:
        """The part's HTML whole (a list's items from their own records)."""
        key = (part.id, part.variant, language)
        data = part.data
        if part.items is not None:
            data = (part.data, [(i.id, i.data) for i in part.items])
        with self._lock:
            kept = self._parts.get(key)
        if kept is not None and (kept.data is data or kept.data == data):
            return kept.html
        items = ""
        if part.items is not None:
            items = "".join(self.item(part, i, language, render, swap=False) for i in part.items)
        html = render.region(part, items)
        with self._lock:
            self._parts[key] = _Kept(data, html)
        return html

    def item(self, part: Part, item: Item, language: str, render: Renderer, *, swap: bool) -> str:
        """An item's HTML: in its list (`swap` False) or as out-of-band swaps by id."""
        key = (part.id, part.variant, language)
        with self._lock:
            items = self._items.setdefault(key, {})
            kept = items.get((item.id, swap))
        if kept is not None and (kept.data is item.data or kept.data == item.data):
            return kept.html
        html = render.item(part, item, swap=swap)
        with self._lock:
            self._items.setdefault(key, {})[(item.id, swap)] = _Kept(item.data, html)
        return html

    def prune(self, part: Part, language: str) -> None:
        """Forget the items no longer in the part (the log's window moved on)."""
        if part.items is None:
            return
        key = (part.id, part.variant, language)
        ids = {i.id for i in part.items}
        with self._lock:
            items = self._items.get(key)
            if items is not None and len(items) > 2 * len(ids):
                self._items[key] = {k: v for k, v in items.items() if k[0] in ids}


class Tracks:
    """The `Track` of each table this process shows, the least recently used dropped first."""

    def __init__(self, size: int = TABLES) -> None:
        self.size = size
        self._tracks: OrderedDict[int, Track] = OrderedDict()
        self._lock = Lock()

    def of(self, pk: int) -> Track:
        with self._lock:
            track = self._tracks.get(pk)
            if track is None:
                track = self._tracks[pk] = Track()
            self._tracks.move_to_end(pk)
            while len(self._tracks) > self.size:
                self._tracks.popitem(last=False)
            return track

    def clear(self) -> None:
        with self._lock:
            self._tracks.clear()


tracks = Tracks()

Tree = Mapping[str, Part]  # region id -> its part, in page order


def whole(tree: Iterable[Part], track: Track, language: str, render: Renderer) -> dict[str, str]:
    """Every region of a tree rendered whole, by its id."""
    out = {}
    for part in tree:
        out[part.id] = track.region(part, language, render)
        track.prune(part, language)
    return out


Shown = dict[str, int | None]  # region id -> the hash of the HTML it was sent whole last


def changes(
    before: Tree | None,
    shown: Shown,
    after: Sequence[Part],
    track: Track,
    language: str,
    render: Renderer,
) -> tuple[str, Shown]:
    """The out-of-band swaps that bring a page showing `before` to `after` (`before` None:
    everything), in page order, and what the page then shows of each region (`shown`). A
    region whose data changed but whose HTML came out as the page has it is not sent: a
    swap would only reset what the user is filling in."""
    out, now = [], dict(shown) if before is not None else {}
    for part in after:
        old = before.get(part.id) if before is not None else None
        if old is not None and part.items is not None and old.items is not None and old.same(part):
            out.append(_item_changes(old, part, track, language, render))
            now[part.id] = None
        elif not part.same(old):
            html = whole((part,), track, language, render)[part.id]
            if now.get(part.id) != (digest := hash(html)):
                out.append(html)
            now[part.id] = digest
    return "".join(out), now


def _item_changes(old: Part, new: Part, track: Track, language: str, render: Renderer) -> str:
    """A list from `old` to `new` (their frames equal): the new items at its top, each changed
    one in place, those that left it deleted; the whole region when the items kept are not in
    their order (initiative rolled), a new one comes below the top, or an item's elements
    changed (a line revealed)."""
    assert old.items is not None and new.items is not None
    previous = {i.id: i for i in old.items}
    first = 0
    while first < len(new.items) and new.items[first].id not in previous:
        first += 1
    kept = new.items[first:]
    staying = {i.id for i in kept}
    in_order = [i.id for i in kept] == [i.id for i in old.items if i.id in staying]
    if not in_order or any(previous[i.id].ids != i.ids for i in kept):
        return whole((new,), track, language, render)[new.id]
    parts = []
    if first:
        added = "".join(track.item(new, i, language, render, swap=False) for i in new.items[:first])
        tag = new.wrapper
        parts.append(f'<{tag} hx-swap-oob="afterbegin:#{new.list_id}">{added}</{tag}>')
    for item in kept:
        if previous[item.id].data != item.data:
            parts.append(track.item(new, item, language, render, swap=True))
    for item in old.items:
        if item.id not in staying:
            parts += [f'<div id="{i}" hx-swap-oob="delete"></div>' for i in item.ids]
    track.prune(new, language)
    return "".join(parts)
