"""Movement on the hex map (2 m a hex): Ruch up to the Movement Rate, Bieg, once a round,
Ruch dzielony, difficult terrain, initiative-based movement, bad moves, and the route shown
before a move is confirmed."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.battlemap import Paint, Resize
from combat.rules.magus import RULESET, codec, engine, narrate
from combat.rules.magus.commands import (
    Attack,
    Declare,
    EditMap,
    EndTurn,
    Move,
    PlaceCombatant,
    StartCombat,
)
from combat.rules.magus.events import ConditionAdded, Moved
from tests.combat.rules.magus.engine_kit import Table, fighter, of, to_act
from tests.combat.rules.magus.mapkit import lay
from tests.combat.rules.magus.scripted import Script


def table_on(
    drawing: str, declarations: dict[str, Declare] | None = None, **settings: object
) -> Table:
    """a (side a, a player's) acts first, then b (side b), then c (side a)."""
    t = Table(fighter("a", "a", "u1"), fighter("b", "b"), fighter("c", "a"), **settings)
    lay(t, drawing)
    t.do(StartCombat())
    to_act(t, declarations)
    return t


def row(n: int, start: int = 1, y: int = 0) -> tuple[tuple[int, int], ...]:
    return tuple((x, y) for x in range(start, start + n))


def test_ruch_do_movement_rate_in_hexes() -> None:
    t = table_on("A . . . . . . . B C")
    events = t.do(Move(actor="a", path=row(6)))  # Movement Rate 12 m = 6 hexes
    moved = of(events, Moved)[0]
    assert moved.metres == 12 and moved.path == ((0, 0), *row(6))
    assert t.c["a"].position == (6, 0) and t.c["a"].moved == 12
    t2 = table_on("A . . . . . . . B C")
    with pytest.raises(RuleViolation) as refused:
        t2.do(Move(actor="a", path=row(7)))
    assert refused.value.code == "za_daleko" and refused.value.params["left"] == 12


def test_bieg_doubles() -> None:
    t = table_on("A . . . . . . . . . . . . . B C", {"a": Declare(actor="a", options=("bieg",))})
    events = t.do(Move(actor="a", path=row(12)))
    assert of(events, Moved)[0].metres == 24 and of(events, Moved)[0].running
    assert t.c["a"].position == (12, 0) and t.c["a"].has("otoczony")


def test_ruch_raz_na_runde() -> None:
    t = table_on("A . . . . . . . B C")
    t.do(Move(actor="a", path=row(2)))
    before = t.state
    with pytest.raises(RuleViolation) as refused:
        t.do(Move(actor="a", path=((3, 0),)))
    assert refused.value.code == "juz_ruch" and t.state is before


def test_ruch_dzielony_then_otoczony() -> None:
    declare = Declare(
        actor="a", action="attack", weapon="Miecz", target="b", options=("ruch_dzielony",)
    )
    t = table_on("A . . . B . . . . C", {"a": declare})
    t.do(Move(actor="a", path=row(3)))  # 6 m of 12: not yet Otoczony
    assert not t.c["a"].has("otoczony")
    route = RULESET.route(t.state, "a", (0, 0), "", 0.0)
    assert ("Ruch dzielony: szybkość ruchu wykorzystana — Otoczony do końca rundy.", {}) in (
        route.notes
    )
    t.do(Attack(actor="a", target="b", weapon="Miecz"), [1, 2])
    events = t.do(Move(actor="a", path=((2, 0), (1, 0), (0, 0))))
    assert of(events, ConditionAdded)[0].condition == "otoczony"
    assert t.c["a"].position == (0, 0) and t.c["a"].moved == 12


def test_trudny_teren_hex_costs_double() -> None:
    t = table_on("A ~ ~ . . . . . B C")
    events = t.do(Move(actor="a", path=row(4)))  # 2 difficult + 2 plain = 6 hexes of movement
    assert of(events, Moved)[0].metres == 12
    t2 = table_on("A ~ ~ . . . . . B C")
    with pytest.raises(RuleViolation) as refused:
        t2.do(Move(actor="a", path=row(5)))
    assert refused.value.code == "za_daleko"
    view = RULESET.route(t2.state, "a", (3, 0), "", 0.0)
    assert view.allowed and view.cost_params["used"] == 10
    assert ("Trudny teren: %(n)s heksów liczy się podwójnie.", {"n": 2}) in view.notes


def test_initiative_movement_costs_one_initiative_a_hex() -> None:
    t = table_on("A . . . . . . . B C", initiative_movement=True)
    before = t.c["a"].initiative
    assert before is not None
    view = RULESET.route(t.state, "a", (3, 0), "", 0.0)
    assert ("Inicjatywa −%(n)s.", {"n": 3}) in view.notes
    events = t.do(Move(actor="a", path=row(3)))
    assert of(events, Moved)[0].initiative_cost == 3 and t.c["a"].initiative == before - 3
    t.do(Move(actor="a", path=row(2, start=4)))  # moves again: the split is the rule
    assert t.c["a"].position == (5, 0)


BAD_MOVES = [
    ("A . . . . . . . . B C", row(7), "za_daleko"),
    ("A # . B C", row(2), "sciana"),
    ("A o . B C", row(2), "sciana"),
    ("A B . . C", row(2), "przez_wroga"),
    ("A C . . B", row(1), "zajete_koniec"),
    ("A . . B C", ((0, -1),), "poza_mapa"),
    ("A . . B C", ((2, 0),), "skok"),
    ("A . . B C", (), "trasa"),
]


@pytest.mark.parametrize(("drawing", "path", "code"), BAD_MOVES)
def test_bad_moves_are_refused_with_a_reason_and_no_events(
    drawing: str, path: tuple[tuple[int, int], ...], code: str
) -> None:
    t = table_on(drawing)
    before, log = t.state, list(t.log)
    with pytest.raises(RuleViolation) as refused:
        engine.decide(t.state, Move(actor="a", path=path, metres=2), Script([]))
    assert refused.value.code == code and refused.value.message
    assert t.state is before and t.log == log


def test_a_move_out_of_turn_is_refused() -> None:
    t = table_on("A . . B . C")
    with pytest.raises(RuleViolation) as refused:
        t.do(Move(actor="b", path=((4, 0),)))
    assert refused.value.code == "nie_twoja_tura"


def test_a_friend_may_be_crossed_but_not_ended_on() -> None:
    t = table_on("A C . . B")
    t.do(Move(actor="a", path=row(2)))
    assert t.c["a"].position == (2, 0)


def test_metres_alone_without_a_token_and_a_path_without_one() -> None:
    t = Table(fighter("a", "a", "u1"), fighter("b", "b"))
    t.do(EditMap(edit=Resize(5, 5)))
    t.do(StartCombat())
    to_act(t)
    with pytest.raises(RuleViolation) as refused:
        t.do(Move(actor="a", path=((1, 0),)))
    assert refused.value.code == "bez_mapy"
    with pytest.raises(RuleViolation) as refused:
        t.do(Move(actor="a"))  # neither a path nor metres
    assert refused.value.code == "metry"
    t.do(Move(actor="a", metres=4))
    assert t.c["a"].moved == 4 and t.c["a"].position is None


def test_route_shows_the_path_cost_and_the_command_it_sends() -> None:
    t = table_on(
        """
        A . . . . .
         . # # . B C
        """
    )
    view = RULESET.route(t.state, "a", (3, 1), "", 5.0)
    assert view.allowed and view.path[0] == (0, 0) and view.path[-1] == (3, 1)
    assert view.cost == "%(used)s m z %(left)s m"
    assert view.cost_params["used"] == 2 * (len(view.path) - 1)
    assert view.cost_params["left"] == 12
    assert view.modes == (("ruch", "Ruch"),) and view.mode == "ruch"
    command = codec.command_from_dict(view.command)
    events = t.do(command)
    assert of(events, Moved)[0].path == view.path
    assert t.c["a"].position == (3, 1)


def test_route_refusals_and_nothing_to_show() -> None:
    t = table_on("A . . . . . . . . B . C")
    far = RULESET.route(t.state, "a", (8, 0), "", 0.0)
    assert not far.allowed and far.reason == "Za daleko: zostało %(left)s m z %(rate)s m."
    walled = table_on("A # . B C")
    none = RULESET.route(walled.state, "a", (2, 0), "", 0.0)
    assert not none.allowed and none.path == ((0, 0),) and none.reason_params == {"field": "C1"}
    running = table_on("A . . B C", {"a": Declare(actor="a", options=("bieg",))})
    view = RULESET.route(running.state, "a", (1, 0), "", 0.0)
    assert view.mode == "bieg" and any(n[0].startswith("Bieg") for n in view.notes)
    with pytest.raises(RuleViolation):
        RULESET.route(Table(fighter("a", "a")).state, "a", (1, 0), "", 0.0)
    loose = Table(fighter("a", "a"))
    loose.do(EditMap(edit=Resize(3, 3)))
    with pytest.raises(RuleViolation) as refused:
        RULESET.route(loose.state, "a", (1, 0), "", 0.0)
    assert refused.value.code == "bez_pola"


def test_a_route_across_a_full_map_is_too_far_and_says_so() -> None:
    t = Table(fighter("a", "a", "u1"), fighter("b", "b"))
    t.do(EditMap(edit=Resize(60, 60)))
    t.do(EditMap(edit=Paint("wall", tuple((30, y) for y in range(0, 58)))))
    t.do(EditMap(edit=Paint("difficult", tuple((x, 40) for x in range(0, 29)))))
    t.do(PlaceCombatant(target="a", to=(0, 0)))
    t.do(PlaceCombatant(target="b", to=(59, 59)))
    t.do(StartCombat())
    to_act(t)
    view = RULESET.route(t.state, "a", (59, 0), "", 0.0)
    assert not view.allowed and view.path[-1] == (59, 0)


def test_end_turn_still_works_after_a_map_move() -> None:
    t = table_on("A . . B C")
    t.do(Move(actor="a", path=row(1)))
    t.do(EndTurn(actor="a"))
    assert t.state.current == "b"


def test_a_path_of_the_start_alone_and_the_log_line_of_a_map_move() -> None:
    t = table_on("A . . B C")
    with pytest.raises(RuleViolation) as refused:
        t.do(Move(actor="a", path=((0, 0),)))
    assert refused.value.code == "metry"
    before = t.state
    events = t.do(Move(actor="a", path=row(2)))
    line = narrate.describe(before, events[0])
    assert line is not None and line.params == {"name": "A", "metres": 4, "field": "C1"}
    runner = table_on("A . . B C", {"a": Declare(actor="a", options=("bieg",))})
    before = runner.state
    line = narrate.describe(before, runner.do(Move(actor="a", path=row(1)))[0])
    assert line is not None and line.text.startswith("%(name)s biegnie")


def test_ruch_dzielony_route_tells_what_is_left() -> None:
    t = table_on("A . . . B C", {"a": Declare(actor="a", options=("ruch_dzielony",))})
    view = RULESET.route(t.state, "a", (2, 0), "", 0.0)
    assert ("Ruch dzielony: zostanie %(left)s m na dalszy ruch.", {"left": 8}) in view.notes
