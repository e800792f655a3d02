"""The encounter is an event log: replay gives the identical state; everything is JSON."""

from __future__ import annotations

import json
import random

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora.commands import (
    COMMANDS,
    AddCondition,
    Aim,
    ChooseReaction,
    DeclareAttack,
    EndTurn,
    JoinCombat,
    Move,
    StartCombat,
    command_from_dict,
    command_to_dict,
)
from combat.rules.eleora.engine import decide, replay
from combat.rules.eleora.events import EVENTS, Event, event_from_dict, event_to_dict
from combat.rules.eleora.simulate import Policy, next_command
from combat.rules.eleora.state import CODEC, GM, EncounterState, state_from_dict, state_to_dict
from tests.combat.rules.engine_kit import (
    LUK,
    SZABLA,
    TARCZA,
    TOPOR,
    make_combatant,
    make_sheet,
    make_state,
)


def skirmish() -> EncounterState:
    return make_state(
        make_combatant("ala", position=(0, 0), sheet=make_sheet(weapons=(SZABLA, LUK))),
        make_combatant(
            "bob", position=(1, 0), sheet=make_sheet("Bob", weapons=(TOPOR,), shields=(TARCZA,))
        ),
        make_combatant("wilk", "foes", position=(4, 0), sheet=make_sheet("Wilk", weapons=())),
        make_combatant(
            "lis", "foes", position=(4, 2), sheet=make_sheet("Lis", weapons=(), krzepa=1)
        ),
    )


def record(seed: int, steps: int = 120) -> tuple[EncounterState, list[Event], EncounterState]:
    """Play a fight with the simulator's policy, keeping every event."""
    rng = random.Random(seed)
    initial = skirmish()
    state, log = initial, []
    events = decide(state, StartCombat(), rng)
    for _ in range(steps):
        log += events
        state = replay(state, events)
        if state.phase == "ended":
            break
        command = next_command(state, Policy(), now=float(len(log)))
        try:
            events = decide(state, command, rng)
        except RuleViolation:
            events = decide(state, EndTurn(actor=GM), rng)
    return initial, log, state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replaying_the_log_reproduces_the_identical_state(seed: int) -> None:
    initial, log, final = record(seed)
    assert replay(initial, log) == final
    assert len(log) > 20


@pytest.mark.parametrize("seed", [4, 5])
def test_events_round_trip_through_json_and_replay_the_same(seed: int) -> None:
    initial, log, final = record(seed)
    stored = [json.loads(json.dumps(event_to_dict(e))) for e in log]
    loaded = [event_from_dict(d) for d in stored]
    assert loaded == log
    assert replay(initial, loaded) == final
    assert all(d["type"] in EVENTS for d in stored)


def test_state_snapshot_round_trips_through_json() -> None:
    _, _, final = record(6)
    snapshot = json.loads(json.dumps(state_to_dict(final)))
    assert state_from_dict(snapshot) == final
    assert snapshot["ruleset"] == "eleora"
    with pytest.raises(ValueError):
        state_from_dict({**snapshot, "ruleset": "magus"})


def test_commands_round_trip_through_json() -> None:
    commands = [
        StartCombat(rolls={"ala": (3, 4)}, surprise_side="party"),
        DeclareAttack(actor="ala", target="wilk", weapon="Szabla", special="powalenie", now=5.5),
        ChooseReaction(actor="wilk", reactions=("parowanie", "unik"), shield="Tarcza"),
        Move(actor="ala", path=((1, 0), (2, 1)), charge=True),
        AddCondition(target="ala", condition="krwawienie", stacks=2),
    ]
    for cmd in commands:
        data = json.loads(json.dumps(command_to_dict(cmd)))
        assert command_from_dict(data) == cmd
        assert data["type"] == cmd.type_key and data["type"] in COMMANDS


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"type": "fly", "actor": "ala"}, "unknown command type"),
        ({"actor": "ala"}, "unknown command type"),
        ({"type": "declare_attack", "actor": "ala"}, "missing field"),
        ({"type": "aim", "actor": "ala", "target": 3}, "expected text"),
        ({"type": "aim", "actor": "ala", "target": "w", "wings": 2}, "unknown fields"),
        ({"type": "yield_initiative", "actor": "ala", "by": True}, "whole number"),
        ({"type": "yield_initiative", "actor": "ala", "by": 1.5}, "whole number"),
        (
            {"type": "declare_attack", "actor": "a", "target": "b", "weapon": "c", "special": "x"},
            "expected one of",
        ),
        ({"type": "move", "actor": "a", "path": [[1, 2, 3]]}, "expected 2 items"),
        ({"type": "move", "actor": "a", "path": "north"}, "expected a list"),
        ({"type": "choose_reaction", "actor": "a", "now": "later"}, "expected a number"),
        ({"type": "set_hidden", "target": "a", "hidden": "yes"}, "true or false"),
        ({"type": "start_combat", "rolls": [1, 2]}, "expected an object"),
        ({"type": "give_order", "actor": "a", "order": "x" * 501}, "longer than"),
        ({"type": "set_environment", "darkness": "noc"}, "unknown value"),
        ({"type": "place_combatant", "target": "a", "to": None, "type2": 1}, "unknown fields"),
    ],
)
def test_bad_command_json_raises_a_clear_value_error(
    data: dict[str, object], fragment: str
) -> None:
    with pytest.raises(ValueError) as bad:
        command_from_dict(data)
    assert fragment in str(bad.value)


def test_not_an_object_is_refused() -> None:
    with pytest.raises(ValueError):
        command_from_dict([1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        event_from_dict("x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        event_from_dict({"type": "nothing"})


def test_a_recorded_roll_must_be_a_possible_roll() -> None:
    _, log, _ = record(7)
    data = next(event_to_dict(e) for e in log if type(e).__name__ == "AttackResolved")
    data["attack_roll"]["faces"] = [7] * len(data["attack_roll"]["faces"])
    with pytest.raises(ValueError) as bad:
        event_from_dict(data)
    assert "impossible roll" in str(bad.value)
    data["attack_roll"]["faces"] = [1]
    with pytest.raises(ValueError):
        event_from_dict(data)


def test_nested_junk_is_refused_at_the_first_wrong_level() -> None:
    nested: object = "x"
    for _ in range(100):
        nested = {"a": nested}
    with pytest.raises(ValueError) as bad:
        command_from_dict({"type": "start_combat", "rolls": nested})
    assert "start_combat.rolls.a: expected a list" in str(bad.value)


def test_join_combat_carries_free_form_combatant_data() -> None:
    cmd = JoinCombat(combatant={"id": "lis", "side": "foes", "sheet": {"name": "Lis"}}, roll=(2, 3))
    assert command_from_dict(json.loads(json.dumps(command_to_dict(cmd)))) == cmd


def test_a_typed_object_of_another_type_is_refused() -> None:
    with pytest.raises(ValueError) as bad:
        CODEC.from_data(Aim, {"type": "move", "actor": "a", "target": "b"}, "aim")
    assert "expected type 'aim'" in str(bad.value)
    with pytest.raises(ValueError) as odd:
        CODEC.from_data(complex, 1, "x")
    assert "cannot decode" in str(odd.value)
