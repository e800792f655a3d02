"""Rules read from positions on the hex map (melee reach, Atak z tyłu, Otoczony, Oddawanie
pola) and the GM's map: edits, placing tokens, the codec, replay and undo, the table view."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation, battle_maps_of, fill
from combat.rules.battlemap import BattleMap, Look, Paint, Remove, Resize
from combat.rules.magus import RULESET, codec, engine, narrate
from combat.rules.magus import prompts as magus_prompts
from combat.rules.magus.commands import (
    AddCondition,
    Attack,
    Declare,
    EditMap,
    EndTurn,
    PlaceCombatant,
    StartCombat,
)
from combat.rules.magus.engine.attack import plan
from combat.rules.magus.events import AttackRolled, CombatantPlaced, GroundGiven, MapEdited
from combat.rules.registry import get_ruleset
from tests.combat.rules.magus.engine_kit import Table, fighter, of, to_act
from tests.combat.rules.magus.mapkit import drawn, lay

BEHIND = "Atak z tyłu: %(target)s walczy z %(ally)s po przeciwnej stronie."


def melee(*ids_sides: tuple[str, str], drawing: str, **kw: object) -> Table:
    """The first combatant acts first; `kw` go to the declarations by id."""
    t = Table(*(fighter(cid, side, **kw.get(cid, {})) for cid, side in ids_sides))  # type: ignore[arg-type]
    lay(t, drawing)
    t.do(StartCombat())
    to_act(t, kw.get("declarations"))  # type: ignore[arg-type]
    return t


def parts(t: Table, attack: Attack) -> dict[str, int]:
    return dict(plan(t.state, attack).dn_parts)


SWORD = {"weapon": "Miecz"}


def test_melee_reach_is_an_adjacent_hex() -> None:
    t = melee(("a", "a"), ("b", "b"), drawing="A . B")
    with pytest.raises(RuleViolation) as refused:
        t.do(Attack(actor="a", target="b", weapon="Miecz"))
    assert refused.value.code == "zasieg" and refused.value.params["n"] == 2
    bow = [{"name": "Łuk", "kind": "missile", "damage": 3}]
    r = melee(("a", "a"), ("b", "b"), drawing="A . B", a={"weapons": bow})
    assert of(r.random(Attack(actor="a", target="b", weapon="Łuk")), AttackRolled)


def test_atak_z_tylu_from_positions_in_odds() -> None:
    t = melee(
        ("a", "a"), ("b", "b"), ("c", "a"),
        drawing="""
        . . . . .
         . C B A .
        """,
    )  # fmt: skip
    attack = Attack(actor="a", target="b", weapon="Miecz")
    odds = RULESET.preview_odds(t.state, attack)
    assert (BEHIND, {"target": "B", "ally": "C"}) in odds.notes
    assert ("Atak z tyłu: %(value)+d do Obrony.", {"value": -2}) in odds.notes
    assert parts(t, attack)["Atak z tyłu"] == -2
    rolled = of(t.do(attack, [1, 2]), AttackRolled)[0]
    assert ("Atak z tyłu", -2) in rolled.dn_parts and (BEHIND, {"target": "B", "ally": "C"}) in (
        rolled.notes
    )
    assert rolled.dn == plan_dn(odds)


def plan_dn(odds: object) -> int:
    note = next(n for n in odds.notes if "trudności" in n[0])  # type: ignore[attr-defined]
    return int(note[1]["dn"])


def test_atak_z_tylu_next_to_the_opposite_hex_but_not_from_the_side() -> None:
    beside = melee(
        ("a", "a"), ("b", "b"), ("c", "a"),
        drawing="""
        . . . A .
         . C B . .
        """,
    )  # fmt: skip
    assert "Atak z tyłu" in parts(beside, Attack(actor="a", target="b", weapon="Miecz"))
    side = melee(
        ("a", "a"), ("b", "b"), ("c", "a"),
        drawing="""
        . . A . .
         . C B . .
        """,
    )  # fmt: skip
    claimed = Attack(actor="a", target="b", weapon="Miecz", blindside=True)
    assert "Atak z tyłu" not in parts(side, claimed)  # the map decides, not the flag
    alone = melee(("a", "a"), ("b", "b"), drawing="A B")
    assert "Atak z tyłu" not in parts(alone, claimed)
    off_map = Table(fighter("a", "a"), fighter("b", "b"))
    off_map.do(StartCombat())
    to_act(off_map)
    assert "Atak z tyłu" in parts(off_map, claimed)  # no positions: the flag still counts


def test_otoczony_from_four_adjacent() -> None:
    four = melee(
        ("a", "a"), ("b", "b"), ("c", "a"), ("d", "a"), ("e", "a"),
        drawing="""
        . . D E .
         . C B A .
        """,
    )  # fmt: skip
    attack = Attack(actor="a", target="b", weapon="Miecz")
    odds = RULESET.preview_odds(four.state, attack)
    assert ("Otoczony: %(n)s wrogów obok %(target)s.", {"n": 4, "target": "B"}) in odds.notes
    assert ("Otoczony: %(value)+d do Obrony.", {"value": -2}) in odds.notes
    rolled = of(four.do(attack, [1, 2]), AttackRolled)[0]
    assert ("Otoczony", -2) in rolled.dn_parts
    three = melee(
        ("a", "a"), ("b", "b"), ("c", "a"), ("d", "a"),
        drawing="""
        . . D . .
         . C B A .
        """,
    )  # fmt: skip
    assert "Otoczony" not in parts(three, attack)


def test_oddawanie_pola_moves_defender() -> None:
    declarations = {"b": Declare(actor="b", options=("oddawanie_pola",), ground=4)}
    t = melee(
        ("a", "a"), ("b", "b"), drawing=". A B . . .", b={"skills": {"bron_biala": 4}},
        declarations=declarations,
    )  # fmt: skip
    attack = Attack(actor="a", target="b", weapon="Miecz")
    assert parts(t, attack)["Oddawanie pola"] == 2
    events = t.do(attack, [1, 2])
    given = of(events, GroundGiven)[0]
    assert given.path == ((2, 0), (3, 0), (4, 0)) and t.c["b"].position == (4, 0)
    assert t.c["b"].moved == 0  # no movement of its own used
    line = narrate.describe(t.replayed(), given)
    assert line is not None and line.params["field"] == "E1"
    blocked = melee(
        ("a", "a"), ("b", "b"), drawing=". A B . # .", b={"skills": {"bron_biala": 4}},
        declarations=declarations,
    )  # fmt: skip
    odds = RULESET.preview_odds(blocked.state, attack)
    assert ("Oddawanie pola: %(target)s nie ma gdzie się cofnąć.", {"target": "B"}) in odds.notes
    events = blocked.do(attack, [1, 2])
    assert not of(events, GroundGiven) and blocked.c["b"].position == (2, 0)
    assert "Oddawanie pola" not in dict(of(events, AttackRolled)[0].dn_parts)
    down = melee(
        ("a", "a"), ("b", "b"), drawing=". A B . . .", b={"skills": {"bron_biala": 4}},
        declarations=declarations,
    )  # fmt: skip
    down.do(AddCondition(target="b", condition="powalony"))
    assert not of(down.do(attack, [1, 2]), GroundGiven)  # one lying down gives no ground


# --- the GM's map -------------------------------------------------------------------------------


def test_the_ruleset_has_battle_maps_on_hexes_of_two_metres() -> None:
    rules = get_ruleset("magus")
    assert battle_maps_of(rules) is not None
    spec = RULESET.map_spec()
    assert (spec.geometry, spec.metres) == ("hex", 2) and len(spec.darkness) == 3
    assert RULESET.map_command(Resize(4, 4), 1.0) == EditMap(edit=Resize(4, 4), now=1.0)
    assert RULESET.place_command("a", (1, 1), 1.0) == PlaceCombatant(target="a", to=(1, 1), now=1.0)


def test_edit_map_lays_paints_and_removes_the_map() -> None:
    t = Table(fighter("a", "a"), fighter("b", "b"))
    assert RULESET.battle_map(t.state) is None
    with pytest.raises(RuleViolation):
        t.do(EditMap(edit=Paint("wall", ((0, 0),))))
    t.do(EditMap(edit=Resize(6, 4)))
    m = RULESET.battle_map(t.state)
    assert isinstance(m, BattleMap) and (m.geometry, m.metres, m.width) == ("hex", 2, 6)
    t.do(EditMap(edit=Paint("wall", ((1, 1), (1, 2)))))
    t.do(EditMap(edit=Look(background="#123456")))
    assert t.state.battlemap is not None and t.state.battlemap.walls == ((1, 1), (1, 2))
    t.do(PlaceCombatant(target="a", to=(5, 3)))
    with pytest.raises(RuleViolation) as refused:
        t.do(EditMap(edit=Resize(4, 4)))
    assert refused.value.code == "zmniejszenie"
    t.do(EditMap(edit=Remove(confirm=True)))
    assert t.state.battlemap is None and t.c["a"].position is None


def test_edit_map_json_form() -> None:
    data = {"type": "edit_map", "actor": "gm", "edit": {"tool": "wall", "fields": [[1, 2], [1, 3]]}}
    command = codec.command_from_dict(data)
    assert command == EditMap(edit=Paint("wall", ((1, 2), (1, 3))))
    assert codec.command_from_dict(codec.command_to_dict(command)) == command
    for edit in (Remove(confirm=True), Resize(3, 4), Look("#000000", "maps/x.png")):
        again = codec.command_from_dict(codec.command_to_dict(EditMap(edit=edit)))
        assert again == EditMap(edit=edit)


def test_place_combatant_refuses_off_map_wall_obstacle_occupied() -> None:
    t = Table(fighter("a", "a"), fighter("b", "b"))
    with pytest.raises(RuleViolation) as refused:
        t.do(PlaceCombatant(target="a", to=(0, 0)))
    assert refused.value.code == "brak_mapy"
    lay(t, "A # o .")
    for to, code in (((9, 0), "poza_mapa"), ((1, 0), "sciana"), ((2, 0), "sciana"),
                     ((0, 0), "zajete")):  # fmt: skip
        with pytest.raises(RuleViolation) as refused:
            t.do(PlaceCombatant(target="b", to=to))
        assert refused.value.code == code
    events = t.do(PlaceCombatant(target="b", to=(3, 0)))
    assert events == [CombatantPlaced("b", (3, 0))]
    t.do(PlaceCombatant(target="a", to=(0, 0)))  # its own hex again
    t.do(StartCombat())
    taken_off = t.do(PlaceCombatant(target="a", to=None))  # in any phase
    line = narrate.describe(t.state, taken_off[0])
    assert line is not None and line.actors == ("a",)
    assert t.c["a"].position is None


def test_narrate_map_lines() -> None:
    t = Table(fighter("a", "a"))
    events = t.do(EditMap(edit=Resize(3, 3)))
    line = narrate.describe(t.initial, events[0])
    assert line is not None and line.secret and line.kind == "gm"
    placed = t.do(PlaceCombatant(target="a", to=(2, 1)))
    line = narrate.describe(t.state, placed[0])
    assert line is not None and line.params == {"name": "A", "field": "C2"} and not line.secret


def test_table_view_fills_positions() -> None:
    t = Table(fighter("a", "a"), fighter("b", "b"))
    t.do(EditMap(edit=Resize(4, 4)))
    t.do(PlaceCombatant(target="a", to=(1, 2)))
    view = RULESET.table_view(t.state)
    assert view.seats["a"].position == (1, 2) and view.seats["b"].position is None


def test_codec_round_trip_of_a_state_with_a_map() -> None:
    t = melee(
        ("a", "a"), ("b", "b"),
        drawing="""
        A ~ # .
         . o B .
        """,
    )  # fmt: skip
    data = codec.state_to_dict(t.state)
    assert data["battlemap"]["geometry"] == "hex" and data["battlemap"]["walls"] == [[2, 0]]
    assert codec.state_from_dict(data) == t.state
    assert (
        codec.state_from_dict(codec.state_to_dict(Table(fighter("a", "a")).state)).battlemap is None
    )


def test_replay_and_undo_give_the_same_map() -> None:
    t = Table(fighter("a", "a"), fighter("b", "b"))
    d = lay(t, "A ~ # B")
    assert t.replayed() == t.state and t.state.battlemap == _versioned(d.map, t)
    before = t.state
    t.do(EditMap(edit=Paint("obstacle", ((1, 0),))))
    undone = engine.replay(t.initial, t.log[:-1])
    assert undone == before and undone.battlemap is not None
    assert undone.battlemap.obstacles == () and t.state.battlemap.obstacles == ((1, 0),)
    assert of(t.log, MapEdited)


def _versioned(m: BattleMap, t: Table) -> BattleMap:
    from dataclasses import replace

    assert t.state.battlemap is not None
    return replace(m, version=t.state.battlemap.version)


def test_drawn_helper_reads_indented_rows() -> None:
    d = drawn(
        """
        A . #
         . ~ B
        """
    )
    assert d.tokens == {"A": (0, 0), "B": (2, 1)} and d.layers["wall"] == ((2, 0),)


def test_autoplay_walks_a_melee_fighter_into_reach_then_attacks() -> None:
    t = Table(fighter("b", "b"), fighter("a", "a", "u1"))
    lay(t, "A . . . . B")
    t.do(StartCombat())
    to_act(t)
    step = RULESET.autoplay_command(t.state, "b", "atakuj", 0.0)
    assert step is not None and step.type_key == "move"
    t.do(step)
    assert t.c["b"].position == (1, 0)
    step = RULESET.autoplay_command(t.state, "b", "atakuj", 0.0)
    assert step is not None and step.type_key == "attack"
    far = Table(fighter("b", "b"), fighter("a", "a", "u1"))
    lay(far, "A . . . . . . . . B")
    far.do(StartCombat())
    to_act(far)
    far.do(RULESET.autoplay_command(far.state, "b", "atakuj", 0.0))  # type: ignore[arg-type]
    assert far.c["b"].position == (3, 0)  # 6 hexes of 12 m
    assert RULESET.autoplay_command(far.state, "b", "atakuj", 0.0) == EndTurn(actor="b")
    stuck = Table(fighter("b", "b"), fighter("a", "a", "u1"))
    lay(stuck, "A . # B #")
    stuck.do(StartCombat())
    to_act(stuck)
    assert RULESET.autoplay_command(stuck.state, "b", "atakuj", 0.0) == EndTurn(actor="b")
    close = Table(fighter("b", "b"), fighter("a", "a", "u1"))
    lay(close, "A B .")
    close.do(StartCombat())
    to_act(close)
    step = RULESET.autoplay_command(close.state, "b", "atakuj", 0.0)
    assert step is not None and step.type_key == "attack"


def test_the_odds_name_no_negligible_tail_and_a_real_one_in_percent() -> None:
    """Issue 22, point 6c: the odds showed a raw „Pominięty ogon: ≤ 5e-17”. A tail below what
    the percentages show is left out; one that shows is told in percent."""
    t = melee(("a", "a"), ("b", "b"), drawing="A B")
    odds = RULESET.preview_odds(t.state, Attack(actor="a", target="b", weapon="Miecz"))
    assert not any("ogon" in text.lower() for text, _params in odds.notes)
    assert magus_prompts.tail_notes(5e-17) == ()
    ((text, params),) = magus_prompts.tail_notes(0.012)
    assert fill(text, params) == "Pominięte skrajne wyniki: najwyżej 1.2%."
