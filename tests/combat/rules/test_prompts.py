"""Prompts at the table: the card (label, the answers allowed now), the command for each
answer, the exact odds of the pending attack, and the automatic answers of GM-run characters."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from combat.rules.base import PromptView, RuleViolation
from combat.rules.eleora.commands import (
    AcceptOpportunity,
    AddCondition,
    Aim,
    ChooseReaction,
    DeclareAreaAttack,
    DeclareAttack,
    DeclineOpportunity,
    EndTurn,
    Evade,
    OfferOpportunity,
    Prepare,
)
from combat.rules.eleora.engine.queries import attack_odds
from combat.rules.eleora.state import UNARMED, EncounterState
from combat.rules.registry import get_ruleset
from tests.combat.rules.engine_kit import (
    TARCZA,
    TOPOR,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    step,
)

RULES = get_ruleset("eleora")
T0 = 1_000.0


def wolf_bites(*, ala_sheet: object = None, prepared: bool = False) -> EncounterState:
    """Ala (Radosław-like: a sabre) has had her turn; the wolf attacks her with its fangs."""
    sheet = ala_sheet or make_sheet("Radosław")
    state = make_state(
        make_combatant("ala", sheet=sheet, name="Radosław"),  # type: ignore[arg-type]
        make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=()), name="Wilk 1"),
    )
    state = begin(state, ["ala", "wilk"])
    if prepared:
        state, _ = step(state, Prepare(actor="ala"))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, DeclareAttack(actor="wilk", target="ala", weapon=UNARMED, now=T0))
    return state


def only_prompt(state: EncounterState) -> PromptView:
    (view,) = RULES.open_prompts(state)
    return view


def test_a_reakcja_card_names_the_attack_and_offers_parowanie_unik_or_nothing() -> None:
    state = wolf_bites()
    view = only_prompt(state)
    assert view.kind == "reakcja" and view.actor == "ala" and view.attacker == "wilk"
    assert view.label == "Atak: Wilk 1 → Radosław (bez broni)"
    assert view.options == (("parowanie", "Parowanie"), ("unik", "Unik"), ("", "Nic"))
    assert view.deadline == T0 + 15
    assert view.attack_command == DeclareAttack(actor="wilk", target="ala", weapon=UNARMED)


def test_a_reakcja_card_shows_the_shield_parowanie_uses_and_both_with_two_reactions() -> None:
    state = wolf_bites(ala_sheet=make_sheet("Radosław", shields=(TARCZA,)), prepared=True)
    keys = dict(only_prompt(state).options)
    assert keys == {
        "parowanie": "Parowanie (Tarcza)",
        "unik": "Unik",
        "parowanie+unik": "Parowanie i Unik",
        "": "Nic",
    }
    command = RULES.prompt_command(state, only_prompt(state).id, "parowanie+unik", T0 + 1)
    assert command == ChooseReaction(
        actor="ala", prompt=only_prompt(state).id, reactions=("parowanie", "unik"), now=T0 + 1
    )
    state, _ = step(state, command, random.Random(1))
    assert not state.prompts and state.get("ala").reactions_left == 0


def test_a_defender_who_can_no_longer_react_is_offered_nothing_but_nic() -> None:
    state = wolf_bites()
    state, _ = step(state, AddCondition(target="ala", condition="paraliz"))
    view = only_prompt(state)
    assert view.options == (("", "Nic"),)
    with pytest.raises(RuleViolation, match="Tej reakcji nie można tu użyć"):
        RULES.prompt_command(state, view.id, "unik")
    assert set(RULES.prompt_odds(state, view.id).options) == {"brak"}


def test_prompt_odds_are_the_odds_previewed_before_the_declaration() -> None:
    """Aim is spent by the declaration: the pending attack keeps the pool it was declared with,
    so the defender's odds equal the attacker's preview, not a fresh re-computation."""
    state = make_state(
        make_combatant("ala", sheet=make_sheet("Radosław"), name="Radosław"),
        make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=()), name="Wilk 1"),
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, Aim(actor="ala", target="wilk"))
    declare = DeclareAttack(actor="ala", target="wilk", weapon="Szabla", now=T0)
    preview = attack_odds(state, declare)
    state, _ = step(state, declare)
    view = only_prompt(state)
    odds = RULES.prompt_odds(state, view.id)
    assert odds == preview
    assert list(odds.options) == ["brak", "parowanie", "unik"]
    recomputed = attack_odds(state, view.attack_command)  # aim is gone now: one die less
    assert recomputed.options["brak"].hit.attack_dice == odds.options["brak"].hit.attack_dice - 1


def test_prompt_odds_include_both_reactions_when_offered() -> None:
    state = wolf_bites(ala_sheet=make_sheet("Radosław", shields=(TARCZA,)), prepared=True)
    odds = RULES.prompt_odds(state, only_prompt(state).id)
    pools = {k: o.hit.defence_dice for k, o in odds.options.items()}
    assert list(pools) == ["brak", "parowanie", "unik", "parowanie+unik"]
    assert pools["parowanie"] == pools["brak"] + 2  # the shield
    assert pools["unik"] == pools["brak"] + 2  # Zręczność 2
    assert pools["parowanie+unik"] == pools["brak"] + 4


def test_prompt_odds_of_a_closed_prompt_or_an_area_attack_are_none() -> None:
    state = wolf_bites()
    assert RULES.prompt_odds(state, "p999") is None
    state, _ = step(state, ChooseReaction(actor="ala", now=T0 + 1), random.Random(1))
    state, _ = step(state, DeclareAreaAttack(targets=("ala",), label="kula ognia", now=T0 + 2))
    view = only_prompt(state)
    assert view.kind == "ucieczka" and view.label == "Ucieczka: kula ognia"
    assert view.options == (("ucieczka", "Ucieczka"), ("", "Nic"))
    assert view.attacker is None and view.attack_command is None
    assert RULES.prompt_odds(state, view.id) is None


def test_ucieczka_answers_are_evade_or_staying_put() -> None:
    state = wolf_bites()
    state, _ = step(state, ChooseReaction(actor="ala", now=T0 + 1), random.Random(1))
    state, _ = step(state, DeclareAreaAttack(targets=("ala",), now=T0 + 2))
    view = only_prompt(state)
    assert RULES.prompt_command(state, view.id, "ucieczka", T0 + 3) == Evade(
        actor="ala", prompt=view.id, now=T0 + 3
    )
    assert RULES.prompt_command(state, view.id, "", T0 + 3) == ChooseReaction(
        actor="ala", prompt=view.id, now=T0 + 3
    )
    assert view.label == "Ucieczka: atak obszarowy"


def opportunity(state: EncounterState | None = None) -> EncounterState:
    """The GM rules the wolf may strike Ala (an Atak okazyjny offer, no map)."""
    state = make_state(
        make_combatant("ala", sheet=make_sheet("Radosław"), name="Radosław"),
        make_combatant("wilk", "foes", sheet=make_sheet("Wilk", weapons=(TOPOR,)), name="Wilk 1"),
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(
        state, OfferOpportunity(attacker="wilk", target="ala", trigger="Inkantacja", now=T0)
    )
    return state


def test_an_atak_okazyjny_card_offers_the_attack_with_the_best_melee_weapon() -> None:
    state = opportunity()
    view = only_prompt(state)
    assert view.label == "Atak okazyjny: Wilk 1 → Radosław (Inkantacja)"
    assert view.options == (("atak_okazyjny", "Atak okazyjny"), ("", "Nic"))
    assert view.attacker == "wilk"
    accept = AcceptOpportunity(actor="wilk", prompt=view.id, weapon="Topór")
    assert view.attack_command == accept
    assert RULES.prompt_command(state, view.id, "atak_okazyjny", T0 + 1) == AcceptOpportunity(
        actor="wilk", prompt=view.id, weapon="Topór", now=T0 + 1
    )
    assert RULES.prompt_command(state, view.id, "", T0 + 1) == DeclineOpportunity(
        actor="wilk", prompt=view.id, now=T0 + 1
    )
    odds = RULES.prompt_odds(state, view.id)
    assert odds is not None and odds.weapon_damage == 3
    assert set(odds.options) == {"brak", "parowanie", "unik"}  # Ala has acted: she may react


def test_an_atak_okazyjny_is_not_offered_once_the_reaction_is_spent() -> None:
    state = opportunity()
    state, _ = step(state, OfferOpportunity(attacker="wilk", target="ala", now=T0))
    first, second = RULES.open_prompts(state)
    state, _ = step(state, RULES.prompt_command(state, first.id, "atak_okazyjny", T0 + 1))
    state, _ = step(state, ChooseReaction(actor="ala", now=T0 + 2), random.Random(1))
    left = [v for v in RULES.open_prompts(state) if v.id == second.id]
    assert left and left[0].options == (("", "Nic"),)
    # The automatic policy takes what is allowed: it declines rather than being refused.
    assert RULES.auto_answer(state, second.id, "lepsza", T0 + 3) == DeclineOpportunity(
        actor="wilk", prompt=second.id, now=T0 + 3
    )


def test_a_closed_prompt_has_no_command() -> None:
    with pytest.raises(RuleViolation, match="zamknięte"):
        RULES.prompt_command(wolf_bites(), "p999", "")


# --- automatic answers ------------------------------------------------------------------------


def test_reaction_policies_ask_the_gm_first_then_the_simulators() -> None:
    policies = RULES.reaction_policies()
    assert policies[0] == ("ask", "Pytaj MG")
    assert policies[1:] == RULES.simulation_policies()


@pytest.mark.parametrize(
    ("policy", "shield", "zrecznosc", "expected"),
    [
        ("unik", False, 2, ("unik",)),
        ("parowanie", False, 2, ("parowanie",)),
        ("brak", False, 2, ()),
        ("lepsza", False, 2, ("unik",)),  # Parowanie +1 does not beat Unik's Zręczność 2
        ("lepsza", True, 2, ("unik",)),  # nor does a +2 shield: not above 2
        ("lepsza", True, 1, ("parowanie",)),  # a +2 shield beats Zręczność 1
    ],
)
def test_auto_answer_plays_the_policy_for_a_defender(
    policy: str, shield: bool, zrecznosc: int, expected: tuple[str, ...]
) -> None:
    shields = (TARCZA,) if shield else ()
    state = wolf_bites(ala_sheet=make_sheet("Radosław", shields=shields, zrecznosc=zrecznosc))
    view = only_prompt(state)
    command = RULES.auto_answer(state, view.id, policy, T0 + 2)
    assert command == ChooseReaction(actor="ala", prompt=view.id, reactions=expected, now=T0 + 2)


def test_auto_answer_asks_the_gm_and_ignores_closed_prompts() -> None:
    state = wolf_bites()
    view = only_prompt(state)
    assert RULES.auto_answer(state, view.id, "ask", T0) is None
    assert RULES.auto_answer(state, "p999", "unik", T0) is None
    with pytest.raises(ValueError, match="unknown reaction policy"):
        RULES.auto_answer(state, view.id, "zawsze_uciekaj", T0)


def test_auto_answer_takes_an_atak_okazyjny_and_never_runs_from_an_area() -> None:
    state = opportunity()
    view = only_prompt(state)
    answer = RULES.auto_answer(state, view.id, "brak", T0 + 1)
    assert answer == AcceptOpportunity(actor="wilk", prompt=view.id, weapon="Topór", now=T0 + 1)
    state = wolf_bites()
    state, _ = step(state, ChooseReaction(actor="ala", now=T0 + 1), random.Random(1))
    state, _ = step(state, DeclareAreaAttack(targets=("ala",), now=T0 + 2))
    view = only_prompt(state)
    assert RULES.auto_answer(state, view.id, "unik", T0 + 3) == ChooseReaction(
        actor="ala", prompt=view.id, now=T0 + 3
    )


def test_an_atak_okazyjny_out_of_melee_reach_is_not_offered() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("wilk", "foes", position=(5, 0), sheet=make_sheet("Wilk", weapons=())),
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, OfferOpportunity(attacker="wilk", target="ala", now=T0))
    view = only_prompt(state)
    assert view.options == (("", "Nic"),)
    assert view.label == "Atak okazyjny: Wilk → Ala"


def test_ucieczka_is_not_offered_to_the_unieruchomiony() -> None:
    state = wolf_bites()
    state, _ = step(state, ChooseReaction(actor="ala", now=T0 + 1), random.Random(1))
    state, _ = step(state, AddCondition(target="ala", condition="unieruchomienie", source="sieć"))
    state, _ = step(state, DeclareAreaAttack(targets=("ala",), now=T0 + 2))
    assert only_prompt(state).options == (("", "Nic"),)


def test_a_special_attack_is_named_on_the_card_and_an_orphan_prompt_has_no_odds() -> None:
    state = make_state(
        make_combatant("ala", name="Radosław"),
        make_combatant("wilk", "foes", name="Wilk 1", sheet=make_sheet("Wilk", weapons=())),
    )
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, EndTurn(actor="ala"))
    attack = DeclareAttack(actor="wilk", target="ala", weapon=UNARMED, special="powalenie")
    state, _ = step(state, attack)
    view = only_prompt(state)
    assert view.label == "Atak: Wilk 1 → Radosław (bez broni, Powalenie)"
    assert view.attack_command == attack
    orphan = replace(state, attacks=())
    assert RULES.prompt_odds(orphan, view.id) is None
    assert only_prompt(orphan).label == "Atak" and only_prompt(orphan).attacker is None
