"""Eleora on the battle map: rules derived from space, each on a small hand-drawn square map.

'#' wall, 'o' obstacle, '~' Trudny Teren, '1'-'3' darkness; letters are tokens (mapkit.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from combat.rules import battlemap
from combat.rules.base import RuleViolation, battle_maps_of
from combat.rules.dice import Modifier
from combat.rules.eleora import RULESET
from combat.rules.eleora.commands import (
    DeclareAreaAttack,
    DeclareAttack,
    EditMap,
    Evade,
    LetPass,
    Move,
    PlaceCombatant,
    SetEnvironment,
    command_from_dict,
    command_to_dict,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine import decide, replay
from combat.rules.eleora.engine.attacks import push
from combat.rules.eleora.engine.common import Batch
from combat.rules.eleora.environment import Darkness
from combat.rules.eleora.events import (
    AttackDeclared,
    HealthChanged,
    MapEdited,
    Moved,
    PromptOpened,
    event_from_dict,
    event_to_dict,
)
from combat.rules.eleora.state import EncounterState, state_from_dict, state_to_dict
from tests.combat.rules.engine_kit import (
    LUK,
    SZABLA,
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    of_type,
    step,
)
from tests.combat.rules.mapkit import drawn

ARCHER = make_sheet("Ala", weapons=(SZABLA, LUK))
# Letters of the pictures: who they are and their side.
CAST = {
    "a": ("ala", "party"),
    "b": ("bora", "party"),
    "c": ("cyra", "party"),
    "w": ("wilk", "foes"),
    "x": ("xan", "foes"),
    "y": ("yor", "foes"),
    "z": ("zef", "foes"),
}


def scene(picture: str, order: tuple[str, ...] = (), **changes: dict[str, Any]) -> EncounterState:
    """The drawn map with its tokens as combatants, the fight begun in `order` (default: the
    cast's order, Ala first). `changes` per combatant id: fields for make_combatant."""
    m, at = drawn(picture)
    people = []
    for letter, field in at.items():
        cid, side = CAST[letter]
        extra = {"sheet": ARCHER} if cid == "ala" else {}
        extra.update(changes.get(cid, {}))
        people.append(make_combatant(cid, side, position=field, **extra))
    state = replace(make_state(*people), battlemap=m)
    ids = order or tuple(cid for letter, (cid, _) in CAST.items() if letter in at)
    return begin(state, ids)


def refused(state: EncounterState, command: Any) -> RuleViolation:
    """The command is refused (decide raises, so no event is made); the refusal."""
    with pytest.raises(RuleViolation) as caught:
        decide(state, command, Dice())
    return caught.value


def declared(state: EncounterState, attack: DeclareAttack) -> tuple[Modifier, ...]:
    """The attack pool the declared attack fixed (dice enough to resolve it)."""
    _, events = step(state, attack, Dice(*([4] * 80)))
    return of_type(events, AttackDeclared)[0].attack.modifiers


def note_texts(notes: Any) -> list[str]:
    return [text for text, _ in notes]


# --- the ruleset's map protocol ---------------------------------------------------------------


def test_eleora_has_a_battle_map_square_one_metre_with_three_darkness_levels() -> None:
    assert battle_maps_of(RULESET) is not None
    spec = RULESET.map_spec()
    assert (spec.geometry, spec.metres) == ("square", 1)
    assert spec.darkness == ("Półmrok", "Ciemność", "Całkowita ciemność")


def test_edit_map_lays_paints_and_json_round_trips() -> None:
    state = make_state(make_combatant("ala", position=(1, 1)))
    data = {"type": "edit_map", "actor": "gm", "edit": {"width": 6, "height": 4}}
    lay = command_from_dict(data)
    assert lay == RULESET.map_command(battlemap.Resize(6, 4), 0.0)
    state, events = step(state, lay)
    assert events == [MapEdited(edit=battlemap.Resize(6, 4))]
    assert RULESET.battle_map(state).width == 6
    paint = command_from_dict(
        {"type": "edit_map", "actor": "gm", "edit": {"tool": "wall", "fields": [[3, 0], [3, 1]]}}
    )
    assert command_from_dict(command_to_dict(paint)) == paint
    state, events = step(state, paint)
    assert state.battlemap.walls == ((3, 0), (3, 1))
    assert event_from_dict(event_to_dict(events[0])) == events[0]


def test_edit_map_is_for_the_gm_and_refuses_what_would_drop_a_token() -> None:
    state = scene(". . . a\n. . . .")
    with pytest.raises(RuleViolation) as only_gm:
        decide(state, EditMap(actor="ala", edit=battlemap.Resize(2, 2)), Dice())
    assert only_gm.value.code == "tylko_mg"
    assert refused(state, EditMap(edit=battlemap.Resize(2, 2))).code == "zmniejszenie"
    assert refused(state, EditMap(edit=battlemap.Paint("wall", ((3, 0),)))).code == "zajete_pole"


def test_removing_the_map_takes_every_token_off_it() -> None:
    state = scene("a . w")
    state, _ = step(state, EditMap(edit=battlemap.Remove(confirm=True)))
    assert state.battlemap is None
    assert all(c.position is None for c in state.combatants.values())


def test_state_with_a_map_round_trips_through_the_codec() -> None:
    state = scene("""
    a . # o
    ~ 1 2 3
    . . w .
    """)
    state, _ = step(state, EditMap(edit=battlemap.Look("#123456", "maps/1/x.png")))
    again = state_from_dict(state_to_dict(state))
    assert again == state
    assert again.battlemap.darkness((3, 1)) == 3


def test_replay_and_undo_give_the_same_map() -> None:
    initial = scene("a . . .\n. . . w")
    log = []
    state = initial
    for command in (
        EditMap(edit=battlemap.Paint("wall", ((2, 0),))),
        EditMap(edit=battlemap.Paint("difficult", ((1, 1),))),
        PlaceCombatant(target="wilk", to=(3, 0)),
        EditMap(edit=battlemap.Resize(5, 2)),
    ):
        events = decide(state, command, Dice())
        log.append(events)
        state = replay(state, events)
    assert replay(initial, [e for events in log for e in events]) == state
    undone = replay(initial, [e for events in log[:-1] for e in events])
    assert undone.battlemap.width == 4 and undone.battlemap.walls == ((2, 0),)
    assert undone.battlemap.difficult == ((1, 1),)


def test_placing_a_token_refuses_walls_obstacles_off_the_map_and_taken_fields() -> None:
    state = scene("a # o w")
    place = RULESET.place_command
    assert refused(state, place("ala", (1, 0), 0.0)).code == "sciana"
    assert refused(state, place("ala", (2, 0), 0.0)).code == "przeszkoda"
    assert refused(state, place("ala", (4, 0), 0.0)).code == "poza_mapa"
    assert refused(state, place("ala", (3, 0), 0.0)).code == "zajete"
    state, _ = step(state, place("ala", None, 0.0))
    assert state.get("ala").position is None


def test_table_view_gives_every_seat_its_field() -> None:
    state = scene("a . w")
    seats = RULESET.table_view(state).seats
    assert seats["ala"].position == (0, 0) and seats["wilk"].position == (2, 0)


# --- Ruch ------------------------------------------------------------------------------------


def test_ruch_three_metres_on_the_map() -> None:
    state = scene("a . . . . w")
    view = RULESET.route(state, "ala", (3, 0), "", 0.0)
    assert view.allowed and view.mode == "ruch"
    assert view.path == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert (view.cost, dict(view.cost_params)) == (
        "%(used)s m z %(left)s m",
        {"used": 3, "left": 3},
    )
    assert ("ruch", "Ruch") in view.modes and ("szarza", "Szarża") in view.modes
    state, events = step(state, command_from_dict(view.command))
    assert state.get("ala").position == (3, 0)
    assert of_type(events, Moved)[0].metres == 3


def test_trudny_teren_costs_double() -> None:
    state = scene("""
    a ~ ~ . w
    # # # # #
    """)
    view = RULESET.route(state, "ala", (2, 0), "ruch", 0.0)
    assert not view.allowed and "Za daleko" in view.reason
    assert dict(view.cost_params)["used"] == 4
    short = RULESET.route(state, "ala", (1, 0), "ruch", 0.0)
    assert short.allowed and dict(short.cost_params)["used"] == 2
    assert refused(state, Move(actor="ala", path=((1, 0), (2, 0)))).code == "za_daleko"
    # The GM's own difficult fields join the map's.
    state, _ = step(state, SetEnvironment(difficult_terrain=((3, 0),)))
    state = replace(state, battlemap=replace(state.battlemap, difficult=()))
    assert dict(RULESET.route(state, "ala", (3, 0), "ruch", 0.0).cost_params)["used"] == 4


def test_route_goes_round_a_wall() -> None:
    state = scene("""
    a # .
    . # .
    . . .
    """)
    view = RULESET.route(state, "ala", (2, 0), "ruch", 0.0)
    assert not view.allowed  # 4 m round the wall
    assert (1, 0) not in view.path and (1, 1) not in view.path and view.path[-1] == (2, 0)


def test_bad_moves_are_refused_with_a_reason_and_no_events() -> None:
    state = scene(
        """
    a . w . #
    . . . . .
    """,
        order=("ala", "wilk"),
    )
    too_far = refused(state, Move(actor="ala", path=((1, 1), (2, 1), (3, 1), (4, 1))))
    assert too_far.code == "za_daleko"
    blocked = refused(state, Move(actor="ala", path=((1, 1), (2, 1), (3, 1), (4, 0))))
    assert blocked.code == "sciana"
    through_enemy = refused(state, Move(actor="ala", path=((1, 0), (2, 0), (3, 0))))
    assert through_enemy.code == "zajete" and "wroga" in through_enemy.message
    onto_enemy = refused(state, Move(actor="ala", path=((1, 0), (2, 0))))
    assert onto_enemy.code == "zajete"
    off_map = refused(state, Move(actor="ala", path=((0, -1),)))
    assert off_map.code == "poza_mapa"
    not_your_turn = refused(state, Move(actor="wilk", path=((3, 0),)))
    assert not_your_turn.message
    assert not RULESET.route(state, "wilk", (3, 0), "", 0.0).allowed
    for to, code_word in (((4, 0), "ściana"), ((2, 0), "Wilk"), ((4, 1), None)):
        view = RULESET.route(state, "ala", to, "ruch", 0.0)
        assert not view.allowed and view.reason
        if code_word:
            assert code_word in view.reason % dict(view.reason_params) or code_word in str(
                dict(view.reason_params)
            )


def test_route_needs_a_map_and_a_token() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    with pytest.raises(RuleViolation):
        RULESET.route(state, "ala", (1, 1), "", 0.0)
    state = replace(state, battlemap=battlemap.new_map("square", 1, 5, 5))
    with pytest.raises(RuleViolation):
        RULESET.route(state, "ala", (1, 1), "", 0.0)


def test_powalony_moves_one_metre_unieruchomiony_not_at_all() -> None:
    prone = scene("a . . w", ala={"conditions": (ConditionInstance("powalenie"),)})
    view = RULESET.route(prone, "ala", (1, 0), "", 0.0)
    assert view.allowed and view.modes == (("ruch", "Ruch"),)
    assert not RULESET.route(prone, "ala", (2, 0), "", 0.0).allowed
    held = scene(
        "a . . w",
        ala={"conditions": (ConditionInstance("unieruchomienie", source="wilk", difficulty=3),)},
    )
    view = RULESET.route(held, "ala", (1, 0), "", 0.0)
    assert not view.allowed and view.modes == () and "Unieruchomienie" in view.reason


def test_przepuszczenie_lets_an_ally_through_but_never_to_end_there() -> None:
    state = scene(
        """
    # # # # #
    a b . . w
    # # # # #
    """,
        order=("ala", "bora", "wilk"),
    )
    state = state.update("bora", has_acted=True, reactions_left=1)
    view = RULESET.route(state, "ala", (2, 1), "ruch", 0.0)
    assert not view.allowed and view.reason_params == {"name": "Bora"}
    assert "Przepuszczenia" in view.reason
    assert refused(state, Move(actor="ala", path=((1, 1), (2, 1)))).code == "przepuszczenie"
    assert not RULESET.route(state, "ala", (1, 1), "ruch", 0.0).allowed  # never onto her
    state, _ = step(state, LetPass(actor="bora", ally="ala"))
    view = RULESET.route(state, "ala", (2, 1), "ruch", 0.0)
    assert view.allowed and view.path == ((0, 1), (1, 1), (2, 1))
    state, _ = step(state, command_from_dict(view.command))
    assert state.get("ala").position == (2, 1)
    assert state.get("bora").let_pass == frozenset()  # used up by the move


def test_szarza_only_straight_and_bonus_in_odds() -> None:
    state = scene("""
    a . . . .
    . . . . w
    . . . . .
    """)
    bent = RULESET.route(state, "ala", (3, 1), "szarza", 0.0)
    assert not bent.allowed and "linii prostej" in bent.reason
    assert refused(state, Move(actor="ala", path=((1, 0), (2, 1)), charge=True)).code == (
        "szarza_nie_prosto"
    )
    view = RULESET.route(state, "ala", (3, 0), "szarza", 0.0)
    assert view.allowed and view.path == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert ("Szarża: +%(bonus)s do następnego ataku w tej turze", {"bonus": 1}) in view.notes
    state, _ = step(state, command_from_dict(view.command))
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    odds = RULESET.preview_odds(state, attack)
    assert ("Szarża: +%(n)s", {"n": 1}) in odds.notes
    assert Modifier(1, "Szarża") in declared(state, attack)


def test_wymuszone_poruszanie_stops_at_walls_and_the_edge_of_the_map() -> None:
    state = scene("a w #\n. . .")
    batch = Batch(state)
    push(batch, "ala", "wilk", 2)
    assert not of_type(batch.events, Moved)
    assert [e.stun for e in of_type(batch.events, HealthChanged)] == [2]
    edge = scene(". a w")
    batch = Batch(edge)
    push(batch, "ala", "wilk", 1)
    assert [e.stun for e in of_type(batch.events, HealthChanged)] == [1]
    assert batch.state.get("wilk").position == (2, 0)


# --- attacks from positions --------------------------------------------------------------------


def test_flankowanie_pelne_plus_two_from_map() -> None:
    state = scene("a w b")
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    odds = RULESET.preview_odds(state, attack)
    assert ("Flankowanie pełne z %(who)s: +%(n)s", {"who": "Bora", "n": 2}) in odds.notes
    assert Modifier(2, "Flankowanie pełne") in declared(state, attack)


def test_pol_flanka_plus_one_from_map() -> None:
    state = scene("a w .\n. . b")
    odds = RULESET.preview_odds(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"))
    assert ("Pół-flanka z %(who)s: +%(n)s", {"who": "Bora", "n": 1}) in odds.notes


def test_osaczenie_from_map_lowers_the_targets_obrona_in_the_odds() -> None:
    free = scene("""
    a . .
    . w .
    . . .
    """)
    crowded = scene("""
    a b .
    c w .
    . . .
    """)
    # Ala's allies do not attack; four foes around Wilk would be Osaczenie: four of the party.
    crowded = replace(
        crowded,
        combatants={
            **crowded.combatants,
            "dar": make_combatant("dar", position=(2, 2)),
        },
    )
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    notes = note_texts(RULESET.preview_odds(crowded, attack).notes)
    assert any(t.startswith("Osaczenie") for t in notes)
    assert not any(
        t.startswith("Osaczenie") for t in note_texts(RULESET.preview_odds(free, attack).notes)
    )


def test_linia_wzroku_sciana_refuses() -> None:
    state = scene("a . # . w")
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Łuk")
    assert refused(state, attack).code == "linia_wzroku"
    with pytest.raises(RuleViolation) as caught:
        RULESET.preview_odds(state, attack)
    assert caught.value.params == {"name": "Wilk"}


def test_zaslonieto_przez_cialo_minus_three_names_who() -> None:
    state = scene("a . b . w")
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Łuk")
    odds = RULESET.preview_odds(state, attack)
    assert ("Cel zasłonięty przez %(who)s: −%(n)s", {"who": "Bora", "n": 3}) in odds.notes
    mods = declared(state, attack)
    assert Modifier(-3, "Cel zasłonięty przez Bora") in mods
    assert sum(1 for m in mods if m.dice == -3) == 1


def test_za_przeszkoda_minus_three_names_the_field() -> None:
    state = scene("a . o . w")
    odds = RULESET.preview_odds(state, DeclareAttack(actor="ala", target="wilk", weapon="Łuk"))
    assert ("Cel za przeszkodą (pole %(field)s): −%(n)s", {"field": "C1", "n": 3}) in odds.notes


def test_a_clear_line_has_no_screen_and_the_gms_flag_still_works_off_the_map() -> None:
    state = scene("a . . . w")
    clear = declared(state, DeclareAttack(actor="ala", target="wilk", weapon="Łuk"))
    assert all(m.dice != -3 for m in clear)
    bare = begin(
        make_state(make_combatant("ala", sheet=ARCHER), make_combatant("wilk", "foes")),
        ["ala", "wilk"],
    )
    flagged = declared(bare, DeclareAttack(actor="ala", target="wilk", weapon="Łuk", screened=True))
    assert Modifier(-3, "Cel zasłonięty lub za przeszkodą") in flagged


def test_ciemnosc_from_fields() -> None:
    # Ala stands in Ciemność (2); the darker of the two ends counts for the Atak.
    state = scene("""
    . 2 .
    . a w
    """)
    state = replace(state, battlemap=replace(state.battlemap, dark2=((1, 1),)))
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    odds = RULESET.preview_odds(state, attack)
    assert ("Ciemność na polu %(field)s: −%(n)s", {"field": "B2", "n": 2}) in odds.notes
    assert Modifier(-2, "Ciemność (pole B2)") in declared(state, attack)
    # The table's Półmrok is lighter: the field's Ciemność counts, once.
    dim, _ = step(state, SetEnvironment(darkness=Darkness.POLMROK))
    mods = declared(dim, attack)
    assert Modifier(-2, "Ciemność (pole B2)") in mods and Modifier(-1, "Półmrok") not in mods
    # Całkowita ciemność over the whole table is darker than the field.
    black, _ = step(state, SetEnvironment(darkness=Darkness.CALKOWITA_CIEMNOSC))
    assert Modifier(-3, "Całkowita Ciemność") in declared(black, attack)


def test_ciemnosc_of_the_testers_own_field_for_other_tests() -> None:
    state = scene("""
    a . . . w
    . . . . .
    """)
    state = replace(state, battlemap=replace(state.battlemap, dark1=((0, 0),)))
    # Bieg: the Bieganie test is made on Ala's field (Półmrok, −1).
    _, events = step(state, Move(actor="ala", mode="bieg", path=((1, 0),)), Dice(6, 6, 6, 6, 6, 6))
    from combat.rules.eleora.events import TestRolled

    roll = of_type(events, TestRolled)[0].roll
    assert Modifier(-1, "Półmrok (pole A1)") in roll.modifiers


# --- Atak okazyjny, Ucieczka --------------------------------------------------------------------


def test_atak_okazyjny_not_provoked_by_leaving_reach() -> None:
    # The document's triggers are a critical failure, Inkantacja and Przeładowanie: walking
    # out of an enemy's reach gives no Atak okazyjny.
    state = scene("w a . . .", order=("ala", "wilk"))
    view = RULESET.route(state, "ala", (4, 0), "ruch", 0.0)
    assert view.allowed and not any("Atak okazyjny" in t for t in note_texts(view.notes))
    _, events = step(state, command_from_dict(view.command))
    assert not of_type(events, PromptOpened)


def test_atak_okazyjny_on_a_critical_failure_of_bieg_named_in_the_route() -> None:
    state = scene("w a . . . .", order=("ala", "wilk"))
    state = replace(
        state,
        combatants={
            **state.combatants,
            "wilk": replace(state.get("wilk"), has_acted=True, reactions_left=1),
        },
    )
    view = RULESET.route(state, "ala", (4, 0), "bieg", 0.0)
    assert view.allowed
    assert ("Atak okazyjny: %(who)s (przy krytycznej porażce testu)", {"who": "Wilk"}) in view.notes
    pool = len(RULESET.command_from_dict(view.command).path)  # any length; all dice fail
    _, events = step(state, command_from_dict(view.command), Dice(*([1] * 20)))
    offers = [e.prompt for e in of_type(events, PromptOpened) if e.prompt.kind == "atak_okazyjny"]
    assert [(p.actor, p.target) for p in offers] == [("wilk", "ala")]
    assert pool


def test_bieg_goes_as_far_along_the_path_as_the_roll_allows() -> None:
    state = scene("a . . . . . . w")
    path = ((1, 0), (2, 0), (3, 0), (4, 0), (5, 0))
    # Zręczność 2 + Bieganie 0 → 2 dice: one success → 4 m.
    state, events = step(state, Move(actor="ala", mode="bieg", path=path), Dice(6, 1))
    assert state.get("ala").position == (4, 0)
    assert of_type(events, Moved)[0].metres == 4


def test_ucieczka_for_those_in_the_area() -> None:
    state = scene(
        """
    a b . .
    . w . .
    . . . .
    """,
        order=("ala", "bora", "wilk"),
    )
    for cid in ("bora", "wilk"):
        state = state.update(cid, has_acted=True, reactions_left=1)
    area = DeclareAreaAttack(fields=((1, 0), (1, 1), (2, 1)), label="kula ognia")
    state, events = step(state, area)
    asked = sorted(e.prompt.actor for e in of_type(events, PromptOpened))
    assert asked == ["bora", "wilk"]
    prompt = next(e.prompt for e in of_type(events, PromptOpened) if e.prompt.actor == "wilk")
    # Ucieczka: 1 m, on the map, and not into a wall.
    state, events = step(state, Evade(actor="wilk", prompt=prompt.id, path=((1, 2),)))
    assert state.get("wilk").position == (1, 2)
    assert refused(state, DeclareAreaAttack(fields=((9, 9),))).code == "poza_mapa"


def test_ucieczka_for_everyone_within_the_radius_of_a_character() -> None:
    state = scene(
        """
    a . . . .
    . b . . .
    . . . . w
    """,
        order=("ala", "bora", "wilk"),
    )
    for cid in ("ala", "bora", "wilk"):
        state = state.update(cid, has_acted=True, reactions_left=1)
    blast = DeclareAreaAttack(around="bora", radius=1, label="kula ognia")
    _state, events = step(state, blast)
    assert sorted(e.prompt.actor for e in of_type(events, PromptOpened)) == ["ala", "bora"]
    _state, events = step(state, DeclareAreaAttack(around="bora", radius=3))
    assert len(of_type(events, PromptOpened)) == 3  # the wolf three fields off
    assert refused(state, DeclareAreaAttack(around="bora", radius=21)).code == "promien"
    assert refused(state, DeclareAreaAttack()).code == "pusty_obszar"


# --- speed ---------------------------------------------------------------------------------------


def test_a_route_on_the_biggest_map_answers_near_and_far_taps() -> None:
    """A 60 × 60 map split by a wall: a field beyond it is too far for one Ruch (the search is
    bounded by what the move allows); near fields are walked or charged. (Its speed is the
    map benchmark's: python -m scripts.bench.battlemap.)"""
    m = battlemap.new_map("square", 1, 60, 60)
    m = battlemap.apply_edit(
        m, battlemap.Paint("wall", tuple((30, r) for r in range(59))), "square", 1
    )
    state = replace(
        make_state(
            make_combatant("ala", position=(29, 0)),
            make_combatant("wilk", "foes", position=(59, 59)),
        ),
        battlemap=m,
    )
    state = begin(state, ["ala", "wilk"])
    assert not RULESET.route(state, "ala", (31, 0), "ruch", 0.0).allowed  # round the wall
    assert not RULESET.route(state, "ala", (59, 58), "ruch", 0.0).allowed
    walk = RULESET.route(state, "ala", (28, 2), "ruch", 0.0)
    assert walk.allowed and walk.path[-1] == (28, 2)
    charge = RULESET.route(state, "ala", (29, 3), "szarza", 0.0)
    assert charge.allowed and charge.path == ((29, 0), (29, 1), (29, 2), (29, 3))


def test_autoplay_approaches_round_walls_on_the_map() -> None:
    from combat.rules.eleora.simulate import _approach

    state = scene("""
    a # . .
    . # . .
    . . . w
    """)
    command = _approach(state, state.get("ala"), state.get("wilk"), 0.0)
    assert isinstance(command, Move) and (1, 0) not in command.path and (1, 1) not in command.path
    state, _ = step(state, command)  # the engine takes it
    assert battlemap.adjacent("square", state.get("ala").position, (3, 2))
