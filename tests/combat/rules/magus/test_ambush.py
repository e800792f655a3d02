"""Magus: a move runs into a token its player cannot see (issue 23, "routes map an ambush").

A player's route is drawn as the player sees the map (`unseen`: the hidden seats): a hidden
token neither blocks, bends nor is named. The move stops on the last hex before it that the
mover may stand on (DEFAULT: the digest has no rule; the move stays the round's one) and the
token is revealed in a line every player reads. The GM's combatants see every token.
"""

from __future__ import annotations

import pytest

from combat.rules import battlemap
from combat.rules.base import RuleViolation
from combat.rules.magus import RULESET, codec, narrate
from combat.rules.magus.commands import Declare, EndTurn, Move, SetHidden, StartCombat
from combat.rules.magus.events import HiddenSet, Moved
from tests.combat.rules.magus.engine_kit import Table, fighter, to_act
from tests.combat.rules.magus.mapkit import lay


def ambush(drawing: str, declarations: dict[str, Declare] | None = None) -> Table:
    """a (side a, a player's) acts first; b and the hidden d are its foes, c its ally."""
    t = Table(fighter("a", "a", "u1"), fighter("b", "b"), fighter("c", "a"), fighter("d", "b"))
    lay(t, drawing)
    t.do(SetHidden(target="d", hidden=True))
    t.do(StartCombat())
    to_act(t, declarations)
    return t


def row(n: int, start: int = 1, y: int = 0) -> tuple[tuple[int, int], ...]:
    return tuple((x, y) for x in range(start, start + n))


def test_a_players_route_runs_through_and_onto_a_hidden_foe_as_if_it_were_not_there() -> None:
    t = ambush(
        """
        . . . . . . B C
         A . D . . . . .
        """
    )
    through = RULESET.route(t.state, "a", (4, 1), "", 0.0, unseen={"d"})
    assert through.allowed and through.reason == ""
    assert through.path == ((0, 1), *row(4, y=1))  # straight along the row, not bent
    onto = RULESET.route(t.state, "a", (2, 1), "", 0.0, unseen={"d"})
    assert onto.allowed and onto.path[-1] == (2, 1)
    for shown in (through, onto):
        assert "D" not in repr(shown.reason_params) and "stoi" not in shown.reason
    gm = RULESET.route(t.state, "a", (4, 1), "", 0.0)  # the GM's: round it
    assert (2, 1) not in gm.path


def test_the_move_stops_before_the_hidden_foe_and_reveals_it_for_everyone() -> None:
    t = ambush("A . D . . . B C")
    view = RULESET.route(t.state, "a", (4, 0), "", 0.0, unseen={"d"})
    before = t.state
    events = t.do(codec.command_from_dict(dict(view.command)))
    assert events == [Moved("a", 2, path=((0, 0), (1, 0))), HiddenSet("d", False, stopped="a")]
    assert t.c["a"].position == (1, 0) and t.c["a"].moved == 2 and not t.c["d"].hidden
    line = narrate.describe(before, events[1])
    assert line is not None and line.text == battlemap.STOPPED and not line.secret
    assert line.params == {"name": "A", "other": "D"} and line.actors == ("a", "d")


def test_met_on_its_first_step_it_has_not_moved_yet() -> None:
    t = ambush("A D . . B C")
    events = t.do(Move(actor="a", path=row(3)))
    assert events == [HiddenSet("d", False, stopped="a")]
    assert t.c["a"].position == (0, 0) and t.c["a"].moves == 0


def test_the_stop_is_on_a_hex_it_may_stand_on_not_on_an_ally_it_crosses() -> None:
    t = ambush("A . C D . B")
    events = t.do(Move(actor="a", path=row(4)))
    assert of_moved(events).path == ((0, 0), (1, 0)) and t.c["a"].position == (1, 0)


def test_a_path_too_long_is_refused_whole_and_the_foe_stays_hidden() -> None:
    t = ambush("A D . . . . . . B C")
    with pytest.raises(RuleViolation) as refused:
        t.do(Move(actor="a", path=row(7)))  # 14 m of 12
    assert refused.value.code == "za_daleko" and t.c["d"].hidden
    view = RULESET.route(t.state, "a", (7, 0), "", 0.0, unseen={"d"})
    assert not view.allowed and view.reason == "Za daleko: zostało %(left)s m z %(rate)s m."


def test_the_gms_combatant_sees_the_hidden_one_and_is_refused_as_before() -> None:
    t = ambush("A . . B D C")
    t.do(Move(actor="a", path=row(1)))
    t.do(EndTurn(actor="a"))
    assert t.state.current == "b"
    with pytest.raises(RuleViolation) as refused:
        t.do(Move(actor="b", path=((4, 0),)))
    assert refused.value.code == "zajete_koniec"


def of_moved(events: list[object]) -> Moved:
    (moved,) = [e for e in events if isinstance(e, Moved)]
    return moved
