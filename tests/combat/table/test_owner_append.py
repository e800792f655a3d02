"""The process that wrote a table's head appends from it without reading the row; the
conditional UPDATE (the row still at that seq, nothing outside the log changed) and the unique
(encounter, seq) are the guard. Correctness never depends on which process appends: two of
them appending to one table still give one gapless log with every command once."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat import publishing, services, snapshots
from combat.models import Encounter, EncounterEntry
from combat.publishing import Message
from tests.combat.table.helpers import Party, make_party, start, stored_head

pytestmark = pytest.mark.django_db(transaction=True)  # the head is remembered after commit


class Process:
    """A server process's memory of tables: its own snapshot cache and the rows it wrote.
    `running` makes it this process's memory (the module's, as another process has its own)."""

    def __init__(self) -> None:
        self.cache: OrderedDict[tuple[int, int], snapshots.Table] = OrderedDict()
        self.rows: dict[int, snapshots.Row] = {}

    @contextmanager
    def running(self) -> Iterator[None]:
        saved = snapshots._cache, snapshots._rows
        snapshots._cache, snapshots._rows = self.cache, self.rows
        try:
            yield
        finally:
            snapshots._cache, snapshots._rows = saved


@pytest.fixture
def published() -> Iterator[list[tuple[int, Message]]]:
    """What the table service publishes, in place of the channel layer: no process hears of
    another's appends, so each decides on the head it wrote until its guard fails."""
    sent: list[tuple[int, Message]] = []
    previous = publishing.register(lambda pk, m: sent.append((pk, m)))
    yield sent
    publishing.register(previous)


def roll(party: Party, command_id: str, process: Process) -> services.Appended:
    with process.running():
        return services.run_command(
            party.encounter.pk,
            {"type": "gm_roll", "dice": 2, "label": command_id},
            viewer=party.gm_viewer,
            command_id=command_id,
        )


def reads_row(queries: CaptureQueriesContext) -> bool:
    """Whether any query read the encounter's row (the locking SELECT, or a load)."""
    return any(
        q["sql"].startswith("SELECT") and 'FROM "combat_encounter"' in q["sql"]
        for q in queries.captured_queries
    )


def assert_one_gapless_log(pk: int, command_ids: list[str]) -> None:
    encounter = Encounter.objects.get(pk=pk)
    entries = list(encounter.entries.order_by("seq"))
    assert [e.seq for e in entries] == list(range(1, encounter.seq + 1))
    sent = [e.command_id for e in entries if e.command_id in command_ids]
    assert sent == command_ids  # each once, in the order they were sent
    replayed = encounter.rules().state_to_dict(services.replay_state(encounter))
    assert stored_head(encounter) == replayed


def test_it_appends_from_the_head_it_wrote_without_reading_the_row(published: Any) -> None:
    party = make_party()
    start(party)
    here = Process()
    first = roll(party, "r1", here)
    with CaptureQueriesContext(connection) as queries:
        second = roll(party, "r2", here)
    assert second.seq == first.seq + 1 and not second.duplicate
    assert not reads_row(queries)
    assert_one_gapless_log(party.encounter.pk, ["r1", "r2"])
    with here.running():
        cached = services.load_table(party.encounter.pk, second.seq)
    services.clear_cache()
    loaded = services.load_table(party.encounter.pk)
    rules = party.encounter.rules()
    assert (cached.seq, cached.log) == (loaded.seq, loaded.log)
    assert rules.state_to_dict(cached.state) == rules.state_to_dict(loaded.state)


def test_two_processes_appending_in_turn_give_one_gapless_log(published: Any) -> None:
    party = make_party()
    start(party)
    a, b = Process(), Process()
    order = [a, a, b, a, b, b, a, a, a, b, a, b]
    ids = [f"r{n}" for n in range(len(order))]
    seqs = [roll(party, n, process).seq for n, process in zip(ids, order, strict=True)]
    assert seqs == list(range(seqs[0], seqs[0] + len(order)))
    assert_one_gapless_log(party.encounter.pk, ids)
    # Each process's head is the table a fresh load reads.
    services.clear_cache()
    loaded = services.load_table(party.encounter.pk)
    rules = party.encounter.rules()
    for process in (a, b):
        with process.running():
            head = services.load_table(party.encounter.pk)
        assert rules.state_to_dict(head.state) == rules.state_to_dict(loaded.state)


def test_an_append_decided_while_another_process_appends_goes_after_it(
    published: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Process A decides on the head it wrote while process B appends to the table: A's
    guard fails, and A decides again on B's head, under the row lock."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite locks the whole database for the append: nothing can cross it")
    party = make_party()
    start(party)
    a, b = Process(), Process()
    roll(party, "a1", a)
    decide = services.EntryRolls.decide
    crossed: list[services.Appended] = []
    crossing = threading.Event()

    def decide_while_b_appends(dice: services.EntryRolls, state: Any, command: Any) -> list[Any]:
        if not crossing.is_set():  # A's first decision (B's own decides pass through)
            crossing.set()
            thread = threading.Thread(target=lambda: crossed.append(b_rolls()))
            thread.start()
            thread.join()
        return decide(dice, state, command)

    def b_rolls() -> services.Appended:
        try:
            return roll(party, "b1", b)
        finally:
            connection.close()

    monkeypatch.setattr(services.EntryRolls, "decide", decide_while_b_appends)
    appended = roll(party, "a2", a)
    assert appended.seq == crossed[0].seq + 1
    assert_one_gapless_log(party.encounter.pk, ["a1", "b1", "a2"])


def test_an_npc_policy_another_process_set_survives_the_next_append(
    published: list[tuple[int, Message]],
) -> None:
    party = make_party()
    start(party)
    a, b = Process(), Process()
    pk, bandit = party.encounter.pk, f"c{party.bandit.pk}"
    roll(party, "a1", a)
    with b.running():
        services.set_npc_policy(pk, viewer=party.gm_viewer, combatant=bandit, policy="unik")
    appended = roll(party, "a2", a)
    assert Encounter.objects.get(pk=pk).npc_policies == {bandit: "unik"}
    with a.running():  # the head A's sockets render, and the entry every process builds on
        assert services.load_table(pk, appended.seq).npc_policies == {bandit: "unik"}
    (entry,) = [m["entry"] for _pk, m in published if m.get("seq") == appended.seq]
    assert entry["npc_policies"] == {bandit: "unik"}


def test_a_reminder_another_process_marked_survives_the_next_append(published: Any) -> None:
    party = make_party()
    start(party)
    here = Process()
    pk = party.encounter.pk
    roll(party, "r1", here)
    Encounter.objects.filter(pk=pk).update(reminded_for=1234.5)  # as another process's sweep
    roll(party, "r2", here)
    assert Encounter.objects.get(pk=pk).reminded_for == 1234.5


def test_a_command_id_sent_again_gets_its_first_entry_back(published: Any) -> None:
    party = make_party()
    start(party)
    a, b = Process(), Process()
    first = roll(party, "r1", a)
    again = roll(party, "r1", a)
    elsewhere = roll(party, "r1", b)
    assert (again.seq, again.duplicate) == (first.seq, True)
    assert (elsewhere.seq, elsewhere.duplicate) == (first.seq, True)
    # One the rules now refuse (its turn has ended), sent again to the process that wrote it.
    end_turn = {"type": "end_turn", "actor": f"c{party.hero1.pk}"}
    with a.running():
        ended = services.run_command(
            party.encounter.pk, end_turn, viewer=party.viewer(party.p1), command_id="e1"
        )
        resent = services.run_command(
            party.encounter.pk, end_turn, viewer=party.viewer(party.p1), command_id="e1"
        )
    assert (resent.seq, resent.duplicate) == (ended.seq, True)
    assert EncounterEntry.objects.filter(command_id__in=["r1", "e1"]).count() == 2
    assert_one_gapless_log(party.encounter.pk, ["r1", "e1"])


@pytest.mark.parametrize("undoer", ["same", "other"])
def test_an_undo_between_appends_holds_and_the_redone_entry_draws_the_same_dice(
    published: Any, undoer: str
) -> None:
    party = make_party()
    start(party)
    a = Process()
    b = a if undoer == "same" else Process()
    pk = party.encounter.pk
    kept = roll(party, "r1", a)
    undone = roll(party, "r2", a)
    with b.running():
        services.undo(pk, viewer=party.gm_viewer, to_seq=kept.seq)
    redone = roll(party, "r3", a)
    assert redone.seq == undone.seq + 2
    slots = dict(EncounterEntry.objects.filter(encounter_id=pk).values_list("seq", "slot"))
    assert slots[redone.seq] == slots[undone.seq] is not None
    assert_one_gapless_log(pk, ["r1", "r2", "r3"])
    with a.running():
        head = services.load_table(pk)
    assert [e.undone for e in head.log[-3:]] == [True, False, False]


def test_an_entry_whose_events_the_table_cannot_read_is_not_folded_onto_its_head() -> None:
    """A fan-out message whose events are not this table's ruleset's (another table's, on a
    shared channel layer) leaves the head to a load from the database: no exception."""
    party = make_party()
    start(party)
    head = snapshots.load_table(party.encounter.pk)
    entry = {"events": [{"type": "placed", "seat": "c1"}], "lines": [], "undo_to": None}
    assert snapshots.advance(party.encounter.pk, head.seq + 1, entry) is None
