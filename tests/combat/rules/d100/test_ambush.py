"""d100: a move runs into a token its player cannot see (issue 23, "routes map an ambush").

A player's route is drawn as the player sees the map (`unseen`: the hidden seats): a hidden
token neither blocks, bends nor is named. The move stops on the last field before it that the
mover may stand on (DEFAULT: the seed has no rule), the rest of the turn's movement stays, and
the token is revealed in a line every player reads. The GM's combatants see every token.
"""

from __future__ import annotations

from combat.rules import battlemap
from combat.rules.d100 import RULESET, codec, narrate
from combat.rules.d100.commands import EndTurn, Move, SetHidden
from combat.rules.d100.events import HiddenSet, Moved
from tests.combat.rules.d100.engine_kit import Table, fighter
from tests.combat.rules.d100.mapkit import lay
from tests.combat.rules.d100.test_map import fight, refused


def ambush(picture: str, **settings: object) -> Table:
    """Ala (a, a player's, acts first), Bob (b, her ally), Cyr (c) and Dyn (d, hidden): foes."""
    table = fight(fighter("d", "y", zwinnosc=40), **settings)
    lay(table, picture)
    table.do(SetHidden(target="d", hidden=True))
    table.start()
    return table


def test_a_players_route_runs_through_and_onto_a_hidden_foe_as_if_it_were_not_there() -> None:
    table = ambush(". . . . C\nA . D . .\n. . . . B")
    through = RULESET.route(table.state, "a", (4, 1), "", 0.0, unseen={"d"})
    assert through.allowed and through.reason == ""
    assert through.path == ((0, 1), (1, 1), (2, 1), (3, 1), (4, 1))  # straight, not bent
    onto = RULESET.route(table.state, "a", (2, 1), "", 0.0, unseen={"d"})
    assert onto.allowed and onto.path == ((0, 1), (1, 1), (2, 1))
    for shown in (through, onto):
        assert "Dyn" not in repr(shown) and "zaj" not in repr(shown)
    gm = RULESET.route(table.state, "a", (4, 1), "", 0.0)  # the GM's: round it
    assert (2, 1) not in gm.path


def test_the_move_stops_before_the_hidden_foe_reveals_it_and_keeps_the_rest() -> None:
    table = ambush(". . . . C\nA . D . .\n. . . . B")
    view = RULESET.route(table.state, "a", (4, 1), "", 0.0, unseen={"d"})
    events = table.do(codec.command_from_dict(dict(view.command)))
    assert events == [
        Moved("a", ((0, 1), (1, 1)), 1),
        HiddenSet("d", hidden=False, stopped="a"),
    ]
    assert table.c["a"].position == (1, 1) and table.c["a"].moved == 1
    assert not table.c["d"].hidden
    table.do(Move(actor="a", path=((1, 2), (2, 2), (3, 2))))  # 5 of 6 fields left
    assert table.c["a"].moved == 4


def test_everyone_reads_who_stopped_and_who_stood_in_the_way() -> None:
    table = ambush("A D .")
    before = table.state
    events = table.do(Move(actor="a", path=((1, 0), (2, 0))))
    assert events == [HiddenSet("d", hidden=False, stopped="a")]  # met on its first step
    line = narrate.describe(before, events[0])
    assert line is not None and line.text == battlemap.STOPPED
    assert line.params == {"name": "A", "other": "D"} and not line.secret
    assert line.actors == ("a", "d")


def test_the_stop_is_on_a_field_it_may_stand_on_not_on_an_ally_it_crosses() -> None:
    table = ambush("A B D .")
    events = table.do(Move(actor="a", path=((1, 0), (2, 0), (3, 0))))
    assert events == [HiddenSet("d", hidden=False, stopped="a")]
    assert table.c["a"].position == (0, 0) and table.c["a"].moved == 0


def test_a_path_too_long_is_refused_whole_and_the_foe_stays_hidden() -> None:
    table = ambush("A D . . .", move_fields=3)
    too_far = refused(table, Move(actor="a", path=((1, 0), (2, 0), (3, 0), (4, 0))), "za_daleko")
    assert too_far.params == {"cost": 4, "left": 3, "name": "A"}
    view = RULESET.route(table.state, "a", (4, 0), "", 0.0, unseen={"d"})
    assert not view.allowed and dict(view.reason_params) == too_far.params
    assert table.c["d"].hidden


def test_the_gms_combatant_sees_the_hidden_one_and_is_refused_as_before() -> None:
    table = ambush("A . . .\nC . . .\nD . . .")
    table.do(EndTurn(actor="a"))
    table.do(EndTurn(actor="b"))
    assert table.current == "c"
    refused(table, Move(actor="c", path=((0, 2),)), "zajete")
