"""GM-run combatants playing themselves: the weakest enemy they see, their best attack, the
end of their turn, and their post of a by-post turn; never a command the rules refuse."""

from __future__ import annotations

import random

import pytest

from combat.rules.base import fill
from combat.rules.battlemap import Resize
from combat.rules.d100 import RULESET, autoplay, engine, prompts
from combat.rules.d100.commands import (
    Attack,
    Cast,
    Damage,
    EditMap,
    EndTurn,
    Expire,
    Move,
    PlaceCombatant,
    Post,
    ResolveTurn,
)
from combat.rules.d100.state import Effect
from combat.rules.records import replace
from tests.combat.rules.d100.engine_kit import Table, fighter


def npcs(**settings: object) -> Table:
    """Orks against Ala and Bob (Bob already hurt): the Ork acts first."""
    t = Table(
        fighter(
            "ork",
            "b",
            zwinnosc=70,
            weapons=[
                {"name": "Nóż", "kind": "small"},
                {"name": "Topór", "kind": "heavy"},
            ],
        ),  # fmt: skip
        fighter("ala", "a", "u1"),
        fighter("bob", "a", "u2"),
        **settings,
    )
    t.do(Damage(target="bob", amount=50))
    return t


def test_an_npc_attacks_the_weakest_enemy_with_its_best_attack() -> None:
    t = npcs()
    t.start()
    assert t.current == "ork"
    step = autoplay.next_command(t.state, "ork", "atakuj", 5.0)
    assert isinstance(step, Attack) and step.target == "bob" and step.now == 5.0
    assert step.choice == "w1"  # the Topór: +35 to damage beats the Nóż's +5 to hit
    assert engine.refusal(t.state, step) is None


def test_after_its_attack_it_waits_for_the_answer_then_ends_its_turn() -> None:
    t = npcs()
    t.start()
    step = autoplay.next_command(t.state, "ork", "atakuj", 5.0)
    assert step is not None
    t.do(step)
    assert autoplay.next_command(t.state, "ork", "atakuj", 6.0) is None  # Bob must answer
    t.defend("", [90])
    assert autoplay.next_command(t.state, "ork", "atakuj", 7.0) == EndTurn(actor="ork", now=7.0)


def test_with_no_enemy_left_or_the_waiting_policy_it_ends_its_turn() -> None:
    t = npcs()
    t.start()
    assert autoplay.next_command(t.state, "ork", "czeka", 1.0) == EndTurn(actor="ork", now=1.0)
    for cid in ("ala", "bob"):
        t.do(Damage(target=cid, amount=500))
    assert autoplay.next_command(t.state, "ork", "atakuj", 1.0) == EndTurn(actor="ork", now=1.0)


def test_nothing_for_a_player_out_of_turn_or_before_the_fight() -> None:
    t = npcs()
    assert autoplay.next_command(t.state, "ork", "atakuj", 1.0) is None
    t.start()
    assert autoplay.next_command(t.state, "ala", "atakuj", 1.0) is None
    assert autoplay.next_command(t.state, "nikt", "atakuj", 1.0) is None
    with pytest.raises(ValueError, match="unknown autoplay policy"):
        autoplay.next_command(t.state, "ork", "szaleje", 1.0)
    assert [key for key, _ in RULESET.autoplay_policies()] == ["atakuj", "czeka"]


def test_a_caster_uses_its_damage_spell_when_it_deals_more() -> None:
    t = Table(
        fighter(
            "mag",
            "b",
            zwinnosc=70,
            zmysly=90,
            intelekt=90,
            weapons=[],
            spells=[{"name": "Ogień", "kind": "damage"}],
        ),  # fmt: skip
        fighter("ala", "a", "u1"),
    )
    t.start()
    step = autoplay.next_command(t.state, "mag", "atakuj", 1.0)
    assert isinstance(step, Cast) and step.spell == 0 and step.target == "ala"


def test_by_post_an_npc_posts_its_attack_and_the_best_defence_once() -> None:
    t = npcs(pace="post")
    t.start(now=1000)
    step = autoplay.next_command(t.state, "ork", "atakuj", 2000.0)
    assert isinstance(step, Post) and step.defence == "best" and not step.by_gm
    assert (step.action.kind, step.action.target, step.action.choice) == ("attack", "bob", "w1")
    t.do(step)
    assert autoplay.next_command(t.state, "ork", "atakuj", 2001.0) is None
    waits = autoplay.next_command(RULESET.new_encounter({}, []), "ork", "atakuj", 1.0)
    assert waits is None


def test_by_post_the_waiting_policy_posts_no_action_and_nothing_after_the_deadline() -> None:
    t = npcs(pace="post")
    t.start(now=1000)
    step = autoplay.next_command(t.state, "ork", "czeka", 2000.0)
    assert isinstance(step, Post) and step.action.kind == "none"
    t.do(Expire(now=10**9))
    assert autoplay.next_command(t.state, "ork", "atakuj", 10**9 + 1.0) is None


@pytest.mark.parametrize("seed", range(6))
def test_npcs_playing_themselves_end_their_turns_and_the_fight_moves_on(seed: int) -> None:
    """Every NPC plays by autoplay and answers by "best": no step is refused, turns end."""
    t = Table(
        fighter("ork", "b", pz=60), fighter("gob", "b", pz=40, zwinnosc=40),
        fighter("wilk", "a", pz=60, weapons=[]), fighter("ent", "a", pz=80, armour="heavy"),
    )  # fmt: skip
    rng = random.Random(seed)
    t.start()
    now = 0.0
    for _ in range(200):
        now += 1.0
        if t.state.stage != "running" or t.state.turn > 6:
            break
        if t.state.prompts:
            step = prompts.auto_answer(t.state, t.state.prompts[0].id, "best", now)
        else:
            assert t.current is not None, "a live turn always has someone acting"
            step = autoplay.next_command(t.state, t.current, "atakuj", now)
        assert step is not None
        t.do(step, rng)
    assert t.state.turn > 1


def test_the_ruleset_plays_through_autoplay() -> None:
    t = npcs()
    t.start()
    assert RULESET.autoplay_command(t.state, "ork", "atakuj", 3.0) == autoplay.next_command(
        t.state, "ork", "atakuj", 3.0
    )


def test_an_npc_out_of_its_live_turn_waits() -> None:
    t = npcs()
    t.start()
    t.do(EndTurn(actor="ork"))
    assert t.current == "ala"
    gob = RULESET.new_encounter({}, [])
    assert autoplay.next_command(gob, "ork", "atakuj", 1.0) is None
    assert autoplay.next_command(t.state, "ork", "atakuj", 1.0) is None
    assert autoplay.best_attack(t.state, t.state.get("ork"), 1.0) is None  # not its turn


def test_by_post_a_caster_posts_its_damage_spell() -> None:
    t = Table(
        fighter(
            "mag",
            "b",
            zmysly=90,
            intelekt=90,
            weapons=[],
            spells=[{"name": "Ogień", "kind": "damage"}],
        ),  # fmt: skip
        fighter("ala", "a", "u1"),
        pace="post",
    )
    t.start(now=1000)
    step = autoplay.next_command(t.state, "mag", "atakuj", 2000.0)
    assert isinstance(step, Post)
    assert (step.action.kind, step.action.spell, step.action.target) == ("cast", 0, "ala")


def test_a_disarmed_caster_with_a_focus_cannot_cast_through_it() -> None:
    t = Table(
        fighter(
            "mag",
            "b",
            zwinnosc=70,
            weapons=[{"name": "Różdżka", "kind": "wand"}],
            spells=[{"name": "Ogień", "kind": "damage"}],
        ),  # fmt: skip
        fighter("ala", "a", "u1"),
    )
    t.start()
    mag = t.state.get("mag")
    t.state = t.state.with_combatant(replace(mag, effects=(Effect("rozbrojenie", 1, 2),)))
    step = autoplay.next_command(t.state, "mag", "atakuj", 1.0)
    assert isinstance(step, Attack) and step.choice == "unarmed"


@pytest.mark.parametrize("seed", range(12))
def test_every_event_of_a_played_fight_is_told_in_full(seed: int) -> None:
    """Fights played by autoplay, live and by post, crits included: every line formats."""
    pace = "post" if seed % 2 else "live"
    t = Table(
        fighter("ork", "b", pz=60, weapons=[{"name": "Topór", "kind": "heavy"}]),
        fighter("mag", "b", pz=40, spells=[{"name": "Ogień", "kind": "damage"}], weapons=[]),
        fighter("wilk", "a", pz=60, weapons=[]), fighter("ent", "a", pz=80, armour="heavy"),
        pace=pace, difficulty="high" if seed % 3 == 0 else "moderate",
    )  # fmt: skip
    rng = random.Random(seed)
    state = t.state
    t.start(now=0.0)
    now = 0.0
    for _ in range(120):
        now += 1.0
        if t.state.stage != "running" or t.state.turn > 5:
            break
        if t.state.prompts:
            step = prompts.auto_answer(t.state, t.state.prompts[0].id, "best", now)
        elif pace == "post":
            waiting = [c for c in t.state.order if autoplay.next_command(t.state, c, "atakuj", now)]
            step = (
                autoplay.next_command(t.state, waiting[0], "atakuj", now)
                if waiting
                else ResolveTurn(now=now)
            )
        else:
            assert t.current is not None
            step = autoplay.next_command(t.state, t.current, "atakuj", now)
        assert step is not None
        t.do(step, rng)
    for event in t.log:
        line = RULESET.describe(state, event)
        state = RULESET.evolve(state, event)
        if line is None:
            continue
        told = fill(line.text, line.params)
        assert "%(" not in told and "%%" not in told, told
        for view in line.rolls:
            summary = fill(view.summary, {"n": view.result, **view.summary_params})
            assert "%(" not in summary
    assert t.state.turn > 1


# --- on a laid map, close combat needs an adjacent target (issue 22, point 7) ------------------


def on_a_row(t: Table, width: int, **fields: int) -> None:
    """A one-row map `width` fields long with each named token on its column."""
    t.do(EditMap(edit=Resize(width, 1)))
    for cid, x in fields.items():
        t.do(PlaceCombatant(target=cid, to=(x, 0)))


def test_on_a_map_an_npc_attacks_the_weakest_enemy_it_can_reach() -> None:
    t = npcs()
    on_a_row(t, 10, ork=0, ala=1, bob=9)  # Bob (hurt) is nine fields away, Ala next to it
    t.start()
    step = autoplay.next_command(t.state, "ork", "atakuj", 5.0)
    assert isinstance(step, Attack) and step.target == "ala"
    assert engine.refusal(t.state, step) is None


def test_on_a_map_an_npc_out_of_reach_walks_to_the_weakest_then_attacks() -> None:
    t = npcs()
    on_a_row(t, 10, ork=0, bob=5, ala=9)
    t.start()
    walk = autoplay.next_command(t.state, "ork", "atakuj", 5.0)
    assert isinstance(walk, Move) and walk.path[-1] == (4, 0)  # next to Bob, 4 m
    t.do(walk)
    step = autoplay.next_command(t.state, "ork", "atakuj", 6.0)
    assert isinstance(step, Attack) and step.target == "bob"
    assert engine.refusal(t.state, step) is None


def test_on_a_map_an_npc_too_far_to_reach_anyone_walks_then_ends_its_turn() -> None:
    t = npcs()
    on_a_row(t, 14, ork=0, bob=11, ala=13)
    t.start()
    walk = autoplay.next_command(t.state, "ork", "atakuj", 5.0)
    assert isinstance(walk, Move) and walk.path[-1] == (6, 0)  # its 6 m towards Bob
    t.do(walk)
    assert autoplay.next_command(t.state, "ork", "atakuj", 6.0) == EndTurn(actor="ork", now=6.0)


def test_by_post_an_npc_out_of_reach_walks_then_posts_its_attack() -> None:
    t = npcs(pace="post")
    on_a_row(t, 10, ork=0, bob=5, ala=9)
    t.start()
    walk = autoplay.next_command(t.state, "ork", "atakuj", 5.0)
    assert isinstance(walk, Move)
    t.do(walk)
    post = autoplay.next_command(t.state, "ork", "atakuj", 6.0)
    assert isinstance(post, Post) and post.action.target == "bob"
