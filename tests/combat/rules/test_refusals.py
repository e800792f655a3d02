"""Every refusal is a typed RuleViolation with a Polish reason a player can read."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora.commands import (
    ChooseReaction,
    Command,
    DeclareAreaAttack,
    Draw,
    DropItem,
    EndTurn,
    Evade,
    Incantation,
    Interact,
    LetPass,
    Move,
    OfferOpportunity,
    Prepare,
    StartCombat,
    Steer,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import EncounterState
from tests.combat.rules.engine_kit import begin, make_combatant, make_state, step


def ala_turn(**ala: object) -> EncounterState:
    """The wolf has had its turn; Ala acts; Bob (an ally) acts last."""
    state = make_state(
        make_combatant("ala", **ala),  # type: ignore[arg-type]
        make_combatant("wilk", "foes"),
        make_combatant("bob"),
    )
    state = begin(state, ["wilk", "ala", "bob"])
    state, _ = step(state, EndTurn(actor="wilk"))
    return state


def on_map() -> EncounterState:
    return ala_turn(position=(0, 0))


GRIPPED = (ConditionInstance("unieruchomienie", source="wilk", difficulty=None),)

CASES: list[tuple[str, Callable[[], EncounterState], Command, str]] = [
    ("incantation without a spell", ala_turn, Incantation(actor="ala", spell=" "), "zaklecie"),
    ("draw nothing", ala_turn, Draw(actor="ala", item=""), "przedmiot"),
    (
        "negative pace",
        lambda: ala_turn(mounted=True),
        Steer(actor="ala", difficulty=1, pace=-1),
        "tempo",
    ),
    (
        "steer without difficulty",
        lambda: ala_turn(mounted=True),
        Steer(actor="ala", difficulty=-2),
        "trudnosc",
    ),
    (
        "ride without a mount",
        ala_turn,
        Move(actor="ala", mode="jazda", metres=2),
        "bez_wierzchowca",
    ),
    ("charge while swimming", ala_turn, Move(actor="ala", mode="plywanie", charge=True), "szarza"),
    ("path without a map", ala_turn, Move(actor="ala", path=((1, 0),)), "bez_mapy"),
    ("path needed on the map", on_map, Move(actor="ala", metres=2), "trasa"),
    ("path that jumps", on_map, Move(actor="ala", path=((3, 3),)), "trasa"),
    ("negative metres", ala_turn, Move(actor="ala", metres=-1), "metry"),
    (
        "wyrwanie for someone else",
        ala_turn,
        Interact(actor="ala", kind="wyrwanie", target="bob"),
        "wyrwanie",
    ),
    (
        "help yourself break free",
        lambda: ala_turn(conditions=GRIPPED),
        Interact(actor="ala", kind="pomoc_w_wyrwaniu"),
        "wyrwanie",
    ),
    (
        "hold without a difficulty",
        lambda: ala_turn(conditions=GRIPPED),
        Interact(actor="ala", kind="wyrwanie"),
        "wyzwolenie",
    ),
    (
        "hand an item to yourself",
        ala_turn,
        Interact(actor="ala", kind="podanie", item="Szabla"),
        "podanie",
    ),
    ("let an enemy pass", ala_turn, LetPass(actor="ala", ally="wilk"), "przepuszczenie"),
    ("drop what you do not hold", ala_turn, DropItem(actor="ala", item="Tarcza"), "przedmiot"),
    ("evade without an area attack", ala_turn, Evade(actor="ala"), "brak_pytania"),
    ("no combatants", lambda: make_state(), StartCombat(), "brak_postaci"),
    (
        "unknown surprise side",
        lambda: make_state(make_combatant("ala")),
        StartCombat(surprise_side="smoki"),
        "strona",
    ),
    (
        "gm offer to one who cannot react",
        ala_turn,
        OfferOpportunity(attacker="bob", target="wilk"),
        "przed_pierwsza_tura",
    ),
]


@pytest.mark.parametrize(("why", "make", "command", "code"), CASES, ids=[c[0] for c in CASES])
def test_refusal_has_a_code_and_a_polish_reason(
    why: str, make: Callable[[], EncounterState], command: Command, code: str
) -> None:
    with pytest.raises(RuleViolation) as refused:
        step(make(), command)
    assert refused.value.code == code, refused.value.message
    assert refused.value.message.endswith((".", ")")) and refused.value.message[0].isupper()


def test_brak_akcji_message_for_other_action_counts() -> None:
    state = make_state(
        make_combatant("ala"),
        make_combatant("wilk", "foes"),
        settings=TableSettings(actions_per_turn=3, auto_end_turn=False),
    )
    state = begin(state, ["ala", "wilk"])
    for _ in range(3):
        state, _ = step(state, Prepare(actor="ala"))
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="ala"))
    assert refused.value.message == "Brak akcji: wykorzystano wszystkie akcje w tej turze."


def test_several_open_prompts_need_the_prompt_named() -> None:
    state, _ = step(ala_turn(), DeclareAreaAttack(targets=("ala",)))
    state, _ = step(state, DeclareAreaAttack(targets=("ala",)))
    with pytest.raises(RuleViolation) as refused:
        step(state, ChooseReaction(actor="ala"))
    assert refused.value.code == "ktore_pytanie"
    state, _ = step(state, ChooseReaction(actor="ala", prompt=state.prompts[1].id))
    assert len(state.prompts) == 1


def test_ucieczka_prompt_answered_with_parowanie_is_refused() -> None:
    state, _ = step(ala_turn(), DeclareAreaAttack(targets=("ala",)))
    with pytest.raises(RuleViolation) as refused:
        step(state, ChooseReaction(actor="ala", reactions=("parowanie",)))
    assert refused.value.code == "reakcja"


def test_ucieczka_refused_while_unieruchomiona() -> None:
    grip = (ConditionInstance("unieruchomienie", source="wilk", difficulty=3),)
    state, _ = step(ala_turn(conditions=grip), DeclareAreaAttack(targets=("ala",)))
    with pytest.raises(RuleViolation) as refused:
        step(state, Evade(actor="ala"))
    assert refused.value.code == "unieruchomienie"


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"status": "unconscious", "damage_stun": 11}, "nieprzytomna"),
        ({"status": "dead", "damage_physical": 20}, "martwa"),
        ({"conditions": (ConditionInstance("paraliz"),)}, "paraliz"),
    ],
)
def test_the_acting_character_must_be_able_to_act(changes: dict[str, object], code: str) -> None:
    from dataclasses import replace

    state = ala_turn()
    state = state.put(replace(state.get("ala"), **changes))  # type: ignore[arg-type]
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="ala"))
    assert refused.value.code == code


def test_odmowy_uzywaja_formy_neutralnej_postac_przed_imieniem() -> None:
    """„Marek jest nieprzytomna” is wrong: the noun Postać carries the feminine form."""
    from dataclasses import replace

    state = ala_turn()
    state = state.put(replace(state.get("ala"), status="unconscious", damage_stun=11))
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="ala"))
    assert refused.value.message == "Postać Ala jest nieprzytomna."
