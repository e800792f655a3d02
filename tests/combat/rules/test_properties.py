"""Properties under random command sequences (hypothesis): limits, health checks, replay, and
refusals that change nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.rules.base import RuleViolation
from combat.rules.eleora import conditions as cond
from combat.rules.eleora import health
from combat.rules.eleora.commands import (
    AcceptOpportunity,
    AddCondition,
    Aim,
    ApplyDamage,
    ChooseReaction,
    Command,
    DeclareAreaAttack,
    DeclareAttack,
    DeclineOpportunity,
    EditHealth,
    EndTurn,
    Evade,
    Guard,
    Heal,
    Interact,
    Move,
    Prepare,
    Reload,
    RemoveCondition,
    ResolveExpired,
    StandUp,
    StartCombat,
    YieldInitiative,
)
from combat.rules.eleora.engine import decide, evolve, replay
from combat.rules.eleora.events import Event, event_from_dict, event_to_dict
from combat.rules.eleora.narrate import describe
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import UNARMED, EncounterState, state_to_dict
from tests.combat.rules.engine_kit import (
    LUK,
    SZABLA,
    TARCZA,
    make_combatant,
    make_sheet,
    make_state,
)
from tests.combat.rules.shown_dice import CountingDice, shown_faces

KEYS = sorted(k for k, s in cond.SPECS.items() if not s.derived)
SPECIALS = (None, "odepchniecie", "schwytanie", "powalenie", "oslepienie")


def arena(table: TableSettings, positions: bool) -> EncounterState:
    def at(x: int, y: int) -> tuple[int, int] | None:
        return (x, y) if positions else None

    return make_state(
        make_combatant("ala", position=at(0, 0), sheet=make_sheet(weapons=(SZABLA, LUK))),
        make_combatant("bob", position=at(0, 1), sheet=make_sheet("Bob", shields=(TARCZA,))),
        make_combatant("wilk", "foes", position=at(1, 0), sheet=make_sheet("Wilk", weapons=())),
        make_combatant("lis", "foes", position=at(1, 1), sheet=make_sheet("Lis", krzepa=1)),
        settings=table,
    )


def candidates(state: EncounterState, now: float) -> list[Command]:
    """A spread of commands for the state: legal and not (refusals are part of the test)."""
    ids = list(state.combatants)
    cmds: list[Command] = [ResolveExpired(now=now + 100)]
    for p in state.prompts:
        cmds += [
            ChooseReaction(actor=p.actor, prompt=p.id, reactions=r, now=now)
            for r in ((), ("unik",), ("parowanie",), ("parowanie", "unik"))
        ]
        cmds += [
            AcceptOpportunity(actor=p.actor, prompt=p.id, weapon=UNARMED, now=now),
            DeclineOpportunity(actor=p.actor, prompt=p.id),
            Evade(actor=p.actor, prompt=p.id, run=True, now=now),
        ]
    me = state.current or ids[0]
    for target in ids:
        for special in SPECIALS:
            cmds.append(
                DeclareAttack(actor=me, target=target, weapon="Szabla", special=special, now=now)
            )
        cmds += [
            DeclareAttack(actor=me, target=target, weapon=UNARMED, flat=True, now=now),
            DeclareAttack(actor=me, target=target, weapon="Łuk", now=now),
            Aim(actor=me, target=target),
            Interact(actor=me, kind="tamowanie", target=target, now=now),
            Interact(actor=me, kind="pomoc_w_wyrwaniu", target=target, now=now),
        ]
    cmds += [
        EndTurn(actor=me, now=now),
        Prepare(actor=me),
        Guard(actor=me),
        StandUp(actor=me),
        Reload(actor=me, weapon="Łuk"),
        YieldInitiative(actor=me, by=5),
        Move(actor=me, metres=2, now=now),
        Move(actor=me, mode="bieg", metres=3, now=now),
        Interact(actor=me, kind="wyrwanie", now=now),
        Interact(actor=me, kind="ugaszenie"),
        DeclareAreaAttack(targets=tuple(ids), now=now),
    ]
    return cmds


IDS = st.sampled_from(["ala", "bob", "wilk", "lis"])
GM_COMMANDS: st.SearchStrategy[Command] = st.one_of(
    st.builds(
        AddCondition,
        target=IDS,
        condition=st.sampled_from(KEYS),
        stacks=st.integers(1, 4),
        source=st.sampled_from([None, "ala", "wilk"]),
        difficulty=st.sampled_from([None, 2, 4]),
    ),
    st.builds(RemoveCondition, target=IDS, condition=st.sampled_from(KEYS)),
    st.builds(ApplyDamage, target=IDS, physical=st.integers(0, 9), stun=st.integers(0, 9)),
    st.builds(Heal, target=IDS, amount=st.integers(1, 9), magic=st.booleans()),
    st.builds(
        EditHealth, target=IDS, damage_physical=st.integers(0, 20), damage_stun=st.integers(0, 20)
    ),
)


def check_limits(state: EncounterState) -> None:
    for c in state.combatants.values():
        for key in {x.key for x in c.conditions}:
            limit = cond.spec(key).max_stacks(state.settings)
            assert c.stacks(key) <= limit, (c.id, key, c.stacks(key))
        assert c.stacks("podpalenie") <= 1


def check_health(state: EncounterState) -> None:
    s = state.settings
    for c in state.combatants.values():
        assert not c.maiming_pending, "a maiming roll was left pending"
        if c.status == "active":
            assert c.health > s.unconscious_at and c.fatigue < s.fatigue_max, c
        if c.health <= s.unconscious_at or c.fatigue >= s.fatigue_max:
            assert c.status != "active", c
        if c.health <= s.maiming_trigger and not s.maiming_enabled:
            assert c.status == "dead", c
        assert c.damage_physical >= 0 and c.damage_stun >= 0


@contextmanager
def spy_health(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Record each combatant passed to the health module (the one door to damage and status)."""
    seen: list[str] = []
    for name in ("change_health", "settle", "maim", "first_aid"):
        original = getattr(health, name)

        def spy(c, *args, _original=original, **kwargs):  # type: ignore[no-untyped-def]
            seen.append(c.id)
            return _original(c, *args, **kwargs)

        monkeypatch.setattr(health, name, spy)
    yield seen


def run_random(
    data: st.DataObject,
    steps: int,
    *,
    check_refusals: bool = False,
    unshown: list[str] | None = None,
) -> tuple[EncounterState, list[Event], EncounterState]:
    """A random fight; `unshown` collects the commands that rolled dice no log line shows."""
    table = TableSettings(
        maiming_enabled=data.draw(st.booleans()), stun_cannot_kill=data.draw(st.booleans())
    )
    initial = arena(table, positions=data.draw(st.booleans()))
    rng = CountingDice(data.draw(st.integers(0, 2**32)))
    state, log = initial, []
    command: Command = StartCombat()
    events = decide(state, command, rng)
    for i in range(steps):
        if unshown is not None and rng.rolled != shown_faces(describe, evolve, state, events):
            unshown.append(f"{command}: {rng.rolled} dice")
        rng.rolled = 0
        log += events
        state = replay(state, events)
        check_limits(state)
        check_health(state)
        if state.phase == "ended":
            break
        events = []
        options = candidates(state, float(i))
        command = data.draw(st.one_of(st.sampled_from(options), GM_COMMANDS))
        before = json.dumps(state_to_dict(state), sort_keys=True) if check_refusals else ""
        try:
            events = decide(state, command, rng)
        except RuleViolation as refusal:
            rng.rolled = 0
            assert refusal.message and refusal.code
            if check_refusals:
                assert json.dumps(state_to_dict(state), sort_keys=True) == before
    return initial, log, state


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.data())
def test_no_condition_stack_ever_exceeds_its_limit(data: st.DataObject) -> None:
    run_random(data, 40)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_refused_commands_leave_the_state_unchanged(data: st.DataObject) -> None:
    run_random(data, 30, check_refusals=True)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_die_rolled_is_shown_by_a_log_line(data: st.DataObject) -> None:
    unshown: list[str] = []
    run_random(data, 40, unshown=unshown)
    assert unshown == []


@PROPERTY
@given(st.data())
def test_replaying_recorded_events_reproduces_the_identical_state(data: st.DataObject) -> None:
    initial, log, final = run_random(data, 40)
    assert replay(initial, log) == final
    stored = [event_from_dict(json.loads(json.dumps(event_to_dict(e)))) for e in log]
    assert stored == log and replay(initial, stored) == final


@PROPERTY
@given(st.data())
def test_every_health_change_passes_the_unconsciousness_and_death_checks(
    data: st.DataObject,
) -> None:
    with pytest.MonkeyPatch.context() as mp, spy_health(mp) as seen:
        initial, log, _ = run_random(data, 40)
        state = initial
        for event in log:
            seen.clear()
            after = evolve(state, event)
            for cid, c in after.combatants.items():
                old = state.combatants[cid]
                changed = (c.damage_physical, c.damage_stun, c.status) != (
                    old.damage_physical,
                    old.damage_stun,
                    old.status,
                )
                if changed:
                    assert cid in seen, (type(event).__name__, cid)
            state = after
