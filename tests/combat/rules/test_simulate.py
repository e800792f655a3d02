"""The Monte-Carlo simulator plays the real engine, so its numbers must match the exact odds."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from combat.rules.eleora.commands import DeclareAttack
from combat.rules.eleora.engine.queries import attack_odds
from combat.rules.eleora.simulate import Policy, hit_rate, play, simulate
from combat.rules.eleora.state import EncounterState, standing_sides
from combat.rules.seeded import SeededRNG
from tests.combat.rules.engine_kit import (
    TARCZA,
    TOPOR,
    begin,
    make_combatant,
    make_sheet,
    make_state,
)


def wolves(n: int, *, positions: bool = False) -> list:  # type: ignore[type-arg]
    sheet = make_sheet("Wilk", weapons=(), skills={"walka_wrecz": 3}, krzepa=1)
    return [
        make_combatant(f"wilk{i}", "foes", sheet=sheet, position=(6, 2 * i) if positions else None)
        for i in range(n)
    ]


def party(*, positions: bool = False) -> list:  # type: ignore[type-arg]
    return [
        make_combatant(
            "ala",
            position=(0, 0) if positions else None,
            sheet=make_sheet(weapons=(TOPOR,), skills={"bron_ciezka": 4}),
        ),
        make_combatant(
            "bob",
            position=(0, 2) if positions else None,
            sheet=make_sheet("Bob", shields=(TARCZA,), krzepa=3),
        ),
    ]


def test_simulated_single_attack_hit_rate_agrees_with_the_exact_odds() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    cmd = DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    exact = attack_odds(state, cmd).options["brak"].hit.p_hit
    trials = 4000
    observed = hit_rate(state, cmd, trials, seed=7)
    sigma = math.sqrt(exact * (1 - exact) / trials)
    assert abs(observed - exact) < 4 * sigma, (observed, exact)


def test_simulated_hit_rate_with_a_defender_who_may_react() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["wilk", "ala"]
    )
    from combat.rules.eleora.commands import EndTurn
    from tests.combat.rules.engine_kit import step

    state, _ = step(state, EndTurn(actor="wilk"))
    cmd = DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    exact = attack_odds(state, cmd).options["brak"].hit.p_hit
    observed = hit_rate(state, cmd, 2000, seed=3)
    assert abs(observed - exact) < 4 * math.sqrt(exact * (1 - exact) / 2000)


def test_simulation_reports_win_rates_and_mean_rounds_reproducibly() -> None:
    state = make_state(*party(), *wolves(3))
    first = simulate(state, 40, seed=11)
    again = simulate(state, 40, seed=11)
    assert first == again
    assert math.isclose(sum(first.wins.values()) + first.draws, 1.0)
    assert set(first.wins) == {"party", "foes"} and first.mean_rounds >= 1


def test_more_wolves_win_more_often() -> None:
    few = simulate(make_state(*party(), *wolves(1)), 40, seed=5)
    many = simulate(make_state(*party(), *wolves(4)), 40, seed=5)
    assert many.wins["foes"] > few.wins["foes"]


def test_simulation_on_the_map_walks_into_reach() -> None:
    final = play(
        make_state(*party(positions=True), *wolves(2, positions=True)),
        SeededRNG(2),
        Policy(targeting="nearest"),
    )
    assert final.round >= 2 and len(standing_sides(final)) <= 2


@pytest.mark.parametrize("defence", ["unik", "parowanie", "brak", "lepsza"])
def test_every_defence_policy_plays_to_an_end(defence: str) -> None:
    result = simulate(make_state(*party(), *wolves(2)), 5, seed=1, policy=Policy(defence=defence))  # type: ignore[arg-type]
    assert result.runs == 5


def test_seeded_rng_is_uniform_and_reproducible() -> None:
    rng = SeededRNG(123)
    counts = Counter(rng.randint(1, 6) for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(900 < n < 1100 for n in counts.values())
    assert [SeededRNG(9).randint(1, 6) for _ in range(3)] == [
        SeededRNG(9).randint(1, 6) for _ in range(3)
    ]
    with pytest.raises(ValueError):
        rng.randint(2, 1)


def test_simulate_needs_a_run() -> None:
    with pytest.raises(ValueError):
        simulate(make_state(*party(), *wolves(1)), 0)


def test_play_continues_a_started_fight() -> None:
    state: EncounterState = begin(make_state(*party(), *wolves(1)), ["ala", "bob", "wilk0"])
    final = play(state, SeededRNG(1))
    assert final.round >= 1


def test_the_policy_may_decline_opportunities() -> None:
    from combat.rules.eleora.commands import EndTurn, Move
    from combat.rules.eleora.simulate import next_command
    from tests.combat.rules.engine_kit import Dice, step

    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(1, 0))
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, Move(actor="ala", mode="bieg", path=((0, 1),)), Dice(1, 1))
    assert type(next_command(state, Policy(opportunity=False))).__name__ == "DeclineOpportunity"
    assert type(next_command(state, Policy())).__name__ == "AcceptOpportunity"


def test_the_policy_reloads_a_weapon_better_than_what_is_at_hand() -> None:
    from combat.rules.eleora.sheet import Weapon, WeaponKind
    from combat.rules.eleora.simulate import next_command

    kusza = Weapon("Kusza", WeaponKind.HEAVY, 4, ranged=True, reload_actions=2)
    archer = make_combatant(
        "ala", sheet=make_sheet(weapons=(kusza,)), unloaded=frozenset({"Kusza"})
    )
    state = begin(make_state(archer, *wolves(1)), ["ala", "wilk0"])
    assert type(next_command(state, Policy())).__name__ == "Reload"


def test_a_refused_policy_move_passes_the_turn() -> None:
    from combat.rules.eleora.conditions import ConditionInstance

    berserk = make_combatant("ala", position=(0, 0), conditions=(ConditionInstance("szal"),))
    state = begin(make_state(berserk, *wolves(1, positions=True)), ["ala", "wilk0"])
    final = play(state, SeededRNG(3), max_rounds=1)
    assert final.round >= 1  # the walk (not a Szarża) was refused; the GM moved the fight on


def test_it_reports_survivors_per_side_and_each_combatants_chance_to_drop() -> None:
    initial = make_state(*party(), *wolves(3))
    result = simulate(initial, 200, seed=7)
    assert set(result.drops) == set(initial.combatants)
    assert all(0.0 <= share <= 1.0 for share in result.drops.values())
    fighters = Counter(c.side for c in initial.combatants.values())
    for side, mean in result.survivors.items():
        assert 0.0 <= mean <= fighters[side]
    # Each fight ends with its combatants either standing or dropped: the two add up.
    standing = sum(result.survivors.values())
    dropped = sum(result.drops.values())
    assert math.isclose(standing + dropped, len(initial.combatants))
