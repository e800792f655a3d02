"""The d100 battle map (#14): the GM lays, paints and removes it and places the tokens; Ruch on
it is a free action of `move_fields` fields of 1 m a turn (DEFAULT 6: the seed gives no
distance), one field a step anywhere (the seed has no difficult terrain), never through an
enemy; the seed has no reach, range or cover rule, so attacks read nothing from the map.
Small hand-drawn maps (tests/combat/rules/d100/mapkit.py)."""

from __future__ import annotations

import json
import random

import pytest

from combat.rules.base import RuleViolation, battle_maps_of, fill
from combat.rules.battlemap import BattleMap, Look, Paint, Remove, Resize
from combat.rules.d100 import RULESET, codec, engine, forms, maps, narrate
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Cast,
    Damage,
    EditMap,
    EndTurn,
    FreeAction,
    Move,
    PlaceCombatant,
    Post,
    SetHidden,
    StartCombat,
)
from combat.rules.d100.events import HiddenSet, MapEdited, Moved, Placed
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.state import Action
from combat.rules.registry import get_ruleset
from tests.combat.rules.d100.engine_kit import Table, fighter
from tests.combat.rules.d100.mapkit import lay, parse

FIELD = """
. . . . . .
. . # . . .
. . # . . .
. . . . . .
"""


def fight(*extra: dict, **settings: object) -> Table:
    """Ala (a, side x, acts first), Bob (b, her ally), Cyr (c, the enemy)."""
    return Table(
        fighter("a", "x", "u1", zwinnosc=70),
        fighter("b", "x", "u2", zwinnosc=60),
        fighter("c", "y", zwinnosc=50),
        *extra,
        **settings,
    )


def refused(table: Table, command: object, code: str) -> RuleViolation:
    before = table.state
    with pytest.raises(RuleViolation) as info:
        engine.decide(table.state, command, None)  # type: ignore[arg-type]
    assert info.value.code == code, info.value.message
    assert table.state is before
    return info.value


def positions(table: Table) -> dict[str, tuple[int, int] | None]:
    return {cid: c.position for cid, c in table.state.combatants.items()}


# --- the ruleset's capability -------------------------------------------------------------------


def test_d100_has_a_square_map_of_one_metre_fields_without_darkness() -> None:
    rules = get_ruleset("d100")
    assert battle_maps_of(rules) is not None
    spec = rules.map_spec()  # type: ignore[attr-defined]
    assert (spec.geometry, spec.metres, spec.darkness) == ("square", 1, ())
    edit = Resize(5, 4)
    assert RULESET.map_command(edit, 3.0) == EditMap(edit=edit, now=3.0)
    assert RULESET.place_command("a", (1, 2), 4.0) == PlaceCombatant(target="a", to=(1, 2), now=4.0)
    assert RULESET.place_command("a", None, 0.0).to is None  # type: ignore[attr-defined]


def test_the_move_setting_is_a_default_of_six_metres_in_the_table_form() -> None:
    assert D100Settings().move_fields == 6
    assert D100Settings.from_dict({"move_fields": 10}).move_fields == 10
    with pytest.raises(ValueError, match="move_fields"):
        D100Settings.from_dict({"move_fields": 500})
    keys = [s.key for group in forms.settings_groups() for s in group.settings]
    assert "move_fields" in keys


# --- laying and painting ----------------------------------------------------------------------


def test_laying_and_painting_the_map() -> None:
    table = fight()
    assert table.state.battlemap is None
    events = table.do(EditMap(edit=Resize(6, 4)))
    assert events == [MapEdited(Resize(6, 4))]
    m = table.state.battlemap
    assert m is not None and (m.geometry, m.metres, m.width, m.height) == ("square", 1, 6, 4)
    line = narrate.describe(fight().state, events[0])
    assert line is not None and not line.secret and line.params == {"width": 6, "height": 4}
    painted = table.do(EditMap(edit=Paint("wall", ((2, 1), (2, 2)))))
    assert table.state.battlemap.walls == ((2, 1), (2, 2))
    assert narrate.describe(table.state, painted[0]).secret
    look = table.do(EditMap(edit=Look("#112233", "")))
    assert narrate.describe(table.state, look[0]).secret
    grown = table.do(EditMap(edit=Resize(8, 5)))
    assert narrate.describe(table.state, grown[0]).params == {"width": 8, "height": 5}
    assert table.state.battlemap.version == 3
    assert table.state.battlemap.background == "#112233"


def test_map_edits_are_refused_as_the_map_rules_say() -> None:
    table = fight()
    refused(table, EditMap(edit=Paint("wall", ((0, 0),))), "brak_mapy")
    refused(table, EditMap(edit=Resize(0, 4)), "rozmiar_mapy")
    lay(table, "A . .\n. . .")
    refused(table, EditMap(edit=Paint("wall", ((0, 0),))), "zajete_pole")
    refused(table, EditMap(edit=Paint("obstacle", ((9, 0),))), "poza_mapa")
    table.do(PlaceCombatant(target="a", to=(2, 1)))
    refused(table, EditMap(edit=Resize(2, 2)), "zmniejszenie")
    refused(table, EditMap(edit=Remove(confirm=False)), "potwierdz")
    left = refused(table, EditMap(edit=Paint("wall", ((-1, 0),))), "poza_mapa")
    assert left.params == {"field": "(-1, 0)"}


def test_removing_the_map_makes_positions_narrative_again() -> None:
    table = fight()
    lay(table, "A B\n. C")
    events = table.do(EditMap(edit=Remove(confirm=True)))
    assert table.state.battlemap is None
    assert set(positions(table).values()) == {None}
    assert not narrate.describe(table.state, events[0]).secret  # type: ignore[union-attr]


# --- placing tokens ---------------------------------------------------------------------------


def test_the_gm_places_tokens_in_any_phase() -> None:
    table = fight()
    lay(table, FIELD)
    assert PlaceCombatant.gm_only
    assert table.do(PlaceCombatant(target="a", to=(0, 0))) == [Placed("a", (0, 0))]
    table.start()
    table.do(PlaceCombatant(target="c", to=(5, 3)))
    assert positions(table) == {"a": (0, 0), "b": None, "c": (5, 3)}
    assert table.state.stage == "running"
    line = narrate.describe(table.state, Placed("c", (5, 3)))
    assert line is not None and line.actors == ("c",) and line.params["field"] == "F4"
    table.do(PlaceCombatant(target="c", to=None))
    assert table.c["c"].position is None
    assert narrate.describe(table.state, Placed("c", None)).actors == ("c",)  # type: ignore[union-attr]
    assert RULESET.command_targets(PlaceCombatant(target="c", to=None)) == ("c",)


def test_placing_refuses_off_the_map_walls_obstacles_and_taken_fields() -> None:
    table = fight()
    refused(table, PlaceCombatant(target="a", to=(0, 0)), "brak_mapy")
    lay(table, "A # o\n. . .")
    refused(table, PlaceCombatant(target="b", to=(3, 0)), "poza_mapa")
    refused(table, PlaceCombatant(target="b", to=(-1, 0)), "poza_mapa")
    refused(table, PlaceCombatant(target="b", to=(1, 0)), "zablokowane")
    refused(table, PlaceCombatant(target="b", to=(2, 0)), "zablokowane")
    taken = refused(table, PlaceCombatant(target="b", to=(0, 0)), "zajete")
    assert taken.params == {"field": "A1", "name": "A"}
    refused(table, PlaceCombatant(target="zz", to=(0, 1)), "postac")
    table.do(PlaceCombatant(target="a", to=(0, 0)))  # where it stands already: no harm


def test_a_hidden_token_is_not_named_when_its_field_is_refused() -> None:
    table = fight()
    lay(table, "C . .")
    table.do(SetHidden(target="c", hidden=True))
    taken = refused(table, PlaceCombatant(target="a", to=(0, 0)), "zajete")
    assert taken.params == {"field": "A1"}


# --- Ruch -------------------------------------------------------------------------------------


def test_a_move_on_ones_own_turn_walks_the_path_within_the_budget() -> None:
    table = fight()
    lay(table, FIELD.replace(". . . . . .\n. . #", "A . . . . .\n. . #", 1))
    table.start()
    assert table.current == "a"
    events = table.do(Move(actor="a", path=((1, 0), (2, 0), (3, 0))))
    assert events == [Moved("a", ((0, 0), (1, 0), (2, 0), (3, 0)), 3)]
    assert table.c["a"].position == (3, 0) and table.c["a"].moved == 3
    assert table.c["a"].free_used == 1
    line = narrate.describe(table.state, events[0])
    assert line is not None and line.params == {
        "name": "A",
        "start": "A1",
        "field": "D1",
        "metres": 3,
    }
    # the start may be given first; the rest of the budget is one more move of 3
    table.do(Move(actor="a", path=((3, 0), (4, 1), (5, 2), (5, 3))))
    assert table.c["a"].moved == 6
    too_far = refused(table, Move(actor="a", path=((4, 3),)), "za_daleko")
    assert too_far.params == {"cost": 1, "left": 0, "name": "A"}
    # the full action is still there: moving is a free action
    assert not table.c["a"].full_used


def test_moving_too_far_is_refused_and_the_budget_comes_back_next_turn() -> None:
    table = fight(move_fields=2)
    lay(table, "A . . .\nB . . C")
    table.start()
    refused(table, Move(actor="a", path=((1, 0), (2, 0), (3, 0))), "za_daleko")
    table.do(Move(actor="a", path=((1, 0), (2, 0))))
    table.do(EndTurn(actor="a"))
    table.do(EndTurn(actor="b"))
    table.do(EndTurn(actor="c"))
    assert table.state.turn == 2 and table.current == "a"
    assert table.c["a"].moved == 0
    table.do(Move(actor="a", path=((3, 0),)))


def test_difficult_terrain_costs_one_field_like_any_other() -> None:
    table = fight(move_fields=2)
    lay(table, "A ~ ~ .")
    table.start()
    table.do(Move(actor="a", path=((1, 0), (2, 0))))
    assert table.c["a"].moved == 2


def test_walls_and_obstacles_block_the_path() -> None:
    table = fight()
    lay(table, "A # o .\n. . . .")
    table.start()
    wall = refused(table, Move(actor="a", path=((1, 0),)), "sciana")
    assert wall.params == {"field": "B1"}
    refused(table, Move(actor="a", path=((1, 1), (2, 0))), "sciana")


def test_a_path_may_not_leave_the_map_nor_jump() -> None:
    table = fight()
    lay(table, "A . .\n. . .")
    table.start()
    refused(table, Move(actor="a", path=((-1, 0),)), "poza_mapa")
    refused(table, Move(actor="a", path=((0, 1), (0, 2))), "poza_mapa")
    refused(table, Move(actor="a", path=((2, 0),)), "skok")
    refused(table, Move(actor="a", path=()), "trasa")
    refused(table, Move(actor="a", path=((0, 0),)), "trasa")
    refused(table, Move(actor="a", path=((1, 0),) * 4000), "trasa")


def test_no_path_through_an_enemy_nor_ending_on_anyone() -> None:
    table = fight()
    lay(table, "A C . .\n. B . .")
    table.start()
    through = refused(table, Move(actor="a", path=((1, 0), (2, 0))), "przez_wroga")
    assert through.params == {"name": "C"}
    refused(table, Move(actor="a", path=((1, 0),)), "zajete")
    ally = refused(table, Move(actor="a", path=((1, 1),)), "zajete")
    assert ally.params["name"] == "B"
    # through an ally is fine
    table.do(Move(actor="a", path=((1, 1), (2, 1))))
    assert table.c["a"].position == (2, 1)


def test_a_hidden_enemy_is_not_refused_on_a_players_path_but_stops_it() -> None:
    """It used to refuse the move with „Nie można przejść przez pole B1”: a player learnt
    where the hidden one stood. Now the move stops before it and reveals it (test_ambush)."""
    table = fight()
    lay(table, "A C .")
    table.do(SetHidden(target="c", hidden=True))
    table.start()
    events = table.do(Move(actor="a", path=((1, 0), (2, 0))))
    assert events == [HiddenSet("c", hidden=False, stopped="a")]
    assert table.c["a"].position == (0, 0) and not table.c["c"].hidden


def test_a_fallen_enemys_body_can_be_stepped_over() -> None:
    table = fight()
    lay(table, "A C .")
    table.do(Damage(target="c", amount=999))
    table.start()
    assert table.c["c"].out
    table.do(Move(actor="a", path=((1, 0), (2, 0))))
    refused(table, PlaceCombatant(target="b", to=(1, 0)), "zajete")


def test_not_your_turn_and_the_other_live_checks() -> None:
    table = fight()
    lay(table, "A B . C")
    refused(table, Move(actor="a", path=((0, 1),)), "przed_walka")
    table.start()
    wrong = refused(table, Move(actor="b", path=((1, 1),)), "nie_twoja_tura")
    assert wrong.params["name"] == "A"
    refused(table, Move(actor="zz", path=((1, 1),)), "postac")
    table.do(AddCondition(target="a", condition="powalenie"))
    refused(table, Move(actor="a", path=((0, 1),)), "powalony")


def test_a_token_and_a_map_are_needed() -> None:
    table = fight()
    table.start()
    refused(table, Move(actor="a", path=((0, 1),)), "brak_mapy")
    table.do(EditMap(edit=Resize(4, 4)))
    refused(table, Move(actor="a", path=((0, 1),)), "bez_pionka")


def test_by_post_a_seat_moves_while_posting_is_open() -> None:
    table = fight(pace="post")
    lay(table, "A . .\nC . B")
    table.start(now=0.0)
    assert table.state.pace == "post"
    table.do(Move(actor="b", path=((1, 1),), now=10.0))
    table.do(Move(actor="a", path=((1, 0),), now=10.0))
    assert positions(table) == {"a": (1, 0), "b": (1, 1), "c": (0, 1)}
    late = table.state.deadline + 1  # type: ignore[operator]
    refused(table, Move(actor="a", path=((2, 0),), now=late), "po_terminie")
    table.do(AddCondition(target="c", condition="ogluszenie"))
    refused(table, Move(actor="c", path=((0, 0),), now=10.0), "ogluszony")
    table.do(Post(actor="a", action=Action("rest"), now=20.0))
    table.do(Post(actor="b", action=Action("rest"), now=20.0))


def test_by_post_a_seat_done_or_a_closed_turn_may_not_move() -> None:
    table = fight(pace="post")
    lay(table, "A . .\nC . B")
    table.start(now=0.0)
    table.do(RULESET.expire_command(table.state.deadline + 1))  # type: ignore[operator]
    assert table.state.closed
    refused(table, Move(actor="a", path=((1, 0),), now=0.0), "po_terminie")
    table2 = fight(pace="post")
    lay(table2, "A . .\nC . B")
    table2.start(now=0.0)
    table2.state = table2.state.with_combatant(
        type(table2.c["a"])(**{**table2.c["a"].__dict__, "done": True})
    )
    refused(table2, Move(actor="a", path=((1, 0),), now=0.0), "juz_dzialal")


# --- the preview --------------------------------------------------------------------------------


def test_the_route_goes_around_a_wall_and_its_command_makes_that_move() -> None:
    table = fight()
    lay(table, "A # .\n. # .\n. . .")
    table.start()
    view = RULESET.route(table.state, "a", (2, 0), "", 1.0)
    assert view.allowed and view.reason == ""
    assert view.path[0] == (0, 0) and view.path[-1] == (2, 0) and len(view.path) == 5
    assert (view.cost, dict(view.cost_params)) == (
        "%(used)d m z %(left)d m",
        {"used": 4, "left": 6},
    )
    assert view.modes == (("ruch", "Ruch"),) and view.mode == "ruch" and view.notes == ()
    command = codec.command_from_dict(json.loads(json.dumps(view.command)))
    assert command == Move(actor="a", path=view.path, now=1.0)
    (moved,) = table.do(command)
    assert isinstance(moved, Moved) and moved.path == view.path


def test_the_route_says_why_a_move_cannot_be_made() -> None:
    table = fight(move_fields=2)
    lay(table, "A . . . #\n. . . . .\nB . C . .")
    table.start()
    far = RULESET.route(table.state, "a", (3, 0), "ruch", 0.0)
    assert not far.allowed and far.reason_params == {"cost": 3, "left": 2, "name": "A"}
    assert far.command and dict(far.cost_params) == {"used": 3, "left": 2}
    wall = RULESET.route(table.state, "a", (4, 0), "", 0.0)
    assert (wall.allowed, wall.path, wall.reason_params) == (False, ((0, 0),), {"field": "E1"})
    off = RULESET.route(table.state, "a", (9, 9), "", 0.0)
    assert off.reason_params == {"field": "J10"} and not off.command
    ally = RULESET.route(table.state, "a", (0, 2), "", 0.0)
    assert ally.reason_params == {"field": "A3", "name": "B"}
    enemy = RULESET.route(table.state, "a", (2, 2), "", 0.0)
    assert enemy.reason_params == {"field": "C3", "name": "C"}
    turn = RULESET.route(table.state, "b", (1, 2), "", 0.0)
    assert not turn.allowed and turn.reason_params["name"] == "A"


def test_the_route_walks_around_enemies_and_through_allies() -> None:
    table = fight()
    lay(table, ". C .\nA B .\n. C .")
    table.start()
    view = RULESET.route(table.state, "a", (2, 1), "", 0.0)
    assert view.allowed and view.path == ((0, 1), (1, 1), (2, 1))


def test_a_walled_off_field_has_no_way() -> None:
    table = fight()
    lay(table, "A . # .\n. . # .")
    table.start()
    view = RULESET.route(table.state, "a", (3, 0), "", 0.0)
    assert not view.allowed and view.reason == "Nie ma drogi na pole %(field)s."


def test_the_route_needs_a_map_a_token_and_a_known_mode() -> None:
    table = fight()
    with pytest.raises(RuleViolation):
        RULESET.route(table.state, "a", (0, 0), "", 0.0)
    lay(table, "A . .")
    with pytest.raises(RuleViolation):
        RULESET.route(table.state, "b", (1, 0), "", 0.0)
    with pytest.raises(RuleViolation):
        RULESET.route(table.state, "a", (1, 0), "bieg", 0.0)


def test_the_route_crosses_the_largest_map() -> None:
    table = fight(move_fields=120)
    table.do(EditMap(edit=Resize(60, 60)))
    table.do(EditMap(edit=Paint("difficult", tuple((x, 30) for x in range(60)))))
    table.do(EditMap(edit=Paint("wall", tuple((30, y) for y in range(59)))))
    table.do(PlaceCombatant(target="a", to=(0, 0)))
    table.start()
    view = maps.route(table.state, "a", (59, 0), "", 0.0)
    assert view.allowed and view.path[-1] == (59, 0)
    assert all(f != (30, y) for f in view.path for y in range(59))  # round the wall


# --- the view, the codec, the replay --------------------------------------------------------------


def test_the_table_view_shows_every_token() -> None:
    table = fight()
    lay(table, "A . C")
    seats = RULESET.table_view(table.state).seats
    assert (seats["a"].position, seats["b"].position, seats["c"].position) == ((0, 0), None, (2, 0))


def test_a_state_with_a_map_round_trips_and_replays_to_the_same_map() -> None:
    table = fight()
    lay(table, "A # .\n~ o C")
    table.start()
    table.do(Move(actor="a", path=((0, 1),)))
    data = json.loads(json.dumps(codec.state_to_dict(table.state)))
    assert codec.state_from_dict(data) == table.state
    assert isinstance(codec.state_from_dict(data).battlemap, BattleMap)
    events = [
        codec.event_from_dict(json.loads(json.dumps(codec.event_to_dict(e)))) for e in table.log
    ]
    again = engine.replay(table.initial, events)
    assert again.battlemap == table.state.battlemap and again == table.state
    _w, _h, painted, _tokens = parse("A # .\n~ o C")
    assert table.state.battlemap.walls == tuple(painted["wall"])  # type: ignore[union-attr]
    bad = {**data, "battlemap": {**data["battlemap"], "width": "6"}}
    with pytest.raises(ValueError, match="battlemap"):
        codec.state_from_dict(bad)


def test_the_edit_json_is_told_apart_by_its_fields() -> None:
    for edit in (Remove(confirm=True), Paint("wall", ((1, 2), (1, 3))), Resize(5, 6), Look()):
        data = json.loads(json.dumps(codec.command_to_dict(EditMap(edit=edit))))
        assert codec.command_from_dict(data).edit == edit  # type: ignore[attr-defined]
    sent = {"type": "edit_map", "actor": "gm", "edit": {"tool": "wall", "fields": [[1, 2], [1, 3]]}}
    assert codec.command_from_dict(sent) == EditMap(edit=Paint("wall", ((1, 2), (1, 3))))
    with pytest.raises(ValueError):
        codec.command_from_dict({**sent, "edit": {"tool": "lava", "fields": [[1, 2]]}})


def test_play_without_a_map_is_unchanged() -> None:
    table = fight()
    table.start()
    table.do(FreeAction(actor="a", kind="move", note="do drzwi"))
    table.do(Attack(actor="a", target="c"))
    table.defend("", random.Random(1))  # type: ignore[arg-type]
    assert table.state.battlemap is None and set(positions(table).values()) == {None}
    assert "battlemap" in codec.state_to_dict(table.state)
    assert codec.state_to_dict(table.state)["battlemap"] is None


def test_with_the_reach_setting_off_attacks_read_nothing_from_the_map() -> None:
    """The seed has no reach, range or cover rule: with the table's setting off the odds are
    the same at any distance."""
    near, far = fight(melee_needs_adjacent=False), fight(melee_needs_adjacent=False)
    for table, text in ((near, "A C . . . ."), (far, "A . . . . C")):
        lay(table, text)
        table.start()
    attack = Attack(actor="a", target="c")
    assert RULESET.preview_odds(near.state, attack) == RULESET.preview_odds(far.state, attack)
    assert engine.refusal(far.state, attack) is None
    assert engine.refusal(far.state, StartCombat()) is not None
    assert RULESET.place_command("a", None, 0.0).to is None  # type: ignore[attr-defined]


# --- close combat needs an adjacent target on a laid map (issue 22, point 7) ---------------------

BOW = {"name": "Łuk", "kind": "bow"}
WAND = {"name": "Różdżka", "kind": "wand"}
SPARK = {"name": "Iskra", "kind": "damage"}


def test_melee_needs_an_adjacent_target_on_a_laid_map_by_default() -> None:
    """The seed has no reach rule; the table setting (on by default) makes a sword, claws
    or fists reach only the next field, a diagonal one too."""
    assert D100Settings().melee_needs_adjacent
    far = fight()
    lay(far, "A . . . . C")
    far.start()
    for choice in ("", "w0", "unarmed"):
        refusal = refused(far, Attack(actor="a", target="c", choice=choice), "poza_zasiegiem")
        assert refusal.message == "C jest poza zasięgiem walki wręcz: 5 m."
        assert refusal.template.startswith("%(name)s jest poza zasięgiem")
        assert refusal.params == {"name": "C", "n": 5}
    with pytest.raises(RuleViolation, match="poza zasięgiem walki wręcz: 5 m"):
        RULESET.preview_odds(far.state, Attack(actor="a", target="c"))
    diagonal = fight()
    lay(diagonal, "A . .\n. C .")
    diagonal.start()
    assert engine.refusal(diagonal.state, Attack(actor="a", target="c")) is None
    assert RULESET.preview_odds(diagonal.state, Attack(actor="a", target="c")).options


def test_ranged_weapons_and_spells_reach_any_distance() -> None:
    archer = fighter("a", "x", "u1", zwinnosc=70, weapons=[BOW, WAND], spells=[SPARK])
    t = Table(archer, fighter("c", "y", zwinnosc=50))
    lay(t, "A . . . . . . . . C")
    t.start()
    assert engine.refusal(t.state, Attack(actor="a", target="c", choice="w0")) is None
    assert engine.refusal(t.state, Cast(actor="a", spell=0, target="c")) is None
    refused(t, Attack(actor="a", target="c", choice="unarmed"), "poza_zasiegiem")


def test_without_a_map_or_a_token_melee_reaches_as_the_story_says() -> None:
    story = fight()
    story.start()
    assert engine.refusal(story.state, Attack(actor="a", target="c")) is None
    off = fight()
    lay(off, "A . . . . .")
    off.start()
    assert engine.refusal(off.state, Attack(actor="a", target="c")) is None


def test_the_reach_setting_is_in_the_table_form_and_can_be_turned_off() -> None:
    assert D100Settings.from_dict({"melee_needs_adjacent": False}).melee_needs_adjacent is False
    keys = [s.key for group in forms.settings_groups() for s in group.settings]
    assert "melee_needs_adjacent" in keys


def test_a_post_may_not_attack_in_close_combat_out_of_reach() -> None:
    t = fight(pace="post")
    lay(t, "A . . . . C")
    t.start()
    far = Post(actor="a", action=Action("attack", target="c"), defence="best")
    refused(t, far, "poza_zasiegiem")
    panel = RULESET.turn_panel(t.state, "a", frozenset({"a", "b", "c"}))
    assert panel is not None and panel.post is not None
    attacks = [o for o in panel.post.action_options if o.group == "attack"]
    assert attacks and all(o.disabled for o in attacks)  # Miecz, bare hands: close
    option = next(o for o in attacks if o.value["choice"] == "w0")
    assert fill(option.label_template, option.label_params) == (
        "atak: Miecz — C jest poza zasięgiem walki wręcz: 5 m."
    )


def test_the_turn_panel_offers_the_attack_on_a_reachable_enemy_and_says_why_not_the_far_one() -> (
    None
):
    t = fight(fighter("d", "y", zwinnosc=40))
    lay(t, "A . . . . C\nD . . . . .")
    t.start()
    panel = RULESET.turn_panel(t.state, "a", frozenset({"a", "b", "c", "d"}))
    assert panel is not None
    actions = {a.key: a for a in panel.actions}
    assert actions["atak"].available and panel.commands["atak"]["target"] == "d"
    enemies = {e.id: e for e in panel.enemies}
    assert not enemies["d"].reach_template and not enemies["d"].reach_params
    assert fill(enemies["c"].reach_template, enemies["c"].reach_params) == (
        "C jest poza zasięgiem walki wręcz: 5 m."
    )
    assert not panel.reaches_far


def test_with_every_enemy_out_of_reach_the_attack_is_refused_with_the_reason() -> None:
    t = fight()
    lay(t, "A . . . . C")
    t.start()
    panel = RULESET.turn_panel(t.state, "a", frozenset({"a", "b", "c"}))
    assert panel is not None
    (attack,) = [a for a in panel.actions if a.key == "atak"]
    assert not attack.available
    assert fill(attack.reason_template, attack.reason_params) == (
        "C jest poza zasięgiem walki wręcz: 5 m."
    )
