"""Testy zdrowienia at the table on the encounter's game clock (round_seconds a round, plus the
time the GM lets pass): waking from unconsciousness a minute after falling (at once when
revived), the waits after a fight and between tests, the Wounds' penalty and the minimum 1,
stun damage with Siła Woli, one test a day, a night's rest and healing a Wound."""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus import RULESET, codec, narrate
from combat.rules.magus import recovery as rec
from combat.rules.magus.commands import (
    Advance,
    EditHealth,
    EndCombat,
    HealWound,
    PassTime,
    RecoveryTest,
    StartCombat,
)
from combat.rules.magus.events import RecoveryTested, TimePassed, WoundHealed
from tests.combat.rules.magus.engine_kit import Table, fighter, of, shown, to_act


def duel(**ala: Any) -> Table:
    return Table(fighter("ala", "a", "u1", **ala), fighter("ork", "b"))


def test_game_clock_counts_round_seconds_per_round_and_the_time_the_gm_lets_pass() -> None:
    t = duel()
    t.do(StartCombat())
    to_act(t)
    t.do(Advance())
    assert t.state.time_s == 10
    events = t.do(PassTime(seconds=60))
    assert of(events, TimePassed) == [TimePassed(60)] and t.state.time_s == 70
    line = narrate.describe(t.state, events[0])
    assert line is not None and line.params == {"seconds": 60}
    with pytest.raises(RuleViolation, match="nie w trakcie walki"):
        t.do(PassTime(night=True))
    with pytest.raises(RuleViolation, match="od 1 sekundy"):
        t.do(PassTime(seconds=0))


def test_recovery_test_during_a_fight_only_for_the_unconscious() -> None:
    t = duel()
    t.do(StartCombat())
    with pytest.raises(RuleViolation) as refused:
        t.do(EditHealth(target="ala", damage=5)) and t.do(RecoveryTest(actor="ala"))
    assert refused.value.template == rec.IN_COMBAT


def test_waking_from_unconsciousness_one_minute_after_falling() -> None:
    t = duel()
    t.do(StartCombat())
    t.do(EditHealth(target="ala", damage=26))  # Unconsciousness Rating 25
    assert t.c["ala"].unconscious and t.c["ala"].recovery.unconscious_since == 0
    with pytest.raises(RuleViolation) as refused:
        t.do(RecoveryTest(actor="ala"))
    assert refused.value.template == rec.UNCONSCIOUS_WAIT
    seat = shown(RULESET.seat_panel(t.state, "ala", frozenset({"ala", "ork"})))
    assert seat.recovery.next_at == 60 and not seat.recovery.allowed
    assert {a.key: a.available for a in seat.actions} == {
        "test_zdrowienia": False,
        "ocucenie": True,
    }
    t.do(PassTime(seconds=60))
    events = t.do(RecoveryTest(actor="ala"), [4])  # Żywotność 6: d10
    assert of(events, RecoveryTested) == [RecoveryTested("ala", "damage", events[0].roll, 4)]
    assert t.c["ala"].damage == 22 and not t.c["ala"].unconscious
    assert t.c["ala"].recovery.unconscious_since is None and t.c["ala"].recovery.tests_left == 1
    line = narrate.describe(t.initial, events[0])
    assert line is not None and line.params["healed"] == 4


def test_reviving_an_unconscious_character_lets_it_test_at_once() -> None:
    t = duel()
    t.do(StartCombat())
    t.do(EditHealth(target="ala", damage=30))
    events = t.do(RecoveryTest(actor="ala", revived=True), [2])
    assert events[0].revived and t.c["ala"].damage == 28 and t.c["ala"].unconscious
    with pytest.raises(RuleViolation) as refused:  # the next test only an hour later
        t.do(RecoveryTest(actor="ala", revived=True))
    assert refused.value.template == rec.INTERVAL


def test_recovery_after_a_fight_waits_an_hour_then_wounds_lower_it_to_a_minimum_of_1() -> None:
    t = duel()
    t.do(StartCombat())
    t.do(EditHealth(target="ala", damage=10, wounds=4))
    t.do(EndCombat())
    with pytest.raises(RuleViolation) as refused:
        t.do(RecoveryTest(actor="ala"))
    assert refused.value.template == rec.AFTER_COMBAT
    assert shown(RULESET.seat_panel(t.state, "ala", frozenset())).recovery.next_at == 3600
    panel = shown(RULESET.gm_panel(t.state))
    t.do(codec.command_from_dict(panel.commands["czas_godzina"]))
    events = t.do(RecoveryTest(actor="ala"), [2])  # 2 − 3 (Wounds after the first): 1
    roll = of(events, RecoveryTested)[0].roll
    assert roll.total == 1 and [a.value for a in roll.adjustments] == [-3]
    assert t.c["ala"].damage == 9
    with pytest.raises(RuleViolation) as refused:
        t.do(RecoveryTest(actor="ala"))
    assert refused.value.template == rec.INTERVAL
    t.do(PassTime(seconds=3600))
    t.do(RecoveryTest(actor="ala"), [9])
    with pytest.raises(RuleViolation) as refused:
        t.do(RecoveryTest(actor="ala"))
    assert refused.value.template == rec.NO_TESTS


def test_healing_stun_damage_adds_the_sila_woli_step() -> None:
    t = duel()
    t.do(EditHealth(target="ala", stun=8))
    t.do(PassTime(seconds=60))
    actions = {a.key: a for a in shown(RULESET.seat_panel(t.state, "ala", frozenset())).actions}
    assert (
        list(actions) == ["test_zdrowienia_ogluszenie"]
        and actions["test_zdrowienia_ogluszenie"].available
    )
    with pytest.raises(RuleViolation, match="ogłuszenie"):
        t.do(RecoveryTest(actor="ala", heals="rany"))
    events = t.do(RecoveryTest(actor="ala", heals="stun"), [4, 3])  # Żywotność 6 + SW 5: d10+d8
    tested = of(events, RecoveryTested)[0]
    assert (tested.heals, tested.roll.step, tested.healed) == ("stun", 11, 7)
    assert t.c["ala"].stun == 1 and t.c["ala"].damage == 0
    line = narrate.describe(t.initial, tested)
    assert line is not None and "ogłuszenia" in line.text


def test_one_recovery_test_a_day_only_after_a_nights_rest_which_makes_it_a_must() -> None:
    t = duel(attributes={"testy_zdrowienia": 1})
    t.do(EditHealth(target="ala", damage=6))
    with pytest.raises(RuleViolation) as refused:
        t.do(RecoveryTest(actor="ala"))
    assert refused.value.template == rec.ONE_TEST_AFTER_REST
    events = t.do(PassTime(night=True))
    assert of(events, TimePassed) == [TimePassed(8 * 3600, night=True)]
    assert narrate.describe(t.state, events[0]) is not None
    seat = shown(RULESET.gm_seat_panel(t.state, "ala"))
    assert seat.recovery.must_test and seat.recovery.reason == rec.MUST_TEST
    assert {a.key for a in seat.actions} == {"test_zdrowienia"}
    t.do(RecoveryTest(actor="ala"), [6])
    assert t.c["ala"].damage == 0 and not t.c["ala"].recovery.must_test


def test_a_wound_heals_after_a_nights_rest_by_spending_a_test_without_damage() -> None:
    t = duel()
    t.do(EditHealth(target="ala", damage=3, wounds=2))
    with pytest.raises(RuleViolation, match="całonocnym"):
        t.do(HealWound(actor="ala"))
    t.do(PassTime(night=True))
    with pytest.raises(RuleViolation, match="bez aktualnych obrażeń"):
        t.do(HealWound(actor="ala"))
    t.do(EditHealth(target="ala", damage=0))
    t.do(PassTime(night=True))
    actions = {a.key: a for a in shown(RULESET.seat_panel(t.state, "ala", frozenset())).actions}
    assert actions["leczenie_rany"].available
    events = t.do(HealWound(actor="ala"))
    assert of(events, WoundHealed) == [WoundHealed("ala")]
    assert t.c["ala"].wounds == 1 and t.c["ala"].recovery.tests_left == 1
    assert narrate.describe(t.state, events[0]) is not None


def test_the_dead_make_no_recovery_test() -> None:
    t = duel()
    t.do(EditHealth(target="ala", damage=40))
    with pytest.raises(RuleViolation, match="nie żyje"):
        t.do(RecoveryTest(actor="ala"))
    assert shown(RULESET.seat_panel(t.state, "ala", frozenset())).actions == ()


def test_new_damage_restarts_the_quiet_minute_before_a_recovery_test() -> None:
    t = duel()
    t.do(EditHealth(target="ala", damage=4))
    with pytest.raises(RuleViolation) as refused:
        t.do(RecoveryTest(actor="ala"))
    assert refused.value.template == rec.QUIET
    t.do(PassTime(seconds=60))
    t.do(RecoveryTest(actor="ala"), [2])
    assert t.c["ala"].damage == 2


def test_the_nights_rest_lasts_the_tables_night_rest_setting() -> None:
    t = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), night_rest_s=6 * 3600)
    events = t.do(PassTime(night=True))
    assert of(events, TimePassed) == [TimePassed(6 * 3600, night=True)]
    assert t.state.time_s == 6 * 3600
    with pytest.raises(ValueError, match="night_rest_s"):
        Table(fighter("ala", "a", "u1"), fighter("ork", "b"), night_rest_s=0)
