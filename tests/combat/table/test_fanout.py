"""The fan-out message carries the entry (combat/publishing.py): a process that holds the head
before it builds the new head itself, without reading the database (`snapshots.advance`); an
undo, or a process without the head before, loads it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from combat import publishing, services, snapshots
from combat.hub import group_of
from combat.models import EncounterEntry
from combat.rules.registry import get_ruleset
from tests.combat.table.helpers import Party, make_party, start
from tests.combat.table.test_consumer import open_socket, receive, receive_until_seq

Message = dict[str, Any]


@pytest.fixture
def published() -> Iterator[list[tuple[int, Message]]]:
    """Every message the table service publishes after commit, as the wire carries it
    (JSON-like), in place of the channel layer."""
    sent: list[tuple[int, Message]] = []
    previous = publishing.register(lambda pk, m: sent.append((pk, json.loads(json.dumps(m)))))
    yield sent
    publishing.register(previous)


def another_process(*remembered: snapshots.Table) -> None:
    """This process's snapshots as another process holds them: only these."""
    services.clear_cache()
    for table in remembered:
        snapshots.remember(table)


def changed(published: list[tuple[int, Message]], seq: int) -> Message:
    (message,) = [m for _pk, m in published if m["type"] == "table.changed" and m["seq"] == seq]
    return message


def assert_same_table(built: snapshots.Table, loaded: snapshots.Table) -> None:
    rules = get_ruleset(loaded.ruleset)
    assert rules.state_to_dict(built.state) == rules.state_to_dict(loaded.state)
    assert (built.seq, built.log, built.npc_policies) == (
        loaded.seq,
        loaded.log,
        loaded.npc_policies,
    )
    assert (built.name, built.campaign_id, built.ruleset) == (
        loaded.name,
        loaded.campaign_id,
        loaded.ruleset,
    )


@pytest.mark.django_db(transaction=True)  # the messages go out after commit
def test_a_process_holding_the_head_before_builds_the_next_from_the_message_alone(
    published: list[tuple[int, Message]],
) -> None:
    party = make_party()
    start(party)
    pk, hero1 = party.encounter.pk, f"c{party.hero1.pk}"
    before = services.load_table(pk)
    end_turn = {"type": "end_turn", "actor": hero1}
    seq = services.run_command(pk, end_turn, viewer=party.viewer(party.p1)).seq
    assert seq == before.seq + 1
    message = changed(published, seq)

    another_process(before)
    with CaptureQueriesContext(connection) as queries:
        built = snapshots.advance(pk, seq, message["entry"])
        assert services.load_table(pk, seq) is built  # what the push then renders
    assert len(queries) == 0
    assert built is not None and built.view.current != before.view.current  # the turn moved

    services.clear_cache()
    assert_same_table(built, services.load_table(pk))


@pytest.mark.django_db(transaction=True)  # the messages go out after commit
def test_an_undo_or_a_process_without_the_head_before_loads_the_head(
    published: list[tuple[int, Message]],
) -> None:
    party = make_party()
    start(party)
    pk = party.encounter.pk
    roll = {"type": "gm_roll", "dice": 1, "label": "Percepcja"}
    first = services.run_command(pk, roll, viewer=party.gm_viewer).seq
    at_first = services.load_table(pk)
    second = services.run_command(pk, roll, viewer=party.gm_viewer).seq
    at_second = services.load_table(pk)
    undone = services.undo(pk, viewer=party.gm_viewer, to_seq=first).seq

    another_process(at_first)  # the head two entries back: it cannot advance
    assert snapshots.advance(pk, undone, changed(published, undone)["entry"]) is None
    assert snapshots.advance(pk, second + 2, changed(published, second)["entry"]) is None
    another_process(at_second)  # the head before the undo: an undo folds from further back
    assert snapshots.advance(pk, undone, changed(published, undone)["entry"]) is None
    with CaptureQueriesContext(connection) as queries:
        loaded = services.load_table(pk, undone)
    assert len(queries) > 0
    services.clear_cache()
    assert_same_table(loaded, services.load_table(pk))
    assert loaded.log[-1].undo_to == first and loaded.log[-2].undone


class _NotAppended(Exception):  # noqa: N818
    pass


def decided_but_not_appended(party: Party, command: Message) -> Message:
    """The entry the GM's command would append, as the fan-out carries it, with the database
    left as it was (the append rolled back; what the cache took from inside it is dropped)."""
    pk = party.encounter.pk
    try:
        with transaction.atomic():
            seq = services.run_command(pk, command, viewer=party.gm_viewer).seq
            row = EncounterEntry.objects.get(encounter_id=pk, seq=seq)
            entry = publishing.entry_of(row.events, row.command["lines"], None, {})
            raise _NotAppended(seq, json.loads(json.dumps(entry)))
    except _NotAppended as rolled_back:
        services.clear_cache()
        return {"type": "table.changed", "seq": rolled_back.args[0], "entry": rolled_back.args[1]}


@pytest.mark.django_db(transaction=True)
async def test_a_socket_is_pushed_the_head_its_process_built_from_the_message() -> None:
    """The message's entry is all the process reads: this one was never appended, so the
    database would give the head before it."""

    def build() -> tuple[Party, Message]:
        party = make_party()
        start(party)
        roll = {"type": "gm_roll", "dice": 1, "label": "Nasłuchiwanie"}
        message = decided_but_not_appended(party, roll)
        another_process(services.load_table(party.encounter.pk))  # only the head before it
        return party, message

    party, message = await database_sync_to_async(build)()
    gm = await open_socket(party, party.gm)
    first = await receive(gm)
    assert first["seq"] == message["seq"] - 1
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(group_of(party.encounter.pk), message)
    pushed = await receive_until_seq(gm, message["seq"])
    assert "Nasłuchiwanie" in pushed["html"]
    await gm.disconnect()
