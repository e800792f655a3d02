"""Działanie podtrzymywane at the table: one record (`sustained.Sustained`), started by a
declaration (the seed's presets or the GM's length), a round of progress at each round's end,
the GM's optional end-of-round test rolled or recorded, a failure stalling it by default."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus import RULESET, narrate
from combat.rules.magus import sustained as sus
from combat.rules.magus.commands import (
    Declare,
    EndTurn,
    StartCombat,
    SustainedCheck,
    SustainedTest,
)
from combat.rules.magus.events import (
    SustainedAdvanced,
    SustainedCompleted,
    SustainedRolled,
    SustainedTested,
)
from tests.combat.rules.magus.engine_kit import Table, fighter, of, shown, to_act


def rounds_of(table: Table, declaration: Declare, n: int, dice: list[int] | None = None) -> list:
    """`n` rounds in which Ala keeps declaring `declaration`; the round-end dice as given."""
    events: list = []
    for _ in range(n):
        to_act(table, {"ala": declaration})
        table.do(EndTurn(actor="ala"))
        events += table.do(EndTurn(actor="ork"), list(dice or []))
    return events


def fight() -> Table:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(StartCombat())
    return table


def test_sustained_action_preset_from_the_seed_takes_the_top_of_its_range() -> None:
    table = fight()
    lock = Declare(actor="ala", action="sustained", preset="zamek")
    to_act(table, {"ala": lock})
    s = table.c["ala"].sustained
    assert (s.label, s.rounds, s.progress, s.preset) == (sus.PRESET["zamek"].label, 3, 0, "zamek")
    assert "Zamknięcie zamka drzwi" in narrate.declaration_text(
        table.state, table.c["ala"].declaration
    )
    panel = shown(RULESET.turn_panel(fight().state, "ala", frozenset({"ala", "ork"})))
    assert {p.key for p in panel.sustained_presets} == {p.key for p in sus.PRESETS}


def test_sustained_action_without_a_test_progresses_each_round_and_completes() -> None:
    table = fight()
    pack = Declare(actor="ala", action="sustained", preset="plecak", rounds=3)
    events = rounds_of(table, pack, 2)
    assert of(events, SustainedAdvanced) == [SustainedAdvanced("ala", None)] * 2
    assert (table.c["ala"].sustained.progress, table.c["ala"].sustained.elapsed) == (2, 2)
    events = rounds_of(table, pack, 1)
    assert of(events, SustainedCompleted) == [SustainedCompleted("ala")]
    assert table.c["ala"].sustained is None
    assert table.replayed() == table.state


def test_sustained_action_gm_end_of_round_test_is_rolled_and_a_failure_stalls() -> None:
    table = fight()
    search = Declare(
        actor="ala", action="sustained", note="szukanie", rounds=2, test_skill="percepcja",
        test_dn=5,
    )  # fmt: skip
    events = rounds_of(table, search, 1, [3])  # Percepcja d8: 3 < 5
    (rolled,) = of(events, SustainedRolled)
    assert (rolled.roll.total, rolled.dn, rolled.passed) == (3, 5, False)
    s = table.c["ala"].sustained
    assert (s.progress, s.elapsed) == (0, 1)  # the round is spent, no progress
    stalled = narrate.describe(table.state, SustainedAdvanced("ala", False))
    assert stalled is not None and "bez postępu" in stalled.text
    events = rounds_of(table, search, 2, [6])
    assert of(events, SustainedCompleted) == [SustainedCompleted("ala")]
    line = narrate.describe(table.initial, rolled)
    assert line is not None and line.rolls


def test_sustained_action_failure_need_not_stall_when_the_gm_says_so() -> None:
    table = fight()
    search = Declare(
        actor="ala", action="sustained", note="szukanie", rounds=2, test_skill="percepcja",
        test_dn=5, failure_stalls=False,
    )  # fmt: skip
    rounds_of(table, search, 1, [3])
    assert table.c["ala"].sustained.progress == 1


def test_sustained_action_gm_test_recorded_or_rolled_during_the_round() -> None:
    table = fight()
    rite = Declare(actor="ala", action="sustained", note="rytuał", rounds=3)
    to_act(table, {"ala": rite})
    with pytest.raises(RuleViolation, match="nie wymaga testu"):
        table.do(SustainedTest(target="ala", success=True))
    check = table.do(SustainedCheck(target="ala", skill="sila_woli", dn=6))
    assert narrate.describe(table.state, check[0]).params["dn"] == 6  # type: ignore[union-attr]
    assert table.c["ala"].sustained.test == sus.RoundCheck("sila_woli", 6)
    assert of(table.do(SustainedTest(target="ala", success=False)), SustainedTested)
    assert table.c["ala"].sustained_result is False
    rolled = of(table.do(SustainedTest(target="ala"), [7]), SustainedRolled)[0]
    assert rolled.passed and table.c["ala"].sustained_result is True
    table.do(EndTurn(actor="ala"))
    events = table.do(EndTurn(actor="ork"))  # no roll at the round's end: the GM rolled it
    assert of(events, SustainedAdvanced) == [SustainedAdvanced("ala", True)]
    assert table.c["ala"].sustained_result is None
    seat = shown(RULESET.gm_seat_panel(table.state, "ala"))
    assert seat.sustained.progress == 1 and seat.sustained.test.dn == 6
    assert seat.commands["sustained_check"]["type"] == "sustained_check"
    to_act(table, {"ala": rite})
    dropped = table.do(SustainedCheck(target="ala"))  # the GM drops the test again
    assert narrate.describe(table.state, dropped[0]) is not None
    assert table.c["ala"].sustained.test is None
    assert narrate.describe(table.state, SustainedAdvanced("ala", True)) is None
    line = narrate.describe(table.state, SustainedAdvanced("ala"))
    assert line is not None and line.params["progress"] == 2


def test_sustained_action_refusals() -> None:
    table = fight()
    with pytest.raises(RuleViolation, match="Nieznany przykład"):
        table.do(Declare(actor="ala", action="sustained", preset="kopanie"))
    with pytest.raises(RuleViolation, match="Nieznany atrybut"):
        table.do(
            Declare(actor="ala", action="sustained", rounds=2, test_skill="szczescie", test_dn=4)
        )
    with pytest.raises(RuleViolation, match="co najmniej 1"):
        table.do(Declare(actor="ala", action="sustained", rounds=2, test_skill="sila", test_dn=0))
    with pytest.raises(RuleViolation, match="od 1 do"):
        table.do(Declare(actor="ala", action="sustained", rounds=5000))
    with pytest.raises(RuleViolation, match="nie prowadzi"):
        table.do(SustainedCheck(target="ala", skill="sila", dn=5))
    table.do(Declare(actor="ala", action="sustained", rounds=2))
    with pytest.raises(RuleViolation, match="Nieznany atrybut"):
        table.do(SustainedCheck(target="ala", skill="szczescie", dn=5))
    with pytest.raises(RuleViolation, match="co najmniej 1"):
        table.do(SustainedCheck(target="ala", skill="sila", dn=0))
