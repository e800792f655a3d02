"""Eleora's panels are frozen records of plain values, compared by value: the live table
re-renders a region only when its record changed. Walked through a fight with the engine's
decide and evolve, every panel at every step is hashable, equal when rebuilt from an equal
state, unchanged by what does not concern it and changed by what does."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from combat.rules.base import Fields
from combat.rules.eleora import RULESET
from combat.rules.eleora.commands import (
    AddCondition,
    Aim,
    ChooseReaction,
    Command,
    DeclareAttack,
    EditHealth,
    EndCombat,
    EndTurn,
    GMRoll,
    RemoveCondition,
    RollInitiative,
    StartCombat,
)
from combat.rules.eleora.state import EncounterState
from combat.rules.eleora.table import PromptPanel, Ref
from tests.combat.rules import panel_kit
from tests.combat.rules.engine_kit import TARCZA, make_combatant, make_sheet, make_state

EVERYONE = frozenset({"ala", "ola", "wilk", "szpieg"})
PLAYERS = frozenset({"ala", "ola", "wilk"})  # the spy is hidden from them
PLAIN = (str, int, float, bool, type(None), Fields, frozenset)


def fresh() -> EncounterState:
    ala = make_combatant("ala", controller="1", sheet=make_sheet("Ala", shields=(TARCZA,)))
    ola = make_combatant("ola", controller="2")
    wilk = make_combatant("wilk", "foes")
    spy = make_combatant("szpieg", "foes", hidden=True)
    return make_state(ala, ola, spy, wilk)  # by id, as the table keeps a state's mappings


FIGHT: tuple[Command, ...] = (
    RollInitiative(actor="ala", roll=(5, 5)),
    AddCondition(target="ola", condition="inspiracja", stacks=2),
    StartCombat(rolls={"ala": (6, 6), "ola": (5, 5), "wilk": (2, 2), "szpieg": (1, 1)}),
    DeclareAttack(actor="ala", target="wilk", weapon="Szabla"),
    ChooseReaction(actor="wilk", reactions=()),
    Aim(actor="ala", target="wilk"),
    EndTurn(actor="ala"),
    EndTurn(actor="ola"),
    DeclareAttack(actor="wilk", target="ola", weapon="Szabla"),
    ChooseReaction(actor="ola", reactions=("unik",), heroism=True),
    EndTurn(actor="wilk"),
    EndCombat(winner="party"),
)


def step(state: EncounterState, command: Command, seed: int = 0) -> EncounterState:
    events = RULESET.decide(state, command, random.Random(seed))
    return RULESET.replay(state, events)


def walk() -> Iterator[EncounterState]:
    """Each state of the fight, from the setup to its end (prompts open on the way)."""
    state = fresh()
    yield state
    for n, command in enumerate(FIGHT):
        if isinstance(command, ChooseReaction) and not _asked(state, command.actor):
            continue  # no reaction before its first turn: the attack rolled at once
        state = step(state, command, seed=n)
        yield state


def _asked(state: EncounterState, actor: str) -> bool:
    return any(p.actor == actor for p in state.prompts)


def panels(state: EncounterState) -> dict[tuple[str, ...], Any]:
    """Every panel of the state, for the GM's sight and a player's."""
    return panel_kit.panels(RULESET, state, EVERYONE, PLAYERS)


def seat_panels(found: dict[tuple[str, ...], Any], cid: str) -> dict[tuple[str, ...], Any]:
    return {key: panel for key, panel in found.items() if key[-1] == cid and key[0] != "turn"}


def test_every_panel_is_a_hashable_record_of_plain_values() -> None:
    shown = set()
    for state in walk():
        for key, panel in panels(state).items():
            hash(panel)
            panel_kit.assert_plain(panel, "/".join(key))
            if panel is not None:
                shown.add(key[0])
    assert shown == {"gm", "turn", "seat", "gm_seat", "prompt"}


def test_a_panel_rebuilt_from_an_equal_state_is_equal() -> None:
    for state in walk():
        again = RULESET.state_from_dict(RULESET.state_to_dict(state))
        assert again is not state
        assert panels(again) == panels(state)


def test_a_log_only_entry_changes_no_panel() -> None:
    for n, state in enumerate(walk()):
        if state.phase == "ended":
            continue  # the GM rolls no die from an ended fight's revealed seed
        rolled = step(state, GMRoll(dice=3, label="Tajny rzut"), seed=100 + n)
        assert panels(rolled) == panels(state)


def test_another_seats_wounds_leave_a_seats_panels_equal_and_its_own_change_them() -> None:
    for n, state in enumerate(walk()):
        if state.phase == "ended":
            continue
        before = panels(state)
        wilk = state.get("wilk")
        hurt = step(state, EditHealth(target="wilk", damage_physical=wilk.damage_physical + 1,
                                      damage_stun=0), seed=200 + n)  # fmt: skip
        after = panels(hurt)
        for cid in ("ala", "ola", "szpieg"):
            assert seat_panels(after, cid) == seat_panels(before, cid), (n, cid)
        assert after["gm_seat", "wilk"] != before["gm_seat", "wilk"]


def test_spending_its_actions_changes_the_turn_panel() -> None:
    states = list(walk())
    state = next(s for s in states if s.current == "ala" and s.get("ala").actions_left == 2)
    before = RULESET.turn_panel(state, "ala", PLAYERS)
    aimed = step(state, Aim(actor="ala", target="wilk"))
    spent = step(aimed, Aim(actor="ala", target="wilk"))
    after = RULESET.turn_panel(spent, "ala", PLAYERS)
    assert before is not None and after is not None and after != before
    assert [a.key for a in before.actions if a.available] != [
        a.key for a in after.actions if a.available
    ]
    # Ola's panels, whose turn it is not, stay as they were.
    assert RULESET.turn_panel(spent, "ola", PLAYERS) == RULESET.turn_panel(state, "ola", PLAYERS)
    assert RULESET.seat_panel(spent, "ola", PLAYERS) == RULESET.seat_panel(state, "ola", PLAYERS)


def test_the_turn_panel_names_only_whom_the_viewer_sees() -> None:
    state = next(s for s in walk() if s.current == "ala")
    gm, player = (RULESET.turn_panel(state, "ala", seen) for seen in (EVERYONE, PLAYERS))
    assert gm is not None and player is not None
    assert player.targets == (Ref("ola", "Ola"), Ref("wilk", "Wilk"))
    assert player.attack_targets == player.enemies == (Ref("wilk", "Wilk"),)
    assert Ref("szpieg", "Szpieg") in gm.attack_targets and gm != player
    assert player.shields == (("Tarcza", 2),) and not player.heroism


def test_a_prompt_panel_offers_the_heroism_die_while_the_defender_has_one() -> None:
    state = next(s for s in walk() if any(p.actor == "ola" for p in s.prompts))
    (prompt,) = state.prompts
    assert RULESET.prompt_panel(state, prompt.id) == PromptPanel(prompt.id)
    spent = step(state, RemoveCondition(target="ola", condition="inspiracja"))
    assert RULESET.prompt_panel(spent, prompt.id) is None
    assert RULESET.prompt_panel(state, "p-none") is None


def test_a_seat_panel_changes_with_its_own_reactions() -> None:
    state = next(s for s in walk() if s.current == "ola")
    before = RULESET.seat_panel(state, "ala", PLAYERS)
    bound = step(state, AddCondition(target="ala", condition="paraliz"))
    after = RULESET.seat_panel(bound, "ala", PLAYERS)
    assert before is not None and before != after
    assert RULESET.seat_panel(bound, "ola", PLAYERS) == RULESET.seat_panel(state, "ola", PLAYERS)


def test_the_gm_panel_follows_the_phase_and_not_the_wounds() -> None:
    states = list(walk())
    setup, running, ended = states[0], states[3], states[-1]
    assert RULESET.gm_panel(setup) != RULESET.gm_panel(running) != RULESET.gm_panel(ended)
    hurt = step(running, EditHealth(target="ala", damage_physical=2, damage_stun=1))
    assert RULESET.gm_panel(hurt) == RULESET.gm_panel(running)
    assert RULESET.gm_seat_panel(hurt, "ala") != RULESET.gm_seat_panel(running, "ala")
    assert RULESET.gm_seat_panel(hurt, "ola") == RULESET.gm_seat_panel(running, "ola")
