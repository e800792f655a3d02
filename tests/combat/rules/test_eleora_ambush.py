"""Eleora: a move runs into a token its player cannot see (issue 23, "routes map an ambush").

A player's route is drawn on the map as the player sees it (`unseen`: the hidden seats): the
hidden token neither blocks, bends nor is named. The move itself stops on the last free field
before it (DEFAULT: the document has no rule), the Ruch action spent, and reveals it in a line
every player reads. The GM's creatures see every token, as the GM does.
"""

from __future__ import annotations

from combat.rules import battlemap
from combat.rules.eleora import RULESET
from combat.rules.eleora.commands import DeclareAttack, Move, command_from_dict
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.events import ActionSpent, CombatantChanged, Moved
from combat.rules.eleora.narrate import describe
from tests.combat.rules.engine_kit import Dice, of_type, step
from tests.combat.rules.test_eleora_map import declared, refused, scene

PLAYER = {"controller": "u1"}
HIDDEN = {"hidden": True}


def words(view: object) -> str:
    return repr(view)


def test_a_players_route_runs_through_a_hidden_foe_as_if_its_field_were_empty() -> None:
    state = scene("a . x . w", ala=PLAYER, xan=HIDDEN)
    view = RULESET.route(state, "ala", (3, 0), "ruch", 0.0, unseen={"xan"})
    assert view.allowed and view.reason == ""
    assert view.path == ((0, 0), (1, 0), (2, 0), (3, 0))  # straight through, not bent
    onto = RULESET.route(state, "ala", (2, 0), "ruch", 0.0, unseen={"xan"})
    assert onto.allowed and onto.path[-1] == (2, 0)
    for shown in (view, onto):
        assert "Xan" not in words(shown) and "C1" not in words(shown)
    gm = RULESET.route(state, "ala", (2, 0), "ruch", 0.0)  # the GM sees it: taken
    assert not gm.allowed and gm.reason_params["name"] == "Xan"


def test_a_players_route_is_not_bent_round_a_hidden_foe() -> None:
    state = scene(
        """
    a x . w
    . . . .
    """,
        ala=PLAYER,
        xan=HIDDEN,
    )
    assert RULESET.route(state, "ala", (2, 0), "ruch", 0.0, unseen={"xan"}).path == (
        (0, 0),
        (1, 0),
        (2, 0),
    )
    assert (1, 0) not in RULESET.route(state, "ala", (2, 0), "ruch", 0.0).path  # the GM's


def test_the_move_stops_before_the_hidden_foe_spends_the_ruch_and_reveals_it() -> None:
    state = scene("a . x . w", ala=PLAYER, xan=HIDDEN)
    view = RULESET.route(state, "ala", (3, 0), "ruch", 0.0, unseen={"xan"})
    state, events = step(state, command_from_dict(view.command))
    assert of_type(events, ActionSpent)[0].action == "ruch"
    (moved,) = of_type(events, Moved)
    assert moved.path == ((0, 0), (1, 0)) and moved.metres == 1
    assert of_type(events, CombatantChanged) == [
        CombatantChanged(combatant="xan", hidden=False, stopped="ala")
    ]
    assert state.get("ala").position == (1, 0) and not state.get("xan").hidden
    assert state.get("ala").actions_left == 1
    stop = describe(state, of_type(events, CombatantChanged)[0])
    assert stop is not None and stop.text == battlemap.STOPPED
    assert stop.params == {"name": "Ala", "other": "Xan"} and not stop.secret
    assert stop.actors == ("ala", "xan")


def test_a_hidden_foe_next_to_the_start_stops_the_move_before_its_first_step() -> None:
    state = scene("a x . w", ala=PLAYER, xan=HIDDEN)
    state, events = step(state, Move(actor="ala", path=((1, 0), (2, 0))))
    assert of_type(events, Moved) == [] and state.get("ala").position == (0, 0)
    assert not state.get("xan").hidden and state.get("ala").actions_left == 1


def test_the_stop_is_on_a_field_it_may_stand_on_not_on_a_body_it_crosses() -> None:
    state = scene("a b x . w", order=("ala", "bora", "xan", "wilk"), ala=PLAYER, xan=HIDDEN)
    state = state.update("bora", status="unconscious")
    state, events = step(state, Move(actor="ala", path=((1, 0), (2, 0), (3, 0))))
    assert of_type(events, Moved) == [] and state.get("ala").position == (0, 0)
    assert not state.get("xan").hidden


def test_a_path_too_long_is_refused_whole_and_the_hidden_foe_stays_hidden() -> None:
    state = scene("a x . . . w", ala=PLAYER, xan=HIDDEN)
    far = refused(state, Move(actor="ala", path=((1, 0), (2, 0), (3, 0), (4, 0))))
    assert far.code == "za_daleko" and far.params == {"allowed": 3, "metres": 4}
    view = RULESET.route(state, "ala", (4, 0), "ruch", 0.0, unseen={"xan"})
    assert not view.allowed and view.reason_params == {"allowed": 3, "metres": 4}


def test_a_run_stops_at_the_hidden_foe_only_if_the_roll_reaches_it() -> None:
    state = scene("a . . . x . . w", ala=PLAYER, xan=HIDDEN)
    path = ((1, 0), (2, 0), (3, 0), (4, 0), (5, 0))
    # 2 dice, one success: 4 m, short of Xan at E1 → never met, still hidden
    short, events = step(state, Move(actor="ala", mode="bieg", path=path[:3]), Dice(6, 1))
    assert short.get("ala").position == (3, 0) and short.get("xan").hidden
    # both succeed: 5 m would pass Xan; the run stops on D1 and reveals it
    ran, events = step(state, Move(actor="ala", mode="bieg", path=path), Dice(6, 6))
    assert ran.get("ala").position == (3, 0) and not ran.get("xan").hidden
    assert of_type(events, CombatantChanged)[0].stopped == "ala"


def test_one_dragged_along_stops_the_move_where_it_would_step_onto_a_hidden_foe() -> None:
    state = scene(
        """
    a . . . w
    y . x . .
    """,
        ala=PLAYER,
        xan=HIDDEN,
    )
    held = ConditionInstance("unieruchomienie", source="ala", difficulty=2)
    state = state.update("yor", conditions=(held,))
    state, events = step(state, Move(actor="ala", path=((1, 0), (2, 0), (3, 0))))
    assert state.get("ala").position == (1, 0) and state.get("yor").position == (1, 1)
    assert not state.get("xan").hidden and state.get("xan").position == (2, 1)


def test_the_gms_creature_sees_the_hidden_and_is_refused_as_before() -> None:
    state = scene("w x . a", order=("wilk", "xan", "ala"), ala=PLAYER, xan=HIDDEN)
    assert refused(state, Move(actor="wilk", path=((1, 0), (2, 0)))).code == "przepuszczenie"


def test_a_hidden_body_neither_screens_a_players_shot_nor_says_where_it_stands() -> None:
    """It used to give „Cel zasłonięty przez kogoś na linii strzału: −3”: someone hidden stood
    on that line. The GM's creatures still see it and are screened, unnamed."""
    state = scene("a . x . w", ala=PLAYER, xan=HIDDEN)
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Łuk")
    odds = RULESET.preview_odds(state, attack)
    assert not any("zasłonięty" in text for text, _ in odds.notes)
    assert all(m.dice != -3 for m in declared(state, attack))
    gm_run = scene("a . x . w", xan=HIDDEN)  # Ala the GM's: it sees Xan
    notes = RULESET.preview_odds(gm_run, attack).notes
    assert ("Cel zasłonięty przez kogoś na linii strzału: −%(n)s", {"n": 3}) in notes
