"""GM overrides are commands, so every ruling lands in the log as an event."""

from __future__ import annotations

import random

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora.commands import (
    AddCondition,
    GMRoll,
    PlaceCombatant,
    RemoveCondition,
    RevealStats,
    SetEnvironment,
    SetHidden,
)
from combat.rules.eleora.environment import Darkness
from combat.rules.eleora.events import GMRolled
from combat.rules.eleora.state import EncounterState
from tests.combat.rules.engine_kit import begin, make_combatant, make_state, of_type, step


def table() -> EncounterState:
    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(3, 3))
    )
    return begin(state, ["ala", "wilk"])


def test_gm_secret_roll_of_any_pool() -> None:
    _, events = step(table(), GMRoll(dice=5, label="Percepcja wilka"), random.Random(2))
    rolled = of_type(events, GMRolled)[0]
    assert rolled.secret and rolled.roll.size == 5
    _, events = step(table(), GMRoll(dice=2, secret=False), random.Random(2))
    assert not of_type(events, GMRolled)[0].secret
    with pytest.raises(RuleViolation):
        step(table(), GMRoll(dice=-1))


def test_gm_hides_a_combatant_and_reveals_stats() -> None:
    state, _ = step(table(), SetHidden(target="wilk", hidden=True))
    assert state.get("wilk").hidden
    state, _ = step(state, RevealStats(target="wilk"))
    assert state.get("wilk").stats_revealed and state.get("wilk").hidden


def test_gm_moves_a_combatant_to_a_free_square_or_off_the_map() -> None:
    state, _ = step(table(), PlaceCombatant(target="wilk", to=(1, 1)))
    assert state.get("wilk").position == (1, 1)
    with pytest.raises(RuleViolation) as refused:
        step(state, PlaceCombatant(target="wilk", to=(0, 0)))
    assert refused.value.code == "zajete"
    state, _ = step(state, PlaceCombatant(target="wilk", to=None))
    assert state.get("wilk").position is None


def test_gm_sets_darkness_and_difficult_terrain() -> None:
    state, _ = step(
        table(), SetEnvironment(darkness=Darkness.CIEMNOSC, difficult_terrain=((1, 1),))
    )
    assert state.darkness == Darkness.CIEMNOSC and state.difficult_terrain == {(1, 1)}


def test_gm_adds_and_removes_conditions_by_source() -> None:
    state, _ = step(
        table(),
        AddCondition(target="ala", condition="unieruchomienie", source="wilk", difficulty=3),
    )
    state, _ = step(
        state, AddCondition(target="ala", condition="unieruchomienie", source="lis", difficulty=2)
    )
    state, _ = step(state, RemoveCondition(target="ala", condition="unieruchomienie", source="lis"))
    assert [c.source for c in state.get("ala").conditions] == ["wilk"]
    with pytest.raises(RuleViolation):
        step(state, AddCondition(target="ala", condition="szal", stacks=0))


def test_gm_overrides_need_the_gm() -> None:
    with pytest.raises(RuleViolation) as refused:
        step(table(), SetHidden(actor="ala", target="wilk", hidden=True))
    assert refused.value.message == "Tylko Mistrz Gry może to zrobić."


def test_gm_overrides_work_before_the_fight() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    state, _ = step(state, SetHidden(target="wilk", hidden=True))
    assert state.get("wilk").hidden and state.phase == "setup"


def test_unknown_combatant_refused_readably() -> None:
    with pytest.raises(RuleViolation) as refused:
        step(table(), SetHidden(target="smok", hidden=True))
    assert refused.value.message == "Nie ma takiej postaci: smok"
