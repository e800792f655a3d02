"""The per-process watchdog (combat/watch.py): catches up sockets behind the database and keeps
their group memberships, with fake sockets and the real database and channel layer."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from combat import watch
from combat.models import Encounter
from combat.watch import Watch, _heads
from tests.combat.table.helpers import make_party

pytestmark = [pytest.mark.django_db(transaction=True)]


@dataclass(eq=False)
class Socket:
    seq: int
    group: str
    channel_name: str


def test_the_heads_query_finds_every_table_asked_for_and_no_other() -> None:
    first = make_party().encounter
    copies = [Encounter.objects.get(pk=first.pk) for _ in range(2)]
    for copy in copies:
        copy.pk = None
        copy.save()
    tables = [first, *copies]
    for seq, table in zip((3, 7, 9), tables, strict=True):
        Encounter.objects.filter(pk=table.pk).update(seq=seq)
    asked = [t.pk for t in tables[:2]] + [10**9]  # one that does not exist
    assert _heads(asked) == {tables[0].pk: 3, tables[1].pk: 7}
    assert _heads([]) == {}


async def test_a_socket_behind_is_caught_up_and_a_missing_table_reported() -> None:
    party = await database_sync_to_async(make_party)()
    pk = party.encounter.pk
    await Encounter.objects.filter(pk=pk).aupdate(seq=5)
    tables = {
        pk: {Socket(5, "g", "a"), Socket(3, "g", "b")},
        10**9: {Socket(0, "h", "c")},
    }
    calls: list[tuple[int, int | None]] = []

    async def catch_up(table: int, head: int | None) -> None:
        calls.append((table, head))

    await Watch(tables, catch_up).tick()
    assert sorted(calls) == [(pk, 5), (10**9, None)]
    calls.clear()
    tables[pk] = {Socket(5, "g", "a")}  # everyone current: nothing to do
    del tables[10**9]
    await Watch(tables, catch_up).tick()
    assert calls == []


async def test_sockets_are_rejoined_to_their_groups_before_the_layer_forgets_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    party = await database_sync_to_async(make_party)()
    layer = get_channel_layer()
    assert layer is not None
    name = await layer.new_channel()
    socket = Socket(0, "watch-test", name)
    tables = {party.encounter.pk: {socket}}

    async def catch_up(table: int, head: int | None) -> None:
        return None

    monkeypatch.setattr(watch, "REJOIN_S", 0.0)  # due at once
    await Watch(tables, catch_up).tick()
    await layer.group_send("watch-test", {"type": "table.changed", "seq": 1})
    received = await asyncio.wait_for(layer.receive(name), timeout=5)
    assert received == {"type": "table.changed", "seq": 1}
    await layer.group_discard("watch-test", name)
