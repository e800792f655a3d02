"""Exact undo (prompts come back with the time they had left, no new dice), the table's default
NPC policy, and NPCs that play their own turns, through the real append path."""

from __future__ import annotations

import time
from typing import Any

import pytest

from characters.models import Campaign
from combat import fragments, services
from combat.models import Encounter, EncounterEntry
from combat.services import Refused
from tests.combat.table.helpers import Party, make_party, start, state_of, stored_head

pytestmark = pytest.mark.django_db

T0 = 1_000.0  # the clock the commands of these tests run with


def party_with(settings: dict[str, Any]) -> Party:
    """The usual party at a table whose campaign has these table settings (set before the
    encounter is created: it keeps the settings of that moment)."""
    party = make_party(with_combatants=False)
    Campaign.objects.filter(pk=party.campaign.pk).update(settings=settings)
    party.campaign.refresh_from_db()
    party.encounter = services.create_encounter(campaign=party.campaign, name="Próba", by=party.gm)
    heroes = [party.hero1.pk, party.hero2.pk, party.bandit.pk]
    services.add_combatants(party.encounter.pk, viewer=party.gm_viewer, characters=heroes)
    return party


def ids(party: Party) -> tuple[str, str, str]:
    return f"c{party.hero1.pk}", f"c{party.hero2.pk}", f"c{party.bandit.pk}"


def run(party: Party, command: dict[str, Any], now: float = T0, **kw: Any) -> int:
    done = services.run_command(
        party.encounter.pk, command, viewer=kw.pop("viewer", party.gm_viewer), now=now, **kw
    )
    return done.head if done.head is not None else done.seq


def to_round_two(party: Party) -> None:
    """Everyone has had a turn (so may react): hero1 acts again."""
    for actor in ids(party):
        run(party, {"type": "end_turn", "actor": actor})


def to_bandits_turn(party: Party) -> None:
    hero1, hero2, _bandit = ids(party)
    run(party, {"type": "end_turn", "actor": hero1})
    run(party, {"type": "end_turn", "actor": hero2})


def bandit_attacks(party: Party, target: str, now: float = T0) -> int:
    bandit = ids(party)[2]
    attack = {"type": "declare_attack", "actor": bandit, "target": target, "weapon": "Szabla"}
    return run(party, attack, now)


def answer(party: Party, option: str, now: float) -> int:
    table = services.load_table(party.encounter.pk)
    rules = party.encounter.rules()
    prompt = table.state.prompts[0]
    command = rules.command_to_dict(rules.prompt_command(table.state, prompt.id, option, now))
    owner = party.p1 if prompt.actor == ids(party)[0] else party.p2
    return run(party, command, now, viewer=party.viewer(owner))


def events_after(party: Party, seq: int) -> list[dict[str, Any]]:
    rows = EncounterEntry.objects.filter(encounter=party.encounter, seq__gt=seq).order_by("seq")
    return [e for events in rows.values_list("events", flat=True) for e in events]


def assert_replay_agrees(party: Party) -> None:
    encounter = Encounter.objects.get(pk=party.encounter.pk)
    rules = encounter.rules()
    assert stored_head(encounter) == rules.state_to_dict(services.replay_state(encounter))


def test_undo_of_an_answered_parowanie_brings_the_prompt_back_with_the_time_it_had_left() -> None:
    party = party_with({})
    start(party)
    hero1 = ids(party)[0]
    to_bandits_turn(party)
    attacked = bandit_attacks(party, hero1)
    assert state_of(party.encounter).prompts[0].deadline == T0 + 15
    answer(party, "parowanie", T0 + 4)  # 11 s were left
    undo_at = T0 + 500
    services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=attacked, now=undo_at)

    (prompt,) = state_of(party.encounter).prompts
    assert prompt.actor == hero1
    assert prompt.deadline == undo_at + 11
    assert services.resolve_expired(party.encounter.pk, now=undo_at + 10) is None
    undo_entry = EncounterEntry.objects.get(encounter=party.encounter, undo_to=attacked)
    assert [e["type"] for e in undo_entry.events] == ["deadlines_moved"]
    assert_replay_agrees(party)


def test_undo_of_an_expiry_gives_the_prompt_at_least_a_few_seconds_and_no_new_roll() -> None:
    party = party_with({})
    start(party)
    hero2 = ids(party)[1]
    to_bandits_turn(party)
    attacked = bandit_attacks(party, hero2)
    expired = services.resolve_expired(party.encounter.pk, now=T0 + 15.05)
    assert expired is not None
    assert "attack_resolved" in [e["type"] for e in events_after(party, attacked)]
    undo_at = T0 + 900
    services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=attacked, now=undo_at)

    seq = Encounter.objects.get(pk=party.encounter.pk).seq
    (prompt,) = state_of(party.encounter).prompts
    assert prompt.deadline == undo_at + services.RESUME_MINIMUM
    # Nothing rolls or resolves by itself: not at once, nor before the time it got back.
    assert services.resolve_expired(party.encounter.pk, now=undo_at + 1) is None
    assert Encounter.objects.get(pk=party.encounter.pk).seq == seq
    assert [e["type"] for e in events_after(party, seq - 1)] == ["deadlines_moved"]
    assert_replay_agrees(party)


def test_undo_of_an_npc_auto_answer_waits_for_the_next_command() -> None:
    party = party_with({})  # NPCs answer by the table's default: "lepsza"
    start(party)
    hero1, _hero2, bandit = ids(party)
    to_round_two(party)
    assert state_of(party.encounter).current == hero1
    declared = services.run_command(
        party.encounter.pk,
        {"type": "declare_attack", "actor": hero1, "target": bandit, "weapon": "Szabla"},
        viewer=party.viewer(party.p1),
        now=T0,
    )
    assert declared.head is not None and declared.head > declared.seq  # the bandit answered
    assert state_of(party.encounter).prompts == ()
    services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=declared.seq)  # now

    seq = Encounter.objects.get(pk=party.encounter.pk).seq
    (prompt,) = state_of(party.encounter).prompts
    assert prompt.actor == bandit and prompt.deadline > time.time() + 10
    # The GM undid to change something: no automatic answer with new dice until they act.
    services.load_table(party.encounter.pk)
    assert services.resolve_expired(party.encounter.pk) is None
    assert Encounter.objects.get(pk=party.encounter.pk).seq == seq
    services.set_npc_policy(
        party.encounter.pk, viewer=party.gm_viewer, combatant=bandit, policy="unik"
    )
    assert state_of(party.encounter).prompts == ()
    assert_replay_agrees(party)


def test_the_default_npc_policy_is_a_table_setting() -> None:
    asked = party_with({"npc_default_policy": "ask"})
    start(asked)
    hero1, _hero2, bandit = ids(asked)
    to_round_two(asked)
    attack = {"type": "declare_attack", "actor": hero1, "target": bandit, "weapon": "Szabla"}
    run(asked, attack, viewer=asked.viewer(asked.p1))
    assert [p.actor for p in state_of(asked.encounter).prompts] == [bandit]
    table = services.load_table(asked.encounter.pk)
    assert table.policy_of(bandit) == "ask"


def test_by_default_npcs_answer_by_themselves_and_the_row_says_how() -> None:
    automatic = party_with({})
    start(automatic)
    table = services.load_table(automatic.encounter.pk)
    assert table.policy_of(ids(automatic)[2]) == "lepsza"
    rows = {
        r.id: r for r in fragments.rows(table, fragments.sight(table.view, automatic.gm_viewer))
    }
    assert rows[ids(automatic)[2]].policy == "lepsza"


def test_an_npc_marked_to_play_itself_takes_its_turn_and_undo_takes_it_back() -> None:
    party = party_with({"npc_default_policy": "brak"})
    start(party)
    hero1, hero2, bandit = ids(party)
    services.set_autoplay(
        party.encounter.pk, viewer=party.gm_viewer, combatant=bandit, policy="najslabszy"
    )
    run(party, {"type": "end_turn", "actor": hero1})
    before_bandit = Encounter.objects.get(pk=party.encounter.pk).seq
    run(party, {"type": "end_turn", "actor": hero2})
    # Its attack waits for a player's answer, then it plays on to the end of its turn.
    for _ in range(4):
        state = state_of(party.encounter)
        if not state.prompts:
            break
        answer(party, "", T0 + 1)
    state = state_of(party.encounter)
    assert state.current == hero1 and state.round == 2
    auto = EncounterEntry.objects.filter(
        encounter=party.encounter, command_id__startswith="auto-", seq__gt=before_bandit
    )
    attacks = [e for e in events_after(party, before_bandit) if e["type"] == "attack_declared"]
    assert auto.exists() and attacks
    assert {a["attack"]["attacker"] for a in attacks} == {bandit}
    assert_replay_agrees(party)

    services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=before_bandit + 1, now=T0)
    seq = Encounter.objects.get(pk=party.encounter.pk).seq
    assert state_of(party.encounter).current == bandit
    assert events_after(party, seq - 1) == []  # it does not play again by itself
    assert_replay_agrees(party)


def test_play_turn_plays_one_npc_turn_to_its_end() -> None:
    party = party_with({"npc_default_policy": "brak"})
    start(party)
    hero1, _hero2, bandit = ids(party)
    with pytest.raises(Refused):  # not its turn
        services.play_turn(party.encounter.pk, viewer=party.gm_viewer, combatant=bandit)
    with pytest.raises(Refused):
        services.play_turn(party.encounter.pk, viewer=party.viewer(party.p1), combatant=bandit)
    to_bandits_turn(party)
    services.play_turn(party.encounter.pk, viewer=party.gm_viewer, combatant=bandit)
    for _ in range(4):
        if not state_of(party.encounter).prompts:
            break
        answer(party, "", T0 + 1)
    state = state_of(party.encounter)
    assert state.current == hero1 and state.round == 2
    # One turn only: in its next turn the GM plays it again.
    assert services.load_table(party.encounter.pk).playing(bandit) is None
    assert_replay_agrees(party)


def test_autoplay_and_play_turn_are_the_gms_and_only_for_npcs() -> None:
    party = party_with({})
    start(party)
    hero1, _hero2, bandit = ids(party)
    with pytest.raises(Refused):
        services.set_autoplay(
            party.encounter.pk, viewer=party.viewer(party.p1), combatant=bandit, policy=""
        )
    with pytest.raises(Refused):
        services.set_autoplay(
            party.encounter.pk, viewer=party.gm_viewer, combatant=hero1, policy="najslabszy"
        )
    with pytest.raises(Refused):
        services.set_autoplay(
            party.encounter.pk, viewer=party.gm_viewer, combatant=bandit, policy="magia"
        )
    services.set_autoplay(
        party.encounter.pk, viewer=party.gm_viewer, combatant=bandit, policy="najslabszy"
    )
    assert services.load_table(party.encounter.pk).autoplay == {bandit: "najslabszy"}
    services.set_autoplay(party.encounter.pk, viewer=party.gm_viewer, combatant=bandit, policy="")
    assert services.load_table(party.encounter.pk).autoplay == {}


def test_an_npcs_automatic_answer_is_decided_as_the_rules_built_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table answers for an NPC with the command the rules gave, not a copy read back
    from its JSON: the one command read from JSON is the player's attack."""
    party = party_with({})  # NPCs answer by the table's default: "lepsza"
    start(party)
    hero1, _hero2, bandit = ids(party)
    to_round_two(party)
    rules = party.encounter.rules()
    read = rules.command_from_dict
    parsed: list[str] = []

    def counted(data: Any) -> Any:
        parsed.append(str(data.get("type")))
        return read(data)

    monkeypatch.setattr(rules, "command_from_dict", counted)
    declared = services.run_command(
        party.encounter.pk,
        {"type": "declare_attack", "actor": hero1, "target": bandit, "weapon": "Szabla"},
        viewer=party.viewer(party.p1),
        now=T0,
    )
    assert declared.head is not None and declared.head > declared.seq  # the bandit answered
    npc = EncounterEntry.objects.get(encounter=party.encounter, seq=declared.head)
    assert npc.command_id == f"auto-{declared.seq}" and npc.user_id is None
    assert parsed == ["declare_attack"]
    assert state_of(party.encounter).prompts == ()
    assert_replay_agrees(party)
