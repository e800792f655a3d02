"""Pojedynek's rules, pure: initiative every round, the prompt after a hit, the d100 parry,
expiry, the fold of events, JSON round trips and the refusals."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any, TypeVar

import pytest

from combat.rules.base import RuleViolation, fill, odds_of, prompts_of, simulator_of
from tests.combat.rules.test_purity import violations
from tests.duel import RULESET
from tests.duel.model import (
    GM,
    NO_REACTION,
    PARRY,
    Answer,
    Attack,
    Attacked,
    Duel,
    EndFight,
    EndTurn,
    FightEnded,
    InitiativeRolled,
    JoinCombat,
    Parried,
    ResolveExpired,
    RevealStats,
    RoundStarted,
    SetHidden,
    SetLife,
    StartRound,
    Struck,
    TurnEnded,
)
from tests.duel.table import GMSeatPanel, PromptPanel, Ref, TurnPanel

HERE = Path(__file__).resolve().parent
NOW = 1_000.0
P = TypeVar("P")


class Dice:
    """An RNG that answers with the faces it was given, and records each die asked for."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[int] = []

    def randint(self, a: int, b: int) -> int:
        assert a == 1, a
        face = self.faces.pop(0)
        assert 1 <= face <= b, (face, b)
        self.asked.append(b)
        return face


def sheet(atak: int = 5, obrona: int = 5, zycie: int = 20, premia: int | None = None) -> dict:
    weapons = [] if premia is None else [{"name": "Miecz", "premia": premia}]
    return {
        "attributes": {"atak": atak, "obrona": obrona, "zycie": zycie},
        "skills": {},
        "bron": weapons,
    }


def combatant(cid: str, side: str, controller: str | None = None, **numbers: Any) -> dict:
    name = cid.capitalize()
    return {
        "id": cid,
        "name": name,
        "side": side,
        "sheet": sheet(**numbers),
        "controller": controller,
    }


def duel(*combatants: dict[str, Any], answer_s: int = 15) -> Duel:
    fighters = combatants or (combatant("ala", "druzyna", "7"), combatant("wilk", "wrogowie"))
    return RULESET.new_encounter({"answer_s": answer_s}, fighters)


def step(state: Duel, command: Any, *faces: int) -> tuple[Duel, list[Any]]:
    """Decide with these faces (all of them used) and fold the events."""
    dice = Dice(*faces)
    events = RULESET.decide(state, command, dice)
    assert dice.faces == [], "unused faces"
    return RULESET.replay(state, events), events


def started(state: Duel | None = None, *faces: int) -> Duel:
    """Ala first (initiative 20 + 5 against 1 + 5), unless other faces are given."""
    state = state or duel()
    return step(state, StartRound(), *(faces or (20, 1)))[0]


# --- initiative -------------------------------------------------------------------------------


def test_the_server_rolls_everyones_initiative_on_start_round() -> None:
    state, events = step(duel(), StartRound(), 3, 17)
    assert isinstance(events[0], RoundStarted) and events[0].round == 1
    rolls = [e for e in events if isinstance(e, InitiativeRolled)]
    assert [(r.fighter, r.face, r.bonus, r.total) for r in rolls] == [
        ("ala", 3, 5, 8),
        ("wilk", 17, 5, 22),
    ]
    assert state.stage == "fight" and state.order == ("wilk", "ala") and state.current == "wilk"
    assert state.combatants["wilk"].initiative == 22


def test_initiative_is_rolled_again_when_the_last_in_order_ends_its_turn() -> None:
    state = started()
    state, events = step(state, EndTurn(actor="ala"))
    assert events == [TurnEnded("ala")] and state.current == "wilk"
    state, events = step(state, EndTurn(actor="wilk"), 2, 19)
    assert [type(e) for e in events] == [
        TurnEnded,
        RoundStarted,
        InitiativeRolled,
        InitiativeRolled,
    ]
    assert state.round == 2 and state.order == ("wilk", "ala") and state.current == "wilk"
    assert state.combatants["ala"].initiative == 7


def test_initiative_ties_go_to_the_higher_atak_then_the_name() -> None:
    state = duel(
        combatant("ala", "a", atak=3), combatant("bob", "b", atak=5), combatant("cyd", "b", atak=3)
    )
    state, _ = step(state, StartRound(), 10, 8, 10)
    assert state.order == ("bob", "ala", "cyd")  # all 13: Atak 5 first, then by name


def test_a_fighter_who_joins_mid_fight_gets_a_place_next_round() -> None:
    state = started()
    state, _ = step(state, JoinCombat(combatant=combatant("zenek", "wrogowie")))
    assert state.order == ("ala", "wilk") and state.combatants["zenek"].initiative is None
    view = RULESET.table_view(state)
    assert view.order == ("ala", "wilk", "zenek")  # without a place: last
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"), 1, 1, 20)
    assert state.order[0] == "zenek"


# --- the attack and its prompt ----------------------------------------------------------------


def test_a_hit_asks_the_defender_with_the_tables_deadline() -> None:
    state = started(duel(answer_s=20))
    state, events = step(state, Attack(actor="ala", target="wilk", now=NOW), 6)
    assert events == [Attacked("ala", "wilk", 6, 5, prompt="p1", deadline=NOW + 20)]
    assert RULESET.next_deadline(state) == NOW + 20
    (prompt,) = RULESET.open_prompts(state)
    assert prompt.actor == "wilk" and prompt.attacker == "ala" and prompt.deadline == NOW + 20
    assert [key for key, _label in prompt.options] == [PARRY, NO_REACTION]
    assert prompt.options[0][1] == "Parowanie (k100 ≤ 50)"
    assert prompt.label == "Trafienie: Ala → Wilk"
    assert RULESET.prompt_panel(state, "p1") == PromptPanel(threshold=50)


def test_a_miss_asks_nothing() -> None:
    state = started()
    state, events = step(state, Attack(actor="ala", target="wilk", now=NOW), 5)  # 5 + 5 < 11
    assert events == [Attacked("ala", "wilk", 5, 5)] and not events[0].hit
    assert RULESET.open_prompts(state) == [] and RULESET.next_deadline(state) is None
    assert state.attacked


@pytest.mark.parametrize("face, parried", [(1, True), (40, True), (41, False), (100, False)])
def test_a_parry_cancels_the_hit_on_d100_at_or_under_ten_times_obrona(
    face: int, parried: bool
) -> None:
    state = started(duel(combatant("ala", "d", "7"), combatant("wilk", "w", obrona=4)))
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    answer = RULESET.prompt_command(state, "p1", PARRY, NOW + 1)
    assert answer == Answer(actor="wilk", prompt="p1", option=PARRY, now=NOW + 1)
    dice = [face] if parried else [face, 4]
    state, events = step(state, answer, *dice)
    assert events[0] == Parried("p1", "wilk", face, 40)
    assert state.prompt is None
    assert state.combatants["wilk"].damage == (0 if parried else 4)


def test_no_reaction_lets_the_hit_land_for_d6_and_the_best_weapons_premia() -> None:
    state = started(duel(combatant("ala", "d", "7", premia=2), combatant("wilk", "w")))
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    state, events = step(state, RULESET.prompt_command(state, "p1", NO_REACTION, NOW), 3)
    assert events == [Struck("p1", "ala", "wilk", 3, 2)]
    assert state.combatants["wilk"].life == 15 and state.prompt is None


def test_an_expired_prompt_lands_as_no_reaction() -> None:
    state = started()
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    with pytest.raises(RuleViolation) as early:
        step(state, RULESET.expire_command(NOW + 14.9))
    assert early.value.code == "nic_nie_czeka"
    state, events = step(state, RULESET.expire_command(NOW + 15), 6)
    assert events == [Struck("p1", "ala", "wilk", 6, 0, expired=True)]
    assert RULESET.next_deadline(state) is None
    line = RULESET.describe(started(), events[0])
    assert line is not None and fill(line.text, line.params) == "Czas minął: Wilk obrywa za 6."


def test_an_answer_after_the_deadline_is_refused() -> None:
    state = started()
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    with pytest.raises(RuleViolation) as late:
        step(state, RULESET.prompt_command(state, "p1", PARRY, NOW + 16))
    assert late.value.code == "po_czasie"


def test_the_turn_cannot_end_while_the_defender_decides() -> None:
    state = started()
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    with pytest.raises(RuleViolation) as waiting:
        step(state, EndTurn(actor="ala"))
    assert waiting.value.message == "Najpierw Wilk musi odpowiedzieć na atak."
    assert panel_of(RULESET.turn_panel(state, "ala", frozenset(state.combatants))).why == "waiting"


def test_the_last_side_standing_wins() -> None:
    state = started(duel(combatant("ala", "d", "7"), combatant("wilk", "w", zycie=3)))
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    state, events = step(state, Answer(actor="wilk", prompt="p1", now=NOW), 5)
    assert events[-1] == FightEnded("d")
    assert state.stage == "ended" and state.winner == "d"
    assert RULESET.table_view(state).seats["wilk"].health.dead


def test_a_fallen_fighter_is_skipped_and_rolls_no_initiative() -> None:
    state = started(
        duel(combatant("ala", "d"), combatant("wilk", "w", zycie=2), combatant("dzik", "w")),
        20,
        10,
        1,
    )
    assert state.order == ("ala", "wilk", "dzik")
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    state, _ = step(state, Answer(actor="wilk", prompt="p1", now=NOW), 6)
    state, _ = step(state, EndTurn(actor="ala"))
    assert state.current == "dzik"
    state, events = step(state, EndTurn(actor="dzik"), 4, 4)
    assert [e.fighter for e in events if isinstance(e, InitiativeRolled)] == ["ala", "dzik"]
    assert "wilk" not in state.order and RULESET.table_view(state).order[-1] == "wilk"


# --- refusals ---------------------------------------------------------------------------------


def refusal(state: Duel, command: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        RULESET.decide(state, command, Dice(10, 10, 10))
    return refused.value


def test_only_the_current_fighter_acts() -> None:
    refused = refusal(started(), Attack(actor="wilk", target="ala"))
    assert refused.code == "nie_twoja_tura"
    assert refused.message == "Nie twoja tura: teraz działa Ala."
    assert refused.template == "Nie twoja tura: teraz działa %(name)s."
    assert refusal(started(), EndTurn(actor="wilk")).code == "nie_twoja_tura"


def test_a_fallen_target_cannot_be_attacked() -> None:
    state = started(
        duel(combatant("ala", "d"), combatant("wilk", "w"), combatant("dzik", "w")), 20, 1, 1
    )
    state, _ = step(state, SetLife(target="wilk", life=0))
    refused = refusal(state, Attack(actor="ala", target="wilk"))
    assert refused.code == "cel_pokonany" and refused.message == "Wilk jest już pokonany."


@pytest.mark.parametrize(
    "command, code",
    [
        (Attack(actor="ala", target="ala"), "sam_siebie"),
        (Attack(actor="ala", target="nikt"), "postac"),
        (Attack(actor="ala", target=GM), "postac"),
        (StartRound(), "trwa"),
        (Answer(actor="wilk", prompt="p9"), "brak_pytania"),
        (SetLife(target="wilk", life=21), "zycie"),
        (EndFight(winner="nikt"), "strona"),
        (JoinCombat(combatant=combatant("ala", "d")), "juz_jest"),
        (JoinCombat(combatant={"id": "x"}), "karta"),
    ],
)
def test_the_rules_refuse(command: Any, code: str) -> None:
    assert refusal(started(), command).code == code


def test_one_attack_a_turn_and_no_ally_attacks() -> None:
    state = started(
        duel(combatant("ala", "d"), combatant("ola", "d"), combatant("wilk", "w")), 20, 1, 1
    )
    assert refusal(state, Attack(actor="ala", target="ola")).code == "sojusznik"
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 1)
    assert refusal(state, Attack(actor="ala", target="wilk")).code == "juz_atakowal"


def test_only_the_defender_answers_its_prompt() -> None:
    state = started()
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    assert refusal(state, Answer(actor="ala", prompt="p1")).code == "nie_twoje"
    assert refusal(state, Answer(actor="wilk", prompt="p1", option="unik")).code == "reakcja"
    with pytest.raises(RuleViolation):
        RULESET.prompt_command(state, "p1", "unik")
    with pytest.raises(RuleViolation):
        RULESET.prompt_command(state, "p2", PARRY)


def test_nothing_happens_before_the_start_or_after_the_end() -> None:
    assert refusal(duel(), Attack(actor="ala", target="wilk")).code == "przed_walka"
    one_side = duel(combatant("ala", "d"), combatant("ola", "d"))
    assert refusal(one_side, StartRound()).code == "za_malo"
    ended, _ = step(started(), EndFight(winner="druzyna"))
    assert ended.stage == "ended" and ended.winner == "druzyna"
    assert refusal(ended, EndTurn(actor="ala")).code == "koniec"
    assert refusal(ended, EndFight()).code == "koniec"


def test_every_refusal_is_a_marked_msgid() -> None:
    """As tests/combat/rules/test_msgids.py holds combat/rules: a refusal's message is a
    `gettext_noop(...)` call, or a name assigned one just before, so the catalogue has it."""
    found = 0
    for path in rule_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        marked = {
            target.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and _is_mark(node.value)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RuleViolation":
                found += 1
                message = node.args[1]
                assert _is_mark(message) or getattr(message, "id", None) in marked, (
                    f"{path.name}:{node.lineno}"
                )
    assert found > 15


def _is_mark(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop"


RULE_MODULES = ("__init__.py", "model.py", "engine.py", "sheet.py", "table.py")


def rule_files() -> list[Path]:
    """The ruleset's own modules (not the Django helpers of its table tests)."""
    return [HERE / name for name in RULE_MODULES]


# --- GM commands ------------------------------------------------------------------------------


def test_the_gm_hides_reveals_and_sets_life() -> None:
    state = started()
    hide = RULESET.visibility_command("wilk", hidden=True)
    reveal = RULESET.visibility_command("wilk", revealed=True)
    assert hide == SetHidden(target="wilk", hidden=True)
    assert reveal == RevealStats(target="wilk", revealed=True)
    for command in (hide, reveal, SetLife(target="wilk", life=7)):
        state, _ = step(state, command)
    seat = RULESET.table_view(state).seats["wilk"]
    assert seat.hidden and seat.revealed and seat.health.current == 7
    assert seat.health.level == "ciezko_ranny"
    for cmd in (hide, reveal, SetLife(target="wilk", life=7), StartRound(), EndFight()):
        assert RULESET.command_actor(cmd) is None  # the GM's alone
    assert RULESET.command_actor(Attack(actor="ala", target="wilk")) == "ala"
    assert RULESET.command_targets(Attack(actor="ala", target="wilk")) == ("wilk",)
    assert RULESET.command_targets(EndTurn(actor="ala")) == ()


# --- the fold, and JSON -----------------------------------------------------------------------


def play(seed: int, limit: int = 2000) -> tuple[Duel, list[Any], list[Duel], list[Any]]:
    """A whole seeded fight by the table's own paths (prompts answered by a random policy):
    the initial state, every event, the state after each, and every command."""
    rng = random.Random(seed)
    initial = duel(
        combatant("ala", "d", "7", atak=6, premia=1),
        combatant("ola", "d", "8", obrona=7),
        combatant("wilk", "w", atak=4, zycie=12),
        combatant("dzik", "w", zycie=10),
    )
    state, events, states, commands = initial, [], [], []
    clock = NOW
    for _ in range(limit):
        if state.stage == "ended":
            break
        command = _next_command(state, rng, clock)
        commands.append(command)
        for event in RULESET.decide(state, command, rng):
            events.append(event)
            state = RULESET.evolve(state, event)
            states.append(state)
        clock += 1
    return initial, events, states, commands


def _next_command(state: Duel, rng: random.Random, clock: float) -> Any:
    if state.stage == "setup":
        return StartRound(now=clock)
    if state.prompt is not None:
        if rng.random() < 0.2:
            return RULESET.expire_command(state.prompt.deadline)
        policy = rng.choice(["parry", "none"])
        return RULESET.auto_answer(state, state.prompt.id, policy, clock)
    me = state.combatants[state.current or ""]
    targets = [f.id for f in state.combatants.values() if f.side != me.side and not f.down]
    if not state.attacked and targets and not me.down:
        return Attack(actor=me.id, target=rng.choice(targets), now=clock)
    return EndTurn(actor=me.id, now=clock)


@pytest.mark.parametrize("seed", range(8))
def test_the_state_is_the_fold_of_its_events_at_every_step(seed: int) -> None:
    initial, events, states, _ = play(seed)
    assert states[-1].stage == "ended"
    assert RULESET.replay(initial, events) == states[-1]
    for n in (1, len(events) // 3, len(events) // 2, len(events) - 1):  # an undo to step n
        assert RULESET.replay(initial, events[:n]) == states[n - 1]
    rounds = [(i, e) for i, e in enumerate(events) if isinstance(e, RoundStarted)]
    assert [e.round for _i, e in rounds] == list(range(1, len(rounds) + 1))
    for i, started_round in rounds:  # everyone in the new order rolled, right after
        rolls = events[i + 1 : i + 1 + len(started_round.order)]
        assert all(isinstance(r, InitiativeRolled) for r in rolls)
        assert {r.fighter for r in rolls} == set(started_round.order)


def roundtrip(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))


@pytest.mark.parametrize("seed", range(3))
def test_commands_events_and_states_survive_json(seed: int) -> None:
    initial, events, states, commands = play(seed)
    extra = [
        JoinCombat(combatant=combatant("zenek", "w"), now=NOW),
        SetHidden(target="wilk", hidden=True),
        RevealStats(target="wilk", revealed=False),
        SetLife(target="ala", life=3),
        EndFight(winner="d"),
        ResolveExpired(now=NOW),
    ]
    for command in [*commands, *extra]:
        data = roundtrip(RULESET.command_to_dict(command))
        assert RULESET.command_from_dict(data) == command
    for event in events:
        assert RULESET.event_from_dict(roundtrip(RULESET.event_to_dict(event))) == event
    for state in (initial, *states[:: max(1, len(states) // 10)], states[-1]):
        assert RULESET.state_from_dict(roundtrip(RULESET.state_to_dict(state))) == state


def test_a_command_from_the_browser_takes_the_servers_now_and_whole_numbers_as_floats() -> None:
    command = RULESET.command_from_dict(
        {"type": "attack", "actor": "ala", "target": "wilk", "now": 5}
    )
    assert command == Attack(actor="ala", target="wilk", now=5.0)


@pytest.mark.parametrize(
    "data, error",
    [
        ({"type": "fireball"}, "unknown command"),
        ({"actor": "ala"}, "unknown command"),
        ({"type": "attack", "actor": "ala"}, "missing field 'target'"),
        ({"type": "attack", "actor": "ala", "target": 3}, "command.target"),
        ({"type": "attack", "actor": "ala", "target": "w", "x": 1}, "unknown field 'x'"),
        ({"type": "set_life", "target": "w", "life": True}, "command.life"),
        ({"type": "set_life", "target": "w", "life": "3"}, "command.life"),
    ],
)
def test_decoding_is_strict(data: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        RULESET.command_from_dict(data)


def test_a_broken_state_or_event_is_refused() -> None:
    state = RULESET.state_to_dict(started())
    with pytest.raises(ValueError, match="state.stage"):
        RULESET.state_from_dict({**state, "stage": "pauza"})
    with pytest.raises(ValueError, match="unknown event"):
        RULESET.event_from_dict({"type": "boom"})
    with pytest.raises(ValueError, match="event.face"):
        parried = {"prompt": "p1", "defender": "w", "face": None, "threshold": 3}
        RULESET.event_from_dict({"type": "parried", **parried})


# --- the log ----------------------------------------------------------------------------------


def test_every_roll_is_in_the_log_with_its_die() -> None:
    initial, events, states, _ = play(1)
    before = [initial, *states[:-1]]
    sides: set[int | tuple[int, ...]] = set()
    for state, event in zip(before, events, strict=True):
        line = RULESET.describe(state, event)
        assert line is not None, event
        assert fill(line.text, line.params) != line.text or not line.params
        sides |= {roll.sides for roll in line.rolls}
        for roll in line.rolls:
            assert roll.summary and fill(roll.summary, {"n": roll.result})
    assert sides == {6, 20, 100}


def test_the_attack_line_tells_the_d20_and_names_both() -> None:
    state = started()
    event = Attacked("ala", "wilk", 6, 5, prompt="p1", deadline=NOW)
    line = RULESET.describe(state, event)
    assert line is not None and line.actors == ("ala", "wilk") and line.kind == "attack"
    assert fill(line.text, line.params) == "Ala atakuje: Wilk, k20 6 + Atak 5 = 11 ≥ 11, trafienie."
    (roll,) = line.rolls
    assert (roll.dice, roll.sides, roll.result) == ((6,), 20, 11)


def test_the_gms_edits_are_secret_lines() -> None:
    state = started()
    for event in RULESET.decide(state, SetLife(target="wilk", life=4), Dice()):
        line = RULESET.describe(state, event)
        assert line is not None and line.secret


# --- the table's view -------------------------------------------------------------------------


def test_it_offers_prompts_but_neither_odds_nor_a_simulator() -> None:
    assert prompts_of(RULESET) is RULESET
    assert odds_of(RULESET) is None
    assert simulator_of(RULESET) is None
    assert RULESET.reaction_policies()[0][0] == "ask"


def test_the_policies_answer_for_a_gm_run_fighter() -> None:
    state = started()
    state, _ = step(state, Attack(actor="ala", target="wilk", now=NOW), 15)
    assert RULESET.auto_answer(state, "p1", "ask", NOW) is None
    assert RULESET.auto_answer(state, "p1", "parry", NOW) == Answer(
        actor="wilk", prompt="p1", option=PARRY, now=NOW
    )
    assert RULESET.auto_answer(state, "p1", "none", NOW).option == NO_REACTION  # type: ignore[union-attr]
    assert RULESET.auto_answer(state, "p2", "parry", NOW) is None
    with pytest.raises(ValueError):
        RULESET.auto_answer(state, "p1", "unik", NOW)


def test_the_table_view_has_the_round_the_order_and_each_seat() -> None:
    view = RULESET.table_view(duel())
    assert view.stage == "setup" and view.label == "Przygotowanie" and view.current is None
    assert all(seat.ready and seat.initiative is None for seat in view.seats.values())
    state, _ = step(started(), Attack(actor="ala", target="wilk", now=NOW), 1)
    view = RULESET.table_view(state)
    assert view.stage == "running" and fill(view.label, view.label_params) == "Runda 1"
    assert view.order == ("ala", "wilk") and view.current == "ala"
    ala = view.seats["ala"]
    assert ala.controller == "7" and ala.current and ala.initiative == 25
    assert [(c.key, c.value, c.maximum) for c in ala.counters] == [("atak", 0, 1)]
    assert (ala.health.current, ala.health.maximum, ala.health.level) == (20, 20, "bez_ran")


def test_the_panels_fill_the_partials() -> None:
    state = started()
    everyone = frozenset(state.combatants)
    panel = panel_of(RULESET.turn_panel(state, "ala", everyone))
    assert panel.can_attack and panel.targets == (Ref(id="wilk", name="Wilk"),)
    assert panel_of(RULESET.turn_panel(state, "ala", frozenset({"ala"}))).why == "no_targets"
    assert panel_of(RULESET.turn_panel(state, "wilk", everyone)).why == "not_turn"
    assert RULESET.turn_panel(duel(), "ala", everyone) == TurnPanel(
        stage="setup",
        actor=Ref(id="ala", name="Ala"),
    )
    assert panel_of(RULESET.seat_panel(state, "ala", everyone)).parry == 50
    assert panel_of(RULESET.gm_panel(duel())).can_start
    assert not panel_of(RULESET.gm_panel(state)).can_start
    assert RULESET.gm_seat_panel(state, "wilk") == GMSeatPanel(
        id="wilk",
        life=20,
        maximum=20,
        current=False,
    )
    assert panel_of(RULESET.gm_seat_panel(state, "ala")).current
    for found in (panel, RULESET.gm_panel(state), RULESET.seat_panel(state, "ala", everyone)):
        hash(found)  # a record the live table compares by value


def panel_of(panel: P | None) -> P:
    assert panel is not None
    return panel


# --- the sheet and the settings ---------------------------------------------------------------


def test_its_sheet_has_two_attributes_life_one_list_of_weapons_and_no_skills() -> None:
    assert [(s.key, s.minimum, s.maximum) for s in RULESET.attributes()] == [
        ("atak", 1, 10),
        ("obrona", 1, 10),
        ("zycie", 1, 30),
    ]
    assert RULESET.skills() == ()
    (weapons,) = RULESET.sheet_sections()
    assert weapons.key == "bron" and [f.key for f in weapons.fields] == ["name", "premia"]
    (group,) = RULESET.settings_groups()
    assert [s.key for s in group.settings] == list(RULESET.default_settings())
    values = {d.key: d.value for d in RULESET.derived_values(sheet(atak=4, obrona=6, premia=2))}
    assert values == {"trafienie": 70, "parowanie": 60, "obrazenia": 2, "inicjatywa": 4}


def test_the_answer_time_is_a_table_setting() -> None:
    live = {"pace": "live", "post_hours": 24, "reminder_hours": 6}
    assert RULESET.default_settings() == {"answer_s": 15, **live}
    assert RULESET.validate_settings({"answer_s": 30}) == {"answer_s": 30, **live}
    for bad in ({"answer_s": 1}, {"answer_s": "15"}, {"odds": True}):
        with pytest.raises(ValueError):
            RULESET.validate_settings(bad)


@pytest.mark.parametrize(
    "change, error",
    [
        ({"sheet": {"attributes": {"atak": 11, "obrona": 1, "zycie": 1}}}, "atak: 1–10"),
        ({"sheet": {"attributes": {"atak": 1, "obrona": 1}}}, "zycie"),
        ({"sheet": {**sheet(), "bron": [{"name": "x", "premia": 9}]}}, "premia"),
        ({"name": ""}, "combatant.name"),
        ({"controller": 7}, "combatant.controller"),
        ({"wings": 2}, "unknown field"),
    ],
)
def test_a_malformed_combatant_is_refused(change: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        RULESET.new_encounter({}, [{**combatant("ala", "d"), **change}])


def test_every_fighter_has_its_own_id() -> None:
    with pytest.raises(ValueError, match="every id once"):
        RULESET.new_encounter({}, [combatant("ala", "d"), combatant("ala", "w")])


def test_the_join_command_brings_one_fighter_in_any_phase() -> None:
    command = RULESET.join_command(combatant("zenek", "w"), NOW)
    assert command == JoinCombat(combatant=combatant("zenek", "w"), now=NOW)
    assert RULESET.command_to_dict(command)["type"] == "join_combat"
    for state in (duel(), started()):
        after, _ = step(state, command)
        assert "zenek" in after.combatants


def test_the_rules_are_pure() -> None:
    """No Django, no project apps, no clock, no global random (as combat/rules)."""
    for path in rule_files():
        assert violations(path.read_text(encoding="utf-8")) == [], path.name
