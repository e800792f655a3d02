"""The append path: the log is the truth, commands count once, players command only their own."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from combat import services, snapshots
from combat.models import Encounter, EncounterEntry
from combat.services import Refused
from tests.characters.helpers import make_campaign
from tests.combat.table.helpers import (
    make_hero,
    make_party,
    start,
    state_of,
    stored_head,
    wolf,
)

pytestmark = pytest.mark.django_db


def rules_dict(encounter: Encounter) -> dict:
    encounter.refresh_from_db()
    return encounter.rules().state_to_dict(services.replay_state(encounter))


def test_it_appends_numbered_entries_and_the_head_is_the_fold_of_the_log() -> None:
    party = make_party()
    start(party)
    services.run_command(
        party.encounter.pk,
        {"type": "gm_roll", "dice": 3, "label": "Percepcja wilków"},
        viewer=party.gm_viewer,
        command_id="roll-1",
    )
    party.encounter.refresh_from_db()
    seqs = list(party.encounter.entries.values_list("seq", flat=True))
    assert seqs == list(range(1, party.encounter.seq + 1))
    assert stored_head(party.encounter) == rules_dict(party.encounter)


def test_it_applies_a_command_seen_twice_once() -> None:
    party = make_party()
    start(party)
    command = {"type": "gm_roll", "dice": 2}
    first = services.run_command(
        party.encounter.pk, command, viewer=party.gm_viewer, command_id="double-click"
    )
    second = services.run_command(
        party.encounter.pk, command, viewer=party.gm_viewer, command_id="double-click"
    )
    assert (first.duplicate, second.duplicate) == (False, True)
    assert second.seq == first.seq
    assert EncounterEntry.objects.filter(command_id="double-click").count() == 1


def test_it_lets_a_player_command_only_their_own_character() -> None:
    party = make_party()
    state = start(party)
    hero1, hero2 = f"c{party.hero1.pk}", f"c{party.hero2.pk}"
    assert state.current == hero1
    before = Encounter.objects.get(pk=party.encounter.pk).seq
    for viewer, command in [
        (party.viewer(party.p2), {"type": "end_turn", "actor": hero1}),
        (party.viewer(party.p2), {"type": "end_turn", "actor": f"c{party.bandit.pk}"}),
        (party.viewer(party.p1), {"type": "gm_roll", "dice": 2}),
        (
            party.viewer(party.p1),
            {"type": "edit_health", "target": hero2, "damage_physical": 0, "damage_stun": 0},
        ),
    ]:
        with pytest.raises(Refused):
            services.run_command(party.encounter.pk, command, viewer=viewer, command_id=None)
    assert Encounter.objects.get(pk=party.encounter.pk).seq == before
    services.run_command(
        party.encounter.pk, {"type": "end_turn", "actor": hero1}, viewer=party.viewer(party.p1)
    )
    assert state_of(party.encounter).current == hero2


def test_it_refuses_a_value_only_the_gm_judges_from_a_player() -> None:
    party = make_party()
    start(party)
    hero1 = f"c{party.hero1.pk}"
    with pytest.raises(Refused) as refusal:
        services.run_command(
            party.encounter.pk,
            {"type": "move", "actor": hero1, "mode": "wspinaczka", "metres": 2, "difficulty": 0},
            viewer=party.viewer(party.p1),
        )
    assert refusal.value.code == "ocena_mg"


def test_it_refuses_a_turn_command_made_on_a_stale_view() -> None:
    party = make_party()
    start(party)
    seen = Encounter.objects.get(pk=party.encounter.pk).seq
    services.run_command(party.encounter.pk, {"type": "gm_roll", "dice": 1}, viewer=party.gm_viewer)
    with pytest.raises(Refused) as refusal:
        services.run_command(
            party.encounter.pk,
            {"type": "end_turn", "actor": f"c{party.hero1.pk}"},
            viewer=party.gm_viewer,
            seen_seq=seen,
        )
    assert refusal.value.code == "nieaktualne"


def test_it_undoes_back_to_an_entry_and_derived_state_comes_back_exactly() -> None:
    party = make_party()
    start(party)
    pk = party.encounter.pk
    mark = Encounter.objects.get(pk=pk)
    hero1, bandit = f"c{party.hero1.pk}", f"c{party.bandit.pk}"
    services.run_command(
        pk,
        {"type": "add_condition", "target": bandit, "condition": "krwawienie", "stacks": 2},
        viewer=party.gm_viewer,
    )
    services.run_command(
        pk,
        {"type": "edit_health", "target": bandit, "damage_physical": 4, "damage_stun": 1},
        viewer=party.gm_viewer,
    )
    services.run_command(pk, {"type": "end_turn", "actor": hero1}, viewer=party.gm_viewer)
    assert state_of(party.encounter).current == f"c{party.hero2.pk}"
    services.undo(pk, viewer=party.gm_viewer, to_seq=mark.seq)
    after = Encounter.objects.get(pk=pk)
    assert stored_head(after) == mark.state  # the start's change of phase stored it
    assert after.seq == mark.seq + 4  # the undo is an entry too: nothing is erased
    assert stored_head(after) == rules_dict(after)
    table = services.load_table(pk)
    assert [e.undone for e in table.log[-4:]] == [True, True, True, False]


def test_it_refuses_undo_to_a_point_that_does_not_exist_and_to_players() -> None:
    party = make_party()
    with pytest.raises(Refused):
        services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=99)
    with pytest.raises(Refused):
        services.undo(party.encounter.pk, viewer=party.viewer(party.p1), to_seq=0)


def test_it_numbers_creatures_on_from_those_at_the_table() -> None:
    party = make_party()
    services.add_combatants(party.encounter.pk, viewer=party.gm_viewer, creatures={wolf().pk: 2})
    services.add_combatants(party.encounter.pk, viewer=party.gm_viewer, creatures={wolf().pk: 1})
    names = sorted(c.name for c in state_of(party.encounter).combatants.values())
    assert [n for n in names if n.startswith("Wilk")] == ["Wilk 1", "Wilk 2", "Wilk 3"]


def test_it_refuses_characters_of_another_campaign() -> None:
    party = make_party()
    other = make_campaign(party.gm, "Inna")
    stranger = make_hero(other, None, "Obcy")
    with pytest.raises(Refused):
        services.add_combatants(
            party.encounter.pk, viewer=party.gm_viewer, characters=[stranger.pk]
        )


def attack_on_hero2(party, *, now: float) -> None:
    """The bandit's turn: it attacks Milena (who has had her turn), she gets a prompt."""
    pk = party.encounter.pk
    for hero in (party.hero1, party.hero2):
        services.run_command(
            pk, {"type": "end_turn", "actor": f"c{hero.pk}"}, viewer=party.gm_viewer, now=now
        )
    services.run_command(
        pk,
        {
            "type": "declare_attack",
            "actor": f"c{party.bandit.pk}",
            "target": f"c{party.hero2.pk}",
            "weapon": "Szabla",
        },
        viewer=party.gm_viewer,
        now=now,
    )


def test_it_resolves_an_expired_prompt_once_after_its_deadline() -> None:
    party = make_party()
    start(party)
    attack_on_hero2(party, now=1000.0)
    table = services.load_table(party.encounter.pk)
    deadline = table.state.prompts[0].deadline
    assert services.resolve_expired(party.encounter.pk, now=deadline - 1) is None
    first = services.resolve_expired(party.encounter.pk, now=deadline + 1)
    again = services.resolve_expired(party.encounter.pk, now=deadline + 2)
    assert first is not None and not first.duplicate
    assert again is None  # nothing is open any more
    assert not state_of(party.encounter).prompts


def test_it_answers_an_npc_prompt_by_its_policy() -> None:
    party = make_party()
    start(party)
    pk = party.encounter.pk
    bandit = f"c{party.bandit.pk}"
    services.set_npc_policy(pk, viewer=party.gm_viewer, combatant=bandit, policy="unik")
    for actor in (party.hero1, party.hero2, party.bandit):  # round 2: the bandit may react
        services.run_command(
            pk, {"type": "end_turn", "actor": f"c{actor.pk}"}, viewer=party.gm_viewer
        )
    done = services.run_command(
        pk,
        {
            "type": "declare_attack",
            "actor": f"c{party.hero1.pk}",
            "target": bandit,
            "weapon": "Szabla",
        },
        viewer=party.viewer(party.p1),
        rng=random.Random(3),
    )
    state = state_of(party.encounter)
    assert not state.prompts  # answered at once, and the attack resolved
    assert done.head == Encounter.objects.get(pk=pk).seq > done.seq  # where the answers left it
    kinds = [e["type"] for entry in party.encounter.entries.all() for e in entry.events]
    assert "reaction_chosen" in kinds and "attack_resolved" in kinds


def test_it_refuses_an_unknown_policy_or_combatant() -> None:
    party = make_party()
    with pytest.raises(Refused):
        services.set_npc_policy(
            party.encounter.pk, viewer=party.gm_viewer, combatant=f"c{party.bandit.pk}", policy="x"
        )
    with pytest.raises(Refused):
        services.set_npc_policy(
            party.encounter.pk, viewer=party.gm_viewer, combatant="nobody", policy="unik"
        )


@pytest.mark.django_db(transaction=True)
def test_it_keeps_the_log_consistent_under_many_simultaneous_commands() -> None:
    party = make_party()
    start(party)
    pk = party.encounter.pk
    ids = [f"cmd-{n % 30}" for n in range(60)]  # every command sent twice, concurrently

    def send(command_id: str) -> None:
        try:
            services.run_command(
                pk,
                {"type": "gm_roll", "dice": 2, "label": command_id},
                viewer=party.gm_viewer,
                command_id=command_id,
            )
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(send, ids))
    encounter = Encounter.objects.get(pk=pk)
    entries = list(encounter.entries.order_by("seq"))
    assert [e.seq for e in entries] == list(range(1, encounter.seq + 1))
    rolled = [e.command_id for e in entries if e.command_id and e.command_id.startswith("cmd-")]
    assert sorted(rolled) == sorted(set(ids))
    assert stored_head(encounter) == rules_dict(encounter)


def test_a_command_sent_again_that_the_rules_now_refuse_gets_its_entry_back() -> None:
    party = make_party()
    start(party)
    pk, hero1 = party.encounter.pk, f"c{party.hero1.pk}"
    end_turn = {"type": "end_turn", "actor": hero1}
    first = services.run_command(pk, end_turn, viewer=party.viewer(party.p1), command_id="e1")
    # Sent again after a lost socket: no longer Radosław's turn, yet it ran once, here it is.
    again = services.run_command(pk, end_turn, viewer=party.viewer(party.p1), command_id="e1")
    assert (again.seq, again.duplicate) == (first.seq, True)
    with pytest.raises(Refused):
        services.run_command(pk, end_turn, viewer=party.viewer(party.p1), command_id="e2")
    assert EncounterEntry.objects.filter(command_id="e1").count() == 1


def test_the_head_each_append_caches_is_the_table_a_load_reads() -> None:
    party = make_party()
    start(party)
    pk = party.encounter.pk
    mark = Encounter.objects.get(pk=pk).seq
    roll = {"type": "gm_roll", "dice": 1}
    for _n in range(services.LOG_WINDOW + 3):  # the window moves past its first entries
        services.run_command(pk, roll, viewer=party.gm_viewer)
    services.undo(pk, viewer=party.gm_viewer, to_seq=mark + services.LOG_WINDOW)
    services.run_command(pk, roll, viewer=party.gm_viewer)
    cached = services.load_table(pk)  # extended from the head before, entry by entry
    services.clear_cache()
    loaded = services.load_table(pk)
    assert cached is not loaded
    assert cached.log == loaded.log and len(cached.log) == services.LOG_WINDOW
    assert [e.undone for e in cached.log][-5:] == [True, True, True, False, False]
    assert (cached.seq, cached.npc_policies) == (loaded.seq, loaded.npc_policies)
    rules = party.encounter.rules()
    assert rules.state_to_dict(cached.state) == rules.state_to_dict(loaded.state)


def test_a_policy_another_process_changed_is_not_hidden_by_the_cached_head() -> None:
    party = make_party()
    pk, bandit = party.encounter.pk, f"c{party.bandit.pk}"
    assert services.load_table(pk).npc_policies == {}
    Encounter.objects.filter(pk=pk).update(npc_policies={bandit: "unik"})  # as another process
    assert services.load_table(pk).npc_policies == {bandit: "unik"}


def test_it_stores_the_whole_state_every_few_entries_and_a_load_folds_the_rest() -> None:
    """The row keeps the state only every HEAD_EVERY entries (and at a change of phase): a
    load in another process (no cached snapshot) folds the entries after it to the head."""
    party = make_party()
    start(party)  # the change of phase stores the state
    pk = party.encounter.pk
    started = Encounter.objects.get(pk=pk)
    assert started.state_seq == started.seq
    for n in range(snapshots.HEAD_EVERY - 1):
        services.run_command(pk, {"type": "gm_roll", "dice": 1 + n % 3}, viewer=party.gm_viewer)
    behind = Encounter.objects.get(pk=pk)
    assert behind.seq == started.seq + snapshots.HEAD_EVERY - 1
    assert (behind.state_seq, behind.state) == (started.seq, started.state)  # not written
    cached = services.load_table(pk).state
    snapshots.clear_cache()
    loaded = services.load_table(pk)
    assert loaded.seq == behind.seq and loaded.state == cached
    assert stored_head(behind) == rules_dict(behind)

    services.run_command(pk, {"type": "gm_roll", "dice": 2}, viewer=party.gm_viewer)
    caught_up = Encounter.objects.get(pk=pk)
    assert caught_up.state_seq == caught_up.seq == started.seq + snapshots.HEAD_EVERY
    assert caught_up.state == rules_dict(caught_up)
