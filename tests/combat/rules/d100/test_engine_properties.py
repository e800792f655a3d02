"""Hypothesis properties over random fights in both paces: the replay is the fold of the
events, a refused command changes nothing, every command, event and state survives its JSON,
and the invariants hold after every step (0 ≤ PŻ ≤ max, out of the fight only at 0 PŻ, one
full action per combatant and turn, prompts only live, posts only by post)."""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin, get_type_hints

from hypothesis import given, settings
from hypothesis import strategies as st

from combat.rules.base import RuleViolation
from combat.rules.d100 import codec, engine, narrate
from combat.rules.d100.commands import (
    COMMANDS,
    AddCondition,
    Attack,
    Cast,
    Command,
    Damage,
    DecideFallen,
    Defend,
    EndTurn,
    Expire,
    ExtendDeadline,
    Fall,
    FreeAction,
    FullAction,
    GMRoll,
    Heal,
    JoinCombat,
    Post,
    RemoveCondition,
    ResolveTurn,
    Rest,
    SetOrder,
    SetPace,
    StartCombat,
    Transform,
)
from combat.rules.d100.events import (
    EVENTS,
    AttackDeclared,
    Event,
    FullActed,
    RestDeclared,
    SpellResolved,
    Transformed,
    TurnStarted,
)
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.state import Action, EncounterState
from tests.combat.rules.d100.engine_kit import fighter
from tests.combat.rules.shown_dice import CountingDice, shown_faces

SPELLS = [
    {"name": "Pocisk", "kind": "damage"},
    {"name": "Sen", "kind": "negative", "turns": 1},
    {"name": "Oddech", "kind": "positive", "turns": 1},
    {
        "name": "Wilk",
        "kind": "summon",
        "turns": 2,
        "summon": {"name": "Wilk", "pz": 30, "attack": 45, "damage": 50},
    },
]
CHOICES = ("", "w0", "w1", "two:0:1", "claws", "unarmed", "w9")
CONDITIONS = ("ogluszenie", "powalenie", "rozbrojenie", "krwawienie", "zachwianie")


def combatants() -> list[dict[str, Any]]:
    two = [{"name": "Sztylet", "kind": "small"}, {"name": "Miecz", "kind": "traditional"}]
    return [
        fighter(
            "ala",
            "a",
            "u1",
            zwinnosc=60,
            spells=SPELLS,
            pz=120,
            weapons=[{"name": "Miecz", "kind": "traditional"}, {"name": "Różdżka", "kind": "wand"}],
        ),  # fmt: skip
        fighter("ola", "a", "u2", transformation="wampir", shield=True, pz=90),
        fighter("ork", "b", armour="heavy", krzepa=70, pz=150),
        fighter("gob", "b", zwinnosc=65, weapons=two, pz=60),
    ]


def candidates(r: random.Random, state: EncounterState, now: float) -> list[Command]:
    ids = list(state.combatants)
    pick = r.choice
    gm: list[Command] = [
        Damage(target=pick(ids), amount=r.randint(0, 80), injuries=r.randint(0, 1), now=now),
        Heal(target=pick(ids), amount=r.randint(0, 60), stop_bleeding=r.random() < 0.3, now=now),
        AddCondition(
            target=pick(ids),
            condition=pick(CONDITIONS),
            turns=r.randint(0, 2),
            value=r.randint(0, 5),
            now=now,
        ),  # fmt: skip
        RemoveCondition(target=pick(ids), condition=pick(CONDITIONS), now=now),
        Fall(target=pick(ids), height=r.randint(0, 20), acrobatics=r.random() < 0.5, now=now),
        GMRoll(threshold=r.randint(0, 100), secret=r.random() < 0.5, now=now),
        DecideFallen(target=pick(ids), outcome=pick(["martwy", "nieprzytomny"]), now=now),
        SetPace(pace=pick(["live", "post"]), now=now),
        SetOrder(order=tuple(r.sample(ids, len(ids))), now=now),
        Expire(now=now + r.choice([0, 40, 10**6])),
    ]
    if state.stage == "setup":
        return [StartCombat(now=now), SetPace(pace=pick(["live", "post"]), now=now)]
    if state.stage == "ended":
        return gm
    out: list[Command] = []
    if r.random() < 0.25:
        out += gm
    if r.random() < 0.02:
        out.append(JoinCombat(combatant=fighter(f"x{r.randint(0, 99)}", "b", pz=40), now=now))
    for p in state.prompts:
        out += [Defend(actor=p.actor, prompt=p.id, option=o, now=now) for o in ("", *p.options)]
    if state.pace == "post":
        out += [ResolveTurn(now=now), ExtendDeadline(deadline=now + 3600, now=now)]
        for cid in ids:
            out.append(Post(actor=cid, action=_action(r, ids), defence=pick(["", "unik", "blok",
                "best"]), by_gm=r.random() < 0.5, now=now))  # fmt: skip
    elif state.current:
        me = state.current
        out += _own(r, me, ids, now)
    return out


def _action(r: random.Random, ids: list[str]) -> Action:
    kind = r.choice(["none", "attack", "cast", "rest", "transform", "full"])
    return Action(kind=kind, target=r.choice([*ids, None]), choice=r.choice(CHOICES),
        spell=r.randint(0, 3), note="x")  # fmt: skip


def _own(r: random.Random, me: str, ids: list[str], now: float) -> list[Command]:
    target = r.choice(ids)
    return [
        Attack(actor=me, target=target, choice=r.choice(CHOICES), now=now),
        Attack(actor=me, target=target, now=now),
        Cast(actor=me, spell=r.randint(0, 3), target=r.choice([*ids, None]), now=now),
        Rest(actor=me, now=now),
        Transform(actor=me, now=now),
        FullAction(actor=me, note="plecak", now=now),
        FreeAction(actor=me, kind="change_weapon", choice=r.choice(CHOICES), now=now),
        FreeAction(actor=me, kind="move", now=now),
        EndTurn(actor=me, now=now),
        EndTurn(actor=me, now=now),
    ]


def check_invariants(state: EncounterState) -> None:
    for c in state.combatants.values():
        assert 0 <= c.pz <= c.max_pz, c
        assert c.injuries >= 0
        assert c.status == "" or c.pz == 0, c
    if state.pace == "post":
        assert state.prompts == () and state.current is None
    else:
        assert state.posts == {}
    if state.current is not None:
        assert state.current in state.combatants
    assert set(state.order) <= set(state.combatants)


def play(
    seed: int, steps: int, unshown: list[str] | None = None, **table: Any
) -> tuple[EncounterState, list[Event], int]:
    """A random fight; `unshown` collects the commands that rolled dice no log line shows."""
    r = random.Random(seed)
    dice = CountingDice(seed + 1)
    state = engine.new_encounter(table, combatants())
    initial, log, refused = state, [], 0
    now = 0.0
    for _ in range(steps):
        now += r.choice([1, 5, 60, 4000])
        options = candidates(r, state, now)
        r.shuffle(options)
        for command in options:
            assert codec.command_from_dict(codec.command_to_dict(command)) == command
            before = codec.state_to_dict(state) if r.random() < 0.1 else None  # (sampled: slow)
            rolled = dice.rolled
            try:
                events = engine.decide(state, command, dice)
            except RuleViolation:
                refused += 1
                assert before is None or codec.state_to_dict(state) == before  # nothing changed
                continue
            shown = shown_faces(narrate.describe, engine.evolve, state, events)
            if unshown is not None and dice.rolled - rolled != shown:
                unshown.append(f"{command}: {dice.rolled - rolled} dice, {shown} shown")
            for event in events:
                state = engine.evolve(state, event)
                check_invariants(state)
            log += events
            break
        if state.stage == "ended":
            break
    assert engine.replay(initial, log) == state
    return state, log, refused


TABLES = st.fixed_dictionaries(
    {
        "difficulty": st.sampled_from(["low", "moderate", "high"]),
        "pace": st.sampled_from(["live", "post"]),
        "npc_at_zero": st.sampled_from(["ask", "unconscious", "dead"]),
        "optional_crits": st.booleans(),
    }
)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), TABLES)
def test_every_die_rolled_is_shown_by_a_log_line(seed: int, table: dict[str, Any]) -> None:
    unshown: list[str] = []
    play(seed, 150, unshown, **table)
    assert unshown == []


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), TABLES)
def test_replay_is_the_fold_and_refusals_change_nothing(seed: int, table: dict[str, Any]) -> None:
    state, log, _ = play(seed, 150, **table)
    assert codec.state_from_dict(codec.state_to_dict(state)) == state
    assert [codec.event_from_dict(codec.event_to_dict(e)) for e in log] == log


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), TABLES)
def test_one_full_action_per_combatant_and_turn(seed: int, table: dict[str, Any]) -> None:
    _, log, _ = play(seed, 150, **table)
    turn = 0
    used: Counter[tuple[int, str]] = Counter()
    for event in log:
        if isinstance(event, TurnStarted):
            turn = event.turn
        elif isinstance(event, AttackDeclared):
            used[(turn, event.attacker)] += 1
        elif isinstance(event, SpellResolved):
            used[(turn, event.caster)] += 1
        elif isinstance(event, RestDeclared | Transformed | FullActed):
            used[(turn, event.combatant)] += 1
    assert all(n == 1 for n in used.values()), used


def test_random_fights_reach_the_interesting_events() -> None:
    """The random streams above do exercise the engine (not only refusals)."""
    seen: set[str] = set()
    for seed in range(12):
        pace = "post" if seed % 2 else "live"
        _, log, _ = play(seed, 200, pace=pace, difficulty="high" if seed % 3 else "low")
        seen |= {e.type_key for e in log}
    wanted = {"attack_resolved", "spell_resolved", "turn_closed", "posted", "posts_revealed"}
    assert wanted <= seen, wanted - seen


# --- every record survives its JSON -----------------------------------------------------------


def sample(hint: Any, depth: int = 0) -> Any:
    """A value of the type `hint`, with every optional part filled (to reach every field)."""
    if hint is D100Settings:
        return D100Settings()
    origin, args = get_origin(hint), get_args(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = get_type_hints(hint)
        values = {f.name: sample(hints[f.name], depth + 1) for f in dataclasses.fields(hint)}
        return hint(**values)
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in args if a is not type(None)), depth)
    if origin is Literal:
        return args[-1]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (sample(args[0], depth + 1),) if depth < 4 else ()
        return tuple(sample(a, depth + 1) for a in args)
    if origin in (Mapping, dict) or hint is Mapping:
        return {"k": sample(args[1], depth + 1) if args else "v"}
    if hint is Any:
        return "v"
    return {int: 3, float: 2.5, str: "x", bool: True}[hint]


def test_every_command_event_and_the_state_round_trip() -> None:
    for kind in COMMANDS.values():
        command = sample(kind)
        assert codec.command_from_dict(codec.command_to_dict(command)) == command
    for event_kind in EVENTS.values():
        event = sample(event_kind)
        assert codec.event_from_dict(codec.event_to_dict(event)) == event
    state = sample(EncounterState)
    assert codec.state_from_dict(codec.state_to_dict(state)) == state


def test_the_codec_refuses_bad_data() -> None:
    import pytest

    with pytest.raises(ValueError, match="unknown command type"):
        codec.command_from_dict({"type": "fly"})
    with pytest.raises(ValueError, match="unknown field"):
        codec.command_from_dict({"type": "end_turn", "actor": "a", "speed": 3})
    with pytest.raises(ValueError, match="missing field"):
        codec.event_from_dict({"type": "turn_began"})
    with pytest.raises(ValueError):
        codec.state_from_dict({"settings": {"pace": "slow"}, "combatants": {}})
