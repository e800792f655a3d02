"""The GM's commands (setup, damage, healing, conditions, falls, the secret roll, the end)
and what the `Ruleset` protocol asks of the engine (deadlines, undo's resume, who a command
acts for and names, the GM's fields)."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.d100 import RULESET, engine
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Cast,
    Damage,
    EndCombat,
    EndTurn,
    Expire,
    Fall,
    GMRoll,
    Heal,
    JoinCombat,
    Post,
    RemoveCondition,
    ResolveTurn,
    RevealStats,
    SetHidden,
    SetOrder,
    SetPace,
    StartCombat,
)
from combat.rules.d100.events import (
    ConditionAdded,
    DeadlinesMoved,
    FallRolled,
    GMRolled,
    Healed,
    TurnStarted,
)
from combat.rules.d100.state import Action
from tests.combat.rules.d100.engine_kit import Table, fighter, kinds, one


def fight(**settings: object) -> Table:
    table = Table(fighter("ala", "a", "u1", zwinnosc=60), fighter("ork", "b"), **settings)
    table.start()
    return table


# --- setup ------------------------------------------------------------------------------------


def test_new_encounter_refuses_malformed_combatants() -> None:
    with pytest.raises(ValueError, match="every id once"):
        engine.new_encounter({}, [fighter("a", "x"), fighter("a", "y")])
    with pytest.raises(ValueError, match="reserved"):
        engine.new_encounter({}, [fighter("gm", "x")])
    with pytest.raises(ValueError, match="'name'"):
        engine.new_encounter({}, [{**fighter("a", "x"), "name": ""}])
    with pytest.raises(ValueError, match="controller"):
        engine.new_encounter({}, [{**fighter("a", "x"), "controller": 3}])
    with pytest.raises(ValueError, match="attributes"):
        engine.new_encounter({}, [{**fighter("a", "x"), "sheet": {"pz": 3}}])
    with pytest.raises(ValueError, match="object"):
        engine.new_encounter({}, ["a"])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        engine.new_encounter({"pace": "slow"}, [])


def test_join_hide_and_reveal_in_setup() -> None:
    table = Table(fighter("ala", "a", "u1"))
    table.do(JoinCombat(combatant=fighter("ork", "b", hidden=True)))
    assert table.c["ork"].hidden and table.c["ork"].pz == 200
    table.do(SetHidden(target="ork", hidden=False))
    table.do(RevealStats(target="ork", revealed=True))
    assert not table.c["ork"].hidden and table.c["ork"].revealed
    with pytest.raises(RuleViolation) as refused:
        table.do(JoinCombat(combatant=fighter("ork", "b")))
    assert refused.value.code == "juz_jest"
    with pytest.raises(RuleViolation) as refused:
        table.do(JoinCombat(combatant={"id": "x"}))
    assert refused.value.code == "karta"


def test_start_needs_two_sides_and_only_once() -> None:
    table = Table(fighter("ala", "a"), fighter("eli", "a"))
    with pytest.raises(RuleViolation) as refused:
        table.do(StartCombat())
    assert refused.value.code == "za_malo"
    table = fight()
    with pytest.raises(RuleViolation) as refused:
        table.do(StartCombat())
    assert refused.value.code == "trwa"


def test_commands_before_the_fight_are_refused() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="ala", target="ork"))
    assert refused.value.code == "przed_walka"


def test_set_pace_before_the_fight() -> None:
    table = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    table.do(SetPace(pace="post"))
    events = table.do(StartCombat(now=5))
    assert table.state.pace == "post" and one(events, TurnStarted).deadline == 5 + 24 * 3600


def test_end_combat_names_a_side_and_ends_once() -> None:
    table = fight()
    with pytest.raises(RuleViolation) as refused:
        table.do(EndCombat(winner="z"))
    assert refused.value.code == "strona"
    table.do(EndCombat(winner="a"))
    assert table.state.stage == "ended" and table.state.winner == "a"
    assert table.current is None
    for command in (EndCombat(), SetPace(pace="post"), Attack(actor="ala", target="ork")):
        with pytest.raises(RuleViolation) as refused:
            table.do(command)
        assert refused.value.code == "koniec"


# --- health and conditions --------------------------------------------------------------------


def test_gm_damage_and_heal() -> None:
    table = fight()
    table.do(Damage(target="ork", amount=50, injuries=1, note="pułapka"))
    assert (table.c["ork"].pz, table.c["ork"].injuries) == (150, 1)
    events = table.do(Heal(target="ork", amount=80, injuries=5))
    healed = one(events, Healed)
    assert healed.amount == 50 and healed.injuries == 1 and not healed.woke
    assert (table.c["ork"].pz, table.c["ork"].injuries) == (200, 0)
    with pytest.raises(RuleViolation) as refused:
        table.do(Damage(target="ork", amount=-1))
    assert refused.value.code == "liczba"


def test_a_healing_potion_stops_krwawienie() -> None:
    table = fight()
    table.do(AddCondition(target="ork", condition="krwawienie", turns=3, value=4))
    events = table.do(Heal(target="ork", amount=0, stop_bleeding=True))
    assert one(events, Healed).stopped_bleeding and table.c["ork"].effects == ()


def test_add_and_remove_conditions() -> None:
    table = fight()
    event = one(
        table.do(AddCondition(target="ork", condition="zachwianie", turns=2)), ConditionAdded
    )
    assert (event.effect.start, event.effect.until, event.effect.value) == (1, 2, 10)
    table.do(AddCondition(target="ork", condition="ogluszenie", turns=0))
    assert table.c["ork"].effects[-1].until == 0
    table.do(RemoveCondition(target="ork", condition="ogluszenie"))
    assert [e.key for e in table.c["ork"].effects] == ["zachwianie"]
    cases = [
        (AddCondition(target="ork", condition="latanie"), "stan"),
        (AddCondition(target="ork", condition="zachwianie", turns=100), "tury"),
        (AddCondition(target="ork", condition="krwawienie", turns=1), "krwawienie"),
        (AddCondition(target="ork", condition="krwawienie", value=100_000), "liczba"),
        (AddCondition(target="ork", condition="zachwianie", value=-1), "liczba"),
        (RemoveCondition(target="ork", condition="ogluszenie"), "brak_stanu"),
    ]
    for command, code in cases:
        with pytest.raises(RuleViolation) as refused:
            table.do(command)
        assert refused.value.code == code


def test_krwawienie_from_the_gm_ticks_at_turn_ends() -> None:
    table = fight()
    table.do(AddCondition(target="ork", condition="krwawienie", turns=2, value=7))
    table.do(EndTurn(actor="ala"))
    table.do(EndTurn(actor="ork"))
    table.do(EndTurn(actor="ala"))
    table.do(EndTurn(actor="ork"))
    table.do(EndTurn(actor="ala"))
    table.do(EndTurn(actor="ork"))
    assert table.c["ork"].pz == 186


def test_fall_uses_falls_and_takes_its_damage_and_urazy() -> None:
    table = fight()
    events = table.do(Fall(target="ork", height=7, ground="hard"), [60])
    fall = one(events, FallRolled)
    assert fall.result.percent == 90 and fall.harm.amount == 180 and fall.harm.injuries == 3
    assert table.c["ork"].pz == 20


def test_fall_with_akrobatyka_and_heavy_armour() -> None:
    table = Table(
        fighter("ala", "a", "u1", armour="heavy", skills={"akrobatyka": 60}), fighter("ork", "b")
    )
    table.start()
    fall = one(table.do(Fall(target="ala", height=4, acrobatics=True), [40, 10]), FallRolled)
    assert fall.result.acrobatics is not None and fall.result.halved
    assert fall.result.percent == 50 and fall.harm.amount == 50


def test_gm_roll_against_a_threshold_or_an_attribute_and_secret() -> None:
    table = fight()
    event = one(
        table.do(GMRoll(label="Spostrzegawczość", threshold=40, secret=True), [30]), GMRolled
    )
    assert event.secret and event.roll.threshold == 40 and event.roll.success
    assert engine.refusal(table.state, GMRoll()) is None
    event = one(
        table.do(GMRoll(target="ork", attribute="zmysly", modifiers=(("mrok", -10),)), [45]),
        GMRolled,
    )
    assert event.roll.threshold == 40 and not event.roll.success and event.label == "Rzut MG"
    with pytest.raises(RuleViolation) as refused:
        table.do(GMRoll(target="ork", attribute="sila"))
    assert refused.value.code == "atrybut"
    with pytest.raises(RuleViolation) as refused:
        table.do(GMRoll(threshold=5000))
    assert refused.value.code == "rzut_mg"


# --- the Ruleset protocol ---------------------------------------------------------------------


def test_next_deadline_is_the_earliest_prompt_or_the_open_post_turn() -> None:
    table = fight()
    assert engine.next_deadline(table.state) is None
    table.do(Attack(actor="ala", target="ork", now=100))
    assert engine.next_deadline(table.state) == 130
    assert RULESET.expire_command(131) == Expire(now=131)


def test_resume_gives_each_deadline_the_time_it_had_left() -> None:
    table = fight()
    table.do(Attack(actor="ala", target="ork", now=100))
    moved = one(engine.resume(table.state, paused_at=110, now=1000, minimum=5), DeadlinesMoved)
    assert moved == DeadlinesMoved(deadline=None, prompts={"p1": 1020})
    short = one(engine.resume(table.state, paused_at=129, now=1000, minimum=5), DeadlinesMoved)
    assert short.prompts == {"p1": 1005}
    assert engine.evolve(table.state, moved).prompts[0].deadline == 1020
    post = Table(fighter("ala", "a", "u1"), fighter("ork", "b"), pace="post")
    post.start(now=0)
    moved = one(engine.resume(post.state, paused_at=3600, now=10000, minimum=60), DeadlinesMoved)
    assert moved.deadline == 10000 + 23 * 3600 and moved.prompts == {}
    assert engine.evolve(post.state, moved).deadline == moved.deadline
    assert engine.resume(fight().state, paused_at=0, now=0, minimum=0) == []
    assert engine.resume(Table(fighter("a", "x")).state, paused_at=0, now=0, minimum=0) == []


def test_who_a_command_acts_for_and_names() -> None:
    assert RULESET.command_actor(Attack(actor="ala", target="ork")) == "ala"
    assert RULESET.command_actor(Damage(target="ork")) is None
    assert RULESET.command_targets(Attack(actor="ala", target="ork")) == ("ork",)
    assert RULESET.command_targets(Cast(actor="ala", spell=0)) == ()
    assert RULESET.command_targets(SetOrder(order=("a", "b"))) == ("a", "b")
    post = Post(actor="ala", action=Action(kind="attack", target="ork"))
    assert RULESET.command_targets(post) == ("ork",)
    assert RULESET.gm_judged_fields(post) == []
    assert RULESET.gm_judged_fields(Post(actor="ala", by_gm=True)) == ["by_gm"]
    assert RULESET.gm_judged_fields(EndTurn(actor="ala")) == []
    assert RULESET.needs_fresh_state(ResolveTurn())
    assert not RULESET.needs_fresh_state(Attack(actor="ala", target="ork"))


def test_join_and_visibility_commands() -> None:
    join = RULESET.join_command(fighter("x", "b"), 5.0)
    assert isinstance(join, JoinCombat) and join.now == 5.0
    assert RULESET.visibility_command("x", hidden=True) == SetHidden(target="x", hidden=True)
    assert RULESET.visibility_command("x", revealed=True) == RevealStats(target="x", revealed=True)


def test_a_combatant_joining_a_running_fight() -> None:
    table = fight()
    events = table.do(RULESET.join_command(fighter("wolf", "b", zwinnosc=90), 1.0))
    assert kinds(events) == ["joined"] and table.state.order[-1] == "wolf"


def test_refusal_probes_a_command_on_thrown_away_dice() -> None:
    table = fight()
    assert engine.refusal(table.state, Attack(actor="ala", target="ork")) is None
    refused = engine.refusal(table.state, Attack(actor="ork", target="ala"))
    assert refused is not None and refused.code == "nie_twoja_tura"
    assert table.state.prompts == ()


def test_an_unknown_command_is_refused() -> None:
    from combat.rules.d100.commands import Command

    with pytest.raises(RuleViolation) as refused:
        engine.decide(fight().state, Command(actor="ala"), None)  # type: ignore[arg-type]
    assert refused.value.code == "polecenie"
