"""Hypothesis properties over random fights: the replay reproduces the state, a refused
command changes nothing, Strain is paid exactly once per declared option and round."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from combat.rules.base import RuleViolation
from combat.rules.magus import RULESET, codec, engine, narrate, prompts
from combat.rules.magus import options as opt
from combat.rules.magus.commands import (
    Advance,
    Answer,
    Attack,
    Command,
    Declare,
    Delay,
    Dismount,
    EndTurn,
    Expire,
    GetUp,
    Hold,
    Interrupt,
    MountUp,
    Move,
    PassTime,
    RecoveryTest,
    RollInitiative,
    RollInitiatives,
    SimpleAction,
    StartCombat,
    StepIn,
    SurpriseTest,
    SustainedCheck,
    SustainedTest,
)
from combat.rules.magus.engine.common import must_declare
from combat.rules.magus.events import Declared, Event, RoundStarted, StrainPaid
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.state import EncounterState
from tests.combat.rules.magus.engine_kit import fighter
from tests.combat.rules.shown_dice import CountingDice, shown_faces

OPTION_MENU = (
    "agresywny_atak",
    "precyzyjny_atak",
    "postawa_obronna",
    "atak_by_ogluszyc",
    "atak_by_powalic",
    "ruch_dzielony",
    "strzaskanie_tarczy",
)


def combatants() -> list[dict[str, object]]:
    shield = [{"name": "Tarcza", "physical": 2}]
    return [
        fighter("ala", "a", "u1", skills={"unik": 2, "sprint": 1}),
        fighter("ola", "a", "u2", shields=shield, skills={"riposta": 1}),
        fighter("ork", "b", skills={"unik": 1}, armour=[{"name": "Skóra", "physical": 2}]),
        fighter("gob", "b", attributes={"zrecznosc": 7, "prog_smierci": 20}),
    ]


def declaration(r: random.Random, state: EncounterState, cid: str) -> Declare:
    c = state.get(cid)
    foes = [o.id for o in state.combatants.values() if o.side != c.side]
    if r.random() < 0.2:
        choices = [(), ("bieg",), ("postawa_obronna",), ("przycelowanie",)]
        return Declare(actor=cid, options=r.choice(choices))
    if r.random() < 0.1:
        check = r.choice([("", 0), ("percepcja", 5)])
        return Declare(
            actor=cid, action="sustained", preset=r.choice(["zamek", "plecak"]),
            test_skill=check[0], test_dn=check[1], options=r.choice([(), ("ruch_dzielony",)]),
        )  # fmt: skip
    chosen = tuple(k for k in OPTION_MENU if r.random() < 0.25)
    return Declare(
        actor=cid, action="attack", weapon="Miecz", target=r.choice(foes), options=chosen
    )


def candidates(r: random.Random, state: EncounterState, now: float) -> list[Command]:
    ids = list(state.combatants)
    anyone: list[Command] = [
        RecoveryTest(actor=r.choice(ids), revived=r.random() < 0.5, now=now),
        RecoveryTest(actor=r.choice(ids), heals="stun", now=now),
        PassTime(seconds=r.choice([60, 3600]), now=now),
        SustainedTest(target=r.choice(ids), success=r.choice([None, True, False]), now=now),
        SustainedCheck(target=r.choice(ids), skill=r.choice(["", "sila"]), dn=4, now=now),
    ]
    if state.stage == "setup":
        return [
            StartCombat(surprised=r.choice([(), ("gob",)]), now=now),
            SurpriseTest(side=r.choice(["a", "b"]), sneakers=r.choice([(), ("ork",)]), now=now),
            MountUp(actor="ala", mount="ola", now=now),
            PassTime(night=True, now=now),
        ]
    if state.stage == "ended":
        return anyone
    out: list[Command] = [Advance(now=now), Expire(now=now + 1000)]
    if r.random() < 0.2:
        out += anyone
    for p in state.prompts:
        out += [Answer(actor=p.actor, prompt=p.id, option=o, now=now) for o in ("", *p.options)]
    if state.phase == "declare":
        out += [
            declaration(r, state, cid)
            for cid, c in state.combatants.items()
            if must_declare(state, c)
        ]
    elif state.phase == "initiative":
        out += [RollInitiatives(now=now)]
        out += [RollInitiative(actor=cid, now=now) for cid in state.combatants]
    elif state.phase == "act" and state.current:
        me = state.get(state.current)
        foes = [o.id for o in state.combatants.values() if o.side != me.side]
        item = r.choice(["Miecz", "Skóra", "Tarcza"])  # Uszkodzenie broni, tarczy lub zbroi
        out += [
            Attack(actor=me.id, target=r.choice(foes), weapon="Miecz", now=now),
            Attack(actor=me.id, target=r.choice(foes), weapon="Miecz", blindside=True, now=now),
            Move(actor=me.id, metres=r.randint(1, 14), now=now),
            SimpleAction(actor=me.id, now=now),
            SimpleAction(actor=me.id, test=True, now=now),
            Attack(actor=me.id, target=r.choice(foes), weapon="Miecz", damage_item=item, now=now),
            Hold(actor=me.id, trigger="szarża", now=now),
            Delay(actor=me.id, next_round=r.random() < 0.5, now=now),
            GetUp(actor=me.id, now=now),
            EndTurn(actor=me.id, now=now),
            Attack(actor=me.id, target=r.choice(foes), weapon="Miecz", charge_m=12, now=now),
            MountUp(actor=me.id, mount=r.choice(ids), now=now),
            Dismount(actor=me.id, now=now),
        ]
        out += [Interrupt(actor=cid, now=now) for cid in state.combatants]
        out += [StepIn(actor=cid, now=now) for cid in state.combatants]
    return out


def play(
    seed: int, steps: int, unshown: list[str] | None = None
) -> tuple[EncounterState, list[Event], int]:
    """A random fight; `unshown` collects the commands that rolled dice no log line shows."""
    r = random.Random(seed)
    dice = CountingDice(seed + 1)
    state = engine.new_encounter({}, combatants())
    initial, log, refused = state, [], 0
    now = 0.0
    for _ in range(steps):
        now += 1
        options = candidates(r, state, now)
        r.shuffle(options)
        for command in options:
            before = codec.state_to_dict(state)
            rolled = dice.rolled
            try:
                events = engine.decide(state, command, dice)
            except RuleViolation:
                refused += 1
                assert codec.state_to_dict(state) == before  # refused: nothing changed
                continue
            shown = shown_faces(narrate.describe, engine.evolve, state, events)
            if unshown is not None and dice.rolled - rolled != shown:
                unshown.append(f"{command}: {dice.rolled - rolled} dice, {shown} shown")
            for event in events:
                narrate.describe(state, event)
                state = engine.evolve(state, event)
            log += events
            break
        if state.stage == "ended":
            break
    assert engine.replay(initial, log) == state
    return state, log, refused


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
@example(seed=152)  # an attack on a shield-bearer at an answer: 2 dice, 4 shown
def test_every_die_rolled_is_shown_by_a_log_line(seed: int) -> None:
    unshown: list[str] = []
    play(seed, 120, unshown)
    assert unshown == []


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_replay_reproduces_the_state_and_refusals_change_nothing(seed: int) -> None:
    state, log, _ = play(seed, 120)
    assert codec.state_from_dict(codec.state_to_dict(state)) == state
    assert [codec.event_from_dict(codec.event_to_dict(e)) for e in log] == log


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_strain_is_paid_exactly_once_per_declared_option_per_round(seed: int) -> None:
    _, log, _ = play(seed, 120)
    round_no = 0
    declared: dict[tuple[int, str], set[str]] = {}
    paid: Counter[tuple[int, str, str]] = Counter()
    for event in log:
        if isinstance(event, RoundStarted):
            round_no = event.round
        elif isinstance(event, Declared):
            declared.setdefault((round_no, event.combatant), set()).update(
                event.declaration.options
            )
        elif isinstance(event, StrainPaid) and event.reason in set(opt.DECLARABLE):
            paid[(round_no, event.combatant, event.reason)] += 1
    s = MagusSettings.from_dict(RULESET.default_settings())
    for (n, cid), options in declared.items():
        for key in options:
            assert paid[(n, cid, key)] == (1 if opt.strain(key, s) else 0), (n, cid, key)
    assert all(v == 1 for v in paid.values())


def test_a_long_random_fight_exercises_prompts_and_odds() -> None:
    r = random.Random(5)
    dice = random.Random(6)
    state = engine.new_encounter({}, combatants())
    seen_prompt = False
    for step in range(400):
        options = candidates(r, state, float(step))
        r.shuffle(options)
        for command in options:
            if isinstance(command, Attack):
                try:
                    view = prompts.preview_odds(state, command)
                    assert abs(sum(o.probability for o in view.options[0].outcomes[1:7]) - 1) < 1e-6
                except RuleViolation:
                    pass
            try:
                events = engine.decide(state, command, dice)
            except RuleViolation:
                continue
            state = engine.replay(state, events)
            break
        for p in state.prompts:
            seen_prompt = True
            odds = prompts.answer_odds(state, p.id)
            assert odds is not None and odds.option("") is not None
            assert prompts.auto_answer(state, p.id, "best", 0.0) is not None
        if state.stage == "ended":
            break
    assert seen_prompt
