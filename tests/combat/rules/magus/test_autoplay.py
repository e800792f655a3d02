"""GM-run Magus combatants playing themselves at the table: their declaration, their own
Initiative test, their turn; never a player's seat, nothing when they must wait."""

from __future__ import annotations

import random
from typing import Any

import pytest

from combat.rules.base import Autoplay, RuleViolation, autoplay_of
from combat.rules.magus import autoplay, engine, prompts, table
from combat.rules.magus.commands import (
    Attack,
    Command,
    Declare,
    EndTurn,
    RollInitiative,
    StartCombat,
)
from combat.rules.magus.events import AttackRolled, StrainPaid, TurnEnded
from combat.rules.magus.simulate import declaration, turn_command
from combat.rules.magus.state import EncounterState
from tests.combat.rules.magus.engine_kit import Table, fighter, of, to_act

NOW = 1000.0


def fight(*combatants: dict[str, Any], **settings: Any) -> Table:
    t = Table(*(combatants or (fighter("ala", "a", "u1"), fighter("ork", "b"))), **settings)
    t.do(StartCombat(now=NOW))
    return t


def test_it_declares_an_attack_in_the_declaration_phase_then_waits() -> None:
    t = fight()
    command = autoplay.next_command(t.state, "ork", "atakuj", NOW)
    assert command == Declare(
        actor="ork", action="attack", weapon="Miecz", target="ala", options=(), now=NOW
    )
    assert "ork" in table.table_view(t.state).acting
    t.do(command)
    assert autoplay.next_command(t.state, "ork", "atakuj", NOW) is None  # declared: it waits


def test_it_never_acts_for_a_players_seat() -> None:
    t = fight()
    assert autoplay.next_command(t.state, "ala", "atakuj", NOW) is None  # declaring
    to_act(t, initiative={"ala": 9, "ork": 2})
    assert t.state.current == "ala"
    assert autoplay.next_command(t.state, "ala", "atakuj", NOW) is None  # its own turn


def test_it_rolls_its_own_initiative_when_the_table_waits_for_it() -> None:
    t = fight()
    t.do(Declare(actor="ala"))
    t.do(Declare(actor="ork", action="attack", weapon="Miecz", target="ala"))
    assert t.state.phase == "initiative"
    rolled = autoplay.next_command(t.state, "ork", "atakuj", NOW)
    assert rolled == RollInitiative(actor="ork", now=NOW)
    t.random(rolled)
    assert t.state.get("ork").initiative is not None
    assert autoplay.next_command(t.state, "ork", "atakuj", NOW) is None  # rolled: it waits


def test_nothing_to_do_before_the_fight_out_of_its_turn_or_for_a_stranger() -> None:
    t = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    assert autoplay.next_command(t.state, "ork", "atakuj", NOW) is None  # setup
    t.do(StartCombat(now=NOW))
    assert autoplay.next_command(t.state, "nikt", "atakuj", NOW) is None
    to_act(t, initiative={"ala": 9, "ork": 2})
    assert t.state.current == "ala"
    assert autoplay.next_command(t.state, "ork", "atakuj", NOW) is None  # ala's turn


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="autoplay policy"):
        autoplay.next_command(fight().state, "ork", "ucieka", NOW)


def test_in_its_turn_it_attacks_then_ends_the_turn() -> None:
    t = fight()
    to_act(t, initiative={"ala": 2, "ork": 9})
    assert t.state.current == "ork"
    attack = autoplay.next_command(t.state, "ork", "atakuj", NOW)
    assert attack == Attack(actor="ork", target="ala", weapon="Miecz", now=NOW)
    t.random(attack)
    assert autoplay.next_command(t.state, "ork", "atakuj", NOW) == EndTurn(actor="ork", now=NOW)


def test_it_waits_while_its_target_answers_the_attack() -> None:
    t = fight(fighter("ala", "a", "u1", skills={"unik": 5}), fighter("ork", "b"))
    to_act(t, initiative={"ala": 2, "ork": 9})
    attack = Attack(actor="ork", target="ala", weapon="Miecz", now=NOW)
    tried = (engine.decide(t.state, attack, random.Random(seed)) for seed in range(50))
    state = next(s for s in (engine.replay(t.state, e) for e in tried) if s.prompts)
    assert state.current == "ork"
    assert autoplay.next_command(state, "ork", "atakuj", NOW) is None


def test_an_attack_the_rules_refuse_ends_its_turn_instead() -> None:
    t = fight()
    # The GM declared Przycelowanie for it: this round it may only aim.
    t.do(Declare(actor="ork", options=("przycelowanie",)))
    to_act(t, initiative={"ala": 2, "ork": 9})
    assert t.state.current == "ork"
    assert autoplay.next_command(t.state, "ork", "atakuj", NOW) == EndTurn(actor="ork", now=NOW)
    refused = Attack(actor="ork", target="ala", weapon="Miecz")
    assert not autoplay.allowed(t.state, refused)
    with pytest.raises(RuleViolation):
        t.do(refused)


def test_the_aggressive_policy_declares_agresywny_atak_and_pays_its_strain() -> None:
    t = fight()
    command = autoplay.next_command(t.state, "ork", "agresywnie", NOW)
    assert isinstance(command, Declare)
    assert command.options == ("agresywny_atak",)
    assert [e.reason for e in of(t.do(command), StrainPaid)] == ["agresywny_atak"]


def test_the_cautious_policy_declares_postawa_obronna() -> None:
    command = autoplay.next_command(fight().state, "ork", "ostroznie", NOW)
    assert isinstance(command, Declare)
    assert command.options == ("postawa_obronna",)


def _player(state: EncounterState, actor: str) -> Command | None:
    """What the test's player does: declares nothing, rolls, ends its turn, never reacts."""
    c = state.get(actor)
    if state.phase == "declare":
        return None if c.declared else Declare(actor=actor, now=NOW)
    if state.phase == "initiative":
        return RollInitiative(actor=actor, now=NOW) if c.initiative is None else None
    return EndTurn(actor=actor, now=NOW) if state.current == actor else None


@pytest.mark.parametrize("policy", [key for key, _ in autoplay.POLICIES])
@pytest.mark.parametrize("seed", range(4))
def test_it_plays_a_whole_round_to_its_end_without_a_refusal(policy: str, seed: int) -> None:
    t = fight(
        fighter("ala", "a", "u1", skills={"bron_biala": 3, "unik": 3}),
        fighter("ork", "b"),
        fighter("gob", "b", skills={"bron_biala": 2, "riposta": 2}),
    )
    rng = random.Random(seed)
    for _ in range(100):
        if t.state.round != 1:
            break
        state = t.state
        command: Command | None = None
        if state.prompts:
            prompt = state.prompts[0]
            player = state.get(prompt.actor).controller is not None
            command = (
                prompts.prompt_command(state, prompt.id, "", NOW)
                if player
                else prompts.auto_answer(state, prompt.id, "best", NOW)
            )
        else:
            view = table.table_view(state)
            # As the table asks: the current seat, else those acting at once; and the GM-run
            # ones the initiative phase waits for (they roll their own when asked).
            seats = (view.current,) if view.current is not None else (*view.acting, *view.waiting)
            for actor in dict.fromkeys(seats):
                if state.get(actor).controller is None:
                    command = autoplay.next_command(state, actor, policy, NOW)
                else:
                    command = _player(state, actor)
                if command is not None:
                    break
        assert command is not None, f"stuck in {state.phase} of round {state.round}"
        t.do(command, rng)  # a refusal raises RuleViolation
    assert t.state.round == 2 and t.state.phase == "declare"
    npc_attacks = {e.attacker for e in of(t.log, AttackRolled)}
    standing = {"ork", "gob"} - {cid for cid, c in t.state.combatants.items() if c.out}
    assert standing <= npc_attacks | {e.combatant for e in of(t.log, TurnEnded)}
    assert npc_attacks & {"ork", "gob"}


# --- the capability as the ruleset offers it ---------------------------------------------------


class _Wired:
    """The methods the lead adds to MagusRuleset, verbatim, on a stand-in."""

    def autoplay_policies(self) -> list[tuple[str, str]]:
        return list(autoplay.POLICIES)

    def autoplay_command(
        self, state: EncounterState, actor_id: str, policy: str, now: float
    ) -> Command | None:
        return autoplay.next_command(state, actor_id, policy, now)


def test_the_wired_methods_let_gm_run_combatants_play_themselves() -> None:
    rules = _Wired()
    assert isinstance(rules, Autoplay)
    assert autoplay_of(rules) is rules
    assert rules.autoplay_policies()[0][0] == "atakuj"
    assert isinstance(rules.autoplay_command(fight().state, "ork", "atakuj", NOW), Declare)


def test_gm_run_sides_play_a_whole_fight_by_themselves() -> None:
    t = fight(fighter("ork", "a"), fighter("gob", "b", skills={"bron_biala": 3, "unik": 2}))
    rng = random.Random(9)
    for _ in range(400):
        if len({c.side for c in t.state.combatants.values() if not c.out}) < 2:
            break
        state = t.state
        if state.prompts:
            command = prompts.auto_answer(state, state.prompts[0].id, "best", NOW)
        else:
            view = table.table_view(state)
            seats = (view.current,) if view.current is not None else (*view.acting, *view.waiting)
            found = (autoplay.next_command(state, s, "atakuj", NOW) for s in seats)
            command = next((c for c in found if c is not None), None)
        assert command is not None, f"stuck in {state.phase} of round {state.round}"
        t.do(command, rng)
    assert len({c.side for c in t.state.combatants.values() if not c.out}) == 1
    # The winner has nobody left to attack: it declares nothing and ends its turns.
    winner = next(c for c in t.state.combatants.values() if not c.out)
    assert declaration(t.state, winner.id) == Declare(actor=winner.id, action="none")
    assert turn_command(t.state, winner.id) == EndTurn(actor=winner.id)
