"""The declaration phase: simultaneous, hidden until the reveal, Strain paid on declaring."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus import narrate
from combat.rules.magus.commands import AddCondition, Advance, Declare, Expire, StartCombat
from combat.rules.magus.events import Announced, Declared, Revealed, StrainPaid
from tests.combat.rules.magus.engine_kit import Table, fighter, kinds, of


def duel(**settings: object) -> Table:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), **settings)
    table.do(StartCombat(now=100.0))
    return table


def test_start_combat_opens_round_one_with_its_declaration_phase_and_deadline() -> None:
    table = duel()
    assert (table.state.stage, table.state.round, table.state.phase) == ("running", 1, "declare")
    assert table.state.deadline == 100.0 + 120


def test_start_combat_needs_two_sides() -> None:
    table = Table(fighter("ala", "a"), fighter("ola", "a"))
    with pytest.raises(RuleViolation, match="dwóch stron"):
        table.do(StartCombat())


def test_strain_of_declared_options_is_paid_at_once_as_damage() -> None:
    table = duel()
    events = table.do(
        Declare(actor="ala", action="attack", weapon="Miecz", options=("agresywny_atak",))
    )
    assert of(events, StrainPaid) == [StrainPaid("ala", "agresywny_atak", 1, 1)]
    assert table.c["ala"].damage == 1


def test_strain_is_paid_once_per_option_even_when_the_declaration_is_replaced() -> None:
    table = duel()
    table.do(Declare(actor="ala", action="attack", weapon="Miecz", options=("agresywny_atak",)))
    events = table.do(
        Declare(
            actor="ala",
            action="attack",
            weapon="Miecz",
            options=("agresywny_atak", "precyzyjny_atak"),
        )
    )
    assert [e.reason for e in of(events, StrainPaid)] == ["precyzyjny_atak"]
    events = table.do(Declare(actor="ala"))
    assert of(events, StrainPaid) == []
    assert table.c["ala"].damage == 2


def test_strain_damage_setting_multiplies_strain() -> None:
    table = duel(strain_damage=2)
    table.do(Declare(actor="ala", options=("bieg",)))
    assert table.c["ala"].damage == 2


def test_declarations_are_secret_until_the_reveal_and_the_reveal_tells_all() -> None:
    table = duel()
    before = table.state
    events = table.do(Declare(actor="ala", action="attack", weapon="Miecz", target="ork"))
    announced, declared = of(events, Announced)[0], of(events, Declared)[0]
    assert not narrate.describe(before, announced).secret  # type: ignore[union-attr]
    line = narrate.describe(before, declared)
    assert line is not None and line.secret and "Miecz" in str(line.params["what"])
    assert table.state.phase == "declare"
    before = table.state
    events = table.do(Declare(actor="ork", options=("postawa_obronna",)))
    revealed = of(events, Revealed)[0]
    line = narrate.describe(before, revealed)
    assert line is not None and not line.secret


def test_reveal_is_automatic_when_everyone_has_declared() -> None:
    table = duel()
    table.do(Declare(actor="ala"))
    events = table.do(Declare(actor="ork"))
    assert "revealed" in kinds(events)
    assert table.state.phase == "initiative"


def test_gm_reveals_early_and_the_missing_get_an_empty_declaration() -> None:
    table = duel()
    table.do(Declare(actor="ala"))
    events = table.do(Advance())
    assert of(events, Revealed)[0].defaulted == ("ork",)
    assert table.c["ork"].declaration.empty


def test_declaration_deadline_reveals_with_empty_declarations_for_the_missing() -> None:
    table = duel()
    with pytest.raises(RuleViolation):
        table.do(Expire(now=150.0))
    events = table.do(Expire(now=221.0))
    revealed = of(events, Revealed)[0]
    assert revealed.expired and set(revealed.defaulted) == {"ala", "ork"}
    assert table.state.deadline == 221.0 + 30


def test_declaring_is_refused_after_the_reveal() -> None:
    table = duel()
    table.do(Advance())
    with pytest.raises(RuleViolation, match="deklaracje|inicjatywa"):
        table.do(Declare(actor="ala"))


def test_a_knocked_down_character_declares_no_options() -> None:
    table = duel()
    table.do(AddCondition(target="ala", condition="powalony"))
    with pytest.raises(RuleViolation, match="Powalona"):
        table.do(Declare(actor="ala", options=("postawa_obronna",)))
    table.do(Declare(actor="ala"))


def test_surprised_characters_do_not_declare_in_round_one() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat(surprised=("ork",)))
    with pytest.raises(RuleViolation, match="zaskoczony"):
        table.do(Declare(actor="ork"))
    events = table.do(Declare(actor="ala"))
    assert "revealed" in kinds(events)


def test_a_bad_declaration_is_refused_with_a_reason() -> None:
    table = duel()
    with pytest.raises(RuleViolation, match="akcji"):
        table.do(Declare(actor="ala", action="taniec"))
    with pytest.raises(RuleViolation, match="broni"):
        table.do(Declare(actor="ala", action="attack", weapon="Topór"))
    with pytest.raises(RuleViolation, match="czaru"):
        table.do(Declare(actor="ala", action="spell", spell="Ogień"))
    with pytest.raises(RuleViolation, match="samego siebie"):
        table.do(Declare(actor="ala", action="attack", target="ala"))
    with pytest.raises(RuleViolation, match="co najmniej 1 rundę"):
        table.do(Declare(actor="ala", action="sustained"))
    with pytest.raises(RuleViolation, match="ujemne"):
        table.do(Declare(actor="ala", move=-1))
    with pytest.raises(RuleViolation, match="Nie ma takiej opcji"):
        table.do(Declare(actor="ala", options=("zmiana_akcji",)))
    with pytest.raises(RuleViolation, match="Nie ma takiej postaci"):
        table.do(Declare(actor="nikt"))
