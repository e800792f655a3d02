"""Reakcje: the blind choice before the roll, prompts and deadlines, Atak okazyjny, and the
reactions that answer no attack (Ucieczka, Przepuszczenie, Upuszczenie, Wyzwolenie)."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora.commands import (
    AcceptOpportunity,
    AddCondition,
    BreakFree,
    ChooseReaction,
    DeclareAreaAttack,
    DeclareAttack,
    DeclineOpportunity,
    DropItem,
    EndTurn,
    Evade,
    Guard,
    Move,
    OfferOpportunity,
    Prepare,
    ResolveExpired,
    SetHidden,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.events import (
    AttackDeclared,
    AttackResolved,
    Moved,
    PromptClosed,
    PromptOpened,
    ReactionChosen,
)
from combat.rules.eleora.state import UNARMED, Combatant, EncounterState
from tests.combat.rules.engine_kit import (
    TARCZA,
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    of_type,
    step,
)

WOLF = make_sheet("Wilk", weapons=())
T0 = 1_000.0


def wolf_turn(ala: Combatant | None = None, *, ala_first: bool = True) -> EncounterState:
    """Ala has had her turn (so she may react); now the wolf acts."""
    state = make_state(ala or make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF))
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, EndTurn(actor="ala"))
    return state


def bite(state: EncounterState, dice: Dice | None = None) -> tuple[EncounterState, list[object]]:
    cmd = DeclareAttack(actor="wilk", target="ala", weapon=UNARMED, now=T0)
    return step(state, cmd, dice)  # type: ignore[return-value]


def defence_reasons(events: list[object]) -> dict[str, int]:
    resolved = of_type(events, AttackResolved)[0]
    return {m.reason: m.dice for m in resolved.defence_roll.modifiers}


def test_attack_declaration_opens_a_prompt_with_allowed_reactions_before_the_roll() -> None:
    state, events = bite(wolf_turn())
    prompt = of_type(events, AttackDeclared)[0].prompt
    assert prompt is not None and prompt.actor == "ala"
    assert prompt.options == ("parowanie", "unik")
    assert prompt.deadline == T0 + 15
    assert not of_type(events, AttackResolved)  # nothing rolled yet: the choice is blind
    assert state.prompts == (prompt,)


def test_parowanie_adds_one_for_that_attack() -> None:
    state, _ = bite(wolf_turn())
    state, events = step(
        state, ChooseReaction(actor="ala", reactions=("parowanie",)), Dice(*[1] * 8)
    )
    assert defence_reasons(events)["Parowanie"] == 1
    assert state.get("ala").reactions_left == 0 and not state.prompts


def test_parowanie_with_a_shield_adds_its_bonus_once_per_turn_with_zaslona() -> None:
    ala = make_combatant("ala", sheet=make_sheet(shields=(TARCZA,)))
    state = make_state(ala, make_combatant("wilk", "foes", sheet=WOLF))
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, Prepare(actor="ala"))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = bite(state)
    state, events = step(
        state, ChooseReaction(actor="ala", reactions=("parowanie",)), Dice(*[1] * 9)
    )
    assert defence_reasons(events)["Parowanie"] == 2
    state, _ = bite(state)
    state, events = step(
        state, ChooseReaction(actor="ala", reactions=("parowanie",)), Dice(*[1] * 8)
    )
    assert defence_reasons(events)["Parowanie"] == 1  # the shield's bonus is used this turn


def test_zaslona_with_shield_then_parowanie_gets_only_plus_one() -> None:
    ala = make_combatant("ala", sheet=make_sheet(shields=(TARCZA,)))
    state = make_state(ala, make_combatant("wilk", "foes", sheet=WOLF))
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, Guard(actor="ala"))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = bite(state)
    with pytest.raises(RuleViolation) as refused:
        step(state, ChooseReaction(actor="ala", reactions=("parowanie",), shield="Tarcza"))
    assert refused.value.code == "tarcza"
    _, events = step(state, ChooseReaction(actor="ala", reactions=("parowanie",)), Dice(*[1] * 10))
    assert defence_reasons(events)["Zasłona"] == 2 and defence_reasons(events)["Parowanie"] == 1


def test_unik_adds_zrecznosc_dice() -> None:
    state, _ = bite(wolf_turn())
    _, events = step(state, ChooseReaction(actor="ala", reactions=("unik",)), Dice(*[1] * 9))
    assert defence_reasons(events)["Unik"] == 2
    assert of_type(events, AttackResolved)[0].defence_roll.size == 6


def test_no_reaction_is_a_choice_too() -> None:
    state, _ = bite(wolf_turn())
    state, events = step(state, ChooseReaction(actor="ala"), Dice(*[1] * 7))
    assert of_type(events, ReactionChosen)[0].reactions == ()
    assert state.get("ala").reactions_left == 1


def test_both_defensive_reactions_need_two_reactions() -> None:
    state, _ = bite(wolf_turn())
    with pytest.raises(RuleViolation) as refused:
        step(state, ChooseReaction(actor="ala", reactions=("parowanie", "unik")))
    assert refused.value.code == "brak_reakcji"
    with pytest.raises(RuleViolation):
        step(state, ChooseReaction(actor="ala", reactions=("unik", "unik")))


def test_zaskoczony_or_rozproszony_target_gets_no_defensive_reaction() -> None:
    state = wolf_turn()
    state, _ = step(state, AddCondition(target="ala", condition="rozproszenie"))
    state, events = bite(state, Dice(*[1] * 7))
    assert of_type(events, AttackDeclared)[0].prompt is None
    assert of_type(events, AttackDeclared)[0].attack.surprised
    assert not state.get("ala").has("rozproszenie")  # the token is spent by that attack
    _, events = bite(state)
    assert of_type(events, AttackDeclared)[0].prompt is not None


def test_paraliz_target_gets_no_prompt() -> None:
    state, _ = step(wolf_turn(), AddCondition(target="ala", condition="paraliz"))
    _, events = bite(state, Dice(*[1] * 7))
    assert of_type(events, AttackDeclared)[0].prompt is None


def test_pending_prompt_locks_the_acting_state_but_not_the_gm() -> None:
    state, _ = bite(wolf_turn())
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="wilk"))
    assert refused.value.message == "Czekamy na reakcję: Ala."
    with pytest.raises(RuleViolation):
        step(state, EndTurn(actor="wilk"))
    state, _ = step(state, SetHidden(target="wilk", hidden=True))
    assert state.get("wilk").hidden and state.prompts


def test_resolve_expired_answers_no_reaction() -> None:
    state, _ = bite(wolf_turn())
    _, early = step(state, ResolveExpired(now=T0 + 14))
    assert early == []
    state, events = step(state, ResolveExpired(now=T0 + 15), Dice(*[1] * 7))
    chosen = of_type(events, ReactionChosen)[0]
    assert chosen.expired and chosen.reactions == ()
    assert of_type(events, AttackResolved) and not state.prompts


def test_reaction_after_the_deadline_is_refused() -> None:
    state, _ = bite(wolf_turn())
    with pytest.raises(RuleViolation) as refused:
        step(state, ChooseReaction(actor="ala", reactions=("unik",), now=T0 + 16))
    assert refused.value.code == "po_czasie"


def test_only_the_prompted_character_answers() -> None:
    state, _ = bite(wolf_turn())
    with pytest.raises(RuleViolation) as refused:
        step(state, ChooseReaction(actor="wilk", reactions=("unik",)))
    assert refused.value.code == "brak_pytania"


# --- Atak okazyjny ----------------------------------------------------------------------------


def adjacent_pair() -> EncounterState:
    """Wilk has acted (it may react); Ala acts next to it."""
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("wilk", "foes", position=(1, 0), sheet=WOLF),
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    return state


def test_atak_okazyjny_offered_when_an_enemy_in_reach_critically_fails() -> None:
    state, events = step(
        adjacent_pair(), Move(actor="ala", mode="bieg", path=((0, 1),), now=T0), Dice(1, 1)
    )
    offer = of_type(events, PromptOpened)[0].prompt
    assert (offer.kind, offer.actor, offer.target) == ("atak_okazyjny", "wilk", "ala")
    assert "krytyczna porażka" in offer.trigger


def test_atak_okazyjny_accepted_runs_the_attack_flow() -> None:
    state, _ = step(adjacent_pair(), Move(actor="ala", mode="bieg", path=((0, 1),)), Dice(1, 1))
    state, events = step(state, AcceptOpportunity(actor="wilk", weapon=UNARMED))
    declared = of_type(events, AttackDeclared)[0]
    assert declared.attack.opportunity and declared.prompt is not None  # Ala may still react
    assert state.get("wilk").reactions_left == 0
    state, events = step(state, ChooseReaction(actor="ala"), Dice(*[1] * 7))
    assert of_type(events, AttackResolved)
    assert state.current == "ala"


def test_atak_okazyjny_declined_or_expired_does_nothing() -> None:
    state, _ = step(
        adjacent_pair(), Move(actor="ala", mode="bieg", path=((0, 1),), now=T0), Dice(1, 1)
    )
    declined, events = step(state, DeclineOpportunity(actor="wilk"))
    assert of_type(events, PromptClosed) and not declined.prompts
    assert declined.get("wilk").reactions_left == 1
    expired, events = step(state, ResolveExpired(now=T0 + 60))
    assert of_type(events, PromptClosed)[0].expired and not expired.prompts


def test_atak_okazyjny_not_offered_out_of_reach_or_without_reaction() -> None:
    far = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("wilk", "foes", position=(3, 0), sheet=WOLF),
    )
    far = begin(far, ["wilk", "ala"])
    far, _ = step(far, EndTurn(actor="wilk"))
    _, events = step(far, Move(actor="ala", mode="bieg", path=((0, 1),)), Dice(1, 1))
    assert not of_type(events, PromptOpened)
    fresh = begin(
        make_state(
            make_combatant("ala", position=(0, 0)),
            make_combatant("wilk", "foes", position=(1, 0), sheet=WOLF),
        ),
        ["ala", "wilk"],
    )
    _, events = step(fresh, Move(actor="ala", mode="bieg", path=((0, 1),)), Dice(1, 1))
    assert not of_type(events, PromptOpened)  # the wolf has had no turn yet


def test_atak_okazyjny_declared_by_the_gm_when_there_is_no_map() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF))
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, events = step(
        state, OfferOpportunity(attacker="wilk", target="ala", trigger="Inkantacja")
    )
    assert state.prompts[0].kind == "atak_okazyjny"
    with pytest.raises(RuleViolation):
        step(state, OfferOpportunity(attacker="wilk", target="wilk"))


# --- Ucieczka, Upuszczenie, Wyzwolenie --------------------------------------------------------


def test_ucieczka_from_an_area_attack_one_metre_plus_one_per_two_bieganie_successes() -> None:
    state, events = step(
        wolf_turn(), DeclareAreaAttack(targets=("ala", "wilk"), label="Kula ognia")
    )
    assert [e.prompt.actor for e in of_type(events, PromptOpened)] == ["ala", "wilk"]
    state, events = step(state, Evade(actor="ala", run=True), Dice(6, 6))
    assert of_type(events, Moved)[0].metres == 2
    assert state.get("ala").reactions_left == 0


def test_ucieczka_refused_to_the_surprised() -> None:
    state, _ = step(wolf_turn(), AddCondition(target="ala", condition="zaskoczenie", turns=1))
    _, events = step(state, DeclareAreaAttack(targets=("ala",)))
    assert not of_type(events, PromptOpened)


def test_ucieczka_prompt_can_be_declined() -> None:
    state, _ = step(wolf_turn(), DeclareAreaAttack(targets=("ala",)))
    state, events = step(state, ChooseReaction(actor="ala"))
    assert of_type(events, PromptClosed) and not state.prompts


def test_upuszczenie_drops_a_held_item_as_a_reaction() -> None:
    state, events = step(wolf_turn(), DropItem(actor="ala", item="Szabla"))
    assert not state.get("ala").holds("Szabla") and state.get("ala").reactions_left == 0
    with pytest.raises(RuleViolation):
        step(state, DropItem(actor="ala", item="Szabla"))


def test_wyzwolenie_from_unieruchomienie_doubled_sila_failure_lowers_difficulty() -> None:
    grips = (ConditionInstance("unieruchomienie", stacks=2, source="wilk", difficulty=5),)
    state = wolf_turn(make_combatant("ala", conditions=grips))
    state, _ = step(state, BreakFree(actor="ala"), Dice(6, 6, 1, 1))
    assert state.get("ala").conditions[0].difficulty == 3
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, BreakFree(actor="ala"), Dice(6, 6, 6, 1))
    assert not state.get("ala").has("unieruchomienie")  # every stack of that source at once


def test_wyzwolenie_names_the_source_when_held_by_several() -> None:
    grips = (
        ConditionInstance("unieruchomienie", source="wilk", difficulty=2),
        ConditionInstance("unieruchomienie", source="lis", difficulty=2),
    )
    state = wolf_turn(make_combatant("ala", conditions=grips))
    with pytest.raises(RuleViolation):
        step(state, BreakFree(actor="ala"))
    state, _ = step(state, BreakFree(actor="ala", source="lis"), Dice(6, 6, 1, 1))
    assert [c.source for c in state.get("ala").conditions] == ["wilk"]


def test_wyzwolenie_from_a_mind_effect_doubled_wola() -> None:
    fear = (ConditionInstance("efekt_umyslowy", source="upiór", difficulty=2, mind=True),)
    state = wolf_turn(make_combatant("ala", conditions=fear))
    state, events = step(state, BreakFree(actor="ala", condition="efekt_umyslowy"), Dice(6, 6))
    assert not state.get("ala").has("efekt_umyslowy")


def test_wyzwolenie_only_while_held_or_under_a_mind_effect() -> None:
    with pytest.raises(RuleViolation) as refused:
        step(wolf_turn(), BreakFree(actor="ala"))
    assert refused.value.code == "wyzwolenie"


def test_reactions_need_a_first_turn() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF))
    state = begin(state, ["wilk", "ala"])
    with pytest.raises(RuleViolation) as refused:
        step(state, DropItem(actor="ala", item="Szabla"))
    assert refused.value.code == "przed_pierwsza_tura"


def test_kostka_heroizmu_on_the_obrona_roll() -> None:
    state, _ = step(wolf_turn(), AddCondition(target="ala", condition="inspiracja"))
    state, _ = bite(state)
    state, events = step(state, ChooseReaction(actor="ala", heroism=True), Dice(*[1] * 8))
    assert defence_reasons(events)["Kostka Heroizmu"] == 1
    assert state.get("ala").heroism_dice == 0
    state, _ = bite(state)
    with pytest.raises(RuleViolation) as refused:
        step(state, ChooseReaction(actor="ala", heroism=True))
    assert refused.value.code == "brak_heroizmu"
