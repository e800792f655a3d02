"""The battle map any ruleset may use: fields on a square or hex grid, what stands in the way,
and the geometry that rules derived from space read (distance, adjacency, lines, paths).

Pure data and maths: a `BattleMap` is a frozen record kept in a ruleset's encounter state and
changed only by `apply_edit` (a GM's `Resize`, which lays a new map too, `Paint`, `Look`,
`Remove`), so the map
is replayed and undone with the rest of the log. A field is `(column, row)`, from 0. Hexes are
pointy-topped in "odd-r" offset layout: odd rows sit half a hex to the right.

Terrain: a wall blocks movement and sight; an obstacle blocks movement and screens what is
behind it; difficult terrain costs two fields of movement to enter; darkness is a level per
field, 0 (light) to 3, which each ruleset names (Eleora: półmrok, ciemność, całkowita ciemność).
"""

from __future__ import annotations

import hashlib
import heapq
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from functools import cached_property
from math import sqrt
from typing import Any, Literal, TypeVar

from combat.rules.base import RuleViolation, gettext_noop

Field = tuple[int, int]
Geometry = Literal["square", "hex"]
Tool = Literal["wall", "obstacle", "difficult", "dark1", "dark2", "dark3", "light", "erase"]

MAX_SIDE = 60
MAX_PAINT = 600  # fields in one edit (a drag across the whole 60-wide map and back)
MAX_IMAGE_PATH = 200
COLOUR_RE = re.compile(r"#[0-9a-fA-F]{6}")  # use with fullmatch: `$` lets a "\n" through
IMAGE_RE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_./-]*")  # a relative storage path (fullmatch)
TOOLS: tuple[Tool, ...] = (
    "wall",
    "obstacle",
    "difficult",
    "dark1",
    "dark2",
    "dark3",
    "light",
    "erase",
)
DEFAULT_BACKGROUND = "#e8dfc8"

_SQUARE_STEPS: tuple[Field, ...] = (
    (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1),
)  # fmt: skip
_HEX_STEPS_EVEN: tuple[Field, ...] = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
_HEX_STEPS_ODD: tuple[Field, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))


# --- geometry -----------------------------------------------------------------------------------


def _cube(f: Field) -> tuple[int, int, int]:
    q = f[0] - (f[1] - (f[1] & 1)) // 2
    return q, f[1], -q - f[1]


def _from_cube(q: int, r: int) -> Field:
    return (q + (r - (r & 1)) // 2, r)


def distance(geometry: Geometry, a: Field, b: Field) -> int:
    """Fields between two fields: a diagonal square step counts one, as a hex step does."""
    if geometry == "square":
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    (aq, ar, as_), (bq, br, bs) = _cube(a), _cube(b)
    return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))


def adjacent(geometry: Geometry, a: Field, b: Field) -> bool:
    return distance(geometry, a, b) == 1


def neighbours(geometry: Geometry, f: Field) -> tuple[Field, ...]:
    """The fields around `f` (8 squares or 6 hexes), in a fixed order."""
    if geometry == "square":
        steps = _SQUARE_STEPS
    else:
        steps = _HEX_STEPS_ODD if f[1] & 1 else _HEX_STEPS_EVEN
    return tuple((f[0] + dx, f[1] + dy) for dx, dy in steps)


def opposite(geometry: Geometry, centre: Field, f: Field) -> Field:
    """The field on the far side of `centre` from `f` (a flank partner, a blow from behind)."""
    if geometry == "square":
        return (2 * centre[0] - f[0], 2 * centre[1] - f[1])
    (cq, cr, _), (fq, fr, _) = _cube(centre), _cube(f)
    return _from_cube(2 * cq - fq, 2 * cr - fr)


def between(geometry: Geometry, a: Field, b: Field) -> tuple[Field, ...]:
    """The fields a straight line from the centre of `a` to the centre of `b` passes, both ends
    left out: what can block sight or screen a shot. The line is drawn as the grid draws lines:
    at each of its `distance - 1` steps the field the line is in; where it runs exactly
    between two fields (through their shared edge or corner) both count. Symmetric: the same
    fields either way; () for adjacent fields."""
    n = distance(geometry, a, b)
    if n < 2:
        return ()
    found: list[Field] = []
    for i in range(1, n):
        t = i / n
        for nudge in (1e-6, -1e-6):
            f = _lerp(geometry, a, b, t, nudge)
            if f not in (a, b) and f not in found:
                found.append(f)
    return tuple(found)


def _lerp(geometry: Geometry, a: Field, b: Field, t: float, nudge: float) -> Field:
    if geometry == "square":
        x = a[0] + (b[0] - a[0]) * t + nudge
        y = a[1] + (b[1] - a[1]) * t + nudge
        return (round(x), round(y))
    (aq, ar, as_), (bq, br, bs) = _cube(a), _cube(b)
    q = aq + (bq - aq) * t + nudge
    r = ar + (br - ar) * t + nudge
    s = as_ + (bs - as_) * t - 2 * nudge
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return _from_cube(rq, rr)


def straight(geometry: Geometry, a: Field, b: Field) -> tuple[Field, ...] | None:
    """The fields from `a` to `b` (both included) when they lie on one line of the grid: a row,
    a column or a diagonal of squares, one of the three axes of hexes; else None."""
    if a == b:
        return (a,)
    if geometry == "square":
        dx, dy = b[0] - a[0], b[1] - a[1]
        if dx and dy and abs(dx) != abs(dy):
            return None
        n = max(abs(dx), abs(dy))
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        return tuple((a[0] + sx * i, a[1] + sy * i) for i in range(n + 1))
    (aq, ar, as_), (bq, br, bs) = _cube(a), _cube(b)
    if aq != bq and ar != br and as_ != bs:
        return None
    n = distance(geometry, a, b)
    sq, sr = (bq - aq) // n, (br - ar) // n
    return tuple(_from_cube(aq + sq * i, ar + sr * i) for i in range(n + 1))


# --- the map ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleMap:
    """An encounter's map. Field sets are sorted tuples (JSON-ready); `version` counts edits.
    Memoise drawings by `fingerprint`, not by `version` alone: an undone edit followed by
    another, or a removed map laid anew, repeats a version with other terrain.

    Lookups are cached on the instance: derive a changed map with `apply_edit` or
    `dataclasses.replace`, never `records.replace` (it would copy the stale caches)."""

    geometry: Geometry = "square"
    metres: int = 1  # metres per field: the ruleset's
    width: int = 20
    height: int = 15
    background: str = DEFAULT_BACKGROUND
    image: str = ""  # an uploaded picture's storage path, drawn under the fields
    walls: tuple[Field, ...] = ()
    obstacles: tuple[Field, ...] = ()
    difficult: tuple[Field, ...] = ()
    dark1: tuple[Field, ...] = ()
    dark2: tuple[Field, ...] = ()
    dark3: tuple[Field, ...] = ()
    version: int = 0

    @cached_property
    def fingerprint(self) -> str:
        """A short stable digest of everything but `version` (the same in every process)."""
        data = repr(tuple(getattr(self, f.name) for f in fields(self) if f.name != "version"))
        return hashlib.blake2b(data.encode(), digest_size=8).hexdigest()

    @cached_property
    def _sets(self) -> dict[str, frozenset[Field]]:
        return {
            name: frozenset(getattr(self, name))
            for name in ("walls", "obstacles", "difficult", "dark1", "dark2", "dark3")
        }

    def inside(self, f: Field) -> bool:
        return 0 <= f[0] < self.width and 0 <= f[1] < self.height

    def wall(self, f: Field) -> bool:
        return f in self._sets["walls"]

    def obstacle(self, f: Field) -> bool:
        return f in self._sets["obstacles"]

    def is_difficult(self, f: Field) -> bool:
        return f in self._sets["difficult"]

    def passable(self, f: Field) -> bool:
        """On the map and neither wall nor obstacle."""
        return self.inside(f) and not self.wall(f) and not self.obstacle(f)

    def darkness(self, f: Field) -> int:
        """0 (light) to 3 (the ruleset's darkest level)."""
        for level in (3, 2, 1):
            if f in self._sets[f"dark{level}"]:
                return level
        return 0

    def entry_cost(self, f: Field) -> int:
        """Fields of movement entering `f` uses: 2 on difficult terrain, else 1."""
        return 2 if self.is_difficult(f) else 1

    def distance(self, a: Field, b: Field) -> int:
        return distance(self.geometry, a, b)

    def adjacent(self, a: Field, b: Field) -> bool:
        return adjacent(self.geometry, a, b)

    def neighbours(self, f: Field) -> tuple[Field, ...]:
        return tuple(n for n in neighbours(self.geometry, f) if self.inside(n))

    def opposite(self, centre: Field, f: Field) -> Field:
        return opposite(self.geometry, centre, f)

    def between(self, a: Field, b: Field) -> tuple[Field, ...]:
        return between(self.geometry, a, b)

    def straight(self, a: Field, b: Field) -> tuple[Field, ...] | None:
        return straight(self.geometry, a, b)

    def metres_between(self, a: Field, b: Field) -> int:
        return self.distance(a, b) * self.metres

    @cached_property
    def _grid(self) -> _Grid:
        return _Grid(self)


def new_map(geometry: Geometry, metres: int, width: int, height: int) -> BattleMap:
    _check_size(width, height)
    return BattleMap(geometry=geometry, metres=metres, width=width, height=height)


# --- sight --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sight:
    """What lies between two fields: `blocked` by a wall (no line of sight), and what screens
    the far one: the bodies (keys given by the caller) and the obstacle fields on the line."""

    blocked: bool
    bodies: tuple[str, ...] = ()
    obstacles: tuple[Field, ...] = ()

    @property
    def screened(self) -> bool:
        return bool(self.bodies or self.obstacles)


def sight(m: BattleMap, a: Field, b: Field, bodies: Mapping[Field, str] | None = None) -> Sight:
    """The line from `a` to `b` on `m`; `bodies` maps the fields that hold someone to a key."""
    line = m.between(a, b)
    bodies = bodies or {}
    return Sight(
        blocked=any(m.wall(f) for f in line),
        bodies=tuple(bodies[f] for f in line if f in bodies),
        obstacles=tuple(f for f in line if m.obstacle(f)),
    )


# --- paths --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """A path (start first) and the fields of movement it uses (difficult terrain counts 2)."""

    path: tuple[Field, ...]
    cost: int


class _Grid:
    """The map as a flat array for the searches: column-major with a blocked border, so a
    field's index orders as the field does and a neighbour is the index plus an offset."""

    __slots__ = ("pitch", "costs", "offsets", "hex", "open_bits", "odd_bits", "_axes")
    _axes: tuple[list[int], list[int]]

    def __init__(self, m: BattleMap) -> None:
        pitch = m.height + 2  # a column of fields with a border cell at each end
        costs = bytearray((m.width + 2) * pitch)  # 0: closed (off the map, wall, obstacle)
        ones = b"\x01" * m.height
        for col in range(m.width):
            start = (col + 1) * pitch + 1
            costs[start : start + m.height] = ones
        for f in m.difficult:
            costs[(f[0] + 1) * pitch + f[1] + 1] = 2
        for f in (*m.walls, *m.obstacles):
            costs[(f[0] + 1) * pitch + f[1] + 1] = 0
        self.pitch, self.costs, self.hex = pitch, bytes(costs), m.geometry == "hex"
        # bit i set: index i is open (for the bit-parallel flood) / lies on an odd row
        self.open_bits = int(self.costs.translate(_BIT_DIGITS)[::-1], 2)
        column = bytes(48 + (row % 2 == 0 and 0 < row < pitch - 1) for row in range(pitch))
        self.odd_bits = int((column * (m.width + 2))[::-1], 2)
        if self.hex:  # (even rows, odd rows); an index's row is odd when index % pitch is even
            self.offsets = tuple(
                tuple(dx * pitch + dy for dx, dy in steps)
                for steps in (_HEX_STEPS_EVEN, _HEX_STEPS_ODD)
            )
        else:
            square = tuple(dx * pitch + dy for dx, dy in _SQUARE_STEPS)
            self.offsets = (square, square)

    def index(self, f: Field) -> int:
        return (f[0] + 1) * self.pitch + f[1] + 1

    @property
    def axes(self) -> tuple[list[int], list[int]]:
        """Per index: its column (for hexes the cube q) and its row, for the distances A*
        estimates with (border cells get values too; they are never entered)."""
        try:
            return self._axes
        except AttributeError:
            pitch, columns = self.pitch, len(self.costs) // self.pitch
            rows = list(range(-1, pitch - 1)) * columns
            if self.hex:
                across = [
                    c - 1 - (r - (r & 1)) // 2 for c in range(columns) for r in range(-1, pitch - 1)
                ]
            else:
                across = [c for c in range(-1, columns - 1) for _ in range(pitch)]
            self._axes = (across, rows)
            return self._axes

    def field(self, i: int) -> Field:
        col, row = divmod(i, self.pitch)
        return (col - 1, row - 1)

    def open_costs(self, shut: Iterable[Field], m: BattleMap) -> bytes | bytearray:
        """Entry costs with the `shut` fields closed too."""
        inside = [self.index(f) for f in shut if m.inside(f)]
        if not inside:
            return self.costs
        costs = bytearray(self.costs)
        for i in inside:
            costs[i] = 0
        return costs


_BIT_DIGITS = bytes([48] + [49] * 255)  # an entry cost as a binary digit: 0 closed, 1 open
_STEP_BITS = 12  # a path's steps (at most every field once: 60 × 60 < 4096) under its cost
_FLOOD_ROUNDS = 48  # fields out from each end; a few microseconds each


def _connected(grid: _Grid, open_bits: int, a: int, b: int) -> bool:
    """False when index `b` surely cannot be reached from index `a` over open indices: a
    bit-parallel flood from both ends at once, so a goal walled into a room (or a start
    hemmed in) is refused without searching everything outside. True when the floods meet or
    are still growing after `_FLOOD_ROUNDS` (the search then finds out)."""
    pitch, odd_bits = grid.pitch, grid.odd_bits

    def grow(r: int) -> int:
        v = r | r << 1 | r >> 1  # the field and the ones above and below it (same column)
        if grid.hex:  # odd rows reach diagonally to the right, even rows to the left
            ro = r & odd_bits
            re = r ^ ro
            v |= (
                r << pitch
                | r >> pitch
                | (ro << 1 | ro >> 1) << pitch
                | (re << 1 | re >> 1) >> pitch
            )
        else:
            v |= v << pitch | v >> pitch
        return v & open_bits

    ra, rb = 1 << a, 1 << b
    for _ in range(_FLOOD_ROUNDS):
        if ra & rb:
            break
        grown = grow(ra)
        if grown == ra:
            return False
        ra = grown
        if ra & rb:
            break
        grown = grow(rb)
        if grown == rb:
            return False
        rb = grown
    return True


def route(
    m: BattleMap,
    start: Field,
    goal: Field,
    *,
    closed: Iterable[Field] = (),
    no_stop: Iterable[Field] = (),
) -> Route | None:
    """The cheapest path from `start` to `goal` over passable fields, or None (also when
    either end is off the map).

    `closed` fields cannot be entered (an enemy's); `no_stop` ones can be crossed but not
    ended on (an ally letting one through). Ties go to the fewest steps, then to the path the
    search meets first (an A* search trying neighbours in the fixed order of `neighbours`),
    so the same map always gives the same path."""
    shut = frozenset(closed)
    if not m.inside(start) or not m.passable(goal) or goal in shut or goal in frozenset(no_stop):
        return None
    if start == goal:
        return Route((start,), 0)
    grid = m._grid
    source, target = grid.index(start), grid.index(goal)
    costs = bytearray(grid.costs)  # a field's entry cost, 0 once closed or settled
    open_bits = grid.open_bits | 1 << source
    for f in shut:
        if m.inside(f) and f != start:
            costs[grid.index(f)] = 0
            open_bits &= ~(1 << grid.index(f))
    if not _connected(grid, open_bits, source, target):
        return None
    costs[source] = 1
    # A heap entry is one int: the estimate (cost + distance left, then steps + distance
    # left), the distance left (of equal estimates the nearer goes first), the push order and
    # the index, compared as that tuple would be, only faster. The distance never
    # overestimates what is left of either, so the first time the goal comes off the heap its
    # path is a cheapest one with the fewest steps.
    size = len(costs)
    node_bits, order_bits = size.bit_length(), (8 * size).bit_length()
    node_mask, step_bits, h_bits = (1 << node_bits) - 1, _STEP_BITS, _STEP_BITS
    both = (1 << step_bits) + 1  # one field of distance left, in cost and in steps
    pitch, hexes = grid.pitch, grid.hex
    even, odd = grid.offsets
    across, down = grid.axes  # per index: its column (a hex's cube q) and its row
    ga, gd = across[target], down[target]
    best = [1 << 62] * size
    came = [0] * size
    best[source] = 0
    heap = [source]
    order = 0
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        i = pop(heap) & node_mask
        if not costs[i]:
            continue  # settled already, by a better entry
        if i == target:
            path = [i]
            while i != source:
                i = came[i]
                path.append(i)
            return Route(tuple(grid.field(i) for i in reversed(path)), best[target] >> step_bits)
        costs[i] = 0
        score = best[i]
        for offset in odd if hexes and not i % pitch & 1 else even:
            n = i + offset
            c = costs[n]
            if c:
                s = score + (c << step_bits) + 1
                if s < best[n]:
                    best[n] = s
                    came[n] = i
                    a = across[n] - ga
                    d = down[n] - gd
                    if a < 0:
                        a = -a
                    if hexes:
                        e = a + d if across[n] >= ga else d - a  # |q + r| with q's sign back
                        if e < 0:
                            e = -e
                    else:
                        e = 0
                    if d < 0:
                        d = -d
                    h = a if a > d else d
                    if e > h:
                        h = e
                    order += 1
                    push(
                        heap,
                        ((((s + h * both) << h_bits | h) << order_bits | order) << node_bits) | n,
                    )
    return None


def reachable(
    m: BattleMap,
    start: Field,
    budget: int,
    *,
    closed: Iterable[Field] = (),
    no_stop: Iterable[Field] = (),
) -> dict[Field, int]:
    """Every field a move of at most `budget` fields of movement can end on, with its cost
    (the start, at 0, among them unless it is a `no_stop` field); {} when `start` is off the
    map. `closed` and `no_stop` as for `route`."""
    if not m.inside(start):
        return {}
    grid = m._grid
    costs = grid.open_costs(frozenset(closed), m)
    pitch = grid.pitch
    even, odd = grid.offsets
    node_bits = len(costs).bit_length()
    node_mask = (1 << node_bits) - 1
    source = grid.index(start)
    best = {source: 0}
    heap = [source]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        key = pop(heap)
        i, cost = key & node_mask, key >> node_bits
        if cost > best[i]:
            continue
        for offset in odd if grid.hex and not i % pitch & 1 else even:
            n = i + offset
            c = costs[n]
            if c:
                c += cost
                if c <= budget and c < best.get(n, budget + 1):
                    best[n] = c
                    push(heap, (c << node_bits) | n)
    through = frozenset(no_stop)
    found = ((grid.field(i), c) for i, c in best.items())
    return {f: c for f, c in found if f not in through}


def path_cost(m: BattleMap, path: tuple[Field, ...]) -> int:
    """Fields of movement a path uses; RuleViolation when it leaves the map, jumps, or enters a
    wall or an obstacle."""
    for a, b in zip(path, path[1:], strict=False):
        if not m.inside(b):
            raise RuleViolation("poza_mapa", gettext_noop("Pole %(field)s jest poza mapą."),
                                field=label(b))  # fmt: skip
        if not m.adjacent(a, b):
            raise RuleViolation(
                "skok",
                gettext_noop("Ścieżka przeskakuje z %(a)s na %(b)s."),
                a=label(a),
                b=label(b),
            )
        if not m.passable(b):
            raise RuleViolation(
                "sciana", gettext_noop("Pole %(field)s jest zablokowane."), field=label(b)
            )
    return sum(m.entry_cost(f) for f in path[1:])


# The log line of a move stopped by a token its mover could not see (every ruleset's).
STOPPED = gettext_noop("%(name)s zatrzymuje się: na drodze stoi %(other)s.")


def walk_until(
    path: tuple[Field, ...], hidden: Iterable[Field], taken: Iterable[Field] = ()
) -> tuple[tuple[Field, ...], Field | None]:
    """A move that runs into a token its mover could not see (an ambush): the part of `path`
    walked before its first field in `hidden`, cut back to its last field not in `taken` (one
    crossed but not stood on; the start at least), and that hidden field; the whole path and
    None when no hidden field lies on it."""
    ambush, crossed = frozenset(hidden), frozenset(taken)
    hit = next((i for i, f in enumerate(path[1:], 1) if f in ambush), None)
    if hit is None:
        return path, None
    stop = hit - 1
    while stop > 0 and path[stop] in crossed:
        stop -= 1
    return path[: stop + 1], path[hit]


S = TypeVar("S")


def lifted(state: S, unseen: Iterable[str]) -> S:
    """A ruleset's state as one who cannot see the `unseen` seats finds the map: their tokens
    lifted off it (`position` None), so they neither block, bend nor are named in a route.
    For drawing a route only: the move it offers is decided on the whole state. The state is
    a dataclass whose `combatants` map ids to dataclasses with a `position`."""
    gone = frozenset(unseen)
    people: Mapping[str, Any] = state.combatants  # type: ignore[attr-defined]
    off = {
        cid: replace(c, position=None)
        for cid, c in people.items()
        if cid in gone and c.position is not None
    }
    if not off:
        return state
    return replace(state, combatants={**people, **off})  # type: ignore[type-var]


def label(f: Field) -> str:
    """A field as players name it: column letters and row number ("C7"; "AB12" past Z). A
    field left of or above the map (a stray path) reads as its coordinates, "(-1, 4)"."""
    if f[0] < 0 or f[1] < 0:
        return f"({f[0]}, {f[1]})"
    col, letters = f[0], ""
    while True:
        col, rest = divmod(col, 26)
        letters = chr(65 + rest) + letters
        if col == 0:
            break
        col -= 1
    return f"{letters}{f[1] + 1}"


def token_labels(names: Iterable[str]) -> tuple[str, ...]:
    """Short labels for the tokens of a table's seats (in the table's order), unique among
    them: a name's initials, with the number a creature's name ends in ("Bandyta z traktu 2"
    is "BZ2"); a label that would still be a second one gets the next number free."""
    wanted = [_token_label(name) for name in names]
    unique = {w for w in wanted if wanted.count(w) == 1}
    taken = set(unique)
    labels: list[str] = []
    for w in wanted:
        found, n = w, 1
        while w not in unique and found in taken:
            n += 1
            found = f"{w}{n}"
        taken.add(found)
        labels.append(found)
    return tuple(labels)


def _token_label(name: str) -> str:
    """A numbered name: the first letters of its first two words and the number ("Wilk 1" is
    "W1"); else those letters, or a one-word name's first two; three characters at most while
    the number is short."""
    words = name.split()
    number = words.pop() if len(words) > 1 and words[-1].isdigit() else ""
    if number or len(words) > 1:
        letters = "".join(word[0] for word in words[:2])
    else:
        letters = "".join(words)[:2]
    return letters.upper()[: max(1, 3 - len(number))] + number


# --- the GM's edits -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Remove:
    """Take the map away; positions become narrative again."""

    confirm: bool


@dataclass(frozen=True)
class Paint:
    """Paint `tool` on fields: a wall, an obstacle, difficult terrain, a darkness level, light
    (no darkness) or erase (bare ground)."""

    tool: Tool
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Resize:
    """The map's size; on an encounter without a map, lay a new one (of the ruleset's
    geometry and metres per field)."""

    width: int
    height: int


@dataclass(frozen=True)
class Look:
    """The background colour and an optional uploaded picture ("" for none)."""

    background: str = DEFAULT_BACKGROUND
    image: str = ""


Edit = Remove | Paint | Resize | Look  # told apart by their fields


def check_edit(m: BattleMap | None, edit: Edit, occupied: Iterable[Field] = ()) -> None:
    """RuleViolation unless the edit can be made; `occupied` are the fields tokens stand on."""
    if isinstance(edit, Resize) and m is None:
        _check_size(edit.width, edit.height)
        return
    if m is None:
        raise RuleViolation("brak_mapy", gettext_noop("To starcie nie ma mapy."))
    taken = frozenset(occupied)
    match edit:
        case Remove(confirm=confirm):
            if confirm is not True:
                raise RuleViolation("potwierdzenie", gettext_noop("Potwierdź usunięcie mapy."))
        case Paint(tool=tool, fields=fields):
            if tool not in TOOLS:
                raise RuleViolation("narzedzie", gettext_noop("Nieznane narzędzie mapy."))
            if not fields or len(fields) > MAX_PAINT:
                raise RuleViolation(
                    "malowanie", gettext_noop("Zaznacz od 1 do %(n)d pól."), n=MAX_PAINT
                )
            for f in fields:
                if not _is_field(f):
                    raise RuleViolation("pole", gettext_noop("Nieprawidłowe pole mapy."))
                if not m.inside(f):
                    raise RuleViolation(
                        "poza_mapa", gettext_noop("Pole %(field)s jest poza mapą."), field=label(f)
                    )
                if tool in ("wall", "obstacle") and f in taken:
                    raise RuleViolation(
                        "zajete_pole",
                        gettext_noop("Na polu %(field)s ktoś stoi: najpierw go przesuń."),
                        field=label(f),
                    )
        case Resize(width=width, height=height):
            _check_size(width, height)
            outside = sorted(f for f in taken if not (f[0] < width and f[1] < height))
            if outside:
                raise RuleViolation(
                    "zmniejszenie",
                    gettext_noop("Pole %(field)s z postacią wypadłoby poza mapę."),
                    field=label(outside[0]),
                )
        case Look(background=background, image=image):
            if not isinstance(background, str) or not COLOUR_RE.fullmatch(background):
                raise RuleViolation("kolor", gettext_noop("Kolor tła to #rrggbb."))
            if not isinstance(image, str) or not _safe_image(image):
                raise RuleViolation("obraz", gettext_noop("Nieprawidłowy obraz mapy."))


def _is_field(f: object) -> bool:
    return (
        isinstance(f, tuple | list)
        and len(f) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in f)
    )


def _safe_image(image: str) -> bool:
    """Empty (no picture) or a relative storage path: no "..", no leading "/", no scheme, no
    backslash, nothing but letters, digits and `_ - . /`."""
    return image == "" or (
        len(image) <= MAX_IMAGE_PATH and IMAGE_RE.fullmatch(image) is not None and ".." not in image
    )


def apply_edit(
    m: BattleMap | None, edit: Edit, geometry: Geometry, metres: int
) -> BattleMap | None:
    """The map after a checked edit (`geometry` and `metres` lay a new one)."""
    if isinstance(edit, Resize) and m is None:
        return new_map(geometry, metres, edit.width, edit.height)
    if isinstance(edit, Remove) or m is None:
        return None
    version = m.version + 1
    match edit:
        case Paint(tool=tool, fields=fields):
            return replace(
                _painted(m, tool, frozenset((f[0], f[1]) for f in fields)), version=version
            )
        case Resize(width=width, height=height):
            inside = {
                name: tuple(f for f in getattr(m, name) if f[0] < width and f[1] < height)
                for name in _LAYERS
            }
            return replace(m, width=width, height=height, version=version, **inside)  # type: ignore[arg-type]
        case Look(background=background, image=image):
            return replace(m, background=background, image=image, version=version)
    return m


_LAYERS = ("walls", "obstacles", "difficult", "dark1", "dark2", "dark3")
_DARK = ("dark1", "dark2", "dark3")


def _painted(m: BattleMap, tool: Tool, fields: frozenset[Field]) -> BattleMap:
    """Walls and obstacles exclude each other, as the darkness levels do; difficult terrain
    lies on any ground; erase clears everything."""
    cleared: tuple[str, ...]
    if tool == "erase":
        cleared = _LAYERS
    elif tool in ("wall", "obstacle"):
        cleared = ("walls", "obstacles", "difficult")
    elif tool == "difficult":
        cleared = ("walls", "obstacles")
    else:
        cleared = _DARK
    layers = {name: set(getattr(m, name)) for name in _LAYERS}
    for name in cleared:
        layers[name] -= fields
    added = {"wall": "walls", "obstacle": "obstacles", "difficult": "difficult"}.get(tool, tool)
    if added in layers:
        layers[added] |= fields
    return replace(m, **{name: tuple(sorted(layers[name])) for name in _LAYERS})  # type: ignore[arg-type]


def _check_size(width: int, height: int) -> None:
    sides = (width, height)
    if not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_SIDE for v in sides
    ):
        raise RuleViolation(
            "rozmiar_mapy", gettext_noop("Mapa ma od 1 do %(n)d pól w każdą stronę."), n=MAX_SIDE
        )


# --- drawing ------------------------------------------------------------------------------------

HEX_W = sqrt(3)  # a hex's width for a circumradius of 1


def centre(geometry: Geometry, f: Field, size: float) -> tuple[float, float]:
    """The centre of a field in drawing units, the map's top left corner at (0, 0): a square
    is `size` wide; a hex is `size` tall (corner to corner, radius `size`/2) and √3·`size`/2
    wide, its rows 3/4·`size` apart, odd rows half a hex to the right."""
    if geometry == "square":
        return ((f[0] + 0.5) * size, (f[1] + 0.5) * size)
    r = size / 2
    return (HEX_W * r * (f[0] + 0.5 * (f[1] & 1) + 0.5), r * (1 + 1.5 * f[1]))


def extent(m: BattleMap, size: float) -> tuple[float, float]:
    """Width and height of the whole drawing."""
    if m.geometry == "square":
        return (m.width * size, m.height * size)
    r = size / 2
    wide = m.width + (0.5 if m.height > 1 else 0)
    return (HEX_W * r * wide, r * (2 + 1.5 * (m.height - 1)))


def hex_points(cx: float, cy: float, size: float) -> str:
    """The six corners of a pointy-topped hex, for an SVG polygon."""
    r, w = size / 2, HEX_W * size / 4
    pts = ((cx, cy - r), (cx + w, cy - r / 2), (cx + w, cy + r / 2), (cx, cy + r),
           (cx - w, cy + r / 2), (cx - w, cy - r / 2))  # fmt: skip
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
