"""The Magus encounter simulator: seeded Monte-Carlo fights through the real engine, the
defenders' policies, the shared tactics, and the summary the GM's balancing page shows."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from combat.rules.base import Simulator, simulator_of
from combat.rules.magus import RULESET, engine, prompts, simulate
from combat.rules.magus.commands import (
    AddCondition,
    Advance,
    Attack,
    Declare,
    EditHealth,
    EndTurn,
    GetUp,
    StartCombat,
)
from combat.rules.magus.engine.common import sides_standing
from combat.rules.magus.state import NO_REACTION, EncounterState
from combat.rules.records import replace
from combat.rules.seeded import SeededRNG
from tests.combat.rules.magus.engine_kit import Table, fighter, to_act

STRONG = {
    "attributes": {
        "zrecznosc": 9,
        "sila": 8,
        "obrona_fizyczna": 12,
        "prog_ran": 14,
        "prog_przytomnosci": 60,
        "prog_smierci": 70,
    },
    "skills": {"bron_biala": 7},
    "weapons": [{"name": "Topór", "damage": 6, "size": 4}],
    "armour": [{"name": "Kolczuga", "physical": 6}],
}
WEAK = {
    "attributes": {"zrecznosc": 4, "sila": 3, "obrona_fizyczna": 5, "prog_przytomnosci": 12},
    "skills": {"bron_biala": 1},
    "weapons": [{"name": "Nóż", "damage": 2, "size": 1}],
}
DODGER = {"skills": {"bron_biala": 3, "unik": 4, "riposta": 2}}


def three_on_three(**kw: Any) -> list[dict[str, Any]]:
    party = [fighter(f"p{i}", "druzyna", f"u{i}", **kw) for i in range(3)]
    return party + [fighter(f"w{i}", "wrogowie", **kw) for i in range(3)]


def run(combatants: Sequence[Mapping[str, Any]], **kw: Any) -> simulate.SimulationResult:
    options: dict[str, Any] = {"runs": 60, "seed": 1, "policy": "best", **kw}
    return simulate.simulate({}, combatants, **options)


def test_shares_of_wins_and_draws_sum_to_one_and_drops_are_shares() -> None:
    result = run(three_on_three())
    assert result.runs == 60
    assert set(result.wins) == {"druzyna", "wrogowie"}
    assert sum(result.wins.values()) + result.draws == pytest.approx(1.0)
    assert set(result.drops) == {"p0", "p1", "p2", "w0", "w1", "w2"}
    assert all(0.0 <= share <= 1.0 for share in result.drops.values())
    assert all(0.0 <= n <= 3.0 for n in result.survivors.values())
    # The same 60 fights played one by one: each ends decided or at the round cap, and the
    # summary's mean rounds is theirs.
    rng = SeededRNG(1)
    initial = engine.new_encounter({}, three_on_three())
    fights = [simulate.play(initial, rng, "best") for _ in range(60)]
    for fight in fights:
        assert len(sides_standing(fight)) <= 1 or fight.round > simulate.MAX_ROUNDS
    rounds = [min(fight.round, simulate.MAX_ROUNDS) for fight in fights]
    assert result.mean_rounds == pytest.approx(sum(rounds) / len(rounds))


def test_a_much_stronger_side_wins_almost_always() -> None:
    strong = [fighter(f"r{i}", "rycerze", **STRONG) for i in range(2)]
    weak = [fighter(f"g{i}", "gobliny", **WEAK) for i in range(3)]
    result = run(strong + weak, runs=100)
    assert result.wins["rycerze"] >= 0.95
    assert result.survivors["rycerze"] > 1.5
    assert all(result.drops[f"g{i}"] >= 0.95 for i in range(3))


def test_the_same_seed_gives_the_same_summary() -> None:
    first = run(three_on_three(**DODGER), runs=20, seed=7)
    assert run(three_on_three(**DODGER), runs=20, seed=7) == first
    assert run(three_on_three(**DODGER), runs=20, seed=8) != first


def test_a_fight_nobody_can_win_is_a_draw_at_the_round_cap() -> None:
    walls = {"attributes": {"obrona_fizyczna": 80}}
    result = run([fighter("a", "x", **walls), fighter("b", "y", **walls)], max_rounds=3)
    assert result.draws == 1.0
    assert result.wins == {"x": 0.0, "y": 0.0}
    assert result.mean_rounds == 3.0
    assert result.drops == {"a": 0.0, "b": 0.0}
    assert result.survivors == {"x": 1.0, "y": 1.0}


@pytest.mark.parametrize("policy", [key for key, _ in simulate.POLICIES])
def test_every_defence_policy_plays_fights_to_their_end(policy: str) -> None:
    result = run(three_on_three(**DODGER), runs=15, policy=policy)
    assert sum(result.wins.values()) + result.draws == pytest.approx(1.0)


def test_defenders_that_dodge_win_more_often_than_those_that_do_not() -> None:
    dodgers = [fighter(f"d{i}", "unikajacy", **DODGER) for i in range(2)]
    others = [fighter(f"o{i}", "inni") for i in range(2)]
    best = run(dodgers + others, runs=60, policy="best")
    none = run(dodgers + others, runs=60, policy="none")
    assert best.wins["unikajacy"] > none.wins["unikajacy"] + 0.1  # about 0.77 against 0.51


def test_unknown_policy_or_tactics_and_no_runs_are_refused() -> None:
    with pytest.raises(ValueError, match="simulation policy"):
        run(three_on_three(), policy="parowanie")
    with pytest.raises(ValueError, match="tactics"):
        run(three_on_three(), tactics="ucieczka")
    with pytest.raises(ValueError, match="run"):
        run(three_on_three(), runs=0)


def _first_prompt(seed: int = 0) -> EncounterState:
    """A fight between dodgers played until a defender is asked how it reacts."""
    rng = random.Random(seed)
    state = engine.new_encounter({}, [fighter("a", "x", **DODGER), fighter("b", "y", **DODGER)])
    state = simulate.apply(state, StartCombat(), rng)
    while not state.prompts:
        state = simulate.apply(state, simulate.next_command(state, "best"), rng)
    return state


@pytest.mark.parametrize("policy", ["unik", "riposta"])
def test_the_talent_policies_answer_with_their_talent(policy: str) -> None:
    state = _first_prompt()
    prompt = state.prompts[0]
    answer = simulate.defence_answer(state, prompt.id, policy)
    assert (answer.actor, answer.prompt, answer.option) == (prompt.actor, prompt.id, policy)


def test_the_best_policy_takes_the_likelier_talent_and_none_takes_none() -> None:
    state = _first_prompt()
    prompt = state.prompts[0]
    # Unik 4 is the higher step than Riposta 2 (both on Zręczność 6).
    assert simulate.defence_answer(state, prompt.id, "best").option == "unik"
    assert simulate.defence_answer(state, prompt.id, "none").option == NO_REACTION


def test_a_talent_policy_without_the_talent_gives_no_reaction() -> None:
    state = engine.new_encounter(
        {}, [fighter("a", "x", skills={"unik": 3}), fighter("b", "y", skills={"unik": 3})]
    )
    rng = random.Random(3)
    state = simulate.apply(state, StartCombat(), rng)
    while not state.prompts:
        state = simulate.apply(state, simulate.next_command(state, "best"), rng)
    assert simulate.defence_answer(state, state.prompts[0].id, "riposta").option == NO_REACTION


def test_play_continues_a_fight_already_running() -> None:
    table = Table(*three_on_three())
    table.do(StartCombat())
    final = simulate.play(table.state, random.Random(2))
    assert final.round >= 1
    assert len({c.side for c in final.combatants.values() if not c.out}) <= 1


# --- the tactics ------------------------------------------------------------------------------


def test_the_tactics_attack_the_most_hurt_enemy_the_table_shows() -> None:
    hidden = {**fighter("ukryty", "b"), "hidden": True}
    table = Table(fighter("ala", "a"), fighter("ork", "b"), fighter("gob", "b"), hidden)
    table.do(StartCombat())
    state = table.state
    me = state.get("ala")
    assert simulate.pick_target(state, me) == state.get("ork")  # equal: the first listed
    table.do(EditHealth(target="gob", damage=5))
    table.do(EditHealth(target="ukryty", damage=20))
    assert simulate.pick_target(table.state, me) == table.state.get("gob")
    table.do(EditHealth(target="ork", damage=30))  # out: unconscious
    table.do(EditHealth(target="gob", damage=30))
    assert simulate.pick_target(table.state, me) == table.state.get("ukryty")
    table.do(EditHealth(target="ukryty", damage=30))
    assert simulate.pick_target(table.state, me) is None
    assert simulate.declaration(table.state, "ala") == Declare(actor="ala", action="none")


def test_the_best_weapon_hits_more_and_harder_and_a_disarmed_one_uses_its_hands() -> None:
    weapons = [
        {"name": "Nóż", "damage": 2},
        {"name": "Miecz", "damage": 4},
        {"name": "Łuk", "kind": "missile", "damage": 3},
        {"name": "Pazury", "kind": "unarmed", "damage": 1},
    ]
    state = engine.new_encounter({}, [fighter("a", "x", weapons=weapons), fighter("b", "y")])
    me = state.get("a")
    assert simulate.best_weapon(me) == "Miecz"  # Broń Biała 3: 9 + 9
    assert simulate.best_weapon(replace(me, disarmed=True)) == "Pazury"
    bare = engine.new_encounter({}, [fighter("a", "x", weapons=[]), fighter("b", "y")])
    assert simulate.best_weapon(bare.get("a")) == ""


def test_the_tactics_declare_a_plain_attack_or_their_combat_option_when_allowed() -> None:
    table = Table(fighter("ala", "a"), fighter("ork", "b"))
    table.do(StartCombat())
    state = table.state
    plain = simulate.declaration(state, "ala", now=5.0)
    assert plain == Declare(
        actor="ala", action="attack", weapon="Miecz", target="ork", options=(), now=5.0
    )
    assert simulate.declaration(state, "ala", "agresywnie").options == ("agresywny_atak",)
    assert simulate.declaration(state, "ala", "ostroznie").options == ("postawa_obronna",)


def test_no_combat_option_the_rules_refuse_or_whose_strain_would_knock_it_out() -> None:
    archer = fighter("ala", "a", weapons=[{"name": "Łuk", "kind": "missile", "damage": 3}])
    table = Table(archer, fighter("ork", "b"))
    table.do(StartCombat())
    assert simulate.declaration(table.state, "ala", "agresywnie").options == ()  # melee only
    table.do(EditHealth(target="ork", damage=24))  # Próg Utraty Przytomności 25
    assert simulate.declaration(table.state, "ork", "agresywnie").options == ()


def test_in_its_turn_it_gets_up_first_then_attacks_then_ends_the_turn() -> None:
    table = Table(fighter("ala", "a"), fighter("ork", "b"))
    table.do(StartCombat())
    to_act(table, {"ala": simulate.declaration(table.state, "ala")})
    assert table.state.current == "ala"
    table.do(AddCondition(target="ala", condition="powalony"))
    assert simulate.turn_command(table.state, "ala") == GetUp(actor="ala")
    table.random(GetUp(actor="ala"), seed=4)
    attack = simulate.turn_command(table.state, "ala", now=3.0)
    assert attack == Attack(actor="ala", target="ork", weapon="Miecz", now=3.0)
    table.random(attack, seed=1)
    assert not table.state.prompts  # the ork has no defensive talent
    assert simulate.turn_command(table.state, "ala") == EndTurn(actor="ala")


def test_a_disarmed_attacker_attacks_with_its_bare_hands() -> None:
    table = Table(fighter("ala", "a"), fighter("ork", "b"))
    table.do(StartCombat())
    to_act(table, {"ala": simulate.declaration(table.state, "ala")})
    state = table.state.with_combatant(replace(table.state.get("ala"), disarmed=True))
    assert simulate.turn_command(state, "ala") == Attack(actor="ala", target="ork", weapon="")


def test_a_step_the_rules_refuse_ends_the_turn_or_moves_the_round_on() -> None:
    table = Table(fighter("ala", "a"), fighter("ork", "b"))
    table.do(StartCombat())
    rng = random.Random(0)
    # Declaring for a stranger in the declaration phase: the GM moves the round on (reveal).
    state = simulate.apply(table.state, Declare(actor="nikt"), rng)
    assert state.phase in ("initiative", "act")
    to_act(table)
    current = table.state.current
    assert current is not None
    other = "ork" if current == "ala" else "ala"
    state = simulate.apply(table.state, Attack(actor=other, target=current), rng)
    assert state.get(current).done


def test_next_command_moves_the_round_on_when_nobody_else_would() -> None:
    table = Table(fighter("ala", "a"), fighter("ork", "b"))
    table.do(StartCombat())
    to_act(table)
    current = table.state.current
    target = "ork" if current == "ala" else "ala"
    # No declared attack (the empty declaration): it attacks anyway, with its best weapon.
    assert simulate.next_command(table.state, "best") == Attack(
        actor=current or "", target=target, weapon="Miecz"
    )
    table.do(Advance())  # the GM ends the round: the next one's declarations
    table.do(Declare(actor="ala"))
    table.do(Declare(actor="ork"))
    assert table.state.phase == "initiative"
    assert simulate.next_command(table.state, "best") == Advance()


# --- the capability as the ruleset offers it ---------------------------------------------------


def test_the_magus_ruleset_is_a_simulator_for_the_gms_page() -> None:
    rules = RULESET
    assert isinstance(rules, Simulator)
    assert simulator_of(rules) is rules
    assert [key for key, _ in rules.simulation_policies()] == ["best", "unik", "riposta", "none"]
    result = rules.simulate({}, three_on_three(), runs=20, seed=1, policy="best")
    assert result.runs == 20


@pytest.mark.parametrize("seed", range(5))
def test_the_best_policy_chooses_as_the_tables_automatic_answer(seed: int) -> None:
    state = _first_prompt(seed)
    prompt = state.prompts[0]
    table_choice = prompts.auto_answer(state, prompt.id, "best", 0.0)
    assert table_choice == simulate.defence_answer(state, prompt.id, "best")


def test_the_seeded_rng_is_reproducible_uniform_and_refuses_an_empty_range() -> None:
    rolls = [SeededRNG(5).randint(1, 6) for _ in range(3)]
    assert rolls == [rolls[0]] * 3
    rng = SeededRNG(11)
    faces = [rng.randint(1, 6) for _ in range(6000)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(850 < faces.count(f) < 1150 for f in range(1, 7))
    with pytest.raises(ValueError, match="empty"):
        rng.randint(2, 1)
