"""Pojedynek by post: every fighter acts once a round, in any order, before a deadline hours
away; the defender parries by itself; the round ends when all have acted or the time is up.

The table layer's by-post machinery (e-mails, the sweep: tests/combat/table/test_posts.py)
needs a ruleset with this pace, and the duel is the one the tests own.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from tests.duel import RULESET
from tests.duel.model import (
    HOUR,
    Attack,
    Attacked,
    DeadlineMoved,
    Duel,
    EndTurn,
    Parried,
    ResolveExpired,
    RoundExpired,
    RoundStarted,
    StartRound,
    Struck,
    TurnEnded,
)
from tests.duel.test_duel_rules import Dice, combatant

NOW = 1_000_000.0
DAY = 24 * HOUR


def by_post(**settings: Any) -> Duel:
    fighters = (combatant("ala", "druzyna", "7"), combatant("wilk", "wrogowie"))
    return RULESET.new_encounter({"pace": "post", **settings}, fighters)


def step(state: Duel, command: Any, *faces: int) -> tuple[Duel, list[Any]]:
    dice = Dice(*faces)
    events = RULESET.decide(state, command, dice)
    assert dice.faces == [], "unused faces"
    return RULESET.replay(state, events), events


def started(**settings: Any) -> Duel:
    """Round 1 by post from NOW, Ala first in the order (20 + 5 against 1 + 5)."""
    return step(by_post(**settings), StartRound(now=NOW), 20, 1)[0]


def test_a_round_by_post_opens_for_everyone_with_a_deadline() -> None:
    state = started()
    view = RULESET.table_view(state)
    assert view.pace == "post" and view.stage == "running" and view.current is None
    assert view.acting == view.waiting == ("ala", "wilk")
    assert view.deadline == NOW + DAY == RULESET.next_deadline(state)
    assert view.remind_at == NOW + DAY - 6 * HOUR


def test_the_round_time_and_the_reminder_are_table_settings() -> None:
    view = RULESET.table_view(started(post_hours=48, reminder_hours=0))
    assert view.deadline == NOW + 48 * HOUR and view.remind_at is None
    for bad in ({"post_hours": 0}, {"post_hours": 400}, {"reminder_hours": 24}, {"pace": "x"}):
        with pytest.raises(ValueError):
            RULESET.validate_settings({"pace": "post", **bad})


def test_live_pace_keeps_one_fighter_after_another() -> None:
    state = step(
        RULESET.new_encounter({}, [combatant("a", "x"), combatant("b", "y")]),
        StartRound(now=NOW),
        20,
        1,
    )[0]
    view = RULESET.table_view(state)
    assert view.pace == "live" and view.current == "a" and view.waiting == ()
    assert view.deadline is None and RULESET.next_deadline(state) is None


def test_an_attack_by_post_is_parried_by_the_defender_itself() -> None:
    # Ala hits (15 + 5); the wolf's parry (d100 90 > 50) fails; the d6 lands 4.
    state, events = step(started(), Attack(actor="ala", target="wilk", now=NOW + 10), 15, 90, 4)
    assert [type(e) for e in events] == [Attacked, Parried, Struck]
    assert state.combatants["wilk"].damage == 4
    assert RULESET.table_view(state).waiting == ("wilk",)
    with pytest.raises(RuleViolation) as twice:
        RULESET.decide(state, Attack(actor="ala", target="wilk", now=NOW + 20), Dice(10))
    assert twice.value.code == "juz_dzialal"


def test_a_parried_attack_by_post_does_no_damage() -> None:
    state, events = step(started(), Attack(actor="ala", target="wilk", now=NOW), 15, 10)
    assert [type(e) for e in events] == [Attacked, Parried]
    assert state.combatants["wilk"].damage == 0


def test_when_everyone_has_acted_the_next_round_opens_with_a_new_deadline() -> None:
    state, _ = step(started(), EndTurn(actor="ala", now=NOW + 5))
    later = NOW + 3 * HOUR
    state, events = step(state, Attack(actor="wilk", target="ala", now=later), 2, 20, 1)
    assert [type(e) for e in events][:2] == [Attacked, RoundStarted]
    assert state.round == 2 and state.acted == ()
    view = RULESET.table_view(state)
    assert view.deadline == later + DAY and view.waiting == ("ala", "wilk")


def test_passing_by_post_is_a_turn_too() -> None:
    state, events = step(started(), EndTurn(actor="wilk", now=NOW))
    assert events == [TurnEnded("wilk")]
    assert RULESET.table_view(state).waiting == ("ala",)


def test_the_deadline_ends_the_round_for_those_who_did_not_act() -> None:
    state, _ = step(started(), EndTurn(actor="ala", now=NOW))
    with pytest.raises(RuleViolation):
        RULESET.decide(state, ResolveExpired(now=NOW + DAY - 1), Dice())
    state, events = step(state, ResolveExpired(now=NOW + DAY), 3, 4)
    assert events[0] == RoundExpired(("wilk",))
    assert state.round == 2 and state.deadline == NOW + 2 * DAY
    line = RULESET.describe(started(), events[0])
    assert line is not None and line.params == {"names": "Wilk"}


def test_an_undo_gives_the_round_the_time_it_had_left() -> None:
    state = started()
    events = RULESET.resume(state, paused_at=NOW + HOUR, now=NOW + 5 * HOUR, minimum=5)
    assert events == [DeadlineMoved(prompt="", deadline=NOW + 5 * HOUR + DAY - HOUR)]
    assert RULESET.replay(state, events).deadline == NOW + 4 * HOUR + DAY


def test_the_turn_panel_offers_each_fighter_its_own_post() -> None:
    state, _ = step(started(), EndTurn(actor="ala", now=NOW))
    visible = frozenset(state.combatants)
    ala = RULESET.turn_panel(state, "ala", visible)
    assert ala is not None and ala.my_turn is False
    wolf = RULESET.turn_panel(state, "wilk", visible)
    assert wolf is not None and wolf.my_turn and wolf.can_attack and wolf.can_end
    counters = {
        cid: seat.counters[0].value for cid, seat in RULESET.table_view(state).seats.items()
    }
    assert counters == {"ala": 0, "wilk": 1}
