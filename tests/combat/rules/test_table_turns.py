"""The live table's rules around a turn: the odds preview runs the command's checks, the attack
form knows which weapons may attack now, a spent turn ends by itself, an undo restarts the
deadlines it brings back, and GM-run characters can play their own turn."""

from __future__ import annotations

import pytest

from combat.rules.base import Fields, RuleViolation, autoplay_of
from combat.rules.eleora import RULESET, narrate
from combat.rules.eleora.commands import (
    DeclareAttack,
    EndTurn,
    Prepare,
    RollInitiative,
    StartCombat,
)
from combat.rules.eleora.events import DeadlinesMoved, InitiativeRolled, TurnEnded
from combat.rules.eleora.forms import NPC_POLICY_CHOICES
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import EncounterState
from combat.rules.eleora.table import WeaponChoice, table_view, turn_panel
from combat.rules.records import replace
from tests.combat.rules.engine_kit import (
    LUK,
    SZABLA,
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
)
from tests.combat.rules.engine_kit import step as kit_step


def archer_turn(settings: TableSettings | None = None) -> EncounterState:
    archer = make_combatant("ala", sheet=make_sheet("Ala", weapons=(SZABLA, LUK)))
    wolf = make_combatant("wilk", "foes")
    return begin(make_state(archer, wolf, settings=settings), ["ala", "wilk"])


def test_preview_of_an_unloaded_bow_is_refused_as_the_attack_would_be() -> None:
    state = archer_turn()
    ala = replace(state.get("ala"), unloaded=frozenset({"Łuk"}))
    state = state.put(ala)
    bow = DeclareAttack(actor="ala", target="wilk", weapon="Łuk")
    with pytest.raises(RuleViolation) as previewed:
        RULESET.preview_odds(state, bow)
    with pytest.raises(RuleViolation) as declared:
        kit_step(state, bow)
    assert previewed.value.message == declared.value.message
    assert previewed.value.message == "Broń „Łuk” nie jest naładowana: potrzebne Przeładowanie."


def test_preview_of_a_weapon_used_this_turn_is_refused() -> None:
    state = archer_turn()
    state = state.put(replace(state.get("ala"), weapons_used=("Szabla",)))
    with pytest.raises(RuleViolation) as previewed:
        RULESET.preview_odds(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"))
    assert previewed.value.code == "bron_uzyta"
    assert RULESET.preview_odds(state, DeclareAttack(actor="ala", target="wilk", weapon="Łuk"))


def test_the_attack_form_says_which_weapons_may_attack_now_and_why_not() -> None:
    state = archer_turn()
    state = state.put(
        replace(state.get("ala"), weapons_used=("Szabla",), unloaded=frozenset({"Łuk"}))
    )
    panel = turn_panel(state, "ala", frozenset({"ala", "wilk"}))
    weapons = {w.key: w for w in panel.weapons}
    assert list(weapons) == ["Szabla", "Łuk", "wrecz"]
    assert weapons["Szabla"].available is False
    assert weapons["Szabla"].reason_template.startswith("Tą bronią (%(name)s) już atakowano")
    assert weapons["Łuk"].reason == "Broń „Łuk” nie jest naładowana: potrzebne Przeładowanie."
    assert weapons["wrecz"] == WeaponChoice(
        key="wrecz",
        name="bez broni",
        name_template="bez broni",
        damage=2,
        available=True,
        reason="",
        reason_template="",
        reason_params=Fields({}),
    )


def test_a_melee_weapon_out_of_reach_is_unavailable() -> None:
    archer = make_combatant("ala", position=(0, 0))
    wolf = make_combatant("wilk", "foes", position=(5, 5))
    state = begin(make_state(archer, wolf), ["ala", "wilk"])
    (szabla, _hands) = turn_panel(state, "ala", frozenset({"ala", "wilk"})).weapons
    assert szabla.available is False and szabla.reason_params == {"name": "Wilk"}


def test_koniec_tury_comes_by_itself_when_no_action_is_left() -> None:
    state = archer_turn(TableSettings())  # the table's default: auto_end_turn on
    state, _events = kit_step(state, Prepare(actor="ala"))
    assert state.current == "ala"
    state, events = kit_step(state, Prepare(actor="ala"))
    assert TurnEnded(combatant="ala") in events
    assert state.current == "wilk"
    with pytest.raises(RuleViolation):
        kit_step(state, EndTurn(actor="ala"))


def test_koniec_tury_waits_for_the_answer_to_the_last_attack() -> None:
    state = archer_turn(TableSettings())
    state = state.put(replace(state.get("ala"), actions_left=1))
    state = state.put(replace(state.get("wilk"), has_acted=True, reactions_left=1))
    state, _events = kit_step(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"))
    assert state.prompts and state.current == "ala"


def test_resume_gives_each_prompt_the_time_it_had_left() -> None:
    state = archer_turn()
    state = state.put(replace(state.get("wilk"), has_acted=True, reactions_left=1))
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Szabla", now=100.0)
    state, _events = kit_step(state, attack)
    (prompt,) = state.prompts
    assert prompt.deadline == 115.0
    events = RULESET.resume(state, paused_at=104.0, now=500.0, minimum=5.0)
    assert events == [DeadlinesMoved(deadlines={prompt.id: 511.0})]
    assert RULESET.evolve(state, events[0]).prompts[0].deadline == 511.0
    late = RULESET.resume(state, paused_at=120.0, now=500.0, minimum=5.0)
    assert late == [DeadlinesMoved(deadlines={prompt.id: 505.0})]
    assert RULESET.describe(state, events[0]) is None


def test_a_gm_run_character_plays_its_turn_with_legal_commands_to_its_end() -> None:
    autoplay = autoplay_of(RULESET)
    assert autoplay is not None
    wolf = make_combatant("wilk", "foes")
    ala = make_combatant("ala", has_acted=True)
    state = begin(
        make_state(wolf, ala, settings=TableSettings(npc_default_policy="brak")), ["wilk", "ala"]
    )
    assert autoplay.autoplay_command(state, "ala", "najslabszy", 0.0) is None  # not its turn
    first = autoplay.autoplay_command(state, "wilk", "najslabszy", 0.0)
    assert first == DeclareAttack(actor="wilk", target="ala", weapon="Szabla", now=0.0)
    state = state.put(replace(state.get("wilk"), weapons_used=("Szabla",)))
    second = autoplay.autoplay_command(state, "wilk", "najslabszy", 0.0)
    assert isinstance(second, DeclareAttack) and second.weapon == "wrecz"
    state = state.put(replace(state.get("wilk"), actions_left=0))
    assert autoplay.autoplay_command(state, "wilk", "najslabszy", 0.0) == EndTurn(actor="wilk")
    with pytest.raises(ValueError):
        autoplay.autoplay_command(state, "wilk", "magia", 0.0)


def test_the_default_npc_policy_is_a_setting_with_the_reaction_policies_as_choices() -> None:
    assert tuple(RULESET.reaction_policies()) == NPC_POLICY_CHOICES
    state = archer_turn(TableSettings())
    assert RULESET.default_policy(state) == "lepsza"
    assert TableSettings.from_dict({"npc_default_policy": "ask"}).npc_default_policy == "ask"
    with pytest.raises(ValueError):
        TableSettings.from_dict({"npc_default_policy": "magia"})


def test_inicjatywa_shows_as_soon_as_it_is_rolled_and_every_roll_reaches_the_log() -> None:
    ala = make_combatant("ala", sheet=make_sheet(intuicja=3))
    wilk = make_combatant("wilk", "wrogowie", sheet=make_sheet("Wilk", intuicja=1))
    state, _ = kit_step(make_state(ala, wilk), RollInitiative(actor="ala"), Dice(4, 5))
    assert table_view(state).seats["ala"].initiative == 4 + 5 + 3  # before the fight starts
    assert table_view(state).seats["wilk"].initiative is None
    _, events = kit_step(state, StartCombat(), Dice(2, 6))
    told = [e for e in events if isinstance(e, InitiativeRolled)]
    assert [e.combatant for e in told] == ["wilk"]  # Ala's roll was told when she rolled it
    line = narrate.describe(state, told[0])
    assert line is not None and line.actors == ("wilk",)
    assert line.params["total"] == 2 + 6 + 1
