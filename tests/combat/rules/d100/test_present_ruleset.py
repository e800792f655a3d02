"""`D100Ruleset`: the core Ruleset protocol as thin calls into the d100 modules, so the table
layer can run a d100 encounter end to end through it alone."""

from __future__ import annotations

import random

from combat.rules.base import fill
from combat.rules.d100 import RULESET, narrate
from combat.rules.d100.commands import Attack, Expire, JoinCombat, RevealStats, SetHidden
from combat.rules.d100.settings import D100Settings
from tests.combat.rules.d100.engine_kit import fighter


def test_the_sheet_side_of_the_protocol() -> None:
    assert [s.key for s in RULESET.attributes()] == [
        "zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada",
    ]  # fmt: skip
    assert [s.key for s in RULESET.skills()] == ["akrobatyka", "medycyna"]
    defaults = RULESET.default_settings()
    assert defaults == D100Settings().to_dict()
    assert RULESET.validate_settings({"pace": "post"})["pace"] == "post"
    sheet = fighter("ala", "a")["sheet"]
    assert RULESET.derived_values(sheet)
    assert RULESET.sheet_sections()
    assert RULESET.settings_groups()


def test_an_encounter_runs_through_the_ruleset_alone() -> None:
    rules = RULESET
    state = rules.new_encounter({}, [fighter("ala", "a", "u1", zwinnosc=60), fighter("ork", "b")])
    initial = state
    rng = random.Random(4)
    log = []
    for data in (
        {"type": "start_combat", "now": 0.0},
        {"type": "attack", "actor": "ala", "target": "ork", "now": 1.0},
    ):
        command = rules.command_from_dict(data)
        assert rules.command_from_dict(rules.command_to_dict(command)) == command
        for event in rules.decide(state, command, rng):
            assert rules.event_from_dict(rules.event_to_dict(event)) == event
            line = rules.describe(state, event)
            assert line is None or "%(" not in fill(line.text, line.params)
            state = rules.evolve(state, event)
            log.append(event)
    assert rules.replay(initial, log) == state
    assert rules.state_from_dict(rules.state_to_dict(state)) == state
    deadline = rules.next_deadline(state)
    assert deadline == 1.0 + state.settings.reaction_seconds
    assert rules.expire_command(50.0) == Expire(now=50.0)
    moved = rules.resume(state, paused_at=10.0, now=100.0, minimum=5.0)
    assert len(moved) == 1
    assert rules.describe(state, moved[0]) is None and type(moved[0]) in narrate.SILENT


def test_who_a_command_acts_for_and_whom_it_names() -> None:
    attack = Attack(actor="ala", target="ork")
    assert RULESET.command_actor(attack) == "ala"
    assert RULESET.command_targets(attack) == ("ork",)
    assert RULESET.command_actor(SetHidden(target="ork", hidden=True)) is None
    assert RULESET.visibility_command("ork", hidden=True) == SetHidden(target="ork", hidden=True)
    assert RULESET.visibility_command("ork", revealed=True) == RevealStats(
        target="ork", revealed=True
    )
    join = RULESET.join_command(fighter("bob", "a"), 3.0)
    assert isinstance(join, JoinCombat) and join.now == 3.0
    assert RULESET.gm_judged_fields(attack) == []
    post = RULESET.command_from_dict({"type": "post", "actor": "ala", "by_gm": True})
    assert RULESET.gm_judged_fields(post) == ["by_gm"]
    assert RULESET.needs_fresh_state(RULESET.command_from_dict({"type": "end_turn", "actor": "a"}))
    assert not RULESET.needs_fresh_state(attack)
