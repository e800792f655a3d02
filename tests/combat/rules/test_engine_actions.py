"""Akcje: the action economy and every basic action of the document."""

from __future__ import annotations

import random

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora.commands import (
    AddCondition,
    Aim,
    ChooseReaction,
    DeclareAttack,
    Draw,
    EndTurn,
    GiveOrder,
    Guard,
    Incantation,
    Interact,
    LetPass,
    Move,
    Prepare,
    Reload,
    StandUp,
    Steer,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.events import (
    AttackDeclared,
    HealthChanged,
    ItemMoved,
    ItemUsed,
    MountAdrift,
    Moved,
    Note,
    PromptOpened,
    TestRolled,
    TurnEnded,
    TurnStarted,
)
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import UNARMED, EncounterState
from tests.combat.rules.engine_kit import (
    KASTET,
    LUK,
    SZABLA,
    SZTYLET,
    TARCZA,
    TOPOR,
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    of_type,
    step,
)


def duel(**ala: object) -> EncounterState:
    return make_state(make_combatant("ala", **ala), make_combatant("wilk", "foes"))  # type: ignore[arg-type]


def declared(events: list[object]) -> AttackDeclared:
    return of_type(events, AttackDeclared)[0]  # type: ignore[arg-type]


# --- action economy ---------------------------------------------------------------------------


def test_two_actions_and_one_reaction_per_turn() -> None:
    state = begin(duel(), ["ala", "wilk"])
    ala = state.get("ala")
    assert (ala.actions_left, ala.reactions_left) == (2, 1)
    state, _ = step(state, Prepare(actor="ala"))
    state, _ = step(state, Prepare(actor="ala"))
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="ala"))
    assert refused.value.code == "brak_akcji"
    assert refused.value.message == "Brak akcji: wykorzystano obie akcje w tej turze."


def test_no_reaction_before_first_turn() -> None:
    state = begin(duel(), ["ala", "wilk"])
    _, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), Dice(*[4] * 9)
    )
    assert declared(events).prompt is None  # the wolf has not had a turn: no Parowanie/Unik


def test_reaction_refreshes_at_start_of_own_turn() -> None:
    wilk = make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=()))
    state = begin(make_state(make_combatant("ala"), wilk), ["ala", "wilk"])
    state, _ = step(state, EndTurn(actor="ala"))
    state, events = step(state, DeclareAttack(actor="wilk", target="ala", weapon=UNARMED))
    assert declared(events).prompt is not None
    state, _ = step(state, ChooseReaction(actor="ala", reactions=("unik",)), Dice(*[1] * 9))
    assert state.get("ala").reactions_left == 0
    state, events = step(
        state, DeclareAttack(actor="wilk", target="ala", weapon=UNARMED), Dice(*[1] * 7)
    )
    assert declared(events).prompt is None  # no reaction left: resolved at once
    state, _ = step(state, EndTurn(actor="wilk"))
    assert state.get("ala").reactions_left == 1


def test_przygotowanie_gives_extra_reaction_until_next_turn() -> None:
    wilk = make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=()))
    state = begin(make_state(make_combatant("ala"), wilk), ["ala", "wilk"])
    state, _ = step(state, Prepare(actor="ala"))
    assert state.get("ala").reactions_left == 2
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, DeclareAttack(actor="wilk", target="ala", weapon=UNARMED))
    both = ChooseReaction(actor="ala", reactions=("parowanie", "unik"))
    state, events = step(state, both, Dice(*[1] * 10))
    assert state.get("ala").reactions_left == 0
    state, _ = step(state, EndTurn(actor="wilk"))
    assert state.get("ala").reactions_left == 1  # the extra one lapses at the start of the turn


def test_one_attack_action_per_weapon_per_turn() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), Dice(*[1] * 9)
    )
    with pytest.raises(RuleViolation) as refused:
        step(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"))
    assert refused.value.code == "bron_uzyta"


def test_unarmed_attack_always_allowed_even_after_weapon_attack() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), Dice(*[1] * 9)
    )
    _, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon=UNARMED), Dice(*[1] * 8)
    )
    reasons = [m.reason for m in declared(events).attack.modifiers]
    assert not any(r.startswith("Druga broń") for r in reasons)


def test_unarmed_two_attacks_without_penalty_each_limb_a_weapon() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, first = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon=UNARMED), Dice(*[1] * 8)
    )
    _, second = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon=UNARMED), Dice(*[1] * 8)
    )
    assert declared(first).attack.modifiers == declared(second).attack.modifiers


def test_short_walka_wrecz_weapon_two_attacks_without_penalty() -> None:
    state = begin(duel(sheet=make_sheet(weapons=(KASTET, SZABLA))), ["ala", "wilk"])
    state, _ = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Kastet"), Dice(*[1] * 8)
    )
    _, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Kastet"), Dice(*[1] * 8)
    )
    assert all(m.dice >= 0 for m in declared(events).attack.modifiers)


@pytest.mark.parametrize(
    ("first", "second", "penalty"),
    [
        ("Szabla", "Topór", -3),
        ("Topór", "Szabla", -2),
        ("Szabla", "Sztylet", -1),
        ("Kastet", "Szabla", -2),  # only two Walka Wręcz attacks go without the penalty
    ],
)
def test_two_weapon_penalty_on_the_second_weapon(first: str, second: str, penalty: int) -> None:
    sheet = make_sheet(weapons=(SZABLA, TOPOR, SZTYLET, KASTET))
    state = begin(duel(sheet=sheet), ["ala", "wilk"])
    state, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon=first), random.Random(1)
    )
    assert not any(m.reason.startswith("Druga") for m in declared(events).attack.modifiers)
    _, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon=second), random.Random(2)
    )
    mods = {m.reason: m.dice for m in declared(events).attack.modifiers}
    assert [v for k, v in mods.items() if k.startswith("Druga broń")] == [penalty]


def test_oszolomienie_allows_one_action() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(state, AddCondition(target="wilk", condition="oszolomienie"))
    state, _ = step(state, EndTurn(actor="ala"))
    assert state.get("wilk").actions_left == 1
    state, _ = step(state, Prepare(actor="wilk"))
    with pytest.raises(RuleViolation):
        step(state, Prepare(actor="wilk"))
    state, _ = step(state, EndTurn(actor="wilk"))
    assert not state.get("wilk").has("oszolomienie")  # until the end of its next turn


def test_oszolomienie_in_the_surprise_turn_keeps_its_one_action() -> None:
    state = begin(duel(), ["ala", "wilk"], surprise_side="party")
    assert state.phase == "surprise" and state.get("ala").actions_left == 1
    state, _ = step(state, AddCondition(target="ala", condition="oszolomienie"))
    assert state.get("ala").actions_left == 1  # one action in all, and none used yet
    state, _ = step(state, Prepare(actor="ala"))
    assert state.get("ala").actions_left == 0


def test_paraliz_no_actions_or_reactions() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(state, AddCondition(target="wilk", condition="paraliz", turns=2))
    state, events = step(state, EndTurn(actor="ala"))
    started = [e for e in of_type(events, TurnStarted) if e.combatant == "wilk"][0]
    assert (started.actions, started.reactions) == (0, 0)
    assert of_type(events, TurnEnded)[-1].combatant == "wilk"  # its turn passes by itself
    assert state.current == "ala"
    _, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), Dice(*[1] * 9)
    )
    assert declared(events).prompt is None


# --- Celowanie --------------------------------------------------------------------------------


def test_celowanie_stacks_to_three_and_resets_after_the_attack() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(state, Aim(actor="ala", target="wilk"))
    state, _ = step(state, Aim(actor="ala", target="wilk"))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, Aim(actor="ala", target="wilk"))
    assert state.get("ala").aim["wilk"] == 3
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    with pytest.raises(RuleViolation) as refused:
        step(state, Aim(actor="ala", target="wilk"))
    assert refused.value.code == "limit_celowania"
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    state, events = step(state, attack, random.Random(4))
    mods = {m.reason: m.dice for m in declared(events).attack.modifiers}
    assert mods["Celowanie"] == 3 and "wilk" not in state.get("ala").aim


def test_odsloniecie_counts_toward_aim_cap_and_first_attack_spends_it() -> None:
    state = make_state(make_combatant("ala"), make_combatant("bob"), make_combatant("wilk", "foes"))
    state = begin(state, ["ala", "bob", "wilk"])
    state, _ = step(state, AddCondition(target="wilk", condition="odsloniecie", stacks=2))
    state, _ = step(state, Aim(actor="ala", target="wilk"))
    with pytest.raises(RuleViolation):
        step(state, Aim(actor="ala", target="wilk"))
    state, _ = step(state, EndTurn(actor="ala"))
    state, events = step(
        state, DeclareAttack(actor="bob", target="wilk", weapon="Szabla"), random.Random(1)
    )
    mods = {m.reason: m.dice for m in declared(events).attack.modifiers}
    assert mods["Odsłonięcie"] == 2
    assert not state.get("wilk").has("odsloniecie")  # spent by the first attack from anyone
    assert state.get("ala").aim["wilk"] == 1


# --- Inkantacja, Komenda, Przygotowanie -------------------------------------------------------


def test_inkantacja_counts_spell_parts_and_provokes_atak_okazyjny() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(1, 0))
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, events = step(state, Incantation(actor="ala", spell="Kula ognia"))
    assert state.get("ala").spell_parts["Kula ognia"] == 1
    offer = of_type(events, PromptOpened)[0].prompt
    assert (offer.kind, offer.actor, offer.target) == ("atak_okazyjny", "wilk", "ala")
    with pytest.raises(RuleViolation) as refused:
        step(state, Incantation(actor="ala", spell="Kula ognia"))
    assert refused.value.code == "czekamy_na_reakcje"


def test_komenda_records_the_order() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, events = step(state, GiveOrder(actor="ala", order="Burek, bierz go!"))
    assert of_type(events, Note)[0].text == "Burek, bierz go!"
    assert state.get("ala").actions_left == 1
    with pytest.raises(RuleViolation):
        step(state, GiveOrder(actor="ala", order="  "))


# --- Przeładowanie ----------------------------------------------------------------------------


def test_przeladowanie_needs_two_actions_across_turns_and_cannot_shoot_unloaded() -> None:
    state = begin(duel(sheet=make_sheet(weapons=(LUK,))), ["ala", "wilk"])
    state, _ = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Łuk"), random.Random(2)
    )
    with pytest.raises(RuleViolation) as refused:
        step(state, Reload(actor="ala", weapon="Szabla"))
    assert refused.value.code == "bron"
    state, _ = step(state, Reload(actor="ala", weapon="Łuk"))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    with pytest.raises(RuleViolation) as unloaded:
        step(state, DeclareAttack(actor="ala", target="wilk", weapon="Łuk"))
    assert unloaded.value.code == "nienaladowana"
    state, _ = step(state, Reload(actor="ala", weapon="Łuk"))
    assert "Łuk" not in state.get("ala").unloaded
    with pytest.raises(RuleViolation) as loaded:
        step(state, Reload(actor="ala", weapon="Łuk"))
    assert loaded.value.code == "naladowana"


def test_przeladowanie_provokes_atak_okazyjny() -> None:
    sheet = make_sheet(weapons=(LUK,))
    state = make_state(
        make_combatant("ala", position=(0, 0), sheet=sheet, unloaded=frozenset({"Łuk"})),
        make_combatant("wilk", "foes", position=(1, 1)),
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    _, events = step(state, Reload(actor="ala", weapon="Łuk"))
    prompt = of_type(events, PromptOpened)[0].prompt
    assert prompt.kind == "atak_okazyjny"
    assert prompt.trigger == "Przeładowanie"  # issue 22, point 6g: not „Przeladowanie”


def test_przeladowanie_only_for_weapons_that_need_it() -> None:
    state = begin(duel(), ["ala", "wilk"])
    with pytest.raises(RuleViolation) as refused:
        step(state, Reload(actor="ala", weapon="Szabla"))
    assert refused.value.code == "przeladowanie"


# --- Ruch -------------------------------------------------------------------------------------


def test_ruch_three_metres_without_a_map() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, events = step(state, Move(actor="ala", metres=3))
    assert of_type(events, Moved)[0].metres == 3
    with pytest.raises(RuleViolation) as refused:
        step(state, Move(actor="ala", metres=4))
    assert refused.value.code == "za_daleko"


def test_ruch_on_the_map_follows_the_path_and_difficult_terrain_costs_double() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(9, 9))
    )
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, Move(actor="ala", path=((1, 0), (2, 0), (3, 0))))
    assert state.get("ala").position == (3, 0)
    from combat.rules.eleora.commands import SetEnvironment

    state, _ = step(state, SetEnvironment(difficult_terrain=((4, 0), (5, 0))))
    with pytest.raises(RuleViolation) as refused:
        step(state, Move(actor="ala", path=((4, 0), (5, 0))))
    assert "4 m" in refused.value.message
    with pytest.raises(RuleViolation):
        step(state, Move(actor="ala", path=((5, 5),)))


def test_ruch_cannot_end_on_or_pass_through_an_enemy() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(1, 0))
    )
    state = begin(state, ["ala", "wilk"])
    with pytest.raises(RuleViolation):
        step(state, Move(actor="ala", path=((1, 0),)))
    with pytest.raises(RuleViolation) as refused:
        step(state, Move(actor="ala", path=((1, 0), (2, 0))))
    assert "wroga" in refused.value.message


def test_unieruchomienie_dragging_onto_a_taken_square_is_refused() -> None:
    grip = ConditionInstance("unieruchomienie", source="ala", difficulty=3)
    state = make_state(
        make_combatant("ala", position=(1, 0)),
        make_combatant("wilk", "foes", position=(0, 0), conditions=(grip,)),
        make_combatant("kot", "foes", position=(0, 1)),
    )
    state = begin(state, ["ala", "wilk", "kot"])
    with pytest.raises(RuleViolation) as refused:  # never a ValueError from the grid later
        step(state, Move(actor="ala", path=((1, 1),)))
    assert refused.value.code == "zajete" and "Wilk" in refused.value.message
    state, _ = step(state, Move(actor="ala", path=((2, 0),)))
    assert state.get("wilk").position == (1, 0)


def test_bieg_adds_a_metre_per_bieganie_success() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, events = step(state, Move(actor="ala", mode="bieg", metres=5), Dice(4, 5))
    assert of_type(events, TestRolled)[0].test == "bieganie"
    assert of_type(events, Moved)[0].metres == 5


def test_bieg_critical_failure_stumbles_and_on_rough_ground_falls_prone() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(9, 9))
    )
    state = begin(state, ["ala", "wilk"])
    from combat.rules.eleora.commands import SetEnvironment

    state, _ = step(state, SetEnvironment(difficult_terrain=((1, 0),)))
    state, events = step(state, Move(actor="ala", mode="bieg", path=((1, 0),)), Dice(1, 2))
    assert not of_type(events, Moved) and state.get("ala").has("powalenie")
    assert state.get("ala").actions_left == 1  # the action is wasted


def test_plywanie_pass_moves_fail_drowns_for_stun() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, events = step(state, Move(actor="ala", mode="plywanie", metres=3), Dice(4, 1))
    assert of_type(events, Moved)[0].metres == 3
    state, events = step(state, Move(actor="ala", mode="plywanie", metres=3), Dice(1, 1))
    assert not of_type(events, Moved)
    assert of_type(events, HealthChanged)[0].stun == 2 - 1  # Wola 1 (DEFAULT: not a condition)


def test_toniecie_hurts_once_per_turn_not_per_failed_plywanie() -> None:
    state = begin(duel(), ["ala", "wilk"])
    swim = Move(actor="ala", mode="plywanie", metres=3)
    state, events = step(state, swim, Dice(1, 1))
    assert of_type(events, HealthChanged)[0].stun == 1
    state, events = step(state, swim, Dice(1, 1))
    assert not of_type(events, HealthChanged)  # the same turn: no second drowning damage
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    _, events = step(state, swim, Dice(1, 1))
    assert of_type(events, HealthChanged)[0].stun == 1  # the next turn in the water


def test_wspinaczka_pass_climbs_fail_falls() -> None:
    state = begin(duel(), ["ala", "wilk"])
    climb = Move(actor="ala", mode="wspinaczka", difficulty=1, metres=4, fall_metres=3)
    state, events = step(state, climb, Dice(6, 6))
    assert of_type(events, Moved)[0].metres == 4
    state, events = step(state, climb, Dice(1, 1))
    assert of_type(events, HealthChanged)[0].stun == 3 - 1
    with pytest.raises(RuleViolation):
        step(begin(duel(), ["ala", "wilk"]), Move(actor="ala", mode="wspinaczka"))


def test_upadek_wola_reduction_is_a_table_setting() -> None:
    table = TableSettings(fall_stun_reduced_by_wola=False)
    state = begin(make_state(*duel().combatants.values(), settings=table), ["ala", "wilk"])
    climb = Move(actor="ala", mode="wspinaczka", difficulty=1, metres=4, fall_metres=3)
    _, events = step(state, climb, Dice(1, 1))
    assert of_type(events, HealthChanged)[0].stun == 3  # no Wola reduction at this table


def test_oszolomienie_duration_is_a_table_setting() -> None:
    table = TableSettings(dazed_turns=2)
    state = begin(make_state(*duel().combatants.values(), settings=table), ["ala", "wilk"])
    state, _ = step(state, AddCondition(target="wilk", condition="oszolomienie"))
    assert [x.remaining for x in state.get("wilk").conditions] == [2]


def test_akrobatyka_on_difficult_terrain() -> None:
    state = begin(duel(), ["ala", "wilk"])
    _, events = step(state, Move(actor="ala", mode="akrobatyka", metres=3), Dice(5, 6))
    assert of_type(events, TestRolled)[0].difficulty == 2
    assert of_type(events, Moved)[0].metres == 3


def test_sterowanie_and_jazda_with_a_mount() -> None:
    state = begin(duel(), ["ala", "wilk"])
    with pytest.raises(RuleViolation) as refused:
        step(state, Steer(actor="ala", difficulty=1))
    assert refused.value.code == "bez_wierzchowca"
    state, _ = step(state, Interact(actor="ala", kind="dosiadanie"))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    state, events = step(state, Steer(actor="ala", difficulty=1, pace=6), Dice(5, 1))
    assert state.get("ala").steered and state.get("ala").mount_pace == 6
    state, events = step(
        state, Move(actor="ala", mode="jazda", metres=8, accelerate=True), Dice(5, 5)
    )
    assert of_type(events, Moved)[0].metres == 8


def test_sterowanie_needed_every_turn_for_jazda() -> None:
    state = begin(duel(mounted=True, mount_pace=6), ["ala", "wilk"])
    with pytest.raises(RuleViolation) as refused:  # not steered this turn
        step(state, Move(actor="ala", mode="jazda", metres=6))
    assert refused.value.code == "bez_sterowania"
    failed, _ = step(state, Steer(actor="ala", difficulty=2, pace=6), Dice(1, 2))
    assert failed.get("ala").mount_pace == 0
    with pytest.raises(RuleViolation):  # failed Sterowanie
        step(failed, Move(actor="ala", mode="jazda", metres=6))
    state, _ = step(state, Steer(actor="ala", difficulty=1, pace=6), Dice(5, 1))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    assert not state.get("ala").steered and state.get("ala").mount_pace == 0
    with pytest.raises(RuleViolation):  # last turn's Sterowanie does not carry over
        step(state, Move(actor="ala", mode="jazda", metres=6))


def test_sterowanie_not_taken_mount_goes_where_the_gm_says() -> None:
    state = begin(duel(mounted=True), ["ala", "wilk"])
    _, events = step(state, EndTurn(actor="ala"))
    assert of_type(events, MountAdrift)[0].combatant == "ala"
    state, _ = step(state, Steer(actor="ala", difficulty=2), Dice(1, 2))
    _, events = step(state, EndTurn(actor="ala"))
    assert of_type(events, MountAdrift)  # failed the Jeździectwo test


def test_powalenie_moves_one_metre_or_stands_up_with_a_ruch() -> None:
    state = begin(duel(conditions=(ConditionInstance("powalenie"),)), ["ala", "wilk"])
    with pytest.raises(RuleViolation):
        step(state, Move(actor="ala", metres=2))
    with pytest.raises(RuleViolation):
        step(state, Move(actor="ala", mode="bieg", metres=1))
    state, _ = step(state, Move(actor="ala", metres=1))
    state, _ = step(state, StandUp(actor="ala"))
    assert not state.get("ala").has("powalenie")
    state, _ = step(state, EndTurn(actor="ala"))
    with pytest.raises(RuleViolation):
        step(state, StandUp(actor="wilk"))


def test_unieruchomiony_cannot_move() -> None:
    grip = ConditionInstance("unieruchomienie", source="wilk", difficulty=3)
    state = begin(duel(conditions=(grip,)), ["ala", "wilk"])
    with pytest.raises(RuleViolation) as refused:
        step(state, Move(actor="ala", metres=1))
    assert refused.value.code == "unieruchomienie"


def test_przepuszczenie_lets_an_ally_through_your_square() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("bob", position=(1, 0)),
        make_combatant("wilk", "foes", position=(9, 9)),
    )
    state = begin(state, ["bob", "ala", "wilk"])
    through = Move(actor="ala", path=((1, 0), (2, 0)))
    state, _ = step(state, EndTurn(actor="bob"))
    with pytest.raises(RuleViolation) as refused:
        step(state, through)
    assert refused.value.code == "przepuszczenie"
    state, _ = step(state, LetPass(actor="bob", ally="ala"))
    state, _ = step(state, through)
    assert state.get("ala").position == (2, 0)
    assert state.get("bob").reactions_left == 0 and not state.get("bob").let_pass


def test_szarza_bonus_per_two_metres_for_the_next_attack_this_turn() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(5, 0))
    )
    state = begin(state, ["ala", "wilk"])
    with pytest.raises(RuleViolation):
        step(state, Move(actor="ala", path=((1, 0), (2, 1)), charge=True))
    run = Move(actor="ala", mode="bieg", path=((1, 0), (2, 0), (3, 0), (4, 0)), charge=True)
    state, _ = step(state, run, Dice(4, 5))
    assert state.get("ala").charge_bonus == 2
    state, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), random.Random(3)
    )
    assert {m.reason: m.dice for m in declared(events).attack.modifiers}["Szarża"] == 2
    assert state.get("ala").charge_bonus == 0


def test_szarza_attack_must_target_someone_beside_the_end() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("wilk", "foes", position=(3, 1)),
        make_combatant("lis", "foes", position=(0, 1)),
    )
    state = begin(state, ["ala", "wilk", "lis"])
    state, _ = step(state, Move(actor="ala", path=((1, 0), (2, 0)), charge=True))
    with pytest.raises(RuleViolation) as refused:
        step(state, DeclareAttack(actor="ala", target="lis", weapon="Szabla"))
    assert refused.value.code in ("szarza_cel", "zasieg")


# --- Dobycie, Zasłona -------------------------------------------------------------------------


def test_dobycie_draw_stow_and_pick_up() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(state, Draw(actor="ala", item="Szabla", mode="schowaj"))
    with pytest.raises(RuleViolation) as refused:
        step(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"))
    assert "dobyta" in refused.value.message
    with pytest.raises(RuleViolation):
        step(state, Draw(actor="ala", item="Szabla", mode="schowaj"))
    state, events = step(state, Draw(actor="ala", item="Szabla"))
    assert state.get("ala").holds("Szabla") and of_type(events, ItemMoved)[0].held
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    with pytest.raises(RuleViolation):
        step(state, Draw(actor="ala", item="Szabla"))
    state, _ = step(state, Draw(actor="ala", item="Strzała", mode="podnies"))
    assert state.get("ala").holds("Strzała")


def test_zaslona_plus_one_or_the_shield_once_per_turn() -> None:
    state = begin(duel(sheet=make_sheet(shields=(TARCZA,))), ["ala", "wilk"])
    state, _ = step(state, Guard(actor="ala", shield="Tarcza"))
    assert state.get("ala").guard_bonus == 2
    with pytest.raises(RuleViolation) as refused:
        step(state, Guard(actor="ala", shield="Tarcza"))
    assert refused.value.code == "tarcza"
    state, _ = step(state, Guard(actor="ala"))
    assert state.get("ala").guard_bonus == 3  # the second Zasłona falls back to +1
    state, _ = step(state, EndTurn(actor="ala"))
    assert state.get("ala").guard_bonus == 3  # lasts through the enemies' turns …
    state, _ = step(state, EndTurn(actor="wilk"))
    assert state.get("ala").guard_bonus == 0  # … until the start of her next turn


# --- Interakcja -------------------------------------------------------------------------------


def test_interakcja_ugaszenie_is_automatic() -> None:
    burning = (ConditionInstance("podpalenie", remaining=3),)
    state = begin(duel(conditions=burning), ["ala", "wilk"])
    state, events = step(state, Interact(actor="ala", kind="ugaszenie"))
    assert not state.get("ala").has("podpalenie") and not of_type(events, TestRolled)
    with pytest.raises(RuleViolation):
        step(state, Interact(actor="ala", kind="ugaszenie"))


def test_interakcja_tamowanie_krwawienia_medycyna_difficulty_two_plus_stacks() -> None:
    bleeding = tuple(ConditionInstance("krwawienie", remaining=3) for _ in range(2))
    state = begin(duel(conditions=bleeding), ["ala", "wilk"])
    # Medycyna pool: Intelekt 1 + Medycyna 2 = 3 dice; difficulty 2 + 1 extra stack = 3.
    state, events = step(state, Interact(actor="ala", kind="tamowanie"), Dice(6, 6, 1))
    assert of_type(events, TestRolled)[0].difficulty == 3
    assert state.get("ala").stacks("krwawienie") == 2
    state, _ = step(state, Interact(actor="ala", kind="tamowanie"), Dice(6, 6, 6))
    assert not state.get("ala").has("krwawienie")  # success stops every stack


def test_interakcja_on_another_needs_them_adjacent() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("bob", position=(3, 0), conditions=(ConditionInstance("powalenie"),)),
        make_combatant("wilk", "foes", position=(9, 9)),
    )
    state = begin(state, ["ala", "bob", "wilk"])
    with pytest.raises(RuleViolation) as refused:
        step(state, Interact(actor="ala", kind="podniesienie", target="bob"))
    assert refused.value.code == "nie_obok"
    state, _ = step(state, Move(actor="ala", path=((1, 0), (2, 0))))
    state, _ = step(state, Interact(actor="ala", kind="podniesienie", target="bob"))
    assert not state.get("bob").has("powalenie")


def test_interakcja_podanie_przedmiotu() -> None:
    state = make_state(make_combatant("ala"), make_combatant("bob"), make_combatant("wilk", "foes"))
    state = begin(state, ["ala", "bob", "wilk"])
    state, _ = step(state, Interact(actor="ala", kind="podanie", target="bob", item="Szabla"))
    assert not state.get("ala").holds("Szabla") and "Szabla" in state.get("bob").held_items()
    with pytest.raises(RuleViolation):
        step(state, Interact(actor="ala", kind="podanie", target="bob", item="Szabla"))


def test_interakcja_masc_lub_mikstura_on_someone() -> None:
    state = begin(duel(), ["ala", "wilk"])
    _, events = step(state, Interact(actor="ala", kind="uzycie", item="Maść lecznicza"))
    assert of_type(events, ItemUsed)[0].item == "Maść lecznicza"
    with pytest.raises(RuleViolation):
        step(state, Interact(actor="ala", kind="uzycie"))


def test_interakcja_wyrwanie_is_a_sila_test_against_the_hold() -> None:
    grip = ConditionInstance("unieruchomienie", source="wilk", difficulty=2)
    state = begin(duel(conditions=(grip,)), ["ala", "wilk"])
    state, events = step(state, Interact(actor="ala", kind="wyrwanie"), Dice(6, 1))
    assert state.get("ala").has("unieruchomienie")  # failed: nothing changes (no erosion)
    assert state.get("ala").conditions[0].difficulty == 2
    state, _ = step(state, Interact(actor="ala", kind="wyrwanie"), Dice(6, 5))
    assert not state.get("ala").has("unieruchomienie")


def test_interakcja_pomoc_w_wyrwaniu_works_as_wyzwolenie() -> None:
    grip = ConditionInstance("unieruchomienie", source="wilk", difficulty=5)
    state = make_state(
        make_combatant("ala"),
        make_combatant("bob", conditions=(grip,)),
        make_combatant("wilk", "foes"),
    )
    state = begin(state, ["ala", "bob", "wilk"])
    # Doubled Siła of the helper: 4 dice; 2 successes lower the difficulty 5 → 3.
    state, _ = step(
        state, Interact(actor="ala", kind="pomoc_w_wyrwaniu", target="bob"), Dice(6, 6, 1, 1)
    )
    assert state.get("bob").conditions[0].difficulty == 3
    state, _ = step(
        state, Interact(actor="ala", kind="pomoc_w_wyrwaniu", target="bob"), Dice(6, 6, 6, 1)
    )
    assert not state.get("bob").has("unieruchomienie")


def test_interakcja_swobodna_is_left_to_the_gm() -> None:
    state = begin(duel(), ["ala", "wilk"])
    _, events = step(state, Interact(actor="ala", kind="swobodna", description="Przewracam stół"))
    assert of_type(events, Note)[0].text == "Przewracam stół"
    with pytest.raises(RuleViolation):
        step(state, Interact(actor="ala", kind="swobodna"))


def test_interakcja_dosiadanie_and_zsiadanie() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(state, Interact(actor="ala", kind="dosiadanie"))
    assert state.get("ala").mounted
    with pytest.raises(RuleViolation):
        step(state, Interact(actor="ala", kind="dosiadanie"))
    state, _ = step(state, Interact(actor="ala", kind="zsiadanie"))
    assert not state.get("ala").mounted


def test_jazda_critical_failure_throws_the_rider_prone() -> None:
    state = begin(duel(mounted=True), ["ala", "wilk"])
    state, _ = step(state, Steer(actor="ala", difficulty=1, pace=4), Dice(5, 1))
    move = Move(actor="ala", mode="jazda", metres=4, accelerate=True)
    state, events = step(state, move, Dice(1, 2))
    ala = state.get("ala")
    assert not ala.mounted and ala.has("powalenie") and not of_type(events, Moved)


def test_odsloniecie_tokens_are_all_used_up_even_when_the_cap_counts_fewer() -> None:
    state = begin(duel(), ["ala", "wilk"])
    state, _ = step(state, Aim(actor="ala", target="wilk"))
    state, _ = step(state, Aim(actor="ala", target="wilk"))
    state, _ = step(state, AddCondition(target="wilk", condition="odsloniecie", stacks=3))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    state, events = step(
        state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla"), random.Random(5)
    )
    mods = {m.reason: m.dice for m in declared(events).attack.modifiers}
    assert (mods["Celowanie"], mods["Odsłonięcie"]) == (2, 1)  # never above 3 together
    assert not state.get("wilk").has("odsloniecie")
