"""The battle map core (`combat.rules.battlemap`) on small hand-drawn maps, square and hex."""

from __future__ import annotations

import heapq
import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.rules import battlemap as bm
from combat.rules.base import RuleViolation
from combat.rules.battlemap import (
    MAX_PAINT,
    MAX_SIDE,
    BattleMap,
    Look,
    Paint,
    Remove,
    Resize,
    apply_edit,
    between,
    check_edit,
    distance,
    label,
    neighbours,
    opposite,
    path_cost,
    reachable,
    route,
    sight,
    straight,
)

MARKS = {"#": "walls", "o": "obstacles", "~": "difficult", "1": "dark1", "2": "dark2", "3": "dark3"}


def drawn(text: str, geometry: bm.Geometry = "square") -> tuple[BattleMap, dict[str, bm.Field]]:
    """A map from ASCII, one cell a character, cells apart by spaces: '#' wall, 'o' obstacle,
    '~' difficult, '1'-'3' darkness, '.' ground, a letter: ground with that name (returned).
    Hex maps draw odd rows indented half a cell (one character), as they lie."""
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    width = max(map(len, rows))
    layers: dict[str, list[bm.Field]] = {name: [] for name in MARKS.values()}
    names: dict[str, bm.Field] = {}
    for r, cells in enumerate(rows):
        for c, mark in enumerate(cells):
            if mark in MARKS:
                layers[MARKS[mark]].append((c, r))
            elif mark.isalpha() and mark != "o":
                names[mark] = (c, r)
            else:
                assert mark == ".", mark
    m = BattleMap(
        geometry=geometry,
        width=width,
        height=len(rows),
        **{name: tuple(sorted(fields)) for name, fields in layers.items()},  # type: ignore[arg-type]
    )
    return m, names


def refused(code: str, fn: object, *args: object, **kwargs: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        fn(*args, **kwargs)  # type: ignore[operator]
    assert caught.value.code == code
    return caught.value


fields_ = st.tuples(st.integers(-8, 12), st.integers(-8, 12))
geometries = st.sampled_from(["square", "hex"])


def graph_distance(geometry: bm.Geometry, a: bm.Field, b: bm.Field) -> int:
    """Steps between fields walking `neighbours` (breadth first): what `distance` must equal."""
    seen, frontier, d = {a}, [a], 0
    while b not in seen:
        d += 1
        frontier = list({n for f in frontier for n in neighbours(geometry, f)} - seen)
        seen.update(frontier)
    return d


# --- the ASCII helper ----------------------------------------------------------------------------


def test_the_drawing_helper_reads_every_mark_and_names() -> None:
    m, at = drawn(
        """
        . # o
        ~ 1 2
        3 A .
        """
    )
    assert (m.width, m.height) == (3, 3)
    assert m.walls == ((1, 0),) and m.obstacles == ((2, 0),) and m.difficult == ((0, 1),)
    assert [m.darkness(f) for f in ((1, 1), (2, 1), (0, 2), (2, 2))] == [1, 2, 3, 0]
    assert at == {"A": (1, 2)}


# --- distance, neighbours, opposite, label -------------------------------------------------------


def test_square_distance_is_chebyshev() -> None:
    assert distance("square", (0, 0), (3, 1)) == 3
    assert distance("square", (2, 5), (0, 0)) == 5
    assert distance("square", (4, 4), (4, 4)) == 0


def test_square_fields_have_eight_neighbours_in_a_fixed_order() -> None:
    around = neighbours("square", (5, 5))
    assert len(set(around)) == 8 and (5, 5) not in around
    assert around[:4] == ((6, 5), (5, 6), (4, 5), (5, 4))  # orthogonal first
    assert all(distance("square", (5, 5), n) == 1 for n in around)


def test_hex_neighbours_on_even_and_odd_rows_follow_odd_r() -> None:
    # . . . .
    #  . . . .      row 1 sits half a hex right: (1,1) touches (1,0),(2,0) above
    # . . . .
    assert set(neighbours("hex", (1, 1))) == {(0, 1), (2, 1), (1, 0), (2, 0), (1, 2), (2, 2)}
    assert set(neighbours("hex", (1, 2))) == {(0, 2), (2, 2), (0, 1), (1, 1), (0, 3), (1, 3)}
    assert distance("hex", (1, 1), (0, 0)) == 2
    assert distance("hex", (1, 2), (2, 1)) == 2


def test_the_map_keeps_only_neighbours_on_it() -> None:
    m, _ = drawn(". .\n. .")
    assert set(m.neighbours((0, 0))) == {(1, 0), (0, 1), (1, 1)}
    h, _ = drawn(". .\n . .", "hex")
    assert set(h.neighbours((0, 0))) == {(1, 0), (0, 1)}


@given(geometries, fields_)
def test_every_neighbour_is_at_distance_one_and_adjacent(
    geometry: bm.Geometry, f: bm.Field
) -> None:
    around = neighbours(geometry, f)
    assert len(set(around)) == (8 if geometry == "square" else 6)
    for n in around:
        assert distance(geometry, f, n) == 1
        assert bm.adjacent(geometry, f, n) and bm.adjacent(geometry, n, f)
        assert f in neighbours(geometry, n)


@given(geometries, fields_, fields_, fields_)
def test_distance_is_a_metric(geometry: bm.Geometry, a: bm.Field, b: bm.Field, c: bm.Field) -> None:
    assert distance(geometry, a, b) == distance(geometry, b, a) >= 0
    assert (distance(geometry, a, b) == 0) == (a == b)
    assert distance(geometry, a, c) <= distance(geometry, a, b) + distance(geometry, b, c)


@settings(max_examples=60)
@given(geometries, st.tuples(st.integers(0, 6), st.integers(0, 6)), fields_)
def test_distance_is_the_steps_between_neighbours(
    geometry: bm.Geometry, a: bm.Field, b: bm.Field
) -> None:
    assert distance(geometry, a, b) == graph_distance(geometry, a, b)


@given(geometries, fields_)
def test_opposite_reflects_a_neighbour_through_the_centre(
    geometry: bm.Geometry, c: bm.Field
) -> None:
    for n in neighbours(geometry, c):
        far = opposite(geometry, c, n)
        assert bm.adjacent(geometry, c, far)
        assert distance(geometry, n, far) == 2
        assert opposite(geometry, c, far) == n
        assert straight(geometry, n, far) == (n, c, far)


def test_opposite_by_hand() -> None:
    assert opposite("square", (2, 2), (1, 1)) == (3, 3)
    assert opposite("square", (2, 2), (2, 1)) == (2, 3)
    # hex (1,1) is on an odd row: its upper left neighbour (1,0) faces its lower right (2,2)
    assert opposite("hex", (1, 1), (1, 0)) == (2, 2)
    assert opposite("hex", (1, 2), (0, 2)) == (2, 2)


def test_label_names_columns_by_letters_and_rows_from_one() -> None:
    assert label((0, 0)) == "A1"
    assert label((2, 6)) == "C7"
    assert label((25, 0)) == "Z1"
    assert label((26, 0)) == "AA1"
    assert label((27, 11)) == "AB12"
    assert label((51, 0)) == "AZ1"
    assert label((52, 0)) == "BA1"
    assert label((MAX_SIDE - 1, MAX_SIDE - 1)) == "BH60"
    assert label((-1, 0)) == "(-1, 0)"  # off the map (once an endless loop)
    assert label((3, -2)) == "(3, -2)"


# --- lines: between, straight, sight -------------------------------------------------------------


def test_between_leaves_out_both_ends_and_is_empty_for_neighbours() -> None:
    assert between("square", (0, 0), (3, 0)) == ((1, 0), (2, 0))
    assert between("square", (0, 0), (3, 3)) == ((1, 1), (2, 2))
    assert between("square", (0, 0), (1, 1)) == ()
    assert between("square", (2, 2), (2, 2)) == ()
    assert between("hex", (1, 1), (2, 2)) == ()
    assert between("hex", (0, 0), (3, 0)) == ((1, 0), (2, 0))


def test_between_takes_both_fields_where_the_line_runs_between_them() -> None:
    # A . .      the line from A's centre to B's passes the edge between (1,0) and (1,1)
    # . . B
    assert set(between("square", (0, 0), (2, 1))) == {(1, 0), (1, 1)}
    # hex: from A (0,0) to B (1,1) the line runs along the edge between (1,0) and (0,1)
    #  A . .
    #   . B .
    assert set(between("hex", (0, 0), (1, 1))) == {(1, 0), (0, 1)}
    assert set(between("hex", (1, 1), (0, 0))) == {(1, 0), (0, 1)}
    # and twice on a longer line: (0,0) to (3,2) is that diagonal twice over
    assert set(between("hex", (0, 0), (3, 2))) == {(1, 0), (0, 1), (1, 1), (2, 1), (2, 2)}


def test_between_follows_a_long_slanted_line() -> None:
    # half way between rows at the first and third step: both rows there
    assert set(between("square", (0, 0), (4, 2))) == {(1, 0), (1, 1), (2, 1), (3, 1), (3, 2)}
    # one field a step where the line is inside one (it only grazes a corner at x = 1.5)
    assert set(between("square", (0, 0), (3, 1))) == {(1, 0), (2, 1)}
    assert set(between("square", (0, 0), (3, 2))) == {(1, 1), (2, 1)}


@given(geometries, fields_, fields_)
def test_between_is_symmetric_and_lies_on_shortest_paths(
    geometry: bm.Geometry, a: bm.Field, b: bm.Field
) -> None:
    line = between(geometry, a, b)
    assert set(line) == set(between(geometry, b, a))
    assert len(set(line)) == len(line)
    assert a not in line and b not in line
    n = distance(geometry, a, b)
    assert n - 1 <= len(line) <= 2 * max(n - 1, 0)
    for f in line:
        assert distance(geometry, a, f) + distance(geometry, f, b) == n
    if (path := straight(geometry, a, b)) is not None:
        assert line == path[1:-1]


@given(geometries, fields_, fields_)
def test_between_fields_touch_the_centre_line(
    geometry: bm.Geometry, a: bm.Field, b: bm.Field
) -> None:
    """Each field's centre lies within a field's reach of the drawn line from a to b."""
    (ax, ay), (bx, by) = bm.centre(geometry, a, 1.0), bm.centre(geometry, b, 1.0)
    reach = math.sqrt(0.5) if geometry == "square" else 0.5  # circumradius of a field
    for f in between(geometry, a, b):
        fx, fy = bm.centre(geometry, f, 1.0)
        dx, dy = bx - ax, by - ay
        t = ((fx - ax) * dx + (fy - ay) * dy) / (dx * dx + dy * dy)
        px, py = ax + t * dx, ay + t * dy
        assert 0 < t < 1
        assert math.hypot(fx - px, fy - py) <= reach + 1e-9


def test_straight_rows_columns_and_diagonals_of_squares() -> None:
    assert straight("square", (1, 1), (4, 1)) == ((1, 1), (2, 1), (3, 1), (4, 1))
    assert straight("square", (2, 3), (2, 0)) == ((2, 3), (2, 2), (2, 1), (2, 0))
    assert straight("square", (0, 0), (2, 2)) == ((0, 0), (1, 1), (2, 2))
    assert straight("square", (3, 0), (1, 2)) == ((3, 0), (2, 1), (1, 2))
    assert straight("square", (5, 5), (5, 5)) == ((5, 5),)
    assert straight("square", (0, 0), (2, 1)) is None
    assert straight("square", (0, 0), (3, 1)) is None


def test_straight_follows_the_three_hex_axes() -> None:
    # a row
    assert straight("hex", (0, 2), (3, 2)) == ((0, 2), (1, 2), (2, 2), (3, 2))
    # down-right from an even row: (1,0) (1,1) (2,2) (2,3)
    assert straight("hex", (1, 0), (2, 3)) == ((1, 0), (1, 1), (2, 2), (2, 3))
    # down-left from an even row: (2,0) (1,1) (1,2) (0,3)
    assert straight("hex", (2, 0), (0, 3)) == ((2, 0), (1, 1), (1, 2), (0, 3))
    assert straight("hex", (0, 3), (2, 0)) == ((0, 3), (1, 2), (1, 1), (2, 0))
    # not on an axis
    assert straight("hex", (0, 0), (1, 2)) == ((0, 0), (0, 1), (1, 2))  # down-right
    assert straight("hex", (0, 0), (1, 1)) is None
    assert straight("hex", (0, 0), (2, 1)) is None


@given(geometries, fields_, fields_)
def test_straight_is_a_chain_of_neighbours_as_long_as_the_distance(
    geometry: bm.Geometry, a: bm.Field, b: bm.Field
) -> None:
    path = straight(geometry, a, b)
    if path is None:
        return
    assert path[0] == a and path[-1] == b
    assert len(path) == distance(geometry, a, b) + 1
    assert all(bm.adjacent(geometry, x, y) for x, y in zip(path, path[1:], strict=False))
    assert straight(geometry, b, a) == tuple(reversed(path))


@pytest.mark.parametrize("geometry", ["square", "hex"])
def test_every_neighbour_line_is_straight(geometry: bm.Geometry) -> None:
    for n in neighbours(geometry, (4, 4)):
        far = (4 + 3 * (n[0] - 4), 4 + 3 * (n[1] - 4)) if geometry == "square" else None
        if far is not None:
            assert straight(geometry, (4, 4), far) is not None
    # hexes: walking one direction three times stays on one axis
    if geometry == "hex":
        for i in range(6):
            f = (4, 4)
            for _ in range(3):
                step = bm._HEX_STEPS_ODD if f[1] & 1 else bm._HEX_STEPS_EVEN
                f = (f[0] + step[i][0], f[1] + step[i][1])
            assert straight("hex", (4, 4), f) is not None


def test_a_wall_blocks_sight() -> None:
    m, at = drawn("A . # . B")
    seen = sight(m, at["A"], at["B"])
    assert seen.blocked and not seen.screened


def test_bodies_and_obstacles_screen_and_are_named() -> None:
    m, at = drawn("A . o . . B")
    seen = sight(m, at["A"], at["B"], {(1, 0): "wilk", (4, 0): "ala", at["B"]: "cel"})
    assert not seen.blocked
    assert seen.bodies == ("wilk", "ala")  # the target itself does not screen
    assert seen.obstacles == ((2, 0),)
    assert seen.screened


def test_a_clear_line_and_neighbours_see_each_other() -> None:
    m, at = drawn(
        """
        A . .
        . # .
        . . B
        """
    )
    assert sight(m, at["A"], (2, 0)) == bm.Sight(blocked=False)
    assert sight(m, at["A"], at["B"]).blocked  # the diagonal runs through the wall
    assert not sight(m, at["A"], (1, 1)).blocked  # neighbours: nothing between


@pytest.mark.parametrize(
    "text",
    [
        """
        A # .
         . B .
        """,
        """
        A . .
         # B .
        """,
    ],
)
def test_hex_sight_along_an_edge_is_blocked_by_a_wall_on_either_side(text: str) -> None:
    # the line from A (0,0) to B (1,1) runs along the edge between (1,0) and (0,1)
    m, at = drawn(text, "hex")
    assert sight(m, at["A"], at["B"]).blocked
    assert sight(m, at["B"], at["A"]).blocked


# --- routes --------------------------------------------------------------------------------------


def test_route_goes_around_a_wall_at_the_cheapest_cost() -> None:
    m, at = drawn(
        """
        . . . . .
        A . # . B
        . . # . .
        """
    )
    found = route(m, at["A"], at["B"])
    assert found is not None
    assert found.cost == 4 and len(found.path) == 5
    assert found.path[0] == at["A"] and found.path[-1] == at["B"]
    assert (2, 0) in found.path  # over the top: the only gap
    assert path_cost(m, found.path) == found.cost


def test_difficult_terrain_costs_two_and_the_route_avoids_it_when_cheaper() -> None:
    m, at = drawn(
        """
        . . . . .
        A ~ ~ ~ B
        . . . . .
        """
    )
    found = route(m, at["A"], at["B"])
    assert found is not None
    assert found.cost == 4
    assert not any(m.is_difficult(f) for f in found.path)
    corridor, at = drawn("A ~ ~ B")
    through = route(corridor, at["A"], at["B"])
    assert (
        through is not None
        and through.cost == 5
        and through.path == ((0, 0), (1, 0), (2, 0), (3, 0))
    )


def test_the_route_takes_fewest_steps_among_equal_costs() -> None:
    # straight through the difficult fields (3 steps, cost 5) or around (5 steps, cost 5)
    m, at = drawn(
        """
        A ~ ~ B
        . # # .
        . . . .
        """
    )
    found = route(m, at["A"], at["B"])
    assert found is not None and found.cost == 5
    assert found.path == (at["A"], (1, 0), (2, 0), at["B"])
    # where going around is cheaper, the route goes around
    cheaper, at = drawn(
        """
        A ~ B
        . . .
        """
    )
    assert route(cheaper, at["A"], at["B"]) == bm.Route((at["A"], (1, 1), at["B"]), 2)


def test_closed_fields_are_never_entered() -> None:
    m, at = drawn(
        """
        . . .
        A . B
        . . .
        """
    )
    found = route(m, at["A"], at["B"], closed=[(1, 0), (1, 1)])
    assert found is not None and found.path == (at["A"], (1, 2), at["B"])
    assert route(m, at["A"], at["B"], closed=[(1, 0), (1, 1), (1, 2)]) is None
    assert route(m, at["A"], at["B"], closed=[at["B"]]) is None


def test_no_stop_fields_are_crossed_but_never_the_goal() -> None:
    m, at = drawn(
        """
        # # # #
        A . . B
        # # # #
        """
    )
    found = route(m, at["A"], at["B"], no_stop=[(1, 1), (2, 1)])
    assert found is not None and found.path == (at["A"], (1, 1), (2, 1), at["B"])
    assert route(m, at["A"], (2, 1), no_stop=[(2, 1)]) is None


def test_route_refuses_what_cannot_be_reached() -> None:
    m, at = drawn(
        """
        A . # . .
        . . # B .
        . . # . o
        """
    )
    assert route(m, at["A"], at["B"]) is None  # the wall runs the whole height
    assert route(m, at["A"], (2, 0)) is None  # a wall
    assert route(m, (3, 0), (4, 2)) is None  # an obstacle
    assert route(m, at["A"], (9, 9)) is None  # off the map
    assert route(m, (-1, 0), at["A"]) is None
    assert route(m, at["A"], at["A"]) == bm.Route((at["A"],), 0)


def test_a_goal_walled_into_a_room_on_a_big_map_is_refused() -> None:
    room = {(20 + dx, 20 + dy) for dx in range(-2, 3) for dy in range(-2, 3)} - {(20, 20)}
    for geometry in ("square", "hex"):
        m = BattleMap(geometry=geometry, width=MAX_SIDE, height=MAX_SIDE, walls=tuple(sorted(room)))
        assert route(m, (0, 0), (20, 20)) is None
        assert route(m, (20, 20), (0, 0)) is None
        assert route(m, (0, 0), (59, 59)) is not None


def test_the_same_map_always_gives_the_same_route() -> None:
    text = """
    . . . . . .
    . # . ~ . .
    A . . # . B
    . ~ . . . .
    """
    for geometry in ("square", "hex"):
        m, at = drawn(text, geometry)
        again, _ = drawn(text, geometry)
        first = route(m, at["A"], at["B"])
        assert first is not None
        assert route(m, at["A"], at["B"]) == first == route(again, at["A"], at["B"])


def test_hex_route_walks_neighbours() -> None:
    m, at = drawn(
        """
        A . . .
         # # . .
        . . . B
        """,
        "hex",
    )
    found = route(m, at["A"], at["B"])
    assert found is not None
    assert found.cost == distance("hex", at["A"], at["B"]) == 4
    assert path_cost(m, found.path) == 4
    assert not {(0, 1), (1, 1)} & set(found.path)


def reference_costs(m: BattleMap, start: bm.Field, closed: set[bm.Field]) -> dict[bm.Field, int]:
    """A plain Dijkstra over `BattleMap.neighbours`: the cheapest cost of every field."""
    best, heap = {start: 0}, [(0, start)]
    while heap:
        cost, f = heapq.heappop(heap)
        if cost > best[f]:
            continue
        for n in m.neighbours(f):
            if m.passable(n) and n not in closed and cost + m.entry_cost(n) < best.get(n, 1 << 30):
                best[n] = cost + m.entry_cost(n)
                heapq.heappush(heap, (best[n], n))
    return best


@st.composite
def small_maps(draw: st.DrawFn) -> tuple[BattleMap, bm.Field, set[bm.Field], set[bm.Field]]:
    geometry = draw(geometries)
    width, height = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    every = [(c, r) for c in range(width) for r in range(height)]
    marks = draw(st.lists(st.sampled_from(".....#o~"), min_size=len(every), max_size=len(every)))
    layer = {"#": "walls", "o": "obstacles", "~": "difficult"}
    layers: dict[str, list[bm.Field]] = {"walls": [], "obstacles": [], "difficult": []}
    for f, mark in zip(every, marks, strict=True):
        if mark in layer:
            layers[layer[mark]].append(f)
    m = BattleMap(geometry=geometry, width=width, height=height, **layers)  # type: ignore[arg-type]
    start = draw(st.sampled_from(every))
    closed = set(draw(st.lists(st.sampled_from(every), max_size=3)))
    no_stop = set(draw(st.lists(st.sampled_from(every), max_size=3)))
    return m, start, closed - {start}, no_stop


@settings(max_examples=150, deadline=None)
@given(small_maps())
def test_route_is_a_cheapest_legal_path(case: tuple) -> None:
    m, start, closed, no_stop = case
    costs = reference_costs(m, start, closed)
    for goal in [(c, r) for c in range(m.width) for r in range(m.height)]:
        found = route(m, start, goal, closed=closed, no_stop=no_stop)
        ok = goal in costs and goal not in no_stop and m.passable(goal) and goal not in closed
        if goal == start and goal not in no_stop and m.passable(goal):
            ok = True
        assert (found is not None) == ok, goal
        if found is None:
            continue
        assert found.path[0] == start and found.path[-1] == goal
        assert found.cost == costs.get(goal, 0) == path_cost(m, found.path)
        assert not set(found.path[1:]) & closed


@settings(max_examples=150, deadline=None)
@given(small_maps(), st.integers(0, 6))
def test_reachable_is_every_field_within_the_budget(case: tuple, budget: int) -> None:
    m, start, closed, no_stop = case
    costs = reference_costs(m, start, closed)
    expected = {f: c for f, c in costs.items() if c <= budget and f not in no_stop}
    assert reachable(m, start, budget, closed=closed, no_stop=no_stop) == expected


def test_reachable_honours_the_budget_and_difficult_terrain() -> None:
    m, at = drawn("A . ~ . .")
    assert reachable(m, at["A"], 3) == {(0, 0): 0, (1, 0): 1, (2, 0): 3}
    assert reachable(m, at["A"], 4) == {(0, 0): 0, (1, 0): 1, (2, 0): 3, (3, 0): 4}
    assert reachable(m, at["A"], 0) == {(0, 0): 0}
    assert reachable(m, at["A"], 9, closed=[(1, 0)]) == {(0, 0): 0}
    assert reachable(m, at["A"], 4, no_stop=[(1, 0)]) == {(0, 0): 0, (2, 0): 3, (3, 0): 4}
    assert reachable(m, (9, 9), 4) == {}


def test_reachable_on_hexes() -> None:
    m, at = drawn(
        """
        . . .
         . A .
        . . .
        """,
        "hex",
    )
    one = reachable(m, at["A"], 1)
    assert set(one) == {at["A"], *neighbours("hex", at["A"])}
    assert all(c == 1 for f, c in one.items() if f != at["A"])


def test_path_cost_refuses_off_map_jumps_and_blocked_fields() -> None:
    m, _ = drawn(
        """
        . . # .
        . ~ o .
        """
    )
    assert path_cost(m, ((0, 0), (1, 1), (0, 1))) == 3
    assert path_cost(m, ((0, 0),)) == 0
    off = refused("poza_mapa", path_cost, m, ((0, 0), (-1, 0)))
    assert off.params == {"field": "(-1, 0)"}
    assert refused("poza_mapa", path_cost, m, ((3, 1), (4, 1))).params == {"field": "E2"}
    jump = refused("skok", path_cost, m, ((0, 0), (0, 1), (3, 1)))
    assert jump.params == {"a": "A2", "b": "D2"}
    assert refused("sciana", path_cost, m, ((1, 0), (2, 0))).params == {"field": "C1"}
    assert refused("sciana", path_cost, m, ((1, 0), (2, 1))).params == {"field": "C2"}


# --- the GM's edits ------------------------------------------------------------------------------


def test_resize_lays_a_new_map_when_there_is_none() -> None:
    check_edit(None, Resize(12, 8))
    m = apply_edit(None, Resize(12, 8), "hex", 2)
    assert m == BattleMap(geometry="hex", metres=2, width=12, height=8)
    assert m.version == 0


@pytest.mark.parametrize("size", [(0, 5), (5, 0), (61, 5), (5, 61), (-1, -1), (True, 5), (2.5, 3)])
def test_the_size_is_one_to_sixty_whole_fields(size: tuple[int, int]) -> None:
    m, _ = drawn(". .")
    refused("rozmiar_mapy", check_edit, None, Resize(*size))
    refused("rozmiar_mapy", check_edit, m, Resize(*size))


def test_the_largest_and_smallest_maps_are_allowed() -> None:
    check_edit(None, Resize(1, 1))
    check_edit(None, Resize(MAX_SIDE, MAX_SIDE))


def test_shrinking_drops_the_painted_fields_outside() -> None:
    m, _ = drawn(
        """
        . # . ~
        o . 3 #
        """
    )
    smaller = apply_edit(m, Resize(2, 2), "square", 1)
    assert smaller is not None
    assert (smaller.width, smaller.height) == (2, 2)
    assert smaller.walls == ((1, 0),) and smaller.obstacles == ((0, 1),)
    assert smaller.difficult == () and smaller.dark3 == ()
    assert smaller.version == m.version + 1
    bigger = apply_edit(smaller, Resize(5, 5), "square", 1)
    assert bigger is not None and bigger.walls == ((1, 0),) and bigger.width == 5


def test_shrinking_is_refused_when_a_token_would_fall_off() -> None:
    m, _ = drawn(". . . .\n. . . .")
    refusal = refused("zmniejszenie", check_edit, m, Resize(2, 2), occupied=[(0, 0), (3, 1)])
    assert refusal.params == {"field": "D2"}
    check_edit(m, Resize(4, 1), occupied=[(0, 0), (3, 0)])


def test_edits_other_than_resize_need_a_map() -> None:
    for edit in (Remove(True), Paint("wall", ((0, 0),)), Look("#000000", "")):
        refused("brak_mapy", check_edit, None, edit)


def test_remove_needs_the_confirmation_and_takes_the_map_away() -> None:
    m, _ = drawn(". #")
    refused("potwierdzenie", check_edit, m, Remove(False))
    check_edit(m, Remove(True))
    assert apply_edit(m, Remove(True), "square", 1) is None


@pytest.mark.parametrize(
    ("tool", "layer"),
    [("wall", "walls"), ("obstacle", "obstacles"), ("difficult", "difficult"), ("dark1", "dark1"),
     ("dark2", "dark2"), ("dark3", "dark3")],
)  # fmt: skip
def test_each_tool_paints_its_layer(tool: bm.Tool, layer: str) -> None:
    m, _ = drawn(". . .\n. . .")
    edit = Paint(tool, ((2, 1), (0, 0), (2, 1)))
    check_edit(m, edit)
    painted = apply_edit(m, edit, "square", 1)
    assert painted is not None
    assert getattr(painted, layer) == ((0, 0), (2, 1))  # sorted, each once
    assert painted.version == 1
    assert all(getattr(painted, other) == () for other in bm._LAYERS if other != layer)


def test_walls_and_obstacles_exclude_each_other_and_difficult_terrain() -> None:
    m, _ = drawn("# o ~ .")
    walled = apply_edit(m, Paint("wall", ((1, 0), (2, 0))), "square", 1)
    assert walled is not None
    assert (
        walled.walls == ((0, 0), (1, 0), (2, 0))
        and walled.obstacles == ()
        and walled.difficult == ()
    )
    blocked = apply_edit(walled, Paint("obstacle", ((0, 0),)), "square", 1)
    assert blocked is not None and blocked.obstacles == ((0, 0),) and (0, 0) not in blocked.walls
    rough = apply_edit(blocked, Paint("difficult", ((0, 0), (1, 0))), "square", 1)
    assert rough is not None and rough.difficult == ((0, 0), (1, 0))
    assert rough.walls == ((2, 0),) and rough.obstacles == ()


def test_darkness_levels_exclude_each_other_and_light_clears_them() -> None:
    m, _ = drawn("1 2 3 ~")
    darker = apply_edit(m, Paint("dark3", ((0, 0), (1, 0))), "square", 1)
    assert darker is not None
    assert darker.dark1 == () and darker.dark2 == () and darker.dark3 == ((0, 0), (1, 0), (2, 0))
    assert [darker.darkness((c, 0)) for c in range(4)] == [3, 3, 3, 0]
    lit = apply_edit(darker, Paint("light", ((1, 0), (3, 0))), "square", 1)
    assert lit is not None and lit.dark3 == ((0, 0), (2, 0))
    assert lit.difficult == ((3, 0),)  # light leaves the terrain be
    dark_walls = apply_edit(lit, Paint("wall", ((0, 0),)), "square", 1)
    assert dark_walls is not None and dark_walls.darkness((0, 0)) == 3  # terrain leaves darkness be


def test_erase_clears_everything_to_bare_ground() -> None:
    m, _ = drawn("# o ~ 1 2 3")
    every = tuple((c, 0) for c in range(6))
    bare = apply_edit(m, Paint("erase", every), "square", 1)
    assert bare is not None
    assert all(getattr(bare, layer) == () for layer in bm._LAYERS)
    assert replace(bare, version=0) == BattleMap(width=6, height=1)


def test_paint_refuses_off_map_fields_and_empty_or_huge_edits() -> None:
    m, _ = drawn(". .\n. .")
    assert refused("poza_mapa", check_edit, m, Paint("wall", ((0, 0), (2, 0)))).params == {
        "field": "C1"
    }
    refused("poza_mapa", check_edit, m, Paint("difficult", ((0, -1),)))
    refused("malowanie", check_edit, m, Paint("wall", ()))
    big = BattleMap(width=MAX_SIDE, height=MAX_SIDE)
    every = tuple((c, r) for c in range(MAX_SIDE) for r in range(MAX_SIDE))
    check_edit(big, Paint("dark1", every[:MAX_PAINT]))
    assert refused("malowanie", check_edit, big, Paint("dark1", every[: MAX_PAINT + 1])).params == {
        "n": MAX_PAINT
    }


def test_paint_refuses_unknown_tools_and_malformed_fields() -> None:
    m, _ = drawn(". .")
    refused("narzedzie", check_edit, m, Paint("lava", ((0, 0),)))  # type: ignore[arg-type]
    refused("pole", check_edit, m, Paint("wall", ((0,),)))  # type: ignore[arg-type]
    refused("pole", check_edit, m, Paint("wall", (("0", 0),)))  # type: ignore[arg-type]


def test_walls_and_obstacles_are_refused_on_an_occupied_field() -> None:
    m, _ = drawn(". .")
    for tool in ("wall", "obstacle"):
        refusal = refused("zajete_pole", check_edit, m, Paint(tool, ((1, 0),)), occupied=[(1, 0)])
        assert refusal.params == {"field": "B1"}
    for tool in ("difficult", "dark2", "light", "erase"):
        check_edit(m, Paint(tool, ((1, 0),)), occupied=[(1, 0)])  # type: ignore[arg-type]


def test_look_sets_the_colour_and_picture() -> None:
    m, _ = drawn(". .")
    look = Look("#1A2b3c", "maps/7/0d6f.png")
    check_edit(m, look)
    looked = apply_edit(m, look, "square", 1)
    assert looked is not None
    assert (looked.background, looked.image, looked.version) == ("#1A2b3c", "maps/7/0d6f.png", 1)
    check_edit(m, Look("#000000", ""))


@pytest.mark.parametrize(
    "colour", ["", "#12345", "#1234567", "123456", "#12345g", "#123456\n", "red"]
)
def test_look_refuses_a_colour_not_rrggbb(colour: str) -> None:
    m, _ = drawn(".")
    refused("kolor", check_edit, m, Look(colour, ""))


@pytest.mark.parametrize(
    "image",
    ["../secret.png", "maps/../../etc/passwd", "/etc/passwd", "maps\\..\\x.png",
     "http://evil/x.png", "maps/a b.png", "maps/x.png\n", "x" * 201, '"><script>'],
)  # fmt: skip
def test_look_refuses_image_paths_leaving_the_storage(image: str) -> None:
    m, _ = drawn(".")
    refused("obraz", check_edit, m, Look("#000000", image))


def test_versions_count_the_edits_and_equal_edits_give_equal_maps() -> None:
    edits: list[bm.Edit] = [
        Paint("wall", ((1, 1), (2, 1))),
        Paint("dark2", ((0, 0),)),
        Look("#101010", ""),
        Resize(4, 3),
    ]

    def laid() -> BattleMap:
        m = apply_edit(None, Resize(5, 5), "square", 1)
        for edit in edits:
            check_edit(m, edit)
            m = apply_edit(m, edit, "square", 1)
        assert m is not None
        return m

    first, second = laid(), laid()
    assert first.version == len(edits)
    assert first == second and hash(first) == hash(second)
    assert first.fingerprint == second.fingerprint
    assert route(first, (0, 0), (3, 2)) == route(second, (0, 0), (3, 2))


def test_the_map_is_frozen_and_its_lookups_follow_edits() -> None:
    m, _ = drawn(". . .")
    with pytest.raises(AttributeError):
        m.width = 5  # type: ignore[misc]
    assert m.passable((1, 0))
    assert route(m, (0, 0), (2, 0)) is not None  # fills the instance's caches
    walled = apply_edit(m, Paint("wall", ((1, 0),)), "square", 1)
    assert walled is not None and not walled.passable((1, 0))
    assert route(walled, (0, 0), (2, 0)) is None
    assert m.passable((1, 0))  # the old map is untouched


def test_the_fingerprint_tells_maps_apart_that_share_a_version() -> None:
    m = apply_edit(None, Resize(5, 5), "square", 1)
    one = apply_edit(m, Paint("wall", ((1, 1),)), "square", 1)
    other = apply_edit(m, Paint("wall", ((2, 2),)), "square", 1)  # as after an undo
    assert one is not None and other is not None and one.version == other.version
    assert one.fingerprint != other.fingerprint
    assert len(one.fingerprint) == 16


def test_map_helpers_on_the_record() -> None:
    m = BattleMap(geometry="hex", metres=2, width=5, height=5)
    assert m.metres_between((0, 0), (3, 0)) == 6
    assert m.distance((0, 0), (3, 0)) == 3 and m.adjacent((1, 1), (2, 2))
    assert m.opposite((1, 1), (1, 0)) == (2, 2)
    assert m.between((0, 0), (3, 0)) == ((1, 0), (2, 0))
    assert m.straight((0, 0), (3, 0)) == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert m.entry_cost((0, 0)) == 1
    assert not m.inside((5, 0)) and not m.passable((0, -1))


# --- drawing -------------------------------------------------------------------------------------


@pytest.mark.parametrize("geometry", ["square", "hex"])
@pytest.mark.parametrize(("width", "height"), [(1, 1), (1, 2), (3, 1), (6, 5), (60, 60)])
def test_every_centre_lies_inside_the_extent(
    geometry: bm.Geometry, width: int, height: int
) -> None:
    m = BattleMap(geometry=geometry, width=width, height=height)
    size = 40.0
    w, h = bm.extent(m, size)
    half_w = size / 2 if geometry == "square" else math.sqrt(3) * size / 4
    for c in range(width):
        for r in range(height):
            x, y = bm.centre(geometry, (c, r), size)
            assert half_w - 1e-9 <= x <= w - half_w + 1e-9
            assert size / 2 - 1e-9 <= y <= h - size / 2 + 1e-9
    corners = [bm.centre(geometry, (c, r), size) for c in (0, width - 1) for r in (0, height - 1)]
    assert max(x for x, _ in corners) + half_w == pytest.approx(w) or geometry == "hex"
    assert max(y for _, y in corners) + size / 2 == pytest.approx(h)


def test_the_hex_extent_reaches_the_shifted_odd_row() -> None:
    m = BattleMap(geometry="hex", width=4, height=2)
    w, _ = bm.extent(m, 20.0)
    x, _ = bm.centre("hex", (3, 1), 20.0)
    assert x + math.sqrt(3) * 20.0 / 4 == pytest.approx(w)


@given(fields_)
def test_neighbouring_hex_centres_are_equally_far(f: bm.Field) -> None:
    size = 30.0
    cx, cy = bm.centre("hex", f, size)
    gaps = [math.dist((cx, cy), bm.centre("hex", n, size)) for n in neighbours("hex", f)]
    assert gaps == pytest.approx([math.sqrt(3) * size / 2] * 6)


def test_square_centres_sit_a_size_apart() -> None:
    assert bm.centre("square", (0, 0), 10.0) == (5.0, 5.0)
    assert bm.centre("square", (2, 1), 10.0) == (25.0, 15.0)
    assert bm.extent(BattleMap(width=3, height=2), 10.0) == (30.0, 20.0)


def test_hex_points_are_the_six_corners_around_the_centre() -> None:
    size = 40.0
    cx, cy = bm.centre("hex", (1, 1), size)
    points = [tuple(map(float, p.split(","))) for p in bm.hex_points(cx, cy, size).split()]
    assert len(points) == 6
    for x, y in points:
        assert math.dist((x, y), (cx, cy)) == pytest.approx(size / 2, abs=0.1)
    assert points[0] == pytest.approx((cx, cy - size / 2), abs=0.05)  # pointy top
    # a neighbour shares two corners: the hexes tile
    nx, ny = bm.centre("hex", (2, 1), size)
    shared = set(bm.hex_points(cx, cy, size).split()) & set(bm.hex_points(nx, ny, size).split())
    assert len(shared) == 2


# --- token labels -------------------------------------------------------------------------------


def test_it_labels_tokens_uniquely_with_the_creatures_numbers() -> None:
    """The d100 demo: Borys and both bandits were all "BZ"; a creature's number is its own."""
    names = ["Borys z Brodu", "Bandyta z traktu 1", "Bandyta z traktu 2", "Szary wilk 1"]
    labels = bm.token_labels(names)
    assert len(set(labels)) == len(labels), labels
    assert labels[1].endswith("1") and labels[2].endswith("2"), labels
    assert labels[0] == "BZ"


def test_it_keeps_a_lone_name_s_initials() -> None:
    assert bm.token_labels(["Radosław Szablista", "Wilk"]) == ("RS", "WI")


def test_it_numbers_names_whose_initials_clash_in_the_table_s_order() -> None:
    labels = bm.token_labels(["Borys z Brodu", "Bogna Zwinna", "Bartek Zły"])
    assert labels[0] == "BZ"
    assert len(set(labels)) == 3 and all(x.startswith("BZ") for x in labels), labels


def test_it_keeps_a_two_digit_number_short() -> None:
    labels = bm.token_labels([f"Wilk {n}" for n in range(1, 13)])
    assert len(set(labels)) == 12 and labels[11].endswith("12"), labels
    assert all(len(x) <= 3 for x in labels), labels


@given(st.lists(st.text(alphabet="ab 12", max_size=6), max_size=12))
def test_it_never_gives_two_tokens_one_label(names: list[str]) -> None:
    labels = bm.token_labels(names)
    assert len(labels) == len(names) and len(set(labels)) == len(labels)


def test_it_labels_a_one_word_creature_by_its_letter_and_number() -> None:
    assert bm.token_labels(["Wilk 1", "Wilk 2", "Ork"]) == ("W1", "W2", "OR")


# --- an ambush: a move that runs into a token its mover cannot see ------------------------------

WAY = ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0))


def test_walk_until_stops_on_the_field_before_the_first_hidden_one() -> None:
    assert bm.walk_until(WAY, {(3, 0), (2, 0)}) == (WAY[:2], (2, 0))
    assert bm.walk_until(WAY, {(9, 9)}) == (WAY, None)
    assert bm.walk_until(WAY, {(1, 0)}) == (WAY[:1], (1, 0))  # met on the first step
    assert bm.walk_until(WAY, {(0, 0)}) == (WAY, None)  # its own start is never met


def test_walk_until_steps_back_off_fields_it_may_cross_but_not_stand_on() -> None:
    assert bm.walk_until(WAY, {(3, 0)}, taken={(2, 0)}) == (WAY[:2], (3, 0))
    assert bm.walk_until(WAY, {(3, 0)}, taken={(1, 0), (2, 0)}) == (WAY[:1], (3, 0))
    assert bm.walk_until(WAY, {(3, 0)}, taken={(0, 0), (1, 0), (2, 0)}) == (WAY[:1], (3, 0))


def test_lifted_takes_only_the_unseen_tokens_off_the_map() -> None:
    from tests.combat.rules.d100.engine_kit import Table, fighter

    state = Table(fighter("a", "x"), fighter("b", "y", hidden=True)).state
    state = state.with_combatant(replace(state.get("a"), position=(0, 0)))
    state = state.with_combatant(replace(state.get("b"), position=(1, 0)))
    assert bm.lifted(state, ()) is state
    seen = bm.lifted(state, {"b", "nobody"})
    assert seen.get("b").position is None and seen.get("a").position == (0, 0)
    assert state.get("b").position == (1, 0)  # the whole state is untouched
