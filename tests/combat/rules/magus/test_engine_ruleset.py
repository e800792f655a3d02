"""`MagusRuleset` behind the table's interface: the protocol and its capabilities, the JSON
codecs, the GM's commands, deadlines and undo, the log and the table's view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from combat.rules.base import (
    LogLine,
    RuleViolation,
    TableView,
    odds_of,
    prompts_of,
)
from combat.rules.magus import RULESET, MagusRuleset, engine, narrate, table
from combat.rules.magus.commands import (
    AddCondition,
    Advance,
    Attack,
    Declare,
    EditHealth,
    EndCombat,
    EndTurn,
    Expire,
    Hold,
    JoinCombat,
    Move,
    RemoveCondition,
    RevealStats,
    RollInitiatives,
    SetHidden,
    StartCombat,
)
from combat.rules.magus.events import ConditionAdded, DeadlinesMoved, HealthEdited
from combat.rules.magus.levels import LEVELS
from tests.combat.rules.magus.engine_kit import Table, fighter, of, sheet, shown, to_act
from tests.combat.rules.magus.test_attack_sequence import duel, hit


def test_the_ruleset_has_the_core_and_the_prompts_and_odds_capabilities() -> None:
    assert (RULESET.key, RULESET.label) == ("magus", "Magus")
    assert prompts_of(RULESET) is RULESET and odds_of(RULESET) is RULESET
    assert isinstance(RULESET, MagusRuleset)
    assert RULESET.validate_settings(RULESET.default_settings()) == RULESET.default_settings()
    assert RULESET.attributes() and RULESET.skills() and RULESET.sheet_sections()
    assert RULESET.settings_groups()
    assert RULESET.derived_values(sheet())
    assert RULESET.reaction_policies()[0][0] == "ask"


def test_new_encounter_validates_the_combatants_and_settings() -> None:
    good = fighter("ala", "a")
    state = RULESET.new_encounter(None, [good])
    assert state.stage == "setup" and state.get("ala").sheet.step("zrecznosc") == 6
    for bad, message in [
        ({**good, "id": ""}, "'id'"),
        ({**good, "id": "gm"}, "reserved"),
        ({**good, "controller": 3}, "controller"),
        ({**good, "position": "a1"}, "position"),
        ({**good, "sheet": {"weapons": [{"nme": "x"}]}}, "malformed"),
        ("ala", "object"),
    ]:
        with pytest.raises(ValueError, match=message):
            RULESET.new_encounter({}, [bad])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="every id once"):
        RULESET.new_encounter({}, [good, good])
    with pytest.raises(ValueError, match="nieznane ustawienia stołu"):
        RULESET.new_encounter({"nope": 1}, [good])
    assert RULESET.new_encounter({}, [{**good, "position": [1, 2]}]).get("ala").position == (1, 2)


def test_commands_events_and_state_round_trip_through_json() -> None:
    table_ = duel(ork={"skills": {"unik": 2}})
    hit(table_, [5, 3])
    state = table_.state
    assert RULESET.state_from_dict(RULESET.state_to_dict(state)) == state
    for event in table_.log:
        assert RULESET.event_from_dict(RULESET.event_to_dict(event)) == event
    command = Attack(actor="ala", target="ork", weapon="Miecz", blindside=True)
    data = RULESET.command_to_dict(command)
    assert data["type"] == "attack" and RULESET.command_from_dict(data) == command
    assert RULESET.command_from_dict({"type": "start_combat", "surprised": ["ork"]}).surprised == (
        "ork",
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "fly"}, "unknown command type"),
        ({"type": "attack", "actor": "ala"}, "missing field 'target'"),
        ({"type": "attack", "actor": "ala", "target": 3}, "command.target: expected str"),
        ({"type": "attack", "actor": "ala", "target": "o", "x": 1}, "unknown field 'x'"),
        ({"type": "move", "actor": "ala", "metres": True}, "expected int"),
        ({"type": "declare", "actor": "ala", "options": "bieg"}, "expected a list"),
        ({"type": "declare", "actor": "ala", "target": 5}, "unexpected"),
        ({"type": "end_turn", "actor": "ala", "now": "soon"}, "expected float"),
        ("attack", "expected an object"),
    ],
)
def test_a_bad_command_is_a_value_error_naming_the_field(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RULESET.command_from_dict(data)


def test_bad_event_and_state_data_are_value_errors() -> None:
    with pytest.raises(ValueError, match="unknown event"):
        RULESET.event_from_dict({"type": "nope"})
    with pytest.raises(ValueError, match="state"):
        RULESET.state_from_dict({"settings": {"nope": 1}, "combatants": {}})
    with pytest.raises(ValueError, match="expected an object"):
        RULESET.state_from_dict({"settings": 3, "combatants": {}})
    with pytest.raises(ValueError, match="unexpected"):
        RULESET.event_from_dict({"type": "combat_ended", "winner": 3})
    with pytest.raises(ValueError, match="expected an object"):
        RULESET.event_from_dict({"type": "deadlines_moved", "prompts": []})
    with pytest.raises(ValueError, match="one of"):
        RULESET.state_from_dict({"settings": {}, "combatants": {}, "stage": "lunch"})
    with pytest.raises(ValueError, match="expected an object"):
        RULESET.event_from_dict({"type": "joined", "combatant": 3})
    with pytest.raises(ValueError):
        RULESET.evolve(RULESET.new_encounter({}, []), object())  # type: ignore[arg-type]


def test_command_actor_targets_and_gm_only_commands() -> None:
    assert RULESET.command_actor(Attack(actor="ala", target="ork")) == "ala"
    assert RULESET.command_actor(StartCombat()) is None
    assert RULESET.command_targets(Attack(actor="ala", target="ork")) == ("ork",)
    assert RULESET.command_targets(RollInitiatives(targets=("a", "b"))) == ("a", "b")
    assert RULESET.command_targets(StartCombat(surprised=("ork",))) == ("ork",)
    assert RULESET.gm_judged_fields(Attack(actor="ala", target="ork")) == []
    assert RULESET.needs_fresh_state(EndTurn(actor="ala"))
    assert not RULESET.needs_fresh_state(Move(actor="ala", metres=1))
    join = RULESET.join_command(fighter("gob", "b"), 5.0)
    assert isinstance(join, JoinCombat) and join.now == 5.0
    assert RULESET.visibility_command("ork", hidden=True) == SetHidden(target="ork", hidden=True)
    assert RULESET.visibility_command("ork", revealed=True) == RevealStats(
        target="ork", revealed=True
    )
    assert RULESET.expire_command(9.0) == Expire(now=9.0)


def test_join_in_any_phase_and_a_late_joiner_waits_for_the_next_round() -> None:
    table_ = duel()
    table_.do(JoinCombat(combatant=fighter("gob", "b")))
    assert table_.c["gob"].done
    with pytest.raises(RuleViolation, match="już walczy"):
        table_.do(JoinCombat(combatant=fighter("gob", "b")))
    with pytest.raises(RuleViolation, match="Błędna karta"):
        table_.do(JoinCombat(combatant={"id": ""}))


def test_gm_edits_health_and_conditions() -> None:
    table_ = duel()
    events = table_.do(EditHealth(target="ork", damage=4, wounds=2))
    assert events == [HealthEdited("ork", 4, 0, 2)]
    with pytest.raises(RuleViolation, match="ujemne"):
        table_.do(EditHealth(target="ork", stun=-1))
    events = table_.do(AddCondition(target="ork", condition="ogluszony", rounds=2))
    assert events == [ConditionAdded("ork", "ogluszony", 2, by_gm=True)]
    with pytest.raises(RuleViolation, match="takiego stanu"):
        table_.do(AddCondition(target="ork", condition="głodny"))
    with pytest.raises(RuleViolation, match="ujemna"):
        table_.do(AddCondition(target="ork", condition="krwotok", rounds=-1))
    table_.do(RemoveCondition(target="ork", condition="ogluszony"))
    with pytest.raises(RuleViolation, match="nie ma stanu"):
        table_.do(RemoveCondition(target="ork", condition="ogluszony"))
    table_.do(SetHidden(target="ork", hidden=True))
    table_.do(RevealStats(target="ork", revealed=True))
    assert table_.c["ork"].hidden and table_.c["ork"].revealed


def test_end_combat_with_a_winner_side() -> None:
    table_ = duel()
    with pytest.raises(RuleViolation, match="takiej strony"):
        table_.do(EndCombat(winner="c"))
    table_.do(EndCombat(winner="a"))
    assert (table_.state.stage, table_.state.winner) == ("ended", "a")
    with pytest.raises(RuleViolation, match="skończyła"):
        table_.do(EndCombat())
    with pytest.raises(RuleViolation, match="skończyła"):
        table_.do(StartCombat())
    with pytest.raises(RuleViolation, match="skończyła"):
        table_.do(Advance())


def test_commands_out_of_their_phase_are_refused() -> None:
    table_ = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    with pytest.raises(RuleViolation, match="jeszcze się nie zaczęła"):
        table_.do(Declare(actor="ala"))
    table_.do(StartCombat())
    with pytest.raises(RuleViolation, match="już trwa"):
        table_.do(StartCombat())
    with pytest.raises(RuleViolation, match="faza"):
        table_.do(EndTurn(actor="ala"))
    table_.do(Advance())
    with pytest.raises(RuleViolation, match="takiej postaci"):
        table_.do(RollInitiatives(targets=("nikt",)))
    table_.do(RollInitiatives(), [3])
    with pytest.raises(RuleViolation, match="Nikt"):
        table_.do(RollInitiatives())
    with pytest.raises(RuleViolation, match="Nic nie czeka"):
        table_.do(Expire(now=0.0))


def test_next_deadline_resume_and_undo_restart_the_waiting_timers() -> None:
    table_ = duel(ork={"skills": {"unik": 2}})
    hit(table_, [5, 3])
    state = table_.state
    assert RULESET.next_deadline(state) == 70.0
    events = RULESET.resume(state, paused_at=60.0, now=1000.0, minimum=5.0)
    assert events == [DeadlinesMoved(phase=None, prompts={"p1": 1010.0})]
    moved = RULESET.replay(state, events)
    assert moved.prompts[0].deadline == 1010.0
    declare = Table(fighter("ala", "a"), fighter("ork", "b"))
    declare.do(StartCombat(now=0.0))
    events = RULESET.resume(declare.state, paused_at=119.0, now=500.0, minimum=5.0)
    assert RULESET.replay(declare.state, events).deadline == 505.0
    assert RULESET.resume(Table(fighter("a", "a")).state, paused_at=0, now=0, minimum=1) == []


def test_the_log_tells_every_event_and_keeps_declarations_secret() -> None:
    t = duel(
        ork={"skills": {"unik": 2}},
        ala_declares=Declare(
            actor="ala", action="attack", weapon="Miecz", target="ork", options=("agresywny_atak",)
        ),
    )
    hit(t, [5, 3])
    state = t.initial
    lines: list[LogLine] = []
    for event in t.log:
        line = RULESET.describe(state, event)
        if line is not None:
            lines.append(line)
            assert line.text % dict(line.params)  # every placeholder has its value
        state = RULESET.evolve(state, event)
    secret = [ln for ln in lines if ln.secret]
    assert any("Deklaracja" in ln.text for ln in secret)
    assert any("Wyczerpanie" in ln.text for ln in secret)
    public = " ".join(ln.text % dict(ln.params) for ln in lines if not ln.secret)
    assert "zadeklarował" in public and "Agresywny atak" in public


def test_every_kind_of_event_has_a_log_line() -> None:
    r = random.Random(2)
    from tests.combat.rules.magus.test_engine_properties import candidates, combatants

    state = engine.new_encounter({}, combatants())
    kinds: set[str] = set()
    for step in range(600):
        options = candidates(r, state, float(step))
        r.shuffle(options)
        for command in options:
            try:
                events = engine.decide(state, command, r)
            except RuleViolation:
                continue
            for event in events:
                line = narrate.describe(state, event)
                if line is not None:
                    assert line.text % dict(line.params)
                kinds.add(event.type_key)
                state = engine.evolve(state, event)
            break
    assert {"attack_rolled", "damage_rolled", "defence_rolled", "held", "delayed"} <= kinds


def test_table_view_in_each_phase() -> None:
    t = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    view = RULESET.table_view(t.state)
    assert isinstance(view, TableView) and view.stage == "setup" and view.label == "Przygotowanie"
    t.do(StartCombat(now=0.0))
    view = RULESET.table_view(t.state)
    assert view.label == "Deklaracje — runda %(n)s" and view.label_params == {"n": 1}
    assert view.acting == ("ala", "ork") and view.waiting == ("ala", "ork")
    assert view.deadline == 120.0 and not view.seats["ala"].ready
    t.do(Declare(actor="ala", options=("ruch_dzielony",)))
    view = RULESET.table_view(t.state)
    assert view.waiting == ("ork",) and view.seats["ala"].ready
    assert view.seats["ala"].badges == ()  # the declared option shows only after the reveal
    t.do(Declare(actor="ork"))
    view = RULESET.table_view(t.state)
    assert view.label == "Inicjatywa — runda %(n)s" and view.acting == ("ala",)
    assert view.waiting == ("ala", "ork")
    assert [b.key for b in view.seats["ala"].badges] == ["ruch_dzielony"]
    to_act(t)
    view = RULESET.table_view(t.state)
    assert view.label == "Runda %(n)s" and view.order == ("ala", "ork") and view.current == "ala"
    counters = {c.key: c for c in view.seats["ala"].counters}
    assert counters["wyczerpanie"].value == 1 and counters["akcje"].maximum == 6
    t.do(Hold(actor="ala"))
    assert {b.key for b in RULESET.table_view(t.state).seats["ala"].badges} >= {"powstrzymuje"}
    t.do(EndCombat())
    assert RULESET.table_view(t.state).label == "Walka zakończona"


def test_health_view_levels_by_damage_against_the_death_rating() -> None:
    t = duel()
    levels = []
    for damage in (0, 5, 10, 20, 25, 32):
        t.do(EditHealth(target="ork", damage=damage))
        levels.append(table.health(t.c["ork"]).level)
    assert levels == ["bez_ran", "drasniety", "ranny", "ciezko_ranny", "nieprzytomny", "martwy"]
    t.do(EditHealth(target="ork", damage=24))
    assert table.health(t.c["ork"]).level == "ledwo_zywy"


def test_panels_offer_what_is_legal_with_ready_commands() -> None:
    t = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    everyone = frozenset({"ala", "ork"})
    gm = shown(RULESET.gm_panel(t.state))
    assert {a.key: a.available for a in gm.actions}["start"]
    t.do(StartCombat())
    panel = shown(RULESET.turn_panel(t.state, "ala", everyone))
    assert panel.phase == "declare" and panel.commands["declare"]["type"] == "declare"
    assert [o.key for o in panel.options][:2] == ["bieg", "agresywny_atak"]
    assert panel.action_kinds[1] == ("attack", "atak") and panel.current is None
    assert panel.strain["bieg"] == 1 and panel.paid == ()
    t.do(Declare(actor="ala"))
    t.do(Declare(actor="ork"))
    panel = shown(RULESET.turn_panel(t.state, "ala", everyone))
    assert {a.key: a.available for a in panel.actions} == {"inicjatywa": True}
    seat = shown(RULESET.seat_panel(t.state, "ala", everyone))
    assert seat.commands["inicjatywa"]["type"] == "roll_initiative"
    gm = shown(RULESET.gm_panel(t.state))
    assert {a.key for a in gm.actions} >= {"dalej", "inicjatywa_bn"}
    to_act(t)
    panel = shown(RULESET.turn_panel(t.state, "ala", frozenset({"ala"})))
    assert panel.targets == ()
    panel = shown(RULESET.turn_panel(t.state, "ala", everyone))
    actions = {a.key: a for a in panel.actions}
    assert actions["atak:ork:Miecz"].available and actions["koniec_tury"].available
    assert panel.attacks[0].key == "atak:ork:Miecz"
    assert not actions["powstanie"].available and actions["powstanie"].reason_template
    assert RULESET.command_from_dict(panel.commands["ruch"]) == Move(actor="ala", metres=12)
    other = shown(RULESET.turn_panel(t.state, "ork", everyone))
    assert not {a.key: a for a in other.actions}["koniec_tury"].available
    gm_seat = shown(RULESET.gm_seat_panel(t.state, "ork"))
    assert gm_seat.commands["edit_health"]["target"] == "ork"
    t.do(Hold(actor="ala", trigger="szarża"))
    seat = shown(RULESET.seat_panel(t.state, "ala", everyone))
    assert {a.key: a.available for a in seat.actions} == {"przerwij": True}
    t.do(AddCondition(target="ala", condition="powalony"))
    t.do(EndCombat())
    assert shown(RULESET.gm_panel(t.state)).stage == "ended"


def test_prompts_capability_answers_and_policies() -> None:
    t = duel(ork={"skills": {"unik": 2}})
    hit(t, [5, 3])
    prompt = RULESET.open_prompts(t.state)[0]
    assert prompt.actor == "ork" and prompt.kind == "obrona"
    assert prompt.label == "Trafienie: Ala → Ork (wynik ataku 8)"
    assert dict(prompt.options) == {"unik": "Unik (stopień 8)", "": "Bez obrony"}
    panel = shown(RULESET.prompt_panel(t.state, prompt.id))
    assert panel.attack_result == 8
    assert panel.level_label == {lv.key: lv.label for lv in LEVELS}[panel.level]
    assert panel.level_label in {"Przeciętny sukces", "Duży sukces"}
    assert RULESET.prompt_panel(t.state, "p9") is None
    with pytest.raises(RuleViolation, match="Tej reakcji"):
        RULESET.prompt_command(t.state, prompt.id, "riposta")
    with pytest.raises(RuleViolation, match="zamknięte"):
        RULESET.prompt_command(t.state, "p9", "")
    assert RULESET.default_policy(t.state) == "best"
    assert RULESET.auto_answer(t.state, prompt.id, "ask", 0.0) is None
    best = RULESET.auto_answer(t.state, prompt.id, "best", 0.0)
    assert best is not None and best.option == "unik"  # type: ignore[attr-defined]
    none = RULESET.auto_answer(t.state, prompt.id, "none", 0.0)
    assert none is not None and none.option == ""  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown reaction policy"):
        RULESET.auto_answer(t.state, prompt.id, "dance", 0.0)
    odds = RULESET.answer_odds(t.state, prompt.id)
    assert odds is not None
    unik = odds.option("unik")
    nothing = odds.option("")
    assert unik is not None and nothing is not None
    assert 0 < unik.outcomes[0].probability < 1
    assert nothing.expected_damage is not None and unik.expected_damage is not None
    assert unik.expected_damage < nothing.expected_damage
    assert RULESET.answer_odds(t.state, "p9") is None


def test_preview_odds_of_an_attack() -> None:
    t = duel()
    view = RULESET.preview_odds(t.state, Attack(actor="ala", target="ork", weapon="Miecz"))
    option = view.options[0]
    assert option.headline is not None and option.headline.label == "trafia"
    levels = option.outcomes[1:7]
    assert abs(sum(o.probability for o in levels) - 1) < 1e-9
    assert option.expected_damage is not None and option.expected_damage > 0
    assert view.target == "ork"
    with pytest.raises(RuleViolation, match="tylko dla ataku"):
        RULESET.preview_odds(t.state, EndTurn(actor="ala"))
    with pytest.raises(RuleViolation, match="Nie twoja tura"):
        RULESET.preview_odds(t.state, Attack(actor="ork", target="ala", weapon="Miecz"))
    assert of([], object) == []


def test_every_viewers_panel_of_one_state_probes_each_button_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The GM's page and the player's ask the same entry's state for the same actor's turn
    panel: the rules probe each of its buttons (a decide on thrown-away dice) once."""
    t = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    t.do(StartCombat())
    t.do(Declare(actor="ala"))
    t.do(Declare(actor="ork"))
    to_act(t)
    everyone = frozenset({"ala", "ork"})
    probed: list[Any] = []
    decide = engine.decide

    def counted(state: Any, command: Any, rng: Any) -> Any:
        probed.append(command)
        return decide(state, command, rng)

    monkeypatch.setattr(engine, "decide", counted)
    players = shown(RULESET.turn_panel(t.state, "ala", everyone))
    buttons = len(probed)
    gms = shown(RULESET.turn_panel(t.state, "ala", everyone))
    assert buttons > 3 and len(probed) == buttons
    assert gms.actions == players.actions and gms.commands == players.commands
    t.do(Move(actor="ala", metres=2))  # the next entry's state is probed anew
    shown(RULESET.turn_panel(t.state, "ala", everyone))
    assert len(probed) > buttons
