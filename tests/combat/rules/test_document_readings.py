"""Three readings of the document, each a table setting: Obalona and Unik, a critical failure
of Obrona and Atak okazyjny, and whom Oślepienie's floor of 2 on Obrona protects."""

from __future__ import annotations

import random
from typing import Any

import pytest

from combat.rules.dice import PoolRoll
from combat.rules.eleora.commands import (
    AcceptOpportunity,
    AddCondition,
    ChooseReaction,
    DeclareAttack,
    EndTurn,
)
from combat.rules.eleora.engine.queries import attack_odds, prompt_odds
from combat.rules.eleora.events import AttackDeclared, AttackResolved, Event, PromptOpened
from combat.rules.eleora.prompts import policy_option
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import UNARMED, EncounterState
from tests.combat.rules.engine_kit import (
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    of_type,
    step,
)

WOLF = make_sheet("Wilk", weapons=())  # Zręczność 2, Intuicja 2: Obrona 4
T0 = 1_000.0

# --- Powalenie: „traci premię do obrony wynikającą ze zręczności” ------------------------------


def ala_attacks_obalony_wilk(settings: TableSettings | None = None) -> EncounterState:
    """The wolf (Obalony) has had its turn; Ala has declared a Szabla attack on it."""
    state = make_state(
        make_combatant("ala"), make_combatant("wilk", "foes", sheet=WOLF), settings=settings
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, AddCondition(target="wilk", condition="powalenie"))
    state, _ = step(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla", now=T0))
    assert state.prompts
    return state


def defence_with(state: EncounterState, *reactions: str) -> PoolRoll:
    """The wolf answers with `reactions`; Ala's five attack dice miss, its Obrona rolls 4s."""
    answer = ChooseReaction(actor="wilk", reactions=reactions, now=T0)  # type: ignore[arg-type]
    _, events = step(state, answer, Dice(*[1] * 5, *[4] * 9))
    return obrona(events)


def obrona(events: list[Event]) -> PoolRoll:
    """The defender's Obrona roll of the one attack resolved."""
    roll = of_type(events, AttackResolved)[0].defence_roll
    assert roll is not None
    return roll


def test_obalona_loses_zrecznosc_from_obrona_and_from_unik() -> None:
    defence = defence_with(ala_attacks_obalony_wilk(), "unik")
    reasons = {m.reason: m.dice for m in defence.modifiers}
    assert reasons["Zręczność"] == 0 and "Unik" not in reasons
    assert defence.size == 2  # Intuicja only


def test_obalona_unik_keeps_zrecznosc_when_the_table_reads_only_obrona() -> None:
    state = ala_attacks_obalony_wilk(TableSettings(prone_loses_unik=False))
    defence = defence_with(state, "unik")
    assert {m.reason: m.dice for m in defence.modifiers}["Unik"] == 2
    assert defence.size == 4  # Intuicja 2 + Unik 2, the Zręczność of Obrona still lost


@pytest.mark.parametrize("prone_loses_unik", [True, False])
def test_obalona_unik_odds_match_the_pool_rolled(prone_loses_unik: bool) -> None:
    state = ala_attacks_obalony_wilk(TableSettings(prone_loses_unik=prone_loses_unik))
    odds = prompt_odds(state, state.prompts[0].id)
    assert odds is not None
    for option, reactions in (("brak", ()), ("parowanie", ("parowanie",)), ("unik", ("unik",))):
        rolled = defence_with(state, *reactions)
        assert odds.options[option].hit.defence_dice == rolled.size
    unik, brak = odds.options["unik"].hit, odds.options["brak"].hit
    assert (unik.p_hit == brak.p_hit) is prone_loses_unik


@pytest.mark.parametrize(("prone_loses_unik", "choice"), [(True, "parowanie"), (False, "unik")])
def test_obalona_lepsza_policy_parries_when_unik_adds_nothing(
    prone_loses_unik: bool, choice: str
) -> None:
    state = ala_attacks_obalony_wilk(TableSettings(prone_loses_unik=prone_loses_unik))
    assert policy_option(state, state.prompts[0], "lepsza") == choice


# --- Atak okazyjny: „krytyczną porażkę w jakimkolwiek teście” ----------------------------------


def ala_strikes_wilk_in_reach(settings: TableSettings | None = None, **wilk: Any) -> EncounterState:
    """Bob and the wolf have had their turns; Ala, beside the wolf, declares a Szabla attack.

    Bob stands on the wolf's other side (a full flank), so both have it in reach."""
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("wilk", "foes", position=(1, 0), sheet=WOLF, **wilk),
        make_combatant("bob", position=(2, 0)),
        settings=settings,
    )
    state = begin(state, ["bob", "wilk", "ala"])
    state, _ = step(state, EndTurn(actor="bob"))
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, DeclareAttack(actor="ala", target="wilk", weapon="Szabla", now=T0))
    return state


def offers(events: list[Event]) -> list[tuple[str, str | None, str]]:
    return [
        (e.prompt.actor, e.prompt.target, e.prompt.trigger)
        for e in of_type(events, PromptOpened)
        if e.prompt.kind == "atak_okazyjny"
    ]


def test_krytyczna_porazka_obrony_opens_atak_okazyjny_for_every_enemy_in_reach() -> None:
    state = ala_strikes_wilk_in_reach()
    # Ala (5 dice + 2 for the full flank): seven 4s, a hit for 2 + 7 = 9 that leaves the wolf
    # standing at 4; the wolf's Obrona: four 1s.
    state, events = step(state, ChooseReaction(actor="wilk", now=T0), Dice(*[4] * 7, *[1] * 4))
    assert obrona(events).successes == 0
    why = "krytyczna porażka (Obrona)"
    assert sorted(offers(events)) == [("ala", "wilk", why), ("bob", "wilk", why)]
    state, events = step(state, AcceptOpportunity(actor="bob", weapon="Szabla", now=T0))
    assert of_type(events, AttackDeclared)[0].attack.opportunity


def test_krytyczna_porazka_obrony_opens_nothing_when_the_table_counts_only_own_tests() -> None:
    state = ala_strikes_wilk_in_reach(TableSettings(opportunity_on_defence_critical=False))
    _, events = step(state, ChooseReaction(actor="wilk", now=T0), Dice(*[4] * 7, *[1] * 4))
    assert obrona(events).successes == 0
    assert offers(events) == []


def test_obrona_with_a_success_opens_no_atak_okazyjny() -> None:
    state = ala_strikes_wilk_in_reach()
    _, events = step(state, ChooseReaction(actor="wilk", now=T0), Dice(*[4] * 7, 1, 1, 1, 4))
    assert offers(events) == []


def test_krytyczna_porazka_obrony_of_a_defender_killed_by_the_hit_opens_nothing() -> None:
    state = ala_strikes_wilk_in_reach(TableSettings(maiming_enabled=False), damage_physical=12)
    state, events = step(state, ChooseReaction(actor="wilk", now=T0), Dice(*[4] * 7, *[1] * 4))
    assert state.get("wilk").status == "dead"
    assert offers(events) == []


def test_krytyczna_porazka_obrony_with_random_dice_offers_exactly_on_zero_successes() -> None:
    seen = set()
    for seed in range(120):
        state = ala_strikes_wilk_in_reach()
        _, events = step(state, ChooseReaction(actor="wilk", now=T0), random.Random(seed))
        provoked = any(why == "krytyczna porażka (Obrona)" for _, _, why in offers(events))
        assert provoked is (obrona(events).successes == 0)
        seen.add(provoked)
    assert seen == {True, False}


# --- Oślepienie: „Obrona Gracza nie może spaść poniżej 2” --------------------------------------


def blinded_pair(settings: TableSettings | None = None) -> EncounterState:
    """Ala (a player's character) and the wolf (GM-run), both Oślepieni; Ala's turn."""
    state = make_state(
        make_combatant("ala", controller="u1"),
        make_combatant("wilk", "foes", sheet=WOLF),
        settings=settings,
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    for who in ("ala", "wilk"):
        state, _ = step(state, AddCondition(target=who, condition="oslepienie", turns=3))
    return state


def obrona_rolled(state: EncounterState, attacker: str, defender: str) -> tuple[int, int]:
    """(dice the exact odds expect, dice rolled) for the defender's Obrona, no reaction."""
    weapon = "Szabla" if attacker == "ala" else UNARMED
    declare = DeclareAttack(actor=attacker, target=defender, weapon=weapon, now=T0)
    expected = attack_odds(state, declare).options["brak"].hit.defence_dice
    state, _ = step(state, declare)
    _, events = step(state, ChooseReaction(actor=defender, now=T0), Dice(*[4] * 9))
    return expected, obrona(events).size


def test_oslepienie_floor_of_two_holds_for_a_gm_run_defender_by_default() -> None:
    assert obrona_rolled(blinded_pair(), "ala", "wilk") == (2, 2)  # Obrona 4 − 3, kept at 2


def test_oslepienie_floor_only_for_gracz_when_the_table_reads_gracz_as_a_player() -> None:
    state = blinded_pair(TableSettings(blinded_floor_players_only=True))
    assert obrona_rolled(state, "ala", "wilk") == (1, 1)  # the GM's wolf: Obrona 4 − 3
    state, _ = step(state, EndTurn(actor="ala"))
    assert obrona_rolled(state, "wilk", "ala") == (2, 2)  # Ala's player keeps 2


def test_document_readings_are_gm_editable_settings() -> None:
    stored = {
        "prone_loses_unik": False,
        "opportunity_on_defence_critical": False,
        "blinded_floor_players_only": True,
    }
    settings = TableSettings.from_dict(stored)
    assert TableSettings.from_dict(settings.to_dict()) == settings
    defaults = TableSettings()
    assert defaults.prone_loses_unik and defaults.opportunity_on_defence_critical
    assert not defaults.blinded_floor_players_only
    for key in stored:
        with pytest.raises(ValueError):
            TableSettings.from_dict({key: "tak"})
