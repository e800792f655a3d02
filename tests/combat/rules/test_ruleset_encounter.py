"""The encounter part of the Ruleset protocol, as the table layer uses it (no Eleora names)."""

from __future__ import annotations

import json
import random

import pytest

from combat.rules.base import LegalAction
from combat.rules.eleora.commands import DeclareAttack
from combat.rules.eleora.engine.queries import legal_actions
from combat.rules.eleora.engine.setup import combatant_from_dict, new_encounter
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import EncounterState
from combat.rules.registry import get_ruleset
from tests.combat.rules.engine_kit import (
    TARCZA,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    step,
)

SHEET = {
    "name": "Ala",
    "attributes": {"zrecznosc": 2, "intuicja": 2, "krzepa": 2, "sila": 2, "wola": 1},
    "skills": {"bron_lekka": 3},
    "weapons": [{"name": "Szabla", "kind": "lekka", "damage": 2}],
}


def table_layer_encounter() -> tuple[object, object]:
    ruleset = get_ruleset("eleora")
    state = ruleset.new_encounter(
        {"tie_goes_to": "defender"},
        [
            {"id": "ala", "name": "Ala", "side": "party", "sheet": SHEET, "controller": "user-7"},
            {"id": "wilk", "name": "Wilk", "side": "foes", "sheet": SHEET, "position": None},
        ],
    )
    return ruleset, state


def test_table_layer_runs_an_encounter_through_the_protocol_only() -> None:
    ruleset, state = table_layer_encounter()
    rng = random.Random(5)
    start = ruleset.command_from_dict({"type": "start_combat", "rolls": {"ala": [6, 6]}})
    assert ruleset.command_actor(start) is None
    events = ruleset.decide(state, start, rng)
    stored = [json.dumps(ruleset.event_to_dict(e)) for e in events]
    state = ruleset.replay(state, [ruleset.event_from_dict(json.loads(s)) for s in stored])
    attack = ruleset.command_from_dict(
        {"type": "declare_attack", "actor": "ala", "target": "wilk", "weapon": "Szabla", "now": 10}
    )
    assert ruleset.command_actor(attack) == "ala"
    odds = ruleset.attack_odds(state, attack)
    assert 0 < odds.options["brak"].hit.p_hit < 1
    for event in ruleset.decide(state, attack, rng):
        state = ruleset.evolve(state, event)
    snapshot = json.loads(json.dumps(ruleset.state_to_dict(state)))
    assert ruleset.state_from_dict(snapshot) == state
    assert ruleset.next_deadline(state) is None
    assert ruleset.expire_command(99.0).now == 99.0
    actions = ruleset.legal_actions(state, "ala")
    assert all(isinstance(a, LegalAction) for a in actions)


def test_next_deadline_is_the_earliest_open_prompt() -> None:
    ruleset = get_ruleset("eleora")
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["wilk", "ala"]
    )
    from combat.rules.eleora.commands import EndTurn

    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla", now=50.0))
    assert ruleset.next_deadline(state) == 65.0


def test_new_encounter_validates_combatants() -> None:
    a = make_combatant("ala", position=(0, 0))
    with pytest.raises(ValueError):
        new_encounter(TableSettings(), [a, a])
    with pytest.raises(ValueError):
        new_encounter(TableSettings(), [a, make_combatant("bob", position=(0, 0))])
    with pytest.raises(ValueError):
        new_encounter(TableSettings(), [make_combatant("gm")])
    with pytest.raises(ValueError):
        new_encounter(TableSettings(), [make_combatant("ala", side=" ")])
    assert new_encounter(TableSettings(), [a]).phase == "setup"


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"name": "A", "side": "x", "sheet": SHEET},
        {"id": "a", "side": "x", "sheet": {"attributes": {"sila": "dużo"}}},
        {"id": "a", "side": "x", "sheet": SHEET, "position": [1]},
        {"id": "a", "side": "", "sheet": SHEET},
    ],
)
def test_combatant_from_dict_refuses_bad_data(data: object) -> None:
    with pytest.raises(ValueError):
        combatant_from_dict(data)  # type: ignore[arg-type]


def test_combatant_from_dict_takes_the_sheet_name_and_a_position() -> None:
    c = combatant_from_dict({"id": "a", "side": "x", "sheet": SHEET, "position": [2, 3]})
    assert c.name == "Ala" and c.position == (2, 3) and c.controller is None


# --- legal actions ----------------------------------------------------------------------------


def available(actions: list[LegalAction]) -> dict[str, bool]:
    return {a.key: a.available for a in actions}


def test_legal_actions_on_your_turn_and_reasons_off_it() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    mine = available(legal_actions(state, "ala"))
    assert mine["atak"] and mine["ruch"] and mine["koniec_tury"]
    assert not mine["przeladowanie"] and not mine["wstanie"] and not mine["sterowanie"]
    assert not mine["parowanie"]  # no attack declared against her
    theirs = {a.key: a for a in legal_actions(state, "wilk")}
    assert not theirs["atak"].available and theirs["atak"].reason.startswith("Nie twoja tura")
    assert theirs["unik"].reason.startswith("Brak reakcji")  # before its first turn


def test_legal_actions_show_the_reaction_prompt() -> None:
    from combat.rules.eleora.commands import EndTurn

    state = make_state(
        make_combatant("ala", sheet=make_sheet(shields=(TARCZA,))), make_combatant("wilk", "foes")
    )
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, DeclareAttack(actor="wilk", target="ala", weapon="Szabla"))
    mine = available(legal_actions(state, "ala"))
    assert mine["parowanie"] and mine["unik"] and not mine["ucieczka"]
    wolf = {a.key: a for a in legal_actions(state, "wilk")}
    assert not wolf["koniec_tury"].available and wolf["atak"].reason.startswith("Czekamy")


def test_legal_actions_in_szal_and_before_combat() -> None:
    from combat.rules.eleora.conditions import ConditionInstance

    frenzied = make_combatant("ala", conditions=(ConditionInstance("szal"),))
    state = make_state(frenzied, make_combatant("wilk", "foes"))
    before = available(legal_actions(state, "ala"))
    assert not any(before.values())
    state = begin(state, ["ala", "wilk"])
    actions = {a.key: a for a in legal_actions(state, "ala")}
    assert actions["atak"].available and not actions["celowanie"].available
    assert actions["celowanie"].reason.startswith("Szał")


def test_attack_odds_offer_only_brak_when_the_defender_cannot_react() -> None:
    state: EncounterState = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    odds = get_ruleset("eleora").attack_odds(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    )
    assert set(odds.options) == {"brak"}
    special = get_ruleset("eleora").attack_odds(
        state, DeclareAttack(actor="ala", target="wilk", weapon="wrecz", special="powalenie")
    )
    assert special.weapon_damage == 0


def test_the_ruleset_describes_sheets_and_settings() -> None:
    from combat.rules.registry import ruleset_choices

    ruleset = get_ruleset("eleora")
    assert ("eleora", "Opowieści Eleory") in ruleset_choices()
    assert [s.key for s in ruleset.attributes()][:3] == ["sila", "krzepa", "zrecznosc"]
    assert any(s.label == "Walka Wręcz" for s in ruleset.skills())
    assert ruleset.validate_settings(ruleset.default_settings()) == ruleset.default_settings()
    derived = {d.key: d.value for d in ruleset.derived_values(SHEET)}
    assert derived["zdrowie"] == 13 and derived["obrona"] == 4
    with pytest.raises(LookupError):
        get_ruleset("warhammer")


def test_condition_badges_show_stacks_turns_difficulty_and_derived_conditions() -> None:
    from combat.rules.eleora.conditions import ConditionInstance

    bleeding = (
        ConditionInstance("krwawienie", remaining=3),
        ConditionInstance("krwawienie", remaining=1),
        ConditionInstance("unieruchomienie", source="wilk", difficulty=4, note="sieć"),
    )
    hurt = make_combatant(
        "ala", position=(1, 1), status="unconscious", damage_stun=11, conditions=bleeding
    )
    foes = [
        make_combatant(f"w{i}", "foes", position=p)
        for i, p in enumerate([(0, 1), (2, 1), (1, 0), (1, 2)])
    ]
    state = make_state(hurt, *foes)
    badges = {b.key: b for b in get_ruleset("eleora").condition_badges(state, "ala")}
    assert badges["krwawienie"].detail == "×2, tury: 3"
    assert badges["unieruchomienie"].detail == "trudność 4, sieć"
    assert badges["nieprzytomnosc"].label == "Nieprzytomność"
    assert badges["osaczenie"].description.startswith("Co najmniej 4")
    assert (
        get_ruleset("eleora").command_to_dict(DeclareAttack(actor="a", target="b", weapon="c"))[
            "type"
        ]
        == "declare_attack"
    )
